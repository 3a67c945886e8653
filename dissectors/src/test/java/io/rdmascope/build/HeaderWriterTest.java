package io.rdmascope.build;

import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.InfiniBandDissector;
import io.rdmascope.proto.ip.Ip;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;

import static io.rdmascope.build.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderWriterTest {

    @Test
    @DisplayName("bit fields sharing a byte are written without disturbing each other, in any order")
    void bitFieldsShareBytes() {
        byte[] bth = new byte[12];
        HeaderWriter.write(bth, 0, InfiniBand.BTH_TVER, 0xF);
        HeaderWriter.write(bth, 0, InfiniBand.BTH_PADCNT, 2);
        HeaderWriter.write(bth, 0, InfiniBand.BTH_SE, 1);
        HeaderWriter.write(bth, 0, InfiniBand.BTH_M, 0);
        assertEquals(0xAF, bth[1] & 0xFF);
        HeaderWriter.write(bth, 0, InfiniBand.BTH_PADCNT, 1);
        assertEquals(0x9F, bth[1] & 0xFF);
    }

    @Test
    @DisplayName("fields are written at their declared offset relative to the header's start")
    void writesAtHeaderOffset() {
        byte[] frame = new byte[40];
        HeaderWriter.write(frame, 20, InfiniBand.BTH_PSN, 0xABCDEF);
        HeaderWriter.write(frame, 20, InfiniBand.BTH_DESTQP, 0x123456);
        assertEquals("123456" + "00" + "abcdef", hex(java.util.Arrays.copyOfRange(frame, 25, 32)));
        assertEquals(0xABCDEF, InfiniBand.BTH_PSN.read(ByteBuffer.wrap(frame), 20));
    }

    @Test
    @DisplayName("a little-endian field is written least significant byte first")
    void littleEndianField() {
        byte[] erf = new byte[16];
        HeaderWriter.write(erf, 0, Erf.TS, 0x0102030405060708L);
        assertEquals("0807060504030201", hex(java.util.Arrays.copyOfRange(erf, 0, 8)));
        assertEquals(0x0102030405060708L, Erf.TS.read(ByteBuffer.wrap(erf), 0));
    }

    @Test
    @DisplayName("masked fields spanning several bytes (GRH traffic class and flow label) are placed bit-exactly")
    void multiByteMasks() {
        byte[] grh = new byte[40];
        HeaderWriter.write(grh, 0, InfiniBand.GRH_IPVER, 6);
        HeaderWriter.write(grh, 0, InfiniBand.GRH_TCLASS, 0xAB);
        HeaderWriter.write(grh, 0, InfiniBand.GRH_FLOWLABEL, 0xCDEF1);
        assertEquals("6abcdef1", hex(java.util.Arrays.copyOfRange(grh, 0, 4)));
    }

    @Test
    @DisplayName("MAC, IPv4 and IPv6 fields take byte arrays in wire order; IPv4 and MAC also take numbers")
    void addressFields() {
        byte[] ip = new byte[20];
        HeaderWriter.writeBytes(ip, 0, Ip.V4_SRC, Addresses.ipv4("10.0.17.1"));
        HeaderWriter.write(ip, 0, Ip.V4_DST, 0x0A001201L);
        assertEquals("0a0011010a001201", hex(java.util.Arrays.copyOfRange(ip, 12, 20)));
        byte[] eth = new byte[14];
        HeaderWriter.write(eth, 0, Ethernet.DST, 0xE41D2DAB2BC2L);
        HeaderWriter.writeBytes(eth, 0, Ethernet.SRC, Addresses.mac("7c:fe:90:64:3b:32"));
        assertEquals("e41d2dab2bc27cfe90643b32", hex(java.util.Arrays.copyOfRange(eth, 0, 12)));
    }

    @Test
    @DisplayName("a value wider than its field is refused instead of spilling into the next one")
    void refusesOverflow() {
        byte[] bth = new byte[12];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HeaderWriter.write(bth, 0, InfiniBand.BTH_PADCNT, 4));
        assertTrue(e.getMessage().contains("infiniband.bth.padcnt"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.write(bth, 0, InfiniBand.BTH_PSN, 1 << 24));
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.write(bth, 0, InfiniBand.BTH_P_KEY, -1));
    }

    @Test
    @DisplayName("computed fields, either-place fields and misplaced byte values are refused")
    void refusesWhatHasNoSinglePlace() {
        byte[] b = new byte[64];
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.write(b, 0, InfiniBand.ICRC_STATUS, 1));
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.write(b, 0, Ip.V4_ADDR, 1));
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.writeBytes(b, 0, Ip.V6_SRC, new byte[4]));
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.writeBytes(b, 0, InfiniBand.BTH_SE, new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> HeaderWriter.write(b, 60, InfiniBand.RETH_VA, 1));
    }

    @Test
    @DisplayName("every field of every InfiniBand header reads back, through its own declaration, what was written")
    void everyIbFieldReadsBack() {
        Random rng = new Random(7);
        for (HeaderType t : InfiniBand.HEADERS) {
            if (t == InfiniBand.VENDOR || t == InfiniBand.PAD || t == InfiniBand.ICRC_HEADER
                    || t == InfiniBand.VCRC_HEADER) {
                continue;
            }
            int size = InfiniBandDissector.sizeOf(t);
            for (int round = 0; round < 20; round++) {
                ExpectedHeader expected = ExpectedHeader.random(t, size, rng, Map.of());
                Header h = new Header(t, size);
                expected.randomized.forEach((f, v) -> {
                    if (v instanceof byte[] bytes) {
                        h.set(f, bytes);
                    } else {
                        h.set(f, (Long) v);
                    }
                });
                byte[] written = h.toBytes();
                assertEquals(hex(expected.image), hex(written), t.abbrev());
                for (Field f : t.fields()) {
                    if (HeaderWriter.isNumeric(f)) {
                        assertEquals(expected.expected(f), f.read(ByteBuffer.wrap(written), 0), f.abbrev());
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("a header refuses fields of other headers and fields that would not fit it")
    void headerChecksOwnership() {
        Header reth = new Header(InfiniBand.RETH, 16);
        assertThrows(IllegalArgumentException.class, () -> reth.set(InfiniBand.AETH_MSN, 1));
        assertThrows(IllegalArgumentException.class, () -> new Header(InfiniBand.RETH, 8).set(InfiniBand.RETH_DMALEN, 1));
        assertEquals("0000000000001000" + "00001234" + "00000bb8",
                hex(reth.set(InfiniBand.RETH_VA, 0x1000).set(InfiniBand.RETH_R_KEY, 0x1234)
                        .set(InfiniBand.RETH_DMALEN, 3000).toBytes()));
    }

    @Test
    @DisplayName("of two overlapping assignments the later one wins, even when the field was assigned before")
    void laterAssignmentWins() {
        Header ip = new Header(Ip.IPV4, 20)
                .set(Ip.V4_ECN, 3)
                .set(Ip.V4_DSFIELD, 0xC0)
                .set(Ip.V4_ECN, 1);
        assertEquals(0xC1, ip.toBytes()[1] & 0xFF);
    }
}
