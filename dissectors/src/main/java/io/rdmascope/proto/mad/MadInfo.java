package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.ValueNames;

/**
 * A management datagram's part of the Info column, as Wireshark 4.0 words it (checked against
 * tshark 4.0.17 by {@code PacketSummaryTsharkTest}): a Communication Manager MAD is its message
 * alone, {@code CM: ConnectRequest}; Performance Management and the classes Wireshark does not decode
 * replace the Info likewise ({@code PERF (PortCounters)}, {@code BM (Unknown Attribute)}); Subnet
 * Management and Subnet Administration MADs add method and attribute after the transport text,
 * {@code UD SEND Only QP=0x000000 PSN=489 SubnGet(SMInfo)}. The InfiniBand package joins it to the
 * transport's text.
 */
public final class MadInfo {
    private MadInfo() {
    }

    /**
     * Appends " SubnGet(SMInfo)" for an SMP, " SubnAdmGet(PathRecord)" for an SA MAD; nothing for
     * other classes.
     */
    public static void appendSubnetText(StringBuilder sb, Dissection d, int madLayer, int managementClass) {
        if (managementClass == Mad.CLASS_SUBN_LID_ROUTED || managementClass == Mad.CLASS_SUBN_DIRECTED_ROUTE) {
            appendMethodAndAttribute(sb, d, madLayer, SMP_METHODS, SMP_UNKNOWN_METHOD, SMP_ATTRIBUTES);
        } else if (managementClass == Mad.CLASS_SUBN_ADM) {
            appendMethodAndAttribute(sb, d, madLayer, SA_METHODS, SA_UNKNOWN_METHOD, SA_ATTRIBUTES);
        }
    }

    // ---- Management datagrams: Wireshark 4.0's Info wording (packet-infiniband.c) ----------------

    /** "CM: " and the attribute name, by attribute ID, made once so that a CM frame costs no string. */
    private static final String[] CM_INFO = cmInfo();
    private static final String CM_UNKNOWN = "CM: (Unknown CM Attribute)";

    /** The whole Info of classes that replace it, other than CM and PERF; null where the class adds to it. */
    private static final String[] CLASS_INFO = classInfo();

    private static final ValueNames SMP_METHODS = ValueNames.of(
            0x01, "SubnGet(", 0x02, "SubnSet(", 0x81, "SubnGetResp(", 0x05, "SubnTrap(", 0x07, "SubnTrapResp(");
    /** Wireshark's text for a method it does not know, copied: it is readable, only unbracketed. */
    private static final String SMP_UNKNOWN_METHOD = "(Unknown SubManagement Method!)";
    /**
     * Wireshark 4.0's SMP attribute names. It has none for ClassPortInfo (0x0001) or InformInfo
     * (0x0003) in this class, so neither do we: those read as unknown.
     */
    private static final ValueNames SMP_ATTRIBUTES = ValueNames.of(
            0x0002, "Notice)", 0x0010, "NodeDescription)", 0x0011, "NodeInfo)", 0x0012, "SwitchInfo)",
            0x0014, "GUIDInfo)", 0x0015, "PortInfo)", 0x0016, "P_KeyTable)", 0x0017, "SLtoVLMappingTable)",
            0x0018, "VLArbitrationTable)", 0x0019, "LinearForwardingTable)", 0x001A, "RandomForwardingTable)",
            0x001B, "MulticastForwardingTable)", 0x001C, "LinkSpeedWidthPairsTable)", 0x0020, "SMInfo)",
            0x0030, "VendorDiag)", 0x0031, "LedInfo)");

    private static final ValueNames SA_METHODS = ValueNames.of(
            0x01, "SubnAdmGet(", 0x81, "SubnAdmGetResp(", 0x02, "SubnAdmSet(", 0x06, "SubnAdmReport(",
            0x86, "SubnAdmReportResp(", 0x12, "SubnAdmGetTable(", 0x92, "SubnAdmGetTableResp(",
            0x13, "SubnAdmGetTraceTable(", 0x14, "SubnAdmGetMulti(", 0x94, "SubnAdmGetMultiResp(",
            0x15, "SubnAdmDelete(", 0x95, "SubnAdmDeleteResp(");
    private static final String SA_UNKNOWN_METHOD = "(Unknown SubAdministration Method!)";
    private static final ValueNames SA_ATTRIBUTES = ValueNames.of(
            0x0001, "ClassPortInfo)", 0x0002, "Notice)", 0x0003, "InformInfo)", 0x0011, "NodeRecord)",
            0x0012, "PortInfoRecord)", 0x0013, "SLtoVLMappingTableRecord)", 0x0014, "SwitchInfoRecord)",
            0x0015, "LinearForwardingTableRecord)", 0x0016, "RandomForwardingTableRecord)",
            0x0017, "MulticastForwardingTableRecord)", 0x0018, "SMInfoRecord)",
            0x0019, "LinkSpeedWidthPairsTableRecord)", 0x00F3, "InformInfoRecord)", 0x0020, "LinkRecord)",
            0x0030, "GuidInfoRecord)", 0x0031, "ServiceRecord)", 0x0033, "P_KeyTableRecord)",
            0x0035, "PathRecord)", 0x0036, "VLArbitrationTableRecord)", 0x0038, "MCMemberRecord)",
            0x0039, "TraceRecord)", 0x003A, "MultiPathRecord)", 0x003B, "ServiceAssociationRecord)");

    /** Performance Management attributes Wireshark 4.0 names (IBTA 16.1.3, 16.1.4). */
    private static final int PERF_CLASS_PORT_INFO = 0x0001;
    private static final int PERF_PORT_COUNTERS = 0x0012;
    private static final int PERF_PORT_COUNTERS_EXTENDED = 0x001D;

    /**
     * The Info of a MAD whose class replaces the transport text, or null when the class adds to it
     * (SMP, SA). Every string returned is a constant.
     */
    public static String wholeInfo(int managementClass, int attributeId) {
        if (managementClass == Mad.CLASS_CM) {
            return attributeId < CM_INFO.length && CM_INFO[attributeId] != null ? CM_INFO[attributeId] : CM_UNKNOWN;
        }
        if (managementClass == Mad.CLASS_PERF_MGMT) {
            return switch (attributeId) {
                case PERF_CLASS_PORT_INFO -> "PERF (ClassPortInfo)";
                case PERF_PORT_COUNTERS -> "PERF (PortCounters)";
                case PERF_PORT_COUNTERS_EXTENDED -> "PERF (PortCountersExtended)";
                default -> "PERF (Unknown Attribute)";
            };
        }
        return CLASS_INFO[managementClass];
    }

    /**
     * Appends " SubnGet(SMInfo)": method and attribute, as Wireshark appends them. For an attribute
     * it does not know Wireshark prints the tail of its fallback text ("SubnGet(bManagement
     * Attribute!)", an off-by-prefix slip); we print the ID instead: "SubnGet(Unknown 0x0099)".
     */
    static void appendMethodAndAttribute(StringBuilder sb, Dissection d, int madLayer, ValueNames methods,
                                                 String unknownMethod, ValueNames attributes) {
        String method = methods.nameOf(Mad.METHOD.read(d.buffer(), d.layerAt(madLayer)));
        sb.append(' ').append(method != null ? method : unknownMethod);
        int attributeId = (int) Mad.ATTRIBUTE_ID.read(d.buffer(), d.layerAt(madLayer));
        String attribute = attributes.nameOf(attributeId);
        if (attribute != null) {
            sb.append(attribute);
        } else {
            sb.append("Unknown 0x");
            for (int shift = 12; shift >= 0; shift -= 4) {
                sb.append(Character.forDigit((attributeId >> shift) & 0xF, 16));
            }
            sb.append(')');
        }
    }


    private static String[] cmInfo() {
        String[] info = new String[Cm.ATTR_APR + 1];
        for (int id = 0; id < info.length; id++) {
            String name = Cm.ATTRIBUTE_NAMES.nameOf(id);
            info[id] = name == null ? null : "CM: " + name;
        }
        return info;
    }

    /**
     * By management class: Wireshark 4.0's label for the classes it does not decode (IBTA 13.4.4,
     * table 102 ranges). Reserved classes (0x00, 0x02, 0x50–0x80, 0x82–0xFF) read
     * "RESERVED (Unknown Attribute)"; tshark adds "[Malformed Packet]" to those because its
     * reserved-class branch reads past the MAD's end (in {@code tshark -V} the exception comes right
     * after the common header; the old source adds 256 bytes after it). The MAD is not malformed,
     * so we do not.
     */
    private static String[] classInfo() {
        String[] info = new String[256];
        for (int c = 0; c < info.length; c++) {
            if (c == Mad.CLASS_BM) {
                info[c] = "BM (Unknown Attribute)";
            } else if (c == Mad.CLASS_DEVICE_MGMT) {
                info[c] = "DEV_MGT (Unknown Attribute)";
            } else if (c == Mad.CLASS_SNMP) {
                info[c] = "SNMP (Unknown Attribute)";
            } else if ((c >= 0x09 && c <= 0x0F) || (c >= 0x30 && c <= 0x4F)) {
                info[c] = "VENDOR (Unknown Attribute)";
            } else if (c >= 0x10 && c <= 0x2F) {
                info[c] = "APP (Unknown Attribute)";
            } else if (c == 0x00 || c == 0x02 || (c >= 0x50 && c <= 0x80) || c >= 0x82) {
                info[c] = "RESERVED (Unknown Attribute)";
            }
        }
        return info;
    }
}
