package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CM MADs built by {@link CmMad} decode, through the dissector, to what was asked for. */
class CmMadTest {
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};

    private static Dissection onTheWire(byte[] mad) {
        return Frames.dissect(RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).gsiMad(mad).buildPacket());
    }

    private static long value(Dissection d, HeaderType type, Field field) {
        int layer = d.find(type);
        assertTrue(layer >= 0, type.abbrev() + " missing from " + Frames.layerNames(d));
        return field.read(d.buffer(), d.layerAt(layer));
    }

    @Test
    void aConnectRequestCarriesQpPsnMtuAndRetryCounts() {
        byte[] gidA = new byte[16];
        gidA[15] = 1;
        byte[] gidB = new byte[16];
        gidB[15] = 2;
        Dissection d = onTheWire(CmMad.req(new CmMad.Request(0x1122334400000000L, 0xCAFE0001, 0x0004D2, 0x00ABCD,
                CmMad.mtuCode(1024), 16, 8, 18, 3, 2, gidA, gidB, 4711, IP_A, IP_B, 0x021e67fffe000001L)));
        assertEquals(Mad.CLASS_CM, value(d, Mad.HEADER, Mad.MGMT_CLASS));
        assertEquals(Cm.ATTR_REQ, value(d, Mad.HEADER, Mad.ATTRIBUTE_ID));
        assertEquals(0x1122334400000000L, value(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertEquals(0xCAFE0001L, value(d, Cm.REQ, Cm.REQ_LOCAL_COMM_ID));
        assertEquals(0x0004D2, value(d, Cm.REQ, Cm.REQ_LOCAL_QPN));
        assertEquals(0x00ABCD, value(d, Cm.REQ, Cm.REQ_STARTING_PSN));
        assertEquals(3, value(d, Cm.REQ, Cm.REQ_PATH_MTU));
        assertEquals(3, value(d, Cm.REQ, Cm.REQ_RETRY_COUNT));
        assertEquals(2, value(d, Cm.REQ, Cm.REQ_RNR_RETRY_COUNT));
        assertEquals(18, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_ACK_TIMEOUT));
        assertEquals(0x0000000001060000L | 4711, value(d, Cm.REQ, Cm.REQ_SERVICE_ID));
        assertEquals(4, value(d, Cm.IP_CM, Cm.IP_CM_IP_VERSION));
        assertEquals(4711, value(d, Cm.IP_CM, Cm.IP_CM_SOURCE_PORT));
        assertEquals(0x0A000002L, value(d, Cm.IP_CM, Cm.IP_CM_DESTINATION_IPV4));
    }

    @Test
    void replyReadyToUseRejectAndDisconnectDecode() {
        Dissection rep = onTheWire(CmMad.rep(7, 0x20, 0x10, 0x000777, 0x123456, 16, 16, 7, 42));
        assertEquals(0x000777, value(rep, Cm.REP, Cm.REP_LOCAL_QPN));
        assertEquals(0x123456, value(rep, Cm.REP, Cm.REP_STARTING_PSN));
        assertEquals(0x10, value(rep, Cm.REP, Cm.REP_REMOTE_COMM_ID));
        Dissection rtu = onTheWire(CmMad.rtu(7, 0x10, 0x20));
        assertEquals(0x20, value(rtu, Cm.RTU, Cm.RTU_REMOTE_COMM_ID));
        Dissection rej = onTheWire(CmMad.rej(7, 0x20, 0x10, 28));
        assertEquals(28, value(rej, Cm.REJ, Cm.REJ_REASON));
        assertEquals("Consumer Reject", Cm.REJ_REASON_NAMES.nameOf(28));
        Dissection dreq = onTheWire(CmMad.dreq(8, 0x10, 0x20, 0x000777));
        assertEquals(0x000777, value(dreq, Cm.DREQ, Cm.DREQ_REMOTE_QPN));
        Dissection drep = onTheWire(CmMad.drep(8, 0x20, 0x10));
        assertEquals(0x10, value(drep, Cm.DREP, Cm.DREP_REMOTE_COMM_ID));
    }

    @Test
    void onlyIbtaPathMtusHaveACode() {
        assertEquals(1, CmMad.mtuCode(256));
        assertEquals(5, CmMad.mtuCode(4096));
        assertThrows(IllegalArgumentException.class, () -> CmMad.mtuCode(1500));
    }
}
