package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.ib.InfiniBand;

import java.util.ArrayList;
import java.util.List;

/**
 * Management datagrams (IBTA Vol. 1 ch. 13): the 24-byte common header every MAD starts with, the
 * RMPP header of Subnet Administration MADs, and the hand-off to connection management (ch. 12,
 * {@link Cm}) for class 0x07.
 *
 * <p>As in Wireshark, the {@code infiniband.mad} header spans the whole 256-byte MAD, and its last
 * field, {@code infiniband.mad.data}, is the 232 bytes after the common header; class decoders (CM,
 * RMPP) add their own layers over those same bytes. Abbreviations are Wireshark 4.0's
 * ({@code ../shared/reference/wireshark-fields.tsv}).
 */
public final class Mad {
    /** Every MAD is 256 bytes (IBTA 13.4.2). */
    public static final int MAD_SIZE = 256;
    /** The common header before the class-specific data. */
    public static final int COMMON_HEADER_SIZE = 24;
    /** RMPP header length (IBTA 13.6.2.1), at MAD offset 24. */
    public static final int RMPP_HEADER_SIZE = 12;

    // ---- Management classes (IBTA 13.4.4, table 102; Linux ib_mad.h) ----
    public static final int CLASS_SUBN_LID_ROUTED = 0x01;
    public static final int CLASS_SUBN_ADM = 0x03;
    public static final int CLASS_PERF_MGMT = 0x04;
    public static final int CLASS_BM = 0x05;
    public static final int CLASS_DEVICE_MGMT = 0x06;
    public static final int CLASS_CM = 0x07;
    public static final int CLASS_SNMP = 0x08;
    public static final int CLASS_SUBN_DIRECTED_ROUTE = 0x81;

    public static final ValueNames MGMT_CLASS_NAMES = managementClassNames();

    /** Method names exactly as Wireshark 4.0 prints them ({@code tshark -G values}). */
    public static final ValueNames METHOD_NAMES = ValueNames.of(
            0x01, "Get()", 0x02, "Set()", 0x81, "GetResp()", 0x03, "Send()", 0x05, "Trap()",
            0x06, "Report()", 0x86, "ReportResp()", 0x07, "TrapRepress()", 0x12, "GetTable()",
            0x92, "GetTableResp()", 0x13, "GetTraceTable()", 0x14, "GetMulti()", 0x94, "GetMultiResp()",
            0x15, "Delete()", 0x95, "DeleteResp()");

    // ---- MAD common header, IBTA 13.4.2 ----
    public static final Field BASE_VERSION = Field.uint8("infiniband.mad.baseversion", "Base Version", 0).hex();
    public static final Field MGMT_CLASS = Field.uint8("infiniband.mad.mgmtclass", "Management Class", 1).hex()
            .names(MGMT_CLASS_NAMES);
    public static final Field CLASS_VERSION = Field.uint8("infiniband.mad.classversion", "Class Version", 2).hex();
    public static final Field METHOD = Field.uint8("infiniband.mad.method", "Method", 3).hex().names(METHOD_NAMES);
    public static final Field STATUS = Field.uint16("infiniband.mad.status", "Status", 4).hex();
    public static final Field CLASS_SPECIFIC = Field.uint16("infiniband.mad.classspecific", "Class Specific", 6)
            .hex();
    public static final Field TRANSACTION_ID = Field.uint64("infiniband.mad.transactionid", "Transaction ID", 8)
            .hex();
    /** No value names: the attribute space depends on the class (see {@link Cm#ATTRIBUTE_NAMES} for CM). */
    public static final Field ATTRIBUTE_ID = Field.uint16("infiniband.mad.attributeid", "Attribute ID", 16).hex();
    public static final Field ATTRIBUTE_MODIFIER = Field.uint32("infiniband.mad.attributemodifier",
            "Attribute Modifier", 20).hex();
    public static final Field DATA = Field.restOfHeader("infiniband.mad.data", "MAD Data Payload",
            COMMON_HEADER_SIZE);
    public static final HeaderType HEADER = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.mad",
            "MAD Header - Common Management Datagram", BASE_VERSION, MGMT_CLASS, CLASS_VERSION, METHOD, STATUS,
            CLASS_SPECIFIC, TRANSACTION_ID, ATTRIBUTE_ID, ATTRIBUTE_MODIFIER, DATA);

    // ---- RMPP header, IBTA 13.6.2.1 (Wireshark decodes it for Subnet Administration only) ----
    public static final int RMPP_NOT_USED = 0;
    public static final int RMPP_DATA = 1;
    public static final int RMPP_ACK = 2;
    public static final int RMPP_STOP = 3;
    public static final int RMPP_ABORT = 4;

    /** Wireshark's RMPP flag names, leading space and all. */
    public static final ValueNames RMPP_FLAG_NAMES = ValueNames.of(
            3, " (Transmission Sequence - First Packet)", 5, " (Transmission Sequence - Last Packet)",
            7, " (Transmission Sequence - First and Last Packet)", 1, " (Transmission Sequence) ");
    public static final ValueNames RMPP_STATUS_NAMES = ValueNames.of(
            0, " (Normal)", 1, " (Resources Exhausted)", 118, " (Total Time Too Long)",
            119, " (Inconsistent Last and PayloadLength)", 120, " (Inconsistent First and Segment Number)",
            121, " (Bad RMPPType)", 122, " (NewWindowLast Too Small)", 123, " (SegmentNumber Too Big)",
            124, " (Illegal Status)", 125, " (Unsupported Version)", 126, " (Too Many Retries)",
            127, " (Unspecified - Unknown Error Code on ABORT)");

    /** Wireshark names this field "RMPP Type" too (a copy-paste slip); it is the RMPP version. */
    public static final Field RMPP_VERSION = Field.uint8("infiniband.rmpp.rmppversion", "RMPP Version", 0).hex();
    public static final Field RMPP_TYPE = Field.uint8("infiniband.rmpp.rmpptype", "RMPP Type", 1).hex();
    public static final Field RMPP_RRESPTIME = Field.uint8("infiniband.rmpp.rresptime", "R Resp Time", 2)
            .mask(0xF0).hex();
    public static final Field RMPP_FLAGS = Field.uint8("infiniband.rmpp.rmppflags", "RMPP Flags", 2).mask(0x0F)
            .hex().names(RMPP_FLAG_NAMES);
    public static final Field RMPP_STATUS = Field.uint8("infiniband.rmpp.rmppstatus", "RMPP Status", 3).hex()
            .names(RMPP_STATUS_NAMES);
    public static final Field RMPP_DATA1 = Field.uint32("infiniband.rmpp.data1", "RMPP Data 1", 4).hex()
            .presentWhen((d, l) -> rmppType(d, l) == RMPP_NOT_USED);
    public static final Field RMPP_DATA2 = Field.uint32("infiniband.rmpp.data2", "RMPP Data 2", 8).hex()
            .presentWhen((d, l) -> rmppType(d, l) == RMPP_NOT_USED);
    public static final Field RMPP_SEGMENT_NUMBER = Field.uint32("infiniband.rmpp.segmentnumber",
            "Segment Number", 4).hex().presentWhen((d, l) -> {
                int type = rmppType(d, l);
                return type == RMPP_DATA || type == RMPP_ACK;
            });
    public static final Field RMPP_PAYLOAD_LENGTH = Field.uint32("infiniband.rmpp.payloadlength",
            "Payload Length", 8).hex().presentWhen((d, l) -> rmppType(d, l) == RMPP_DATA);
    public static final Field RMPP_NEW_WINDOW_LAST = Field.uint32("infiniband.rmpp.newwindowlast",
            "New Window Last", 8).hex().presentWhen((d, l) -> rmppType(d, l) == RMPP_ACK);
    public static final HeaderType RMPP = HeaderType.subHeader(InfiniBand.PROTOCOL, "infiniband.rmpp",
            "RMPP (Reliable Multi-Packet Transaction Protocol)", RMPP_VERSION, RMPP_TYPE, RMPP_RRESPTIME,
            RMPP_FLAGS, RMPP_STATUS, RMPP_DATA1, RMPP_DATA2, RMPP_SEGMENT_NUMBER, RMPP_PAYLOAD_LENGTH,
            RMPP_NEW_WINDOW_LAST);

    /**
     * The 220 bytes after an RMPP DATA, STOP or ABORT header, which Wireshark shows inside the RMPP
     * node although they lie past its 12 bytes. A layer of their own keeps {@code infiniband.rmpp} the
     * 12 bytes Wireshark prints for it. (After an ACK they are reserved.)
     */
    public static final Field RMPP_TRANSFERRED_DATA = Field.restOfHeader("infiniband.rmpp.transferreddata",
            "Transferred Data", 0).presentWhen((d, l) -> segmentRmppType(d, l) == RMPP_DATA);
    public static final Field RMPP_EXTENDED_ERROR_DATA = Field.restOfHeader("infiniband.rmpp.extendederrordata",
            "Optional Extended Error Data", 0).presentWhen((d, l) -> {
                int type = segmentRmppType(d, l);
                return type == RMPP_STOP || type == RMPP_ABORT;
            });
    public static final HeaderType RMPP_SEGMENT = HeaderType.group(InfiniBand.PROTOCOL, "infiniband.mad.rmpp_segment",
            "RMPP Segment", RMPP_TRANSFERRED_DATA, RMPP_EXTENDED_ERROR_DATA);

    /** Every MAD and CM header type, for the field registry. */
    public static final List<HeaderType> HEADERS = headers();

    private Mad() {
    }

    /**
     * Decodes the MAD at {@code [offset, end)}: the payload of a UD SEND to QP0 or QP1. A MAD cut by
     * the capture keeps the bytes that are there and marks the frame malformed; so does a packet that
     * is complete but shorter than 256 bytes.
     */
    public static void dissect(DissectorChain chain, Dissection d, int offset, int end) {
        int length = Math.min(MAD_SIZE, end - offset);
        if (length <= 0) {
            return;
        }
        if (length < MAD_SIZE && d.frame().wireLength() > d.capturedLength()) {
            // The capture ended early, not the packet: what the caller bounded the MAD with (the
            // captured end, less the ICRC it expected there) is not the MAD's end.
            length = MAD_SIZE;
        }
        if (d.add(HEADER, offset, length) < 0) {
            return; // cut by the capture: the common header keeps what was captured
        }
        if (length < MAD_SIZE) {
            d.markMalformed(); // a whole packet, but too short to be a MAD
            return;
        }
        int managementClass = d.u8(offset + 1);
        int data = offset + COMMON_HEADER_SIZE;
        if (managementClass == CLASS_CM) {
            HeaderType message = Cm.messageFor(d.u16(offset + 16));
            if (message != null) {
                int cmLayer = d.add(message, data, MAD_SIZE - COMMON_HEADER_SIZE);
                if (message == Cm.REQ && Cm.isIpCmServiceId(d, data)) {
                    d.add(Cm.IP_CM, data + Cm.REQ_PRIVATE_DATA, Cm.REQ_PRIVATE_DATA_SIZE);
                }
                if (cmLayer >= 0) {
                    chain.cmPrivateData(d, cmLayer); // what rides on the connection reads its private data
                }
            }
        } else if (managementClass == CLASS_SUBN_ADM) {
            d.add(RMPP, data, RMPP_HEADER_SIZE);
            int type = d.u8(data + 1);
            if (type == RMPP_DATA || type == RMPP_STOP || type == RMPP_ABORT) {
                d.add(RMPP_SEGMENT, data + RMPP_HEADER_SIZE, MAD_SIZE - COMMON_HEADER_SIZE - RMPP_HEADER_SIZE);
            }
        }
    }

    static int rmppType(Dissection d, int layer) {
        return d.buffer().get(d.layerAt(layer) + 1) & 0xFF;
    }

    /** The RMPP type of the header just before an {@link #RMPP_SEGMENT} layer. */
    static int segmentRmppType(Dissection d, int layer) {
        return d.buffer().get(d.layerAt(layer) - RMPP_HEADER_SIZE + 1) & 0xFF;
    }

    private static ValueNames managementClassNames() {
        java.util.Map<Long, String> names = new java.util.TreeMap<>();
        names.put(0x01L, "Subnet Management (LID routed)");
        names.put(0x03L, "Subnet Administration");
        names.put(0x04L, "Performance Management");
        names.put(0x05L, "Baseboard Management");
        names.put(0x06L, "Device Management");
        names.put(0x07L, "Communication Management");
        names.put(0x08L, "SNMP Tunneling");
        for (long c = 0x09; c <= 0x0F; c++) {
            names.put(c, "Vendor Specific");
        }
        names.put(0x10L, "Device Administration");
        names.put(0x11L, "Boot Management");
        names.put(0x12L, "BIS");
        names.put(0x21L, "Congestion Management");
        for (long c = 0x30; c <= 0x4F; c++) {
            names.put(c, "Vendor Specific (OUI)");
        }
        names.put(0x81L, "Subnet Management (directed route)");
        return ValueNames.fromMap(names);
    }

    private static List<HeaderType> headers() {
        List<HeaderType> all = new ArrayList<>();
        all.add(HEADER);
        all.add(RMPP);
        all.add(RMPP_SEGMENT);
        all.addAll(Cm.HEADERS);
        return List.copyOf(all);
    }
}
