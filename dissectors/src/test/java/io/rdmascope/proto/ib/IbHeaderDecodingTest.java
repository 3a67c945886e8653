package io.rdmascope.proto.ib;

import io.rdmascope.build.Addresses;
import io.rdmascope.build.Frames;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.rdmascope.proto.ib.InfiniBand.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each InfiniBand header decoded from bytes written by hand, with the values worked out by hand from
 * wire-formats.md sections 2–4: no builder involved, so a declaration with a wrong offset or mask
 * cannot hide behind an encoder that shares its mistake. Most frames are native IB (LRH, BTH,
 * extension headers, a zero ICRC and VCRC that nothing here checks); the CNP and the RoCEv1 GRH come
 * from hardware captures.
 */
class IbHeaderDecodingTest {

    /** Dissects a hand-written native IB packet and checks its headers are whole. */
    private static Dissection nativeIb(String hex) {
        Dissection d = Frames.dissect(Frames.hex(hex), LinkTypes.INFINIBAND);
        assertFalse(d.isMalformed(), Frames.layerNames(d));
        return d;
    }

    private static long value(Dissection d, HeaderType type, Field field) {
        int layer = d.find(type);
        assertTrue(layer >= 0, type + " missing from " + Frames.layerNames(d));
        assertTrue(field.isPresent(d, layer), field + " should be present");
        return field.read(d.buffer(), d.layerAt(layer));
    }

    private static boolean present(Dissection d, HeaderType type, Field field) {
        return field.isPresent(d, d.find(type));
    }

    @Test
    @DisplayName("LRH and BTH: every field of a hand-written SEND Only with a 2-byte payload and 2 pad bytes")
    void lrhAndBth() {
        Dissection d = nativeIb("""
                b2a2 1234 0007 5678
                04e0 8001 95 abcdef 85 012345
                cafe 0000
                00000000 0000""");
        assertEquals(0xB, value(d, LRH, LRH_VL));
        assertEquals(2, value(d, LRH, LRH_LVER));
        assertEquals(0xA, value(d, LRH, LRH_SL));
        assertEquals(0, value(d, LRH, LRH_RESERVED2));
        assertEquals(2, value(d, LRH, LRH_LNH));
        assertEquals(0x1234, value(d, LRH, LRH_DLID));
        assertEquals(0, value(d, LRH, LRH_RESERVED5));
        assertEquals(7, value(d, LRH, LRH_PKTLEN));
        assertEquals(0x5678, value(d, LRH, LRH_SLID));

        assertEquals(0x04, value(d, BTH, BTH_OPCODE));
        assertEquals(1, value(d, BTH, BTH_SE));
        assertEquals(1, value(d, BTH, BTH_M));
        assertEquals(2, value(d, BTH, BTH_PADCNT));
        assertEquals(0, value(d, BTH, BTH_TVER));
        assertEquals(0x8001, value(d, BTH, BTH_P_KEY));
        assertEquals(1, value(d, BTH, BTH_FECN));
        assertEquals(0, value(d, BTH, BTH_BECN));
        assertEquals(0x15, value(d, BTH, BTH_RESERVED6));
        assertEquals(0xABCDEF, value(d, BTH, BTH_DESTQP));
        assertEquals(1, value(d, BTH, BTH_A));
        assertEquals(5, value(d, BTH, BTH_RESERVED7));
        assertEquals(0x012345, value(d, BTH, BTH_PSN));

        assertEquals(2, d.rdma().payloadLength);
        assertEquals(2, d.rdma().padCount);
        assertEquals(List.of(LRH, BTH), Frames.layerTypes(d).subList(1, 3));
        assertTrue(d.find(PAD) > 0 && d.find(ICRC_HEADER) > d.find(PAD) && d.find(VCRC_HEADER) > d.find(ICRC_HEADER));
    }

    @Test
    @DisplayName("RETH: virtual address, R_Key and DMA length of an RDMA WRITE Only")
    void reth() {
        Dissection d = nativeIb("""
                0002 0001 000a 0002
                0a00 ffff 00 000011 00 000001
                00007f1234567000 a1b2c3d4 00010000
                00000000 0000""");
        assertEquals(0x00007F1234567000L, value(d, RETH, RETH_VA));
        assertEquals(0xA1B2C3D4L, value(d, RETH, RETH_R_KEY));
        assertEquals(65536, value(d, RETH, RETH_DMALEN));
        assertEquals(0, d.rdma().payloadLength);
    }

    @Test
    @DisplayName("AETH ACK: syndrome 0x1F is an ACK with credit code 31 (no credit information) and the MSN")
    void aethAck() {
        Dissection d = nativeIb("0002 0001 0007 0002  1100 ffff 00 000011 00 000001  1f 000102  00000000 0000");
        assertEquals(0x1F, value(d, AETH, AETH_SYNDROME));
        assertEquals(0, value(d, AETH, AETH_SYNDROME_RESERVED));
        assertEquals(AETH_ACK, value(d, AETH, AETH_SYNDROME_OPCODE));
        assertEquals(0x1F, value(d, AETH, AETH_CREDIT_COUNT));
        assertFalse(present(d, AETH, AETH_TIMER));
        assertFalse(present(d, AETH, AETH_RESERVED_VALUE));
        assertFalse(present(d, AETH, AETH_ERROR_CODE));
        assertEquals(0x000102, value(d, AETH, AETH_MSN));
    }

    @Test
    @DisplayName("AETH RNR NAK: syndrome 0x3A carries RNR timer code 26 (81.92 ms) and no credit count")
    void aethRnrNak() {
        Dissection d = nativeIb("0002 0001 0007 0002  1100 ffff 00 000011 00 000001  3a 00ffff  00000000 0000");
        assertEquals(AETH_RNR_NAK, value(d, AETH, AETH_SYNDROME_OPCODE));
        assertEquals(26, value(d, AETH, AETH_TIMER));
        assertFalse(present(d, AETH, AETH_CREDIT_COUNT));
        assertFalse(present(d, AETH, AETH_ERROR_CODE));
        assertEquals(0x00FFFF, value(d, AETH, AETH_MSN));
    }

    @Test
    @DisplayName("AETH NAK: syndrome 0x63 is a Remote Operational Error; kind 2 shows only its reserved value")
    void aethNak() {
        Dissection nak = nativeIb("0002 0001 0007 0002  1100 ffff 00 000011 00 000001  63 123456  00000000 0000");
        assertEquals(AETH_NAK, value(nak, AETH, AETH_SYNDROME_OPCODE));
        assertEquals(3, value(nak, AETH, AETH_ERROR_CODE));
        assertFalse(present(nak, AETH, AETH_CREDIT_COUNT));
        assertFalse(present(nak, AETH, AETH_TIMER));
        assertEquals(0x123456, value(nak, AETH, AETH_MSN));

        Dissection reserved = nativeIb("0002 0001 0007 0002  1100 ffff 00 000011 00 000001  c5 000000  00000000 0000");
        assertEquals(1, value(reserved, AETH, AETH_SYNDROME_RESERVED));
        assertEquals(AETH_RESERVED, value(reserved, AETH, AETH_SYNDROME_OPCODE));
        assertEquals(5, value(reserved, AETH, AETH_RESERVED_VALUE));
        assertFalse(present(reserved, AETH, AETH_ERROR_CODE));
    }

    @Test
    @DisplayName("AtomicETH: address, R_Key, swap and compare data of a CmpSwap")
    void atomicEth() {
        Dissection d = nativeIb("""
                0002 0001 000d 0002
                1300 ffff 00 000011 80 000001
                0000000012340000 00abcdef 1111222233334444 5555666677778888
                00000000 0000""");
        assertEquals(0x12340000L, value(d, ATOMICETH, ATOMICETH_VA));
        assertEquals(0x00ABCDEFL, value(d, ATOMICETH, ATOMICETH_R_KEY));
        assertEquals(0x1111222233334444L, value(d, ATOMICETH, ATOMICETH_SWAPDT));
        assertEquals(0x5555666677778888L, value(d, ATOMICETH, ATOMICETH_CMPDT));
    }

    @Test
    @DisplayName("AtomicAckETH: the original remote data follows the AETH of an ATOMIC Acknowledge")
    void atomicAckEth() {
        Dissection d = nativeIb("""
                0002 0001 0009 0002
                1200 ffff 00 000011 00 000001
                00 000007 fedcba9876543210
                00000000 0000""");
        assertEquals(7, value(d, AETH, AETH_MSN));
        assertEquals(0xFEDCBA9876543210L, value(d, ATOMICACKETH, ATOMICACKETH_ORIGREMDT));
    }

    @Test
    @DisplayName("DETH: Q_Key and source QP of a UD SEND Only; the reserved byte between them is skipped")
    void deth() {
        Dissection d = nativeIb("""
                0002 0001 0009 0002
                6400 ffff 00 000042 00 000001
                80010000 ff 000123
                01020304
                00000000 0000""");
        assertEquals(0x80010000L, value(d, DETH, DETH_Q_KEY));
        assertEquals(0x000123, value(d, DETH, DETH_SRCQP));
        assertEquals(4, d.rdma().payloadLength);
    }

    @Test
    @DisplayName("ImmDt and IETH: the 32-bit immediate value and the R_Key to invalidate")
    void immDtAndIeth() {
        Dissection imm = nativeIb("0002 0001 0007 0002  0500 ffff 00 000011 00 000001  deadbeef  00000000 0000");
        assertEquals(0xDEADBEEFL, value(imm, IMMDT, IMMDT_VALUE));
        Dissection inv = nativeIb("0002 0001 0007 0002  1700 ffff 00 000011 00 000001  0badf00d  00000000 0000");
        assertEquals(0x0BADF00DL, value(inv, IETH, IETH_R_KEY));
    }

    @Test
    @DisplayName("XRCETH: an XRC request names its SRQ right after the BTH; an XRC response carries none")
    void xrcEth() {
        Dissection request = nativeIb("""
                0002 0001 0008 0002
                a400 ffff 00 000011 00 000001
                ff 00beef
                aabbccdd
                00000000 0000""");
        assertEquals(0x00BEEF, value(request, XRCETH, XRCETH_XRCSRQ));
        assertEquals(4, request.rdma().payloadLength);

        Dissection ack = nativeIb("0002 0001 0007 0002  b100 ffff 00 000011 00 000001  00 000009  00000000 0000");
        assertEquals(-1, ack.find(XRCETH));
        assertEquals(9, value(ack, AETH, AETH_MSN));
    }

    @Test
    @DisplayName("FETH: selectivity level and placement type of a FLUSH, then its RETH")
    void feth() {
        Dissection d = nativeIb("""
                0002 0001 000b 0002
                1c00 ffff 00 000011 80 000001
                ffffff12
                0000000000001000 00000055 00000040
                00000000 0000""");
        assertEquals(1, value(d, FETH, FETH_SEL));
        assertEquals(2, value(d, FETH, FETH_PLT));
        assertEquals(0x1000, value(d, RETH, RETH_VA));
        assertEquals(0x55, value(d, RETH, RETH_R_KEY));
        assertEquals(0x40, value(d, RETH, RETH_DMALEN));
        assertTrue(d.find(FETH) < d.find(RETH));
    }

    @Test
    @DisplayName("CNP: a ConnectX-4 Lx CNP has BECN set, its QP, and 16 reserved zero bytes")
    void cnp() {
        Dissection d = Frames.dissect(Frames.hex("""
                e41d2dab2bc27cfe90643b320800 45c2003c718c4000401191610a0011010a001201 000012b700280000
                8100ffff4000011800000000 00000000000000000000000000000000 82fd002a"""), LinkTypes.ETHERNET);
        assertFalse(d.isMalformed());
        assertEquals(0x81, value(d, BTH, BTH_OPCODE));
        assertEquals(1, value(d, BTH, BTH_BECN));
        assertEquals(0, value(d, BTH, BTH_FECN));
        assertEquals(0x118, value(d, BTH, BTH_DESTQP));
        int layer = d.find(CNP);
        assertEquals(16, d.layerLength(layer));
        byte[] reserved = new byte[16];
        d.buffer().get(d.layerAt(layer) + CNP_RESERVED.offset(), reserved);
        assertArrayEquals(new byte[16], reserved);
        assertEquals(0, d.rdma().payloadLength);
    }

    @Test
    @DisplayName("GRH: every field of a hardware RoCEv1 GRH and of a hand-written native one")
    void grh() {
        Dissection v1 = Frames.dissect(Frames.hex("""
                7cfe90753cd87cfe90753cd88915 6020000000141b40 00000000000000000000ffff0f000002
                00000000000000000000ffff0f000002 1140ffff0000010900a788c0 00000005 25f0c038"""), LinkTypes.ETHERNET);
        assertEquals(6, value(v1, GRH, GRH_IPVER));
        assertEquals(2, value(v1, GRH, GRH_TCLASS));
        assertEquals(0, value(v1, GRH, GRH_FLOWLABEL));
        assertEquals(20, value(v1, GRH, GRH_PAYLEN));
        assertEquals(0x1B, value(v1, GRH, GRH_NXTHDR));
        assertEquals(64, value(v1, GRH, GRH_HOPLMT));
        byte[] gid = new byte[16];
        v1.buffer().get(v1.layerAt(v1.find(GRH)) + GRH_SGID.offset(), gid);
        assertArrayEquals(Addresses.ipv6("::ffff:15.0.0.2"), gid);

        Dissection ib = nativeIb("""
                0003 ffff 0010 0001
                6abcdef1 0010 1b 05 fe800000000000000002c90300012345 ff12401bffff00000000000000000001
                0400 ffff 00 ffffff 00 000001
                00000000 0000""");
        assertEquals(0xAB, value(ib, GRH, GRH_TCLASS));
        assertEquals(0xCDEF1, value(ib, GRH, GRH_FLOWLABEL));
        assertEquals(16, value(ib, GRH, GRH_PAYLEN));
        assertEquals(5, value(ib, GRH, GRH_HOPLMT));
        ib.buffer().get(ib.layerAt(ib.find(GRH)) + GRH_DGID.offset(), gid);
        assertArrayEquals(Addresses.ipv6("ff12:401b:ffff::1"), gid);
        assertTrue(ib.rdma().hasGrh);
        assertEquals(0xFFFFFF, value(ib, BTH, BTH_DESTQP));
    }

    @Test
    @DisplayName("the opcode table defines RC 25, UC 12, RD 23, UD 2, CNP 2 and XRC 24 opcodes (wire-formats.md section 3)")
    void opcodeTableCounts() {
        Map<Service, Integer> counts = new EnumMap<>(Service.class);
        for (Opcode op : Opcodes.defined()) {
            counts.merge(op.service(), 1, Integer::sum);
        }
        assertEquals(Map.of(Service.RC, 25, Service.UC, 12, Service.RD, 23, Service.UD, 2, Service.CNP, 2,
                Service.XRC, 24), counts);
        assertEquals(List.of(RDETH, DETH, RETH, IMMDT), Opcodes.of(0x4B).headers(), "RD request");
        assertEquals(List.of(RDETH, AETH), Opcodes.of(0x51).headers(), "RD ACK");
        assertEquals(List.of(XRCETH, FETH, RETH), Opcodes.of(0xBC).headers(), "XRC FLUSH");
        assertEquals(List.of(DETH, IMMDT), Opcodes.of(0x65).headers(), "UD SEND Only with Immediate");
    }
}
