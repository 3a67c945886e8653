package io.rdmascope.text;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.Frames;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Info column of management datagrams, built with {@link CmMad} and {@link RocePacket#gsiMad}:
 * tshark 4.0's wording ({@code CM: ConnectRequest}, {@code SubnGet(SMInfo)}, {@code PERF
 * (PortCounters)}); {@link PacketSummaryTsharkTest} holds the same against tshark itself.
 */
class PacketSummaryMadTest {
    private static final byte[] MAC_A = Frames.hex("02000000000a");
    private static final byte[] MAC_B = Frames.hex("02000000000b");
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};
    private static final long TID = 0x0000_0002_6dc5_c06eL;

    static byte[] ipv4MappedGid(byte[] ip) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ip, 0, gid, 12, 4);
        return gid;
    }

    static byte[] req() {
        return CmMad.req(new CmMad.Request(TID, 0x6ec0c56d, 0x2a0c, 0x3da6, CmMad.mtuCode(1024), 16, 16, 17, 7, 7,
                ipv4MappedGid(IP_A), ipv4MappedGid(IP_B), 7174, IP_A, IP_B, 0x025056fffea77d03L));
    }

    /** A CM message {@link CmMad} builds and the Info tshark 4.0 shows for it. */
    record CmCase(String message, Supplier<byte[]> mad, String info) {
    }

    static final List<CmCase> CM_MESSAGES = List.of(
            new CmCase("REQ", PacketSummaryMadTest::req, "CM: ConnectRequest"),
            new CmCase("REP", () -> CmMad.rep(TID, 0x1234, 0x6ec0c56d, 0x9833, 0x55, 16, 16, 7, 0x025056fffea7129fL),
                    "CM: ConnectReply"),
            new CmCase("RTU", () -> CmMad.rtu(TID, 0x6ec0c56d, 0x1234), "CM: ReadyToUse"),
            new CmCase("REJ", () -> CmMad.rej(TID, 0x1234, 0x6ec0c56d, 28), "CM: ConnectReject"),
            new CmCase("DREQ", () -> CmMad.dreq(TID, 0x6ec0c56d, 0x1234, 0x9833), "CM: DisconnectRequest"),
            new CmCase("DREP", () -> CmMad.drep(TID, 0x1234, 0x6ec0c56d), "CM: DisconnectReply"));

    static RocePacket roce(byte[] mad) {
        return RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).psn(13166879).gsiMad(mad);
    }

    static PacketSummary.Columns columns(RocePacket p) {
        return PacketSummary.of(Frames.dissect(p.buildPacket()));
    }

    static String info(RocePacket p) {
        return columns(p).info();
    }

    @Test
    @DisplayName("each CM message CmMad builds reads as tshark words it, with the IP addresses kept")
    void cmMessages() {
        for (CmCase m : CM_MESSAGES) {
            PacketSummary.Columns c = columns(roce(m.mad().get()));
            assertEquals(m.info(), c.info(), m.message());
            assertEquals("RRoCE", c.protocol(), m.message());
            // Not tshark's first-pass "LID: 65535" for a REQ: see PacketSummary.of.
            assertEquals("10.0.0.1", c.source(), m.message());
            assertEquals("10.0.0.2", c.destination(), m.message());
        }
    }

    @Test
    @DisplayName("CM Info is the same over RoCEv2/IPv6 and native InfiniBand; native IB keeps its LIDs")
    void cmOverOtherEncapsulations() {
        byte[] gidA = Frames.hex("fe800000000000000002c9020024f636");
        byte[] gidB = Frames.hex("fe800000000000000002c9020020b4dd");
        assertEquals("CM: ConnectReply", info(RocePacket.v2Ipv6(MAC_A, MAC_B, gidA, gidB)
                .gsiMad(CmMad.rep(TID, 1, 2, 3, 4, 1, 1, 7, 5))));
        PacketSummary.Columns ib = columns(RocePacket.nativeIb(4, 1).gsiMad(req()));
        assertEquals("CM: ConnectRequest", ib.info());
        assertEquals("InfiniBand", ib.protocol());
        assertEquals("LID: 4", ib.source());
        assertEquals("LID: 1", ib.destination());
    }

    @ParameterizedTest(name = "CM attribute {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "0x0001|CM: ClassPortInfo",
            "0x0010|CM: ConnectRequest",
            "0x0011|CM: MsgRcptAck",
            "0x0012|CM: ConnectReject",
            "0x0013|CM: ConnectReply",
            "0x0014|CM: ReadyToUse",
            "0x0015|CM: DisconnectRequest",
            "0x0016|CM: DisconnectReply",
            "0x0017|CM: ServiceIDResReq",
            "0x0018|CM: ServiceIDResReqResp",
            "0x0019|CM: LoadAlternatePath",
            "0x001A|CM: AlternatePathResponse",
            "0x0000|CM: (Unknown CM Attribute)",
            "0x001B|CM: (Unknown CM Attribute)",
            "0x0110|CM: (Unknown CM Attribute)",
            "0xFFFF|CM: (Unknown CM Attribute)"})
    void everyCmAttribute(String attribute, String expected) {
        byte[] mad = CmMad.rtu(TID, 1, 2);
        int id = Integer.decode(attribute);
        mad[16] = (byte) (id >> 8);
        mad[17] = (byte) id;
        assertEquals(expected, info(roce(mad)));
    }

    @Test
    @DisplayName("a CM frame's Info is a constant string: no text is built per frame")
    void cmInfoIsNotBuiltPerFrame() {
        Dissection a = Frames.dissect(roce(CmMad.rtu(TID, 1, 2)).buildPacket());
        Dissection b = Frames.dissect(roce(CmMad.rtu(TID + 1, 3, 4)).psn(7).buildPacket());
        assertSame(PacketSummary.of(a).info(), PacketSummary.of(b).info());
    }

    @Test
    @DisplayName("a bad ICRC is still flagged after the CM label")
    void cmWithBadIcrc() {
        assertEquals("CM: ReadyToUse [ICRC bad]", info(roce(CmMad.rtu(TID, 1, 2)).corruptIcrc()));
    }

    @Test
    @DisplayName("a MAD cut by the snaplen gets no label, as in tshark: the transport text and [Malformed Packet]")
    void truncatedMadHasNoLabel() {
        byte[] frame = roce(req()).build();
        Dissection d = Frames.dissectCut(frame, LinkTypes.ETHERNET, frame.length - 100, new Dissection());
        String info = PacketSummary.of(d).info();
        assertFalse(info.contains("CM:"), info);
        assertTrue(info.startsWith("UD SEND Only QP=0x000001 PSN=13166879"), info);
        assertTrue(info.endsWith(" [Malformed Packet]"), info);
    }

    /** A 256-byte MAD with only its common header set. */
    static byte[] mad(int managementClass, int method, int attributeId) {
        byte[] mad = new byte[Mad.MAD_SIZE];
        mad[0] = 1;
        mad[1] = (byte) managementClass;
        mad[2] = 1;
        mad[3] = (byte) method;
        mad[16] = (byte) (attributeId >> 8);
        mad[17] = (byte) attributeId;
        return mad;
    }

    @ParameterizedTest(name = "class {0} method {1} attribute {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
            // Subnet Management (LID routed, directed route) and Subnet Administration add to the transport text.
            "0x01|0x01|0x0020|UD SEND Only QP=0x000000 PSN=489 SubnGet(SMInfo)",
            "0x01|0x81|0x0020|UD SEND Only QP=0x000000 PSN=489 SubnGetResp(SMInfo)",
            "0x81|0x02|0x0015|UD SEND Only QP=0x000000 PSN=489 SubnSet(PortInfo)",
            "0x01|0x05|0x0002|UD SEND Only QP=0x000000 PSN=489 SubnTrap(Notice)",
            "0x01|0x01|0x0017|UD SEND Only QP=0x000000 PSN=489 SubnGet(SLtoVLMappingTable)",
            "0x01|0x44|0x0011|UD SEND Only QP=0x000000 PSN=489 (Unknown SubManagement Method!)NodeInfo)",
            "0x01|0x01|0x0001|UD SEND Only QP=0x000000 PSN=489 SubnGet(Unknown 0x0001)",
            "0x03|0x01|0x0035|UD SEND Only QP=0x000001 PSN=489 SubnAdmGet(PathRecord)",
            "0x03|0x81|0x0035|UD SEND Only QP=0x000001 PSN=489 SubnAdmGetResp(PathRecord)",
            "0x03|0x92|0x0019|UD SEND Only QP=0x000001 PSN=489 SubnAdmGetTableResp(LinkSpeedWidthPairsTableRecord)",
            "0x03|0x12|0x0038|UD SEND Only QP=0x000001 PSN=489 SubnAdmGetTable(MCMemberRecord)",
            "0x03|0x06|0x00F3|UD SEND Only QP=0x000001 PSN=489 SubnAdmReport(InformInfoRecord)",
            "0x03|0x44|0x0035|UD SEND Only QP=0x000001 PSN=489 (Unknown SubAdministration Method!)PathRecord)",
            "0x03|0x01|0xabcd|UD SEND Only QP=0x000001 PSN=489 SubnAdmGet(Unknown 0xabcd)",
            // Performance Management and the undecoded classes replace it.
            "0x04|0x01|0x0001|PERF (ClassPortInfo)",
            "0x04|0x01|0x0012|PERF (PortCounters)",
            "0x04|0x81|0x001D|PERF (PortCountersExtended)",
            "0x04|0x01|0x0016|PERF (Unknown Attribute)",
            "0x05|0x01|0x0001|BM (Unknown Attribute)",
            "0x06|0x01|0x0001|DEV_MGT (Unknown Attribute)",
            "0x08|0x01|0x0001|SNMP (Unknown Attribute)",
            "0x09|0x01|0x0001|VENDOR (Unknown Attribute)",
            "0x4F|0x01|0x0001|VENDOR (Unknown Attribute)",
            "0x10|0x01|0x0001|APP (Unknown Attribute)",
            "0x21|0x01|0x0001|APP (Unknown Attribute)",
            "0x00|0x01|0x0001|RESERVED (Unknown Attribute)",
            "0x50|0x01|0x0001|RESERVED (Unknown Attribute)",
            "0xFF|0x01|0x0001|RESERVED (Unknown Attribute)"})
    void otherManagementClasses(String managementClass, String method, String attribute, String expected) {
        int c = Integer.decode(managementClass);
        boolean smi = c == Mad.CLASS_SUBN_LID_ROUTED || c == Mad.CLASS_SUBN_DIRECTED_ROUTE;
        RocePacket p = roce(mad(c, Integer.decode(method), Integer.decode(attribute))).psn(489);
        if (smi) {
            p.destQp(0).set(InfiniBand.DETH_SRCQP, 0);
        }
        assertEquals(expected, info(p));
    }

    @Test
    @DisplayName("a UD SEND that is not to QP0/QP1 carries no MAD, whatever its payload looks like")
    void notAManagementDatagram() {
        String info = info(roce(CmMad.rtu(TID, 1, 2)).destQp(0x11));
        assertEquals("UD SEND Only QP=0x000011 PSN=13166879", info);
    }

    @Test
    @DisplayName("the CM table covers every attribute Cm names")
    void cmTableCoversCmNames() {
        for (int id = 0; id <= 0xFFFF; id++) {
            String name = Cm.ATTRIBUTE_NAMES.nameOf(id);
            if (name != null) {
                byte[] mad = CmMad.rtu(TID, 1, 2);
                mad[16] = (byte) (id >> 8);
                mad[17] = (byte) id;
                assertEquals("CM: " + name, info(roce(mad)));
            }
        }
    }
}
