package io.rdmascope.proto.ib;

import io.rdmascope.build.Frames;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static io.rdmascope.proto.ib.InfiniBand.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mellanox DC against IBTA RD (issue 16, docs/dc.md): the same RD-range transport bytes, written by
 * hand in the layout a ConnectX NIC sends, decode as DC over RoCEv2 and on native InfiniBand, where
 * an RD packet (zero in the RDETH's reserved first octet) still decodes as RD.
 */
class DcDecodingTest {

    /** BTH (WRITE Only 0x4A to DCT 0x807ff4), DCETH, RDETH, DETH, RETH (8 bytes), 8 bytes of data. */
    private static final String DC_WRITE_ONLY = """
            4a40ffff 00807ff4 80a9454e
            11009035 00715004
            0061e97d
            0000c0de 00000000
            00007f69f0384000 0005382a 00000008
            0102030405060708
            00000000""";

    private static Dissection roceV2(String transport, int transportLength) {
        String udpLength = String.format("%04x", 8 + transportLength);
        String ipLength = String.format("%04x", 28 + transportLength);
        return Frames.dissect(Frames.hex("e8ebd358a0bc 00b77fea919e 0800"
                + " 4500" + ipLength + " 00014000 ff110000 0a1674dc 0a1674de"
                + " 12b712b7" + udpLength + "0000 " + transport), LinkTypes.ETHERNET);
    }

    private static long value(Dissection d, HeaderType type, Field field) {
        int layer = d.find(type);
        assertTrue(layer >= 0, type + " missing");
        assertTrue(field.isPresent(d, layer), field + " should be present");
        return field.read(d.buffer(), d.layerAt(layer));
    }

    @Test
    @DisplayName("over RoCEv2 an RD-range WRITE Only is DC: DCETH after the BTH, RETH DMA length = payload")
    void dcOverRoce() {
        assertDcWriteOnly(roceV2(DC_WRITE_ONLY, 60));
    }

    /** {@link #DC_WRITE_ONLY} read as DC, whatever carried it. */
    private static void assertDcWriteOnly(Dissection d) {
        assertFalse(d.isMalformed());
        assertEquals(0x11, value(d, DCETH, DCETH_FLAGS));
        assertEquals(0x009035, value(d, DCETH, DCETH_SRCQP));
        assertEquals(0x00715004L, value(d, DCETH, DCETH_ID));
        assertEquals(0x807ff4, DCETH_DCTN.computation().value(d, d.find(DCETH)), "a request's DCT: BTH DestQP");
        assertEquals(0x61e97d, value(d, RDETH, RDETH_EECNXT));
        assertEquals(0xc0de, value(d, DETH, DETH_Q_KEY));
        assertEquals(8, value(d, RETH, RETH_DMALEN));
        assertEquals(8, d.rdma().payloadLength);
    }

    @Test
    @DisplayName("on native InfiniBand the same opcode stays IBTA RD: RDETH right after the BTH")
    void rdOnNativeIb() {
        // LRH: VL 0, LNH 2 (BTH), packet length (8 + 52 bytes of RD headers and data) / 4 = 15 words.
        Dissection d = Frames.dissect(Frames.hex("""
                0002 0001 000f 0002
                4a40ffff 00000011 80000001
                00000044
                11111111 00000022
                00007f1234567000 a1b2c3d4 00000004
                01020304
                00000000 0000"""), LinkTypes.INFINIBAND);
        assertFalse(d.isMalformed());
        assertTrue(d.find(DCETH) < 0);
        assertEquals(0x44, value(d, RDETH, RDETH_EECNXT));
        assertEquals(0x11111111L, value(d, DETH, DETH_Q_KEY));
        assertEquals(4, value(d, RETH, RETH_DMALEN));
    }

    @Test
    @DisplayName("on native InfiniBand the ConnectX layout (non-zero DCETH flags after the BTH) is DC too")
    void dcOnNativeIb() {
        // LRH: VL 0, LNH 2 (BTH), packet length (8 + the 60 transport bytes) / 4 = 17 words; VCRC last.
        assertDcWriteOnly(Frames.dissect(Frames.hex("0002 0001 0011 0002 " + DC_WRITE_ONLY + " 0000"),
                LinkTypes.INFINIBAND));
    }

    @Test
    @DisplayName("the builder writes DC on native IB only when asked, and only with flags that say DC")
    void builderWritesDcOnNativeIbWhenAsked() {
        RocePacket rd = RocePacket.nativeIb(1, 2).opcode(0x4A).destQp(0x22).payload(new byte[8])
                .set(RDETH_EECNXT, 0x44).set(RETH_DMALEN, 8);
        Dissection asRd = Frames.dissect(rd.build(), LinkTypes.INFINIBAND);
        assertTrue(asRd.find(DCETH) < 0, "without dynamicallyConnected() an RD opcode is RD");
        assertEquals(0x44, value(asRd, RDETH, RDETH_EECNXT));

        RocePacket dc = RocePacket.nativeIb(1, 2).dynamicallyConnected().opcode(0x4A).destQp(0x807ff4)
                .set(DCETH_FLAGS, 0x11).set(DCETH_SRCQP, 0x9035).set(RDETH_EECNXT, 0x61e97d)
                .set(RETH_DMALEN, 8).payload(new byte[8]);
        Dissection asDc = Frames.dissect(dc.build(), LinkTypes.INFINIBAND);
        assertFalse(asDc.isMalformed());
        assertEquals(0x9035, value(asDc, DCETH, DCETH_SRCQP));
        assertEquals(8, value(asDc, RETH, RETH_DMALEN));

        RocePacket unflagged = RocePacket.nativeIb(1, 2).dynamicallyConnected().opcode(0x4A);
        IllegalStateException e = assertThrows(IllegalStateException.class, unflagged::build);
        assertTrue(e.getMessage().contains("infiniband.dceth.flags"), e.getMessage());
    }

    @Test
    @DisplayName("a DC connect (RESYNC, SE clear) carries the 64-bit DC access key; a DC ACK has RDETH, DETH, AETH")
    void dcConnectAndAck() {
        Dissection connect = roceV2("""
                5540ffff 00ffffff 80a9454d
                11009035 00715004
                00ffffff
                0000c0de 00000000
                20000000 00000000 00000000ffeeddcc
                00000000""", 52);
        assertFalse(connect.isMalformed());
        assertEquals(0xffeeddccL, value(connect, DCCETH, DCCETH_ACCESS_KEY));
        assertFalse(DCETH_DCTN.isPresent(connect, connect.find(DCETH)), "a connect names no DCT in its BTH");

        Dissection ack = roceV2("""
                5140ffff 00009035 00a9454e
                10807ff4 00715004
                0061e97d
                0000c0de 00000000
                1f000000
                00000000""", 40);
        assertFalse(ack.isMalformed());
        assertEquals(0x807ff4, DCETH_DCTN.computation().value(ack, ack.find(DCETH)), "a response's DCT: DCETH");
        assertEquals(0x1f, value(ack, AETH, AETH_SYNDROME));
        assertEquals(Service.DC, Opcodes.dc(0x51, true).service());
    }
}
