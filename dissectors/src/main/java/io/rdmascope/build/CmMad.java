package io.rdmascope.build;

import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;

/**
 * Communication Manager MADs (IBTA Vol. 1 ch. 12) as RDMA-CM sends them, written through the
 * dissector's own {@link Cm} and {@link Mad} declarations. Each method returns the 256-byte MAD;
 * put it on the wire with {@link RocePacket#gsiMad(byte[])}.
 *
 * <p>What is not a parameter is what librdmacm sends: class version 2, method Send (0x03), Q_Key
 * 0 (RC), end-to-end flow control on, CM response timeouts 20 (4.096 µs · 2^20 ≈ 4.3 s), 15 CM
 * retries, and a REQ service ID in the RDMA-CM IP range for port space TCP (IBTA Annex A11.2:
 * 0x0000000001060000 | port) with the IP CM private-data header (Annex A11.6).
 */
public final class CmMad {
    private static final int CM_CLASS_VERSION = 2;
    private static final int METHOD_SEND = 0x03;
    private static final int CM_RESPONSE_TIMEOUT = 20;
    private static final int MAX_CM_RETRIES = 15;
    /** RDMA_PS_TCP in the service ID, IBTA Annex A11.2. */
    private static final long RDMA_CM_TCP_SERVICE = 0x0000000001060000L;
    private static final int CM_MESSAGE_SIZE = Mad.MAD_SIZE - Mad.COMMON_HEADER_SIZE;

    private CmMad() {
    }

    /** What a REQ asks for: the active side's QP and the path it wants. */
    public record Request(long transactionId, int localCommId, int localQpn, int startingPsn, int pathMtuCode,
                          int responderResources, int initiatorDepth, int localAckTimeout, int retryCount,
                          int rnrRetryCount, byte[] localGid, byte[] remoteGid, int tcpPort, byte[] sourceIpv4,
                          byte[] destinationIpv4, long localCaGuid) {
    }

    /** ConnectRequest (attribute 0x0010, IBTA 12.6.5). */
    public static byte[] req(Request r) {
        Header req = new Header(Cm.REQ, CM_MESSAGE_SIZE)
                .set(Cm.REQ_LOCAL_COMM_ID, r.localCommId() & 0xFFFFFFFFL)
                .set(Cm.REQ_SERVICE_ID, RDMA_CM_TCP_SERVICE | r.tcpPort())
                .set(Cm.REQ_LOCAL_CA_GUID, r.localCaGuid())
                .set(Cm.REQ_LOCAL_QPN, r.localQpn())
                .set(Cm.REQ_RESPONDER_RESOURCES, r.responderResources())
                .set(Cm.REQ_INITIATOR_DEPTH, r.initiatorDepth())
                .set(Cm.REQ_REMOTE_CM_RESPONSE_TIMEOUT, CM_RESPONSE_TIMEOUT)
                .set(Cm.REQ_E2E_FLOW_CONTROL, 1)
                .set(Cm.REQ_STARTING_PSN, r.startingPsn())
                .set(Cm.REQ_LOCAL_CM_RESPONSE_TIMEOUT, CM_RESPONSE_TIMEOUT)
                .set(Cm.REQ_RETRY_COUNT, r.retryCount())
                .set(Cm.REQ_PKEY, RocePacket.DEFAULT_P_KEY)
                .set(Cm.REQ_PATH_MTU, r.pathMtuCode())
                .set(Cm.REQ_RNR_RETRY_COUNT, r.rnrRetryCount())
                .set(Cm.REQ_MAX_CM_RETRIES, MAX_CM_RETRIES)
                .set(Cm.REQ_PRIM_LOCAL_LID, 0xFFFF) // RoCE: permissive LID
                .set(Cm.REQ_PRIM_REMOTE_LID, 0xFFFF)
                .set(Cm.REQ_PRIM_LOCAL_GID, r.localGid())
                .set(Cm.REQ_PRIM_REMOTE_GID, r.remoteGid())
                .set(Cm.REQ_PRIM_HOP_LIMIT, 64)
                .set(Cm.REQ_PRIM_LOCAL_ACK_TIMEOUT, r.localAckTimeout());
        byte[] message = req.toBytes();
        if (r.sourceIpv4() != null) {
            Header ipCm = new Header(Cm.IP_CM, Cm.REQ_PRIVATE_DATA_SIZE)
                    .set(Cm.IP_CM_IP_VERSION, 4)
                    .set(Cm.IP_CM_SOURCE_PORT, r.tcpPort())
                    .set(Cm.IP_CM_SOURCE_IPV4, RocePacket.length(r.sourceIpv4(), 4, "IPv4 address"))
                    .set(Cm.IP_CM_DESTINATION_IPV4, RocePacket.length(r.destinationIpv4(), 4, "IPv4 address"));
            ipCm.writeTo(message, Cm.REQ_PRIVATE_DATA);
        }
        return mad(r.transactionId(), Cm.ATTR_REQ, message);
    }

    /** ConnectReply (0x0013, IBTA 12.6.8): the passive side's QP and starting PSN. */
    public static byte[] rep(long transactionId, int localCommId, int remoteCommId, int localQpn, int startingPsn,
                             int responderResources, int initiatorDepth, int rnrRetryCount, long localCaGuid) {
        Header rep = new Header(Cm.REP, CM_MESSAGE_SIZE)
                .set(Cm.REP_LOCAL_COMM_ID, localCommId & 0xFFFFFFFFL)
                .set(Cm.REP_REMOTE_COMM_ID, remoteCommId & 0xFFFFFFFFL)
                .set(Cm.REP_LOCAL_QPN, localQpn)
                .set(Cm.REP_STARTING_PSN, startingPsn)
                .set(Cm.REP_RESPONDER_RESOURCES, responderResources)
                .set(Cm.REP_INITIATOR_DEPTH, initiatorDepth)
                .set(Cm.REP_TARGET_ACK_DELAY, 15)
                .set(Cm.REP_E2E_FLOW_CONTROL, 1)
                .set(Cm.REP_RNR_RETRY_COUNT, rnrRetryCount)
                .set(Cm.REP_LOCAL_CA_GUID, localCaGuid);
        return mad(transactionId, Cm.ATTR_REP, rep.toBytes());
    }

    /** ReadyToUse (0x0014, IBTA 12.6.9). */
    public static byte[] rtu(long transactionId, int localCommId, int remoteCommId) {
        Header rtu = new Header(Cm.RTU, CM_MESSAGE_SIZE)
                .set(Cm.RTU_LOCAL_COMM_ID, localCommId & 0xFFFFFFFFL)
                .set(Cm.RTU_REMOTE_COMM_ID, remoteCommId & 0xFFFFFFFFL);
        return mad(transactionId, Cm.ATTR_RTU, rtu.toBytes());
    }

    /** Reject (0x0012, IBTA 12.6.7) of a REQ (messageRejected 0), with a reason from {@link Cm#REJ_REASON_NAMES}. */
    public static byte[] rej(long transactionId, int localCommId, int remoteCommId, int reason) {
        Header rej = new Header(Cm.REJ, CM_MESSAGE_SIZE)
                .set(Cm.REJ_LOCAL_COMM_ID, localCommId & 0xFFFFFFFFL)
                .set(Cm.REJ_REMOTE_COMM_ID, remoteCommId & 0xFFFFFFFFL)
                .set(Cm.REJ_MESSAGE_REJECTED, 0)
                .set(Cm.REJ_REASON, reason);
        return mad(transactionId, Cm.ATTR_REJ, rej.toBytes());
    }

    /** DisconnectRequest (0x0015, IBTA 12.6.10). */
    public static byte[] dreq(long transactionId, int localCommId, int remoteCommId, int remoteQpn) {
        Header dreq = new Header(Cm.DREQ, CM_MESSAGE_SIZE)
                .set(Cm.DREQ_LOCAL_COMM_ID, localCommId & 0xFFFFFFFFL)
                .set(Cm.DREQ_REMOTE_COMM_ID, remoteCommId & 0xFFFFFFFFL)
                .set(Cm.DREQ_REMOTE_QPN, remoteQpn);
        return mad(transactionId, Cm.ATTR_DREQ, dreq.toBytes());
    }

    /** DisconnectReply (0x0016, IBTA 12.6.11). */
    public static byte[] drep(long transactionId, int localCommId, int remoteCommId) {
        Header drep = new Header(Cm.DREP, CM_MESSAGE_SIZE)
                .set(Cm.DREP_LOCAL_COMM_ID, localCommId & 0xFFFFFFFFL)
                .set(Cm.DREP_REMOTE_COMM_ID, remoteCommId & 0xFFFFFFFFL);
        return mad(transactionId, Cm.ATTR_DREP, drep.toBytes());
    }

    /** IBTA path MTU code (12.6.5 / 9.7.1): 1 = 256 … 5 = 4096. */
    public static int mtuCode(int bytes) {
        return switch (bytes) {
            case 256 -> 1;
            case 512 -> 2;
            case 1024 -> 3;
            case 2048 -> 4;
            case 4096 -> 5;
            default -> throw new IllegalArgumentException("path MTU must be 256, 512, 1024, 2048 or 4096, got " + bytes);
        };
    }

    private static byte[] mad(long transactionId, int attributeId, byte[] message) {
        byte[] out = new byte[Mad.MAD_SIZE];
        new Header(Mad.HEADER, Mad.COMMON_HEADER_SIZE)
                .set(Mad.BASE_VERSION, 1)
                .set(Mad.MGMT_CLASS, Mad.CLASS_CM)
                .set(Mad.CLASS_VERSION, CM_CLASS_VERSION)
                .set(Mad.METHOD, METHOD_SEND)
                .set(Mad.TRANSACTION_ID, transactionId)
                .set(Mad.ATTRIBUTE_ID, attributeId)
                .writeTo(out, 0);
        System.arraycopy(message, 0, out, Mad.COMMON_HEADER_SIZE, message.length);
        return out;
    }
}
