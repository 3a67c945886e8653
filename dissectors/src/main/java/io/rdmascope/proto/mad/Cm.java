package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;

import java.util.List;

/**
 * Communication Management messages (IBTA Vol. 1 ch. 12, class 0x07), one header type each, laid
 * out from the start of the CM data (MAD offset 24): every offset here is the MAD offset minus 24
 * (Linux {@code include/rdma/ibta_vol1_c12.h} uses the same origin).
 *
 * <p>REQ, REP, RTU, REJ, DREQ and DREP use Wireshark 4.0's abbreviations, quirks included: REQ's and
 * REP's local communication IDs are {@code infiniband.cm.req} and {@code infiniband.cm.rep}
 * themselves, DREQ's remote QPN is {@code infiniband.cm.req.remoteqpneecn}, DREP's fields are
 * {@code infiniband.cm.drsp.*}, REQ's flow labels are read from three bytes and its packet rates from
 * the flow label's first byte (see {@link #REQ_PRIM_FLOW_LABEL}). Wireshark does not decode MRA,
 * LAP, APR or SIDR; their fields are named here in the same style.
 *
 * <p>The header types are named {@code infiniband.cm.<message>_msg} because Wireshark already uses
 * {@code infiniband.cm.req} and {@code infiniband.cm.rep} as field names.
 */
public final class Cm {
    // ---- Attribute IDs (IBTA 12.6, table 98; Linux include/rdma/ib_cm.h) ----
    public static final int ATTR_CLASS_PORT_INFO = 0x0001;
    public static final int ATTR_REQ = 0x0010;
    public static final int ATTR_MRA = 0x0011;
    public static final int ATTR_REJ = 0x0012;
    public static final int ATTR_REP = 0x0013;
    public static final int ATTR_RTU = 0x0014;
    public static final int ATTR_DREQ = 0x0015;
    public static final int ATTR_DREP = 0x0016;
    public static final int ATTR_SIDR_REQ = 0x0017;
    public static final int ATTR_SIDR_REP = 0x0018;
    public static final int ATTR_LAP = 0x0019;
    public static final int ATTR_APR = 0x001A;

    /** CM attribute names as Wireshark labels CM messages ("CM ConnectRequest"). */
    public static final ValueNames ATTRIBUTE_NAMES = ValueNames.of(
            ATTR_CLASS_PORT_INFO, "ClassPortInfo", ATTR_REQ, "ConnectRequest", ATTR_MRA, "MsgRcptAck",
            ATTR_REJ, "ConnectReject", ATTR_REP, "ConnectReply", ATTR_RTU, "ReadyToUse",
            ATTR_DREQ, "DisconnectRequest", ATTR_DREP, "DisconnectReply", ATTR_SIDR_REQ, "ServiceIDResReq",
            ATTR_SIDR_REP, "ServiceIDResReqResp", ATTR_LAP, "LoadAlternatePath",
            ATTR_APR, "AlternatePathResponse");

    /** REQ transport service type, byte 43 bits 2:1 (IBTA 12.6.5, table 99). */
    public static final ValueNames TRANSPORT_SERVICE_NAMES = ValueNames.of(
            0, "Reliable Connection (RC)", 1, "Unreliable Connection (UC)", 2, "Reliable Datagram (RD)",
            3, "Extended (see Extended Transport)");

    /** Path MTU codes (IBTA 9.6.3.1, table 32). */
    public static final ValueNames MTU_NAMES = ValueNames.of(1, "256", 2, "512", 3, "1024", 4, "2048", 5, "4096");

    /** REJ reasons (IBTA 12.6.7.2, table 107; Linux {@code enum ib_cm_rej_reason}). */
    public static final ValueNames REJ_REASON_NAMES = ValueNames.of(
            1, "No QP available", 2, "No EEC available", 3, "No resources available", 4, "Timeout",
            5, "Unsupported request", 6, "Invalid Communication ID", 7, "Invalid Communication Instance",
            8, "Invalid Service ID", 9, "Invalid Transport Service Type", 10, "Stale connection",
            11, "RDC does not exist", 12, "Primary Remote Port GID rejected",
            13, "Primary Remote Port LID rejected", 14, "Invalid Primary SL", 15, "Invalid Primary Traffic Class",
            16, "Invalid Primary Hop Limit", 17, "Invalid Primary Packet Rate",
            18, "Alternate Remote Port GID rejected", 19, "Alternate Remote Port LID rejected",
            20, "Invalid Alternate SL", 21, "Invalid Alternate Traffic Class", 22, "Invalid Alternate Hop Limit",
            23, "Invalid Alternate Packet Rate", 24, "Port and CM Redirection", 25, "Port Redirection",
            26, "Invalid Path MTU", 27, "Insufficient Responder Resources", 28, "Consumer Reject",
            29, "Invalid RNR NAK Retry Count", 30, "Duplicate Local Communication ID",
            31, "Unsupported Class Version", 32, "Invalid Primary Flow Label", 33, "Invalid Alternate Flow Label",
            35, "Vendor Option Not Supported");

    /** What an MRA acknowledges (IBTA 12.6.6). */
    public static final ValueNames MRA_MESSAGE_NAMES = ValueNames.of(0, "REQ", 1, "REP", 2, "LAP");

    /** APR status (IBTA 12.8.2, table 112; Linux {@code enum ib_cm_apr_status}). */
    public static final ValueNames APR_STATUS_NAMES = ValueNames.of(
            0, "Alternate path loaded", 1, "Invalid Communication ID", 2, "Alternate path not supported",
            3, "Alternate path rejected", 4, "Redirect", 5, "Alternate path is the current path",
            6, "Invalid QPN/EECN", 7, "Invalid LID", 8, "Invalid GID", 9, "Invalid flow label",
            10, "Invalid traffic class", 11, "Invalid hop limit", 12, "Invalid packet rate", 13, "Invalid SL");

    /** SIDR_REP status (IBTA 12.11.2, table 119; Linux {@code enum ib_cm_sidr_status}). */
    public static final ValueNames SIDR_STATUS_NAMES = ValueNames.of(
            0, "Success", 1, "Service ID not supported", 2, "Rejected", 3, "No QP available", 4, "Redirect",
            5, "Unsupported class version");

    /** RDMA-CM IP service IDs: 0x0000000001 in the top five bytes (IBTA Annex A11.2, Wireshark's test). */
    public static final long IP_CM_SERVICE_ID_MASK = 0xFFFFFFFFFF000000L;
    public static final long IP_CM_SERVICE_ID_PREFIX = 0x0000000001000000L;

    /** Where REQ private data starts within the CM data, and its length. */
    public static final int REQ_PRIVATE_DATA = 140;
    public static final int REQ_PRIVATE_DATA_SIZE = 92;
    /** RDMA_PS_TCP, the port space byte of an IP CM service ID (IBTA A11.2.1). */
    private static final int IP_CM_PORT_SPACE_TCP = 0x06;

    private static final Field.Presence IP_CM_SID = (d, l) -> isIpCmServiceId(d, d.layerStart(l));
    private static final Field.Presence NOT_IP_CM_SID = (d, l) -> !isIpCmServiceId(d, d.layerStart(l));
    private static final Field.Presence GID_AS_IPV4 = Cm::gidShownAsIpv4;
    private static final Field.Presence GID_AS_IPV6 = (d, l) -> !gidShownAsIpv4(d, l);

    // ---- REQ (0x0010), IBTA 12.6.5 ----
    public static final Field REQ_LOCAL_COMM_ID = Field.uint32("infiniband.cm.req", "Local Communication ID", 0)
            .hex();
    public static final Field REQ_SERVICE_ID = Field.uint64("infiniband.cm.req.serviceid", "ServiceID", 8).hex();
    public static final Field REQ_SERVICE_ID_PREFIX = Field.bytes("infiniband.cm.req.serviceid.prefix", "Prefix",
            8, 5).presentWhen(IP_CM_SID);
    public static final Field REQ_SERVICE_ID_PROTOCOL = Field.uint8("infiniband.cm.req.serviceid.protocol",
            "Protocol", 13).hex().presentWhen(IP_CM_SID);
    public static final Field REQ_SERVICE_ID_DPORT = Field.uint16("infiniband.cm.req.serviceid.dport",
            "Destination Port", 14).hex().presentWhen(IP_CM_SID);
    public static final Field REQ_LOCAL_CA_GUID = Field.uint64("infiniband.cm.req.localcaguid", "Local CA GUID", 16)
            .hex();
    public static final Field REQ_LOCAL_QKEY = Field.uint32("infiniband.cm.req.localqkey", "Local Q_Key", 28).hex();
    public static final Field REQ_LOCAL_QPN = Field.uint24("infiniband.cm.req.localqpn", "Local QPN", 32).hex();
    public static final Field REQ_RESPONDER_RESOURCES = Field.uint8("infiniband.cm.req.responderres",
            "Responder Resources", 35).hex();
    public static final Field REQ_LOCAL_EECN = Field.uint24("infiniband.cm.req.localeecn", "Local EECN", 36).hex();
    public static final Field REQ_INITIATOR_DEPTH = Field.uint8("infiniband.cm.req.initdepth", "Initiator Depth",
            39).hex();
    public static final Field REQ_REMOTE_EECN = Field.uint24("infiniband.cm.req.remoteeecn", "Remote EECN", 40)
            .hex();
    public static final Field REQ_REMOTE_CM_RESPONSE_TIMEOUT = Field.uint8("infiniband.cm.req.remoteresptout",
            "Remote CM Response Timeout", 43).mask(0xF8).hex();
    public static final Field REQ_TRANSPORT_SERVICE_TYPE = Field.uint8("infiniband.cm.req.transpsvctype",
            "Transport Service Type", 43).mask(0x06).hex().names(TRANSPORT_SERVICE_NAMES);
    public static final Field REQ_E2E_FLOW_CONTROL = Field.uint8("infiniband.cm.req.e2eflowctrl",
            "End-to-End Flow Control", 43).mask(0x01).hex();
    public static final Field REQ_STARTING_PSN = Field.uint24("infiniband.cm.req.startpsn", "Starting PSN", 44)
            .hex();
    public static final Field REQ_LOCAL_CM_RESPONSE_TIMEOUT = Field.uint8("infiniband.cm.req.localresptout",
            "Local CM Response Timeout", 47).mask(0xF8).hex();
    public static final Field REQ_RETRY_COUNT = Field.uint8("infiniband.cm.req.retrcount", "Retry Count", 47)
            .mask(0x07).hex();
    public static final Field REQ_PKEY = Field.uint16("infiniband.cm.req.pkey", "Partition Key", 48).hex();
    public static final Field REQ_PATH_MTU = Field.uint8("infiniband.cm.req.pppmtu", "Path Packet Payload MTU", 50)
            .mask(0xF0).hex().names(MTU_NAMES);
    public static final Field REQ_RDC_EXISTS = Field.uint8("infiniband.cm.req.rdcexist", "RDC Exists", 50)
            .mask(0x08).hex();
    public static final Field REQ_RNR_RETRY_COUNT = Field.uint8("infiniband.cm.req.rnrretrcount",
            "RNR Retry Count", 50).mask(0x07).hex();
    public static final Field REQ_MAX_CM_RETRIES = Field.uint8("infiniband.cm.req.maxcmretr", "Max CM Retries", 51)
            .mask(0xF0).hex();
    public static final Field REQ_SRQ = Field.uint8("infiniband.cm.req.srq", "SRQ", 51).mask(0x08).hex();
    public static final Field REQ_EXTENDED_TRANSPORT = Field.uint8("infiniband.cm.req.ext_transport",
            "Extended Transport", 51).mask(0x07).hex();
    public static final Field REQ_PRIM_LOCAL_LID = Field.uint16("infiniband.cm.req.prim_locallid",
            "Primary Local Port LID", 52);
    public static final Field REQ_PRIM_REMOTE_LID = Field.uint16("infiniband.cm.req.prim_remotelid",
            "Primary Remote Port LID", 54);
    /**
     * Wireshark shows the primary GIDs in their IPv6 form unless the packet's destination address is
     * IPv4 (RoCEv2 over IPv4), where it shows only their last four bytes as IPv4 addresses.
     */
    public static final Field REQ_PRIM_LOCAL_GID = Field.ipv6("infiniband.cm.req.prim_localgid",
            "Primary Local Port GID", 56).presentWhen(GID_AS_IPV6);
    public static final Field REQ_PRIM_LOCAL_GID_IPV4 = Field.ipv4("infiniband.cm.req.prim_localgid_ipv4",
            "Primary Local Port GID", 68).presentWhen(GID_AS_IPV4);
    public static final Field REQ_PRIM_REMOTE_GID = Field.ipv6("infiniband.cm.req.prim_remotegid",
            "Primary Remote Port GID", 72).presentWhen(GID_AS_IPV6);
    public static final Field REQ_PRIM_REMOTE_GID_IPV4 = Field.ipv4("infiniband.cm.req.prim_remotegid_ipv4",
            "Primary Remote Port GID", 84).presentWhen(GID_AS_IPV4);
    /**
     * Wireshark reads the 20-bit flow label (bits 31:12 of the word at 88) from three bytes only, so
     * with its 0xFFFFF000 mask it prints bits 23:12 of those three bytes: the flow label's top twelve
     * bits. The reserved bits and packet rate come from byte 88 with masks 0xFC0 and 0x3F, not from
     * byte 91 where the rate lies. Reproduced as Wireshark 4.0 prints them.
     */
    public static final Field REQ_PRIM_FLOW_LABEL = Field.uint24("infiniband.cm.req.prim_flowlabel",
            "Primary Flow Label", 88).mask(0xFFFFF000L).hex().printedAs(FieldType.UINT32);
    public static final Field REQ_PRIM_RESERVED0 = Field.uint8("infiniband.cm.req.prim_reserved0", "Reserved", 88)
            .mask(0xFC0).hex().printedAs(FieldType.UINT32);
    public static final Field REQ_PRIM_PACKET_RATE = Field.uint8("infiniband.cm.req.prim_pktrate",
            "Primary Packet Rate", 88).mask(0x3F).hex().printedAs(FieldType.UINT32);
    public static final Field REQ_PRIM_TRAFFIC_CLASS = Field.uint8("infiniband.cm.req.prim_tfcclass",
            "Primary Traffic Class", 92).hex();
    public static final Field REQ_PRIM_HOP_LIMIT = Field.uint8("infiniband.cm.req.prim_hoplim",
            "Primary Hop Limit", 93).hex();
    public static final Field REQ_PRIM_SL = Field.uint8("infiniband.cm.req.prim_sl", "Primary SL", 94).mask(0xF0)
            .hex();
    public static final Field REQ_PRIM_SUBNET_LOCAL = Field.uint8("infiniband.cm.req.prim_subnetlocal",
            "Primary Subnet Local", 94).mask(0x08).hex();
    public static final Field REQ_PRIM_RESERVED1 = Field.uint8("infiniband.cm.req.prim_reserved1", "Reserved", 94)
            .mask(0x07).hex();
    public static final Field REQ_PRIM_LOCAL_ACK_TIMEOUT = Field.uint8("infiniband.cm.req.prim_localacktout",
            "Primary Local ACK Timeout", 95).mask(0xF8).hex();
    public static final Field REQ_PRIM_RESERVED2 = Field.uint8("infiniband.cm.req.prim_reserved2", "Reserved", 95)
            .mask(0x07).hex();
    public static final Field REQ_ALT_LOCAL_LID = Field.uint16("infiniband.cm.req.alt_locallid",
            "Alternate Local Port LID", 96);
    public static final Field REQ_ALT_REMOTE_LID = Field.uint16("infiniband.cm.req.alt_remotelid",
            "Alternate Remote Port LID", 98);
    /** Wireshark declares the alternate GIDs as plain bytes, unlike the primary ones. */
    public static final Field REQ_ALT_LOCAL_GID = Field.bytes("infiniband.cm.req.alt_localgid",
            "Alternate Local Port GID", 100, 16);
    public static final Field REQ_ALT_REMOTE_GID = Field.bytes("infiniband.cm.req.alt_remotegid",
            "Alternate Remote Port GID", 116, 16);
    public static final Field REQ_ALT_FLOW_LABEL = REQ_PRIM_FLOW_LABEL.at("infiniband.cm.req.alt_flowlabel",
            "Alternate Flow Label", 132);
    public static final Field REQ_ALT_RESERVED0 = REQ_PRIM_RESERVED0.at("infiniband.cm.req.alt_reserved0",
            "Reserved", 132);
    public static final Field REQ_ALT_PACKET_RATE = REQ_PRIM_PACKET_RATE.at("infiniband.cm.req.alt_pktrate",
            "Alternate Packet Rate", 132);
    public static final Field REQ_ALT_TRAFFIC_CLASS = REQ_PRIM_TRAFFIC_CLASS.at("infiniband.cm.req.alt_tfcclass",
            "Alternate Traffic Class", 136);
    public static final Field REQ_ALT_HOP_LIMIT = REQ_PRIM_HOP_LIMIT.at("infiniband.cm.req.alt_hoplim",
            "Alternate Hop Limit", 137);
    public static final Field REQ_ALT_SL = REQ_PRIM_SL.at("infiniband.cm.req.alt_sl", "Alternate SL", 138);
    public static final Field REQ_ALT_SUBNET_LOCAL = REQ_PRIM_SUBNET_LOCAL.at("infiniband.cm.req.alt_subnetlocal",
            "Alternate Subnet Local", 138);
    /** Wireshark registers the last reserved bits (byte 139) under this name too: two occurrences. */
    public static final Field REQ_ALT_RESERVED1 = REQ_PRIM_RESERVED1.at("infiniband.cm.req.alt_reserved1",
            "Reserved", 138).alsoAt(139);
    public static final Field REQ_ALT_LOCAL_ACK_TIMEOUT = REQ_PRIM_LOCAL_ACK_TIMEOUT.at(
            "infiniband.cm.req.alt_localacktout", "Alternate Local ACK Timeout", 139);
    /** Private data as plain bytes when the service ID is not an RDMA-CM IP one (else {@link #IP_CM}). */
    public static final Field REQ_PRIVATE = Field.bytes("infiniband.cm.req.private", "PrivateData",
            REQ_PRIVATE_DATA, REQ_PRIVATE_DATA_SIZE).presentWhen(NOT_IP_CM_SID);
    public static final HeaderType REQ = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.req_msg",
            "CM ConnectRequest", REQ_LOCAL_COMM_ID, REQ_SERVICE_ID, REQ_SERVICE_ID_PREFIX, REQ_SERVICE_ID_PROTOCOL,
            REQ_SERVICE_ID_DPORT, REQ_LOCAL_CA_GUID, REQ_LOCAL_QKEY, REQ_LOCAL_QPN, REQ_RESPONDER_RESOURCES,
            REQ_LOCAL_EECN, REQ_INITIATOR_DEPTH, REQ_REMOTE_EECN, REQ_REMOTE_CM_RESPONSE_TIMEOUT,
            REQ_TRANSPORT_SERVICE_TYPE, REQ_E2E_FLOW_CONTROL, REQ_STARTING_PSN, REQ_LOCAL_CM_RESPONSE_TIMEOUT,
            REQ_RETRY_COUNT, REQ_PKEY, REQ_PATH_MTU, REQ_RDC_EXISTS, REQ_RNR_RETRY_COUNT, REQ_MAX_CM_RETRIES,
            REQ_SRQ, REQ_EXTENDED_TRANSPORT, REQ_PRIM_LOCAL_LID, REQ_PRIM_REMOTE_LID, REQ_PRIM_LOCAL_GID,
            REQ_PRIM_LOCAL_GID_IPV4, REQ_PRIM_REMOTE_GID, REQ_PRIM_REMOTE_GID_IPV4, REQ_PRIM_FLOW_LABEL,
            REQ_PRIM_RESERVED0, REQ_PRIM_PACKET_RATE, REQ_PRIM_TRAFFIC_CLASS, REQ_PRIM_HOP_LIMIT, REQ_PRIM_SL,
            REQ_PRIM_SUBNET_LOCAL, REQ_PRIM_RESERVED1, REQ_PRIM_LOCAL_ACK_TIMEOUT, REQ_PRIM_RESERVED2,
            REQ_ALT_LOCAL_LID, REQ_ALT_REMOTE_LID, REQ_ALT_LOCAL_GID, REQ_ALT_REMOTE_GID, REQ_ALT_FLOW_LABEL,
            REQ_ALT_RESERVED0, REQ_ALT_PACKET_RATE, REQ_ALT_TRAFFIC_CLASS, REQ_ALT_HOP_LIMIT, REQ_ALT_SL,
            REQ_ALT_SUBNET_LOCAL, REQ_ALT_RESERVED1, REQ_ALT_LOCAL_ACK_TIMEOUT, REQ_PRIVATE);

    // ---- RDMA-CM IP private data of a REQ (IBTA Annex A11.6; Linux cma.c struct cma_hdr) ----
    private static final Field.Presence IP_V4 = (d, l) -> ipCmVersion(d, l) == 4;
    private static final Field.Presence IP_NOT_V4 = (d, l) -> ipCmVersion(d, l) != 4;

    public static final Field IP_CM_MAJOR_VERSION = Field.uint8("infiniband.cm.req.ip_cm.majv",
            "IP CM Major Version", 0).mask(0xF0).hex();
    public static final Field IP_CM_MINOR_VERSION = Field.uint8("infiniband.cm.req.ip_cm.minv",
            "IP CM Minor Version", 0).mask(0x0F).hex();
    public static final Field IP_CM_IP_VERSION = Field.uint8("infiniband.cm.req.ip_cm.ipv", "IP CM IP Version", 1)
            .mask(0xF0).hex();
    public static final Field IP_CM_RESERVED = Field.uint8("infiniband.cm.req.ip_cm.reserved", "IP CM Reserved", 1)
            .mask(0x0F).hex();
    public static final Field IP_CM_SOURCE_PORT = Field.uint16("infiniband.cm.req.ip_cm.sport", "IP CM Source Port",
            2).hex();
    /** Wireshark shows IPv6 addresses for every IP version but 4, as it does. */
    public static final Field IP_CM_SOURCE_IPV6 = Field.ipv6("infiniband.cm.req.ip_cm.sip6", "IP CM Source IP", 4)
            .presentWhen(IP_NOT_V4);
    public static final Field IP_CM_DESTINATION_IPV6 = Field.ipv6("infiniband.cm.req.ip_cm.dip6",
            "IP CM Destination IP", 20).presentWhen(IP_NOT_V4);
    /** IPv4 addresses sit in the last four bytes of their 16-byte slots. */
    public static final Field IP_CM_SOURCE_IPV4 = Field.ipv4("infiniband.cm.req.ip_cm.sip4", "IP CM Source IP", 16)
            .presentWhen(IP_V4);
    public static final Field IP_CM_DESTINATION_IPV4 = Field.ipv4("infiniband.cm.req.ip_cm.dip4",
            "IP CM Destination IP", 32).presentWhen(IP_V4);
    public static final Field IP_CM_PRIVATE = Field.bytes("infiniband.cm.req.ip_cm.private",
            "IP CM Consumer PrivateData", 36, 56);
    public static final HeaderType IP_CM = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.req.ip_cm",
            "IP CM Private Data", IP_CM_MAJOR_VERSION, IP_CM_MINOR_VERSION, IP_CM_IP_VERSION, IP_CM_RESERVED,
            IP_CM_SOURCE_PORT, IP_CM_SOURCE_IPV6, IP_CM_DESTINATION_IPV6, IP_CM_SOURCE_IPV4,
            IP_CM_DESTINATION_IPV4, IP_CM_PRIVATE);

    // ---- MRA (0x0011), IBTA 12.6.6: not decoded by Wireshark 4.0 ----
    public static final Field MRA_LOCAL_COMM_ID = Field.uint32("infiniband.cm.mra.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field MRA_REMOTE_COMM_ID = Field.uint32("infiniband.cm.mra.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field MRA_MESSAGE_MRAED = Field.uint8("infiniband.cm.mra.msgmraed", "Message MRAed", 8)
            .mask(0xC0).hex().names(MRA_MESSAGE_NAMES);
    public static final Field MRA_RESERVED0 = Field.uint8("infiniband.cm.mra.reserved0", "Reserved", 8).mask(0x3F)
            .hex();
    public static final Field MRA_SERVICE_TIMEOUT = Field.uint8("infiniband.cm.mra.svctimeout", "Service Timeout",
            9).mask(0xF8).hex();
    public static final Field MRA_RESERVED1 = Field.uint8("infiniband.cm.mra.reserved1", "Reserved", 9).mask(0x07)
            .hex();
    public static final Field MRA_PRIVATE = Field.bytes("infiniband.cm.mra.private", "PrivateData", 10, 222);
    public static final HeaderType MRA = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.mra_msg",
            "CM MsgRcptAck", MRA_LOCAL_COMM_ID, MRA_REMOTE_COMM_ID, MRA_MESSAGE_MRAED, MRA_RESERVED0,
            MRA_SERVICE_TIMEOUT, MRA_RESERVED1, MRA_PRIVATE);

    // ---- REJ (0x0012), IBTA 12.6.7 ----
    public static final Field REJ_LOCAL_COMM_ID = Field.uint32("infiniband.cm.rej.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field REJ_REMOTE_COMM_ID = Field.uint32("infiniband.cm.rej.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field REJ_MESSAGE_REJECTED = Field.uint8("infiniband.cm.rej.msgrej", "Message REJected", 8)
            .mask(0xC0).hex();
    /** Wireshark's mask: the reserved bits are 5:0, but it declares 0x03. */
    public static final Field REJ_RESERVED0 = Field.uint8("infiniband.cm.rej.reserved0", "Reserved", 8).mask(0x03)
            .hex();
    public static final Field REJ_INFO_LENGTH = Field.uint8("infiniband.cm.rej.rejinfolen", "Reject Info Length", 9)
            .mask(0xFE).hex();
    public static final Field REJ_RESERVED1 = Field.uint8("infiniband.cm.rej.reserved1", "Reserved", 9).mask(0x01)
            .hex();
    public static final Field REJ_REASON = Field.uint16("infiniband.cm.rej.reason", "Reason", 10).hex()
            .names(REJ_REASON_NAMES);
    public static final Field REJ_ARI = Field.bytes("infiniband.cm.rej.ari", "Additional Reject Information (ARI)",
            12, 72);
    public static final Field REJ_PRIVATE = Field.bytes("infiniband.cm.rej.private", "PrivateData", 84, 148);
    public static final HeaderType REJ = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.rej_msg",
            "CM ConnectReject", REJ_LOCAL_COMM_ID, REJ_REMOTE_COMM_ID, REJ_MESSAGE_REJECTED, REJ_RESERVED0,
            REJ_INFO_LENGTH, REJ_RESERVED1, REJ_REASON, REJ_ARI, REJ_PRIVATE);

    // ---- REP (0x0013), IBTA 12.6.8 ----
    public static final Field REP_LOCAL_COMM_ID = Field.uint32("infiniband.cm.rep", "Local Communication ID", 0)
            .hex();
    public static final Field REP_REMOTE_COMM_ID = Field.uint32("infiniband.cm.rep.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field REP_LOCAL_QKEY = Field.uint32("infiniband.cm.rep.localqkey", "Local Q_Key", 8).hex();
    public static final Field REP_LOCAL_QPN = Field.uint24("infiniband.cm.rep.localqpn", "Local QPN", 12).hex();
    public static final Field REP_LOCAL_EECN = Field.uint24("infiniband.cm.rep.localeecn", "Local EE Context Number",
            16).hex();
    public static final Field REP_STARTING_PSN = Field.uint24("infiniband.cm.rep.startpsn", "Starting PSN", 20)
            .hex();
    public static final Field REP_RESPONDER_RESOURCES = Field.uint8("infiniband.cm.rep.respres",
            "Responder Resources", 24).hex();
    public static final Field REP_INITIATOR_DEPTH = Field.uint8("infiniband.cm.rep.initdepth", "Initiator Depth",
            25).hex();
    public static final Field REP_TARGET_ACK_DELAY = Field.uint8("infiniband.cm.rep.tgtackdelay",
            "Target ACK Delay", 26).mask(0xF8).hex();
    public static final Field REP_FAILOVER_ACCEPTED = Field.uint8("infiniband.cm.rep.failoveracc",
            "Failover Accepted", 26).mask(0x06).hex();
    public static final Field REP_E2E_FLOW_CONTROL = Field.uint8("infiniband.cm.rep.e2eflowctrl",
            "End-To-End Flow Control", 26).mask(0x01).hex();
    public static final Field REP_RNR_RETRY_COUNT = Field.uint8("infiniband.cm.rep.rnrretrcount",
            "RNR Retry Count", 27).mask(0xE0).hex();
    public static final Field REP_SRQ = Field.uint8("infiniband.cm.rep.srq", "SRQ", 27).mask(0x10).hex();
    public static final Field REP_RESERVED = Field.uint8("infiniband.cm.rep.reserved", "Reserved", 27).mask(0x0F)
            .hex();
    public static final Field REP_LOCAL_CA_GUID = Field.uint64("infiniband.cm.rep.localcaguid", "Local CA GUID", 28)
            .hex();
    public static final Field REP_PRIVATE = Field.bytes("infiniband.cm.rep.private", "PrivateData", 36, 196);
    public static final HeaderType REP = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.rep_msg",
            "CM ConnectReply", REP_LOCAL_COMM_ID, REP_REMOTE_COMM_ID, REP_LOCAL_QKEY, REP_LOCAL_QPN, REP_LOCAL_EECN,
            REP_STARTING_PSN, REP_RESPONDER_RESOURCES, REP_INITIATOR_DEPTH, REP_TARGET_ACK_DELAY,
            REP_FAILOVER_ACCEPTED, REP_E2E_FLOW_CONTROL, REP_RNR_RETRY_COUNT, REP_SRQ, REP_RESERVED,
            REP_LOCAL_CA_GUID, REP_PRIVATE);

    // ---- RTU (0x0014), IBTA 12.6.9 ----
    public static final Field RTU_LOCAL_COMM_ID = Field.uint32("infiniband.cm.rtu.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field RTU_REMOTE_COMM_ID = Field.uint32("infiniband.cm.rtu.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field RTU_PRIVATE = Field.bytes("infiniband.cm.rtu.private", "PrivateData", 8, 224);
    public static final HeaderType RTU = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.rtu_msg",
            "CM ReadyToUse", RTU_LOCAL_COMM_ID, RTU_REMOTE_COMM_ID, RTU_PRIVATE);

    // ---- DREQ (0x0015), IBTA 12.6.10 ----
    public static final Field DREQ_LOCAL_COMM_ID = Field.uint32("infiniband.cm.dreq.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field DREQ_REMOTE_COMM_ID = Field.uint32("infiniband.cm.dreq.remotecommid",
            "Remote Communication ID", 4).hex();
    /** Wireshark files DREQ's remote QPN under {@code infiniband.cm.req.}. */
    public static final Field DREQ_REMOTE_QPN = Field.uint24("infiniband.cm.req.remoteqpneecn", "Remote QPN/EECN", 8)
            .hex();
    public static final Field DREQ_PRIVATE = Field.bytes("infiniband.cm.dreq.private", "PrivateData", 12, 220);
    public static final HeaderType DREQ = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.dreq_msg",
            "CM DisconnectRequest", DREQ_LOCAL_COMM_ID, DREQ_REMOTE_COMM_ID, DREQ_REMOTE_QPN, DREQ_PRIVATE);

    // ---- DREP (0x0016), IBTA 12.6.11: Wireshark calls it DRSP ----
    public static final Field DREP_LOCAL_COMM_ID = Field.uint32("infiniband.cm.drsp.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field DREP_REMOTE_COMM_ID = Field.uint32("infiniband.cm.drsp.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field DREP_PRIVATE = Field.bytes("infiniband.cm.drsp.private", "PrivateData", 8, 224);
    public static final HeaderType DREP = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.drep_msg",
            "CM DisconnectReply", DREP_LOCAL_COMM_ID, DREP_REMOTE_COMM_ID, DREP_PRIVATE);

    // ---- SIDR_REQ (0x0017), IBTA 12.11.1: not decoded by Wireshark 4.0 ----
    public static final Field SIDR_REQ_REQUEST_ID = Field.uint32("infiniband.cm.sidr_req.requestid", "Request ID", 0)
            .hex();
    public static final Field SIDR_REQ_PKEY = Field.uint16("infiniband.cm.sidr_req.pkey", "Partition Key", 4).hex();
    public static final Field SIDR_REQ_SERVICE_ID = Field.uint64("infiniband.cm.sidr_req.serviceid", "ServiceID", 8)
            .hex();
    public static final Field SIDR_REQ_PRIVATE = Field.bytes("infiniband.cm.sidr_req.private", "PrivateData", 16,
            216);
    public static final HeaderType SIDR_REQ = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.sidr_req_msg",
            "CM ServiceIDResReq", SIDR_REQ_REQUEST_ID, SIDR_REQ_PKEY, SIDR_REQ_SERVICE_ID, SIDR_REQ_PRIVATE);

    // ---- SIDR_REP (0x0018), IBTA 12.11.2: not decoded by Wireshark 4.0 ----
    public static final Field SIDR_REP_REQUEST_ID = Field.uint32("infiniband.cm.sidr_rep.requestid", "Request ID", 0)
            .hex();
    public static final Field SIDR_REP_STATUS = Field.uint8("infiniband.cm.sidr_rep.status", "Status", 4).hex()
            .names(SIDR_STATUS_NAMES);
    public static final Field SIDR_REP_INFO_LENGTH = Field.uint8("infiniband.cm.sidr_rep.addinfolen",
            "Additional Information Length", 5).hex();
    public static final Field SIDR_REP_QPN = Field.uint24("infiniband.cm.sidr_rep.qpn", "QPN", 8).hex();
    public static final Field SIDR_REP_SERVICE_ID = Field.uint64("infiniband.cm.sidr_rep.serviceid", "ServiceID", 12)
            .hex();
    public static final Field SIDR_REP_QKEY = Field.uint32("infiniband.cm.sidr_rep.qkey", "Q_Key", 20).hex();
    public static final Field SIDR_REP_CLASS_PORT_INFO = Field.bytes("infiniband.cm.sidr_rep.classportinfo",
            "ClassPortInfo", 24, 72);
    public static final Field SIDR_REP_PRIVATE = Field.bytes("infiniband.cm.sidr_rep.private", "PrivateData", 96,
            136);
    public static final HeaderType SIDR_REP = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.sidr_rep_msg",
            "CM ServiceIDResReqResp", SIDR_REP_REQUEST_ID, SIDR_REP_STATUS, SIDR_REP_INFO_LENGTH, SIDR_REP_QPN,
            SIDR_REP_SERVICE_ID, SIDR_REP_QKEY, SIDR_REP_CLASS_PORT_INFO, SIDR_REP_PRIVATE);

    // ---- LAP (0x0019), IBTA 12.8.1: not decoded by Wireshark 4.0 ----
    public static final Field LAP_LOCAL_COMM_ID = Field.uint32("infiniband.cm.lap.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field LAP_REMOTE_COMM_ID = Field.uint32("infiniband.cm.lap.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field LAP_REMOTE_QPN = Field.uint24("infiniband.cm.lap.remoteqpneecn", "Remote QPN/EECN", 12)
            .hex();
    public static final Field LAP_REMOTE_CM_RESPONSE_TIMEOUT = Field.uint8("infiniband.cm.lap.remoteresptout",
            "Remote CM Response Timeout", 15).mask(0xF8).hex();
    public static final Field LAP_ALT_LOCAL_LID = Field.uint16("infiniband.cm.lap.alt_locallid",
            "Alternate Local Port LID", 20);
    public static final Field LAP_ALT_REMOTE_LID = Field.uint16("infiniband.cm.lap.alt_remotelid",
            "Alternate Remote Port LID", 22);
    public static final Field LAP_ALT_LOCAL_GID = Field.ipv6("infiniband.cm.lap.alt_localgid",
            "Alternate Local Port GID", 24);
    public static final Field LAP_ALT_REMOTE_GID = Field.ipv6("infiniband.cm.lap.alt_remotegid",
            "Alternate Remote Port GID", 40);
    /** Read as the whole 32-bit word, so this is the full 20-bit flow label (unlike Wireshark's REQ). */
    public static final Field LAP_ALT_FLOW_LABEL = Field.uint32("infiniband.cm.lap.alt_flowlabel",
            "Alternate Flow Label", 56).mask(0xFFFFF000L).hex();
    public static final Field LAP_ALT_TRAFFIC_CLASS = Field.uint8("infiniband.cm.lap.alt_tfcclass",
            "Alternate Traffic Class", 59).hex();
    public static final Field LAP_ALT_HOP_LIMIT = Field.uint8("infiniband.cm.lap.alt_hoplim", "Alternate Hop Limit",
            60).hex();
    public static final Field LAP_ALT_PACKET_RATE = Field.uint8("infiniband.cm.lap.alt_pktrate",
            "Alternate Packet Rate", 61).mask(0x3F).hex();
    public static final Field LAP_ALT_SL = Field.uint8("infiniband.cm.lap.alt_sl", "Alternate SL", 62).mask(0xF0)
            .hex();
    public static final Field LAP_ALT_SUBNET_LOCAL = Field.uint8("infiniband.cm.lap.alt_subnetlocal",
            "Alternate Subnet Local", 62).mask(0x08).hex();
    public static final Field LAP_ALT_LOCAL_ACK_TIMEOUT = Field.uint8("infiniband.cm.lap.alt_localacktout",
            "Alternate Local ACK Timeout", 63).mask(0xF8).hex();
    public static final Field LAP_PRIVATE = Field.bytes("infiniband.cm.lap.private", "PrivateData", 64, 168);
    public static final HeaderType LAP = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.lap_msg",
            "CM LoadAlternatePath", LAP_LOCAL_COMM_ID, LAP_REMOTE_COMM_ID, LAP_REMOTE_QPN,
            LAP_REMOTE_CM_RESPONSE_TIMEOUT, LAP_ALT_LOCAL_LID, LAP_ALT_REMOTE_LID, LAP_ALT_LOCAL_GID,
            LAP_ALT_REMOTE_GID, LAP_ALT_FLOW_LABEL, LAP_ALT_TRAFFIC_CLASS, LAP_ALT_HOP_LIMIT, LAP_ALT_PACKET_RATE,
            LAP_ALT_SL, LAP_ALT_SUBNET_LOCAL, LAP_ALT_LOCAL_ACK_TIMEOUT, LAP_PRIVATE);

    // ---- APR (0x001A), IBTA 12.8.2: not decoded by Wireshark 4.0 ----
    public static final Field APR_LOCAL_COMM_ID = Field.uint32("infiniband.cm.apr.localcommid",
            "Local Communication ID", 0).hex();
    public static final Field APR_REMOTE_COMM_ID = Field.uint32("infiniband.cm.apr.remotecommid",
            "Remote Communication ID", 4).hex();
    public static final Field APR_INFO_LENGTH = Field.uint8("infiniband.cm.apr.addinfolen",
            "Additional Information Length", 8).hex();
    public static final Field APR_STATUS = Field.uint8("infiniband.cm.apr.status", "AP Status", 9).hex()
            .names(APR_STATUS_NAMES);
    public static final Field APR_INFO = Field.bytes("infiniband.cm.apr.info", "Additional Information", 12, 72);
    public static final Field APR_PRIVATE = Field.bytes("infiniband.cm.apr.private", "PrivateData", 84, 148);
    public static final HeaderType APR = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.cm.apr_msg",
            "CM AlternatePathResponse", APR_LOCAL_COMM_ID, APR_REMOTE_COMM_ID, APR_INFO_LENGTH, APR_STATUS, APR_INFO,
            APR_PRIVATE);

    /** Every CM header type, for the field registry. */
    public static final List<HeaderType> HEADERS = List.of(REQ, IP_CM, MRA, REJ, REP, RTU, DREQ, DREP, SIDR_REQ,
            SIDR_REP, LAP, APR);

    private Cm() {
    }

    /** The header type of CM attribute {@code attributeId}, or null (ClassPortInfo, unknown IDs). */
    public static HeaderType messageFor(int attributeId) {
        return switch (attributeId) {
            case ATTR_REQ -> REQ;
            case ATTR_MRA -> MRA;
            case ATTR_REJ -> REJ;
            case ATTR_REP -> REP;
            case ATTR_RTU -> RTU;
            case ATTR_DREQ -> DREQ;
            case ATTR_DREP -> DREP;
            case ATTR_SIDR_REQ -> SIDR_REQ;
            case ATTR_SIDR_REP -> SIDR_REP;
            case ATTR_LAP -> LAP;
            case ATTR_APR -> APR;
            default -> null;
        };
    }

    /**
     * Whether the REQ whose CM data starts at frame offset {@code reqStart} asks for TCP port
     * {@code port} through RDMA-CM: an IP CM service ID (IBTA A11.2.1) whose port space byte (REQ byte
     * 13) is TCP's and whose last two bytes are the port. How NVMe-oF (4420), iSER (3260) and SMB
     * Direct (5445) recognise their connections.
     */
    public static boolean isTcpPortRequest(Dissection d, int reqStart, int port) {
        return isIpCmServiceId(d, reqStart) && d.u8(reqStart + 13) == IP_CM_PORT_SPACE_TCP
                && d.u16(reqStart + 14) == port;
    }

    /** Whether the REQ whose CM data starts at frame offset {@code reqStart} asks for an RDMA-CM IP service. */
    public static boolean isIpCmServiceId(Dissection d, int reqStart) {
        long serviceId = d.buffer().getLong(d.base() + reqStart + 8);
        return (serviceId & IP_CM_SERVICE_ID_MASK) == IP_CM_SERVICE_ID_PREFIX;
    }

    /**
     * Wireshark's test for the IPv4 form of REQ's primary GIDs: the packet's destination address is an
     * IPv4 one, which for InfiniBand means RoCEv2 over IPv4 (a GRH or LRH would set IB/IPv6 addresses).
     */
    static boolean gidShownAsIpv4(Dissection d, int layer) {
        int ip = Ip.enclosingIpLayer(d, layer);
        if (ip < 0 || d.layerType(ip) != Ip.IPV4) {
            return false;
        }
        for (int i = ip + 1; i < layer; i++) {
            if (d.layerType(i) == InfiniBand.GRH || d.layerType(i) == InfiniBand.LRH) {
                return false;
            }
        }
        return true;
    }

    static int ipCmVersion(Dissection d, int layer) {
        return (d.buffer().get(d.layerAt(layer) + 1) >> 4) & 0x0F;
    }
}
