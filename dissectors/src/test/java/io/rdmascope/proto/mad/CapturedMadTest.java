package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;

import static io.rdmascope.proto.mad.MadFrames.bytes;
import static io.rdmascope.proto.mad.MadFrames.dissect;
import static io.rdmascope.proto.mad.MadFrames.hex;
import static io.rdmascope.proto.mad.MadFrames.present;
import static io.rdmascope.proto.mad.MadFrames.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Frames copied with {@code tshark -x} from the shared captures, checked against what tshark 4.0.17
 * prints for them with {@code -T fields}.
 */
class CapturedMadTest {

    /** linlinw5_rping.pcap frame 1: rping's REQ over RoCEv2/IPv4. */
    private static final byte[] RPING_REQ = hex("""
            005056a7129f005056a77d03080045000134253240004011e00a0a01103e0a01103dd87212b7012000006400ffff0000
            00018000000680010000000000010107020300000000000000026dc5c06e00100000000000006ec0c56d000000000000
            000001061c06025056fffea77d03000000000000000000002c0100000001000000a0003da6a7ffff37f0ffffffff0000
            0000000000000000ffff0a01103e00000000000000000000ffff0a01103d70bbd0000040008800000000000000000000
            000000000000000000000000000000000000000000000000000000000000000000000040bd6900000000000000000000
            00000a01103e0000000000000000000000000a01103d0000000000000000000000000000000000000000000000000000
            00000000000000000000000000000000000000000000000000000000000064e63802""");

    /** srinivaskoritala_infiniband.pcap frame 7 from its LRH: a REQ on native InfiniBand. */
    private static final byte[] NATIVE_REQ = hex("""
            00020001004800046400ffff0000000100002f198001000000000001010702030000000000000010278648e900100000
            00000000e94886270000000010000000000004040002c9020024f63400000000000000008704080400000000000000a0
            000000a0ffff40f800040001fe800000000000000002c9020024f636fe800000000000000002c9020020b4dd00000003
            000008980000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
            000004050000fff400000000000000000000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000397ce862
            0f36""");

    /** srinivaskoritala_infiniband.pcap frame 32: SubnAdmGet(PathRecord), RMPP not in use. */
    private static final byte[] PATH_RECORD_QUERY = hex("""
            00020001004800046400ffff0000000100002f1e800100000000000101030201000000000000000bb9647f9e00350000
            00000000000000000000000000000000000000000000000000000000000000000000340c0000000000000000fe800000
            000000000002c90300001895fe800000000000000002c9020024f63600000000000000000001ffff0000000000000000
            000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
            000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
            00000000000000000000000000000000000000000000000000000000000000000000000000000000000000004cc1eb2f
            c253""");

    @Test
    void rpingsConnectRequestDecodesAsTsharkShowsIt() {
        Dissection d = dissect(RPING_REQ);
        assertEquals(0x07, value(d, Mad.HEADER, Mad.MGMT_CLASS));
        assertEquals(0x02, value(d, Mad.HEADER, Mad.CLASS_VERSION));
        assertEquals(0x03, value(d, Mad.HEADER, Mad.METHOD));
        assertEquals(0x000000026dc5c06eL, value(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertEquals(0x0010, value(d, Mad.HEADER, Mad.ATTRIBUTE_ID));
        assertEquals(0x6ec0c56dL, value(d, Cm.REQ, Cm.REQ_LOCAL_COMM_ID));
        assertEquals(0x0000000001061c06L, value(d, Cm.REQ, Cm.REQ_SERVICE_ID));
        assertEquals(0x1c06, value(d, Cm.REQ, Cm.REQ_SERVICE_ID_DPORT));
        assertEquals(0x025056fffea77d03L, value(d, Cm.REQ, Cm.REQ_LOCAL_CA_GUID));
        assertEquals(0x00002c, value(d, Cm.REQ, Cm.REQ_LOCAL_QPN));
        assertEquals(0x003da6, value(d, Cm.REQ, Cm.REQ_STARTING_PSN));
        assertEquals(0x14, value(d, Cm.REQ, Cm.REQ_REMOTE_CM_RESPONSE_TIMEOUT));
        assertEquals(0x0, value(d, Cm.REQ, Cm.REQ_TRANSPORT_SERVICE_TYPE));
        assertEquals(0x7, value(d, Cm.REQ, Cm.REQ_RETRY_COUNT));
        assertEquals(0x7, value(d, Cm.REQ, Cm.REQ_RNR_RETRY_COUNT));
        assertEquals(0x3, value(d, Cm.REQ, Cm.REQ_PATH_MTU));
        assertEquals(0xf, value(d, Cm.REQ, Cm.REQ_MAX_CM_RETRIES));
        assertEquals(65535, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_LID));
        assertEquals(0x0a01103eL, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID_IPV4)); // 10.1.16.62
        assertEquals(0x0a01103dL, value(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_GID_IPV4)); // 10.1.16.61
        assertEquals(0x0070b, value(d, Cm.REQ, Cm.REQ_PRIM_FLOW_LABEL));
        assertEquals(0x01, value(d, Cm.REQ, Cm.REQ_PRIM_RESERVED0));
        assertEquals(0x30, value(d, Cm.REQ, Cm.REQ_PRIM_PACKET_RATE));
        assertEquals(0x40, value(d, Cm.REQ, Cm.REQ_PRIM_HOP_LIMIT));
        assertEquals(0x11, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_ACK_TIMEOUT));
        assertEquals(0x4, value(d, Cm.IP_CM, Cm.IP_CM_IP_VERSION));
        assertEquals(0xbd69, value(d, Cm.IP_CM, Cm.IP_CM_SOURCE_PORT));
        assertEquals(0x0a01103eL, value(d, Cm.IP_CM, Cm.IP_CM_SOURCE_IPV4));
        assertEquals(0x0a01103dL, value(d, Cm.IP_CM, Cm.IP_CM_DESTINATION_IPV4));
        assertFalse(d.isMalformed());
    }

    @Test
    void aNativeInfinibandConnectRequestDecodesAsTsharkShowsIt() {
        Dissection d = dissect(Frame.of(7, 0, LinkTypes.INFINIBAND, NATIVE_REQ));
        assertEquals(0x00000010278648e9L, value(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertEquals(0xe9488627L, value(d, Cm.REQ, Cm.REQ_LOCAL_COMM_ID));
        assertEquals(0x1000000000000404L, value(d, Cm.REQ, Cm.REQ_SERVICE_ID));
        assertFalse(present(d, Cm.REQ, Cm.REQ_SERVICE_ID_PREFIX));
        assertEquals(0x0002c9020024f634L, value(d, Cm.REQ, Cm.REQ_LOCAL_CA_GUID));
        assertEquals(0x870408, value(d, Cm.REQ, Cm.REQ_LOCAL_QPN));
        assertEquals(0x04, value(d, Cm.REQ, Cm.REQ_RESPONDER_RESOURCES));
        assertEquals(0x4, value(d, Cm.REQ, Cm.REQ_PATH_MTU));
        assertEquals(0x1, value(d, Cm.REQ, Cm.REQ_SRQ));
        assertEquals(4, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_LID));
        assertEquals(1, value(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_LID));
        assertArrayEquals(hex("fe800000000000000002c9020024f636"), bytes(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID));
        assertArrayEquals(hex("fe800000000000000002c9020020b4dd"), bytes(d, Cm.REQ, Cm.REQ_PRIM_REMOTE_GID));
        assertFalse(present(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_GID_IPV4));
        assertEquals(0x1, value(d, Cm.REQ, Cm.REQ_PRIM_SUBNET_LOCAL));
        assertEquals(0x13, value(d, Cm.REQ, Cm.REQ_PRIM_LOCAL_ACK_TIMEOUT));
        assertEquals(0x0, value(d, Cm.REQ, Cm.REQ_PRIM_PACKET_RATE));
        byte[] privateData = bytes(d, Cm.REQ, Cm.REQ_PRIVATE);
        assertArrayEquals(hex("000004050000fff4"), java.util.Arrays.copyOf(privateData, 8));
        assertEquals(-1, d.find(Cm.IP_CM));
    }

    @Test
    void aPathRecordQueryHasAnRmppHeaderThatIsNotInUse() {
        Dissection d = dissect(Frame.of(32, 0, LinkTypes.INFINIBAND, PATH_RECORD_QUERY));
        assertEquals(0x03, value(d, Mad.HEADER, Mad.MGMT_CLASS));
        assertEquals(0x01, value(d, Mad.HEADER, Mad.METHOD));
        assertEquals(0x0035, value(d, Mad.HEADER, Mad.ATTRIBUTE_ID));
        assertEquals(0x0000000bb9647f9eL, value(d, Mad.HEADER, Mad.TRANSACTION_ID));
        assertEquals(0x00, value(d, Mad.RMPP, Mad.RMPP_TYPE));
        assertEquals(0x00, value(d, Mad.RMPP, Mad.RMPP_STATUS));
        assertEquals(0x00000000, value(d, Mad.RMPP, Mad.RMPP_DATA1));
        assertEquals(0x00000000, value(d, Mad.RMPP, Mad.RMPP_DATA2));
        assertEquals(-1, d.find(Cm.REQ));
    }
}
