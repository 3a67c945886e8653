package io.rdmascope.filter;

import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Literal forms as tshark 4.0.17 reads them (each checked with tshark -Y). */
class LiteralsTest {
    @Test
    void integersInEveryBase() {
        assertEquals(10, Literals.integer("10"));
        assertEquals(31, Literals.integer("0x1f"));
        assertEquals(31, Literals.integer("0X1F"));
        assertEquals(5, Literals.integer("0b101"));
        assertEquals(8, Literals.integer("010"), "a leading 0 is octal, as in tshark (opcode == 010 is 8)");
        assertEquals(0, Literals.integer("0"));
        assertEquals(-1L, Literals.integer("18446744073709551615"), "2^64-1, as unsigned bits");
        assertEquals("is not a number (a leading 0 makes it octal)",
                assertThrows(IllegalArgumentException.class, () -> Literals.integer("08")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Literals.integer("1.5"));
        assertThrows(IllegalArgumentException.class, () -> Literals.integer("0x"));
        assertThrows(IllegalArgumentException.class, () -> Literals.integer("0b2"));
        assertEquals("is too big for any field (more than 64 bits)", assertThrows(IllegalArgumentException.class,
                () -> Literals.integer("18446744073709551616")).getMessage());
    }

    @Test
    void ipv4AddressesAndNetworks() {
        assertArrayEquals(new long[]{0x0a000001L, 32}, Literals.ipv4("10.0.0.1"));
        assertArrayEquals(new long[]{0x0a000000L, 24}, Literals.ipv4("10.0.0.0/24"));
        assertArrayEquals(new long[]{0xffffffffL, 0}, Literals.ipv4("255.255.255.255/0"));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv4("10.0.0"));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv4("167772161"), "no integer form");
        assertEquals("is not an IPv4 address (256 is more than 255)",
                assertThrows(IllegalArgumentException.class, () -> Literals.ipv4("256.0.0.1")).getMessage());
        assertEquals("has a prefix of 33 bits, more than 32",
                assertThrows(IllegalArgumentException.class, () -> Literals.ipv4("10.0.0.0/33")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv4("10.0.0.0/"));
    }

    @Test
    void ipv6AddressesAndNetworks() {
        int[] prefix = new int[1];
        assertArrayEquals(bytes("fd000000000000000000000000000001"), Literals.ipv6("fd00::1", prefix));
        assertEquals(128, prefix[0]);
        assertArrayEquals(bytes("fd000000000000000000000000000001"), Literals.ipv6("FD00:0:0:0:0:0:0:1", prefix));
        assertArrayEquals(new byte[16], Literals.ipv6("::", prefix));
        assertArrayEquals(bytes("00000000000000000000ffff0a000006"), Literals.ipv6("::ffff:10.0.0.6", prefix));
        assertArrayEquals(bytes("fe800000000000000000000000000000"), Literals.ipv6("fe80::/10", prefix));
        assertEquals(10, prefix[0]);
        assertArrayEquals(bytes("00010002000300040005000600070008"), Literals.ipv6("1:2:3:4:5:6:7:8", prefix));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv6("fd00::1::2", prefix));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv6("1:2:3", prefix));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv6("12345::", prefix));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv6("1:2:3:4:5:6:7:8:9", prefix));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv6("::/129", prefix));
        assertThrows(IllegalArgumentException.class, () -> Literals.ipv6("10.0.0.6", prefix));
    }

    @Test
    void byteStringsInTsharksForms() {
        assertArrayEquals(bytes("021e67"), Literals.bytes("02:1e:67"));
        assertArrayEquals(bytes("021e67"), Literals.bytes("02-1e-67"));
        assertArrayEquals(bytes("021e67000001"), Literals.bytes("021e.6700.0001"));
        assertArrayEquals(bytes("021e67"), Literals.bytes("021e67"));
        assertArrayEquals(bytes("021e67"), Literals.bytes("02.1e67"));
        assertArrayEquals(bytes("0a"), Literals.bytes("a"), "one digit is one byte");
        assertArrayEquals(bytes("210e"), Literals.bytes("21e"), "pairs from the left, an odd last digit alone");
        assertArrayEquals(bytes("a000"), Literals.bytes("a00"));
        assertArrayEquals(bytes("0a00"), Literals.bytes("a.00"));
        assertArrayEquals(bytes("0a00"), Literals.bytes("0a-0"));
        assertArrayEquals(bytes("1e"), Literals.bytes("0x1e"), "0x introduces exactly one byte");
        assertThrows(IllegalArgumentException.class, () -> Literals.bytes("0x2"));
        assertThrows(IllegalArgumentException.class, () -> Literals.bytes("0x021e"));
        assertThrows(IllegalArgumentException.class, () -> Literals.bytes("2:1e"), "with ':' bytes have two digits");
        assertThrows(IllegalArgumentException.class, () -> Literals.bytes("02::1e"));
        assertThrows(IllegalArgumentException.class, () -> Literals.bytes("02-1e:67"), "one kind of separator");
        assertThrows(IllegalArgumentException.class, () -> Literals.bytes("zz"));
    }

    @Test
    void secondsWithUpToNineDecimals() {
        assertEquals(2_000_000_000L, Literals.seconds("2"));
        assertEquals(20_000L, Literals.seconds("0.000020"));
        assertEquals(-1_000_000_000L, Literals.seconds("-1"));
        assertEquals(1_700_000_000_500_000_000L, Literals.seconds("1700000000.5"));
        assertEquals(1L, Literals.seconds("0.000000001"));
        assertThrows(IllegalArgumentException.class, () -> Literals.seconds("1e-5"));
        assertThrows(IllegalArgumentException.class, () -> Literals.seconds("0x1"));
        assertThrows(IllegalArgumentException.class, () -> Literals.seconds("1."));
        assertThrows(IllegalArgumentException.class, () -> Literals.seconds("0.0000000001"));
    }

    @Test
    void absoluteTimesInWiresharksAndIsoForms() {
        ZoneId utc = ZoneOffset.UTC;
        long newYear = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z
        assertEquals(newYear, Literals.absoluteTime("2026-01-01 00:00:00", utc));
        assertEquals(newYear, Literals.absoluteTime("2026-01-01T00:00:00Z", ZoneId.of("Asia/Tokyo")));
        assertEquals(newYear + 270, Literals.absoluteTime("Jan  1, 2026 00:00:00.000000270 UTC", ZoneId.of("UTC")));
        assertEquals(newYear + 500_000_000L, Literals.absoluteTime("Jan 1, 2026 00:00:00.5", utc));
        assertEquals(newYear - 9 * 3_600_000_000_000L, Literals.absoluteTime("2026-01-01 00:00:00",
                ZoneId.of("Asia/Tokyo")), "local time without a zone");
        assertEquals(newYear, Literals.absoluteTime("2026-01-01", utc));
        assertThrows(IllegalArgumentException.class, () -> Literals.absoluteTime("1700000000", utc));
        assertThrows(IllegalArgumentException.class, () -> Literals.absoluteTime("Foo 1, 2026 00:00:00", utc));
        assertThrows(IllegalArgumentException.class, () -> Literals.absoluteTime("2026-02-30 00:00:00", utc));
    }

    private static byte[] bytes(String hex) {
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
