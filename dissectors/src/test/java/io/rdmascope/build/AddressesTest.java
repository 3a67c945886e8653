package io.rdmascope.build;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static io.rdmascope.build.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AddressesTest {

    @Test
    @DisplayName("MAC and IPv4 literals become their wire bytes")
    void macAndIpv4() {
        assertEquals("7cfe90753cd8", hex(Addresses.mac("7c:fe:90:75:3c:d8")));
        assertEquals("7cfe90753cd8", hex(Addresses.mac("7C-FE-90-75-3C-D8")));
        assertEquals("0a001101", hex(Addresses.ipv4("10.0.17.1")));
    }

    @Test
    @DisplayName("IPv6 literals and GIDs keep all 16 bytes, an IPv4-mapped tail included")
    void ipv6AndGids() {
        assertEquals("00000000000000000000ffff0f000002", hex(Addresses.ipv6("::ffff:15.0.0.2")));
        assertEquals("00000000000000000000ffff0f000002", hex(Addresses.ipv4MappedGid(Addresses.ipv4("15.0.0.2"))));
        assertEquals("fe800000000000000002c90300012345", hex(Addresses.ipv6("fe80::2:c903:1:2345")));
        assertEquals("00000000000000000000000000000000", hex(Addresses.ipv6("::")));
        assertEquals("00010002000300040005000600070008", hex(Addresses.ipv6("1:2:3:4:5:6:7:8")));
        assertEquals("20220000000000000000000000001023", hex(Addresses.ipv6("2022::1023")));
    }

    @Test
    @DisplayName("malformed literals are refused rather than guessed at")
    void refusesMalformed() {
        assertThrows(IllegalArgumentException.class, () -> Addresses.mac("7c:fe:90:75:3c"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.mac("7c:fe:90:75:3c:zz"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.ipv4("10.0.0.256"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.ipv4("10.0.0"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.ipv6("1::2::3"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.ipv6("1:2:3:4:5:6:7"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.ipv6("12345::"));
        assertThrows(IllegalArgumentException.class, () -> Addresses.ipv6("example.com"));
    }
}
