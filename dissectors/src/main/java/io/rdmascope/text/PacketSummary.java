package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.Aeth;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.iwarp.IwarpInfo;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;

/**
 * The packet-list columns of one frame (Source, Destination, Protocol, Info), as tshark's one-line
 * output and the GUI's packet list show them. Info for RDMA reads like
 * {@code RC RDMA WRITE First QP=0x000011 PSN=42}.
 *
 * <p>Management datagrams read as Wireshark 4.0 labels them (checked against tshark 4.0.17 by
 * {@code PacketSummaryTsharkTest}): a Communication Manager MAD is its message alone,
 * {@code CM: ConnectRequest}; Performance Management and the classes Wireshark does not decode
 * replace the Info likewise ({@code PERF (PortCounters)}, {@code BM (Unknown Attribute)}); Subnet
 * Management and Subnet Administration MADs add method and attribute after the transport text,
 * {@code UD SEND Only QP=0x000000 PSN=489 SubnGet(SMInfo)}. The label is read from the MAD header
 * layer the dissector already added; a MAD cut short by the capture or the packet gets none, as in
 * Wireshark.
 */
public final class PacketSummary {
    private PacketSummary() {
    }

    /** The four text columns of a dissected frame. */
    public record Columns(String source, String destination, String protocol, String info) {
    }

    /** The columns of a dissected frame. */
    public static Columns of(Dissection d) {
        String src = "";
        String dst = "";
        int eth = d.find(Ethernet.HEADER);
        if (eth >= 0 && d.layerLength(eth) >= 12) {
            src = TreeLabels.text(Ethernet.SRC, d, eth);
            dst = TreeLabels.text(Ethernet.DST, d, eth);
        }
        int lrh = d.find(InfiniBand.LRH);
        if (lrh >= 0 && d.layerLength(lrh) == 8) {
            src = "LID: " + InfiniBand.LRH_SLID.read(d.buffer(), d.layerAt(lrh));
            dst = "LID: " + InfiniBand.LRH_DLID.read(d.buffer(), d.layerAt(lrh));
        }
        int grh = d.find(InfiniBand.GRH);
        if (grh >= 0 && d.layerLength(grh) == 40) {
            src = "GID: " + TreeLabels.text(InfiniBand.GRH_SGID, d, grh);
            dst = "GID: " + TreeLabels.text(InfiniBand.GRH_DGID, d, grh);
        }
        int ip4 = d.find(Ip.IPV4);
        int ip6 = d.find(Ip.IPV6);
        if (ip4 >= 0 && d.layerLength(ip4) >= 20) {
            src = TreeLabels.text(Ip.V4_SRC, d, ip4);
            dst = TreeLabels.text(Ip.V4_DST, d, ip4);
        } else if (ip6 >= 0 && d.layerLength(ip6) >= 40) {
            src = TreeLabels.text(Ip.V6_SRC, d, ip6);
            dst = TreeLabels.text(Ip.V6_DST, d, ip6);
        }
        // CM MADs keep these addresses on purpose. tshark 4.0 shows a RoCE ConnectRequest as
        // "LID: 65535 → 10.0.0.2": while it records the connection (first pass only) it reuses
        // pinfo->src to register a conversation under the REQ's Primary Local Port LID, and that
        // overwrites the Source column. It is a side effect, not a display choice: `tshark -2`
        // (second pass, conversation already known) shows "10.0.0.1 → 10.0.0.2", and on native IB
        // the LID it writes usually equals the LRH's SLID anyway. We show what `tshark -2` shows.
        RdmaContext r = d.rdma();
        String protocol;
        String info;
        if (r.isRdma()) {
            protocol = switch (r.encapsulation) {
                case ROCE_V2_IPV4, ROCE_V2_IPV6 -> "RRoCE";
                case ROCE_V1 -> "RoCE";
                default -> "InfiniBand";
            };
            info = rdmaInfo(d, r);
        } else {
            protocol = topProtocol(d);
            info = otherInfo(d);
            IwarpInfo.Summary iwarp = IwarpInfo.of(d, info); // iWARP over TCP (issue 8)
            if (iwarp != null) {
                protocol = iwarp.protocol();
                info = iwarp.info();
            }
        }
        if (d.isMalformed()) {
            info = info + " [Malformed Packet]";
        }
        return new Columns(src, dst, protocol, info);
    }

    private static String rdmaInfo(Dissection d, RdmaContext r) {
        int mad = d.find(Mad.HEADER);
        int madClass = -1;
        if (mad >= 0 && d.layerLength(mad) == Mad.MAD_SIZE) {
            madClass = (int) Mad.MGMT_CLASS.read(d.buffer(), d.layerAt(mad));
            String whole = wholeMadInfo(madClass, (int) Mad.ATTRIBUTE_ID.read(d.buffer(), d.layerAt(mad)));
            if (whole != null) {
                return withCrcFlags(whole, d, r);
            }
        }
        // DC's opcodes are RD's; the dissector decided which this packet is (docs/dc.md), as tshark's Info says DC
        Opcode op = r.dynamicallyConnected ? Opcodes.dc(r.opcode, r.dcConnect) : Opcodes.of(r.opcode);
        // An SMP/SA label adds up to 52 characters (" SubnAdmGetTableResp(LinkSpeedWidthPairsTableRecord)"):
        // room for it from the start, so that the builder does not regrow.
        StringBuilder sb = new StringBuilder(madClass >= 0 ? 128 : 64);
        sb.append(op.shortName());
        if (d.layerLength(r.bthLayer) == 12) {
            sb.append(" QP=0x");
            String qp = Integer.toHexString(d.u24(r.bthStart + 5));
            sb.append("000000", qp.length(), 6).append(qp);
            sb.append(" PSN=").append(d.u24(r.bthStart + 9));
            int flags = d.u8(r.bthStart + 4);
            if ((flags & 0x80) != 0) {
                sb.append(" FECN");
            }
            if ((flags & 0x40) != 0) {
                sb.append(" BECN");
            }
        }
        int aeth = d.find(InfiniBand.AETH);
        if (aeth >= 0 && d.layerLength(aeth) == 4) {
            int syndrome = d.u8(d.layerStart(aeth));
            int value = syndrome & 0x1F;
            switch ((syndrome >> 5) & 3) {
                case InfiniBand.AETH_ACK -> sb.append(" ACK");
                case InfiniBand.AETH_RNR_NAK -> sb.append(" RNR NAK timer=")
                        .append(Aeth.RNR_TIMER_NAMES.nameOf(value));
                case InfiniBand.AETH_NAK -> {
                    String name = Aeth.NAK_CODE_NAMES.nameOf(value);
                    sb.append(" NAK ").append(name == null ? "reserved code " + value : name);
                }
                default -> sb.append(" reserved syndrome");
            }
            sb.append(" MSN=").append(d.u24(d.layerStart(aeth) + 1));
        }
        int reth = d.find(InfiniBand.RETH);
        if (reth >= 0 && d.layerLength(reth) == 16) {
            sb.append(" len=").append(d.u32(d.layerStart(reth) + 12));
        }
        if (madClass == Mad.CLASS_SUBN_LID_ROUTED || madClass == Mad.CLASS_SUBN_DIRECTED_ROUTE) {
            appendMethodAndAttribute(sb, d, mad, SMP_METHODS, SMP_UNKNOWN_METHOD, SMP_ATTRIBUTES);
        } else if (madClass == Mad.CLASS_SUBN_ADM) {
            appendMethodAndAttribute(sb, d, mad, SA_METHODS, SA_UNKNOWN_METHOD, SA_ATTRIBUTES);
        }
        if (r.icrcOffset >= 0 && Crcs.icrcStatus(d) == Crcs.STATUS_BAD) {
            sb.append(" [ICRC bad]");
        }
        if (r.vcrcOffset >= 0 && Crcs.vcrcStatus(d) == Crcs.STATUS_BAD) {
            sb.append(" [VCRC bad]");
        }
        return sb.toString();
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
    private static String wholeMadInfo(int managementClass, int attributeId) {
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
    private static void appendMethodAndAttribute(StringBuilder sb, Dissection d, int madLayer, ValueNames methods,
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

    /** {@code info} with the CRC verdicts {@link #rdmaInfo} adds; the same string when both are good. */
    private static String withCrcFlags(String info, Dissection d, RdmaContext r) {
        boolean icrcBad = r.icrcOffset >= 0 && Crcs.icrcStatus(d) == Crcs.STATUS_BAD;
        boolean vcrcBad = r.vcrcOffset >= 0 && Crcs.vcrcStatus(d) == Crcs.STATUS_BAD;
        if (!icrcBad && !vcrcBad) {
            return info;
        }
        return info + (icrcBad ? " [ICRC bad]" : "") + (vcrcBad ? " [VCRC bad]" : "");
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

    /**
     * The highest protocol decoded, as Wireshark's Protocol column: the last layer that is a protocol
     * of its own. Ethernet's trailer (the padding that brings a short frame up to 60 bytes, the FCS)
     * comes after the payload but belongs to the Ethernet layer below it, so it never names the
     * column: a TCP SYN in a padded 60-byte frame is {@code TCP}, not {@code Ethernet}.
     */
    private static String topProtocol(Dissection d) {
        for (int i = d.layerCount() - 1; i >= 0; i--) {
            HeaderType h = d.layerType(i);
            if (h == Ethernet.PADDING_HEADER || h == Ethernet.FCS_HEADER || h == Ethernet.ETHERTYPE) {
                continue;
            }
            String p = h.protocol().abbrev();
            switch (p) {
                case "udp": return "UDP";
                case "tcp": return "TCP";
                case "ip": return "IPv4";
                case "ipv6": return "IPv6";
                case "eth": // a cut Ethernet header has no type field to read (found by fuzzing)
                    return d.layerLength(i) >= 14 && !d.isLayerTruncated(i)
                            && d.u16(d.layerStart(i) + 12) == Ethernet.ETHERTYPE_ARP ? "ARP" : "Ethernet";
                case "sll": return "SLL";
                case "erf": return "ERF";
                default: break;
            }
        }
        return "Data";
    }

    private static String otherInfo(Dissection d) {
        int udp = d.find(Transport.UDP);
        if (udp >= 0 && d.layerLength(udp) == 8) {
            int s = d.layerStart(udp);
            return d.u16(s) + " \u2192 " + d.u16(s + 2) + " Len=" + Math.max(0, d.u16(s + 4) - 8);
        }
        int tcp = d.find(Transport.TCP);
        if (tcp >= 0 && d.layerLength(tcp) >= 20) {
            int s = d.layerStart(tcp);
            // tshark's order and numbers (relative unless -o says raw): Seq, Ack with the ACK flag, Len.
            // Its Win= (the scaled window) and option summaries are not shown: we keep no window scale.
            String ack = (d.u8(s + 13) & 0x10) != 0 ? " Ack=" + d.tcpAck() : "";
            return d.u16(s) + " \u2192 " + d.u16(s + 2) + " [" + tcpFlags(d.u8(s + 13)) + "] Seq=" + d.tcpSeq()
                    + ack + " Len=" + d.tcpPayloadLength();
        }
        return fallbackInfo(d);
    }

    /**
     * Info for a frame whose top protocol we do not decode further, never blank (issue 17): ARP in
     * tshark's words (RFC 826 over Ethernet/IPv4), else what the IP header says it carries, else the
     * top layer's name and size.
     */
    private static String fallbackInfo(Dissection d) {
        int eth = d.find(Ethernet.HEADER);
        if (eth >= 0 && d.layerLength(eth) >= 14 && !d.isLayerTruncated(eth)
                && d.u16(d.layerStart(eth) + 12) == Ethernet.ETHERTYPE_ARP) {
            String arp = arpInfo(d, d.layerStart(eth) + 14);
            if (arp != null) {
                return arp;
            }
        }
        int ip4 = d.find(Ip.IPV4);
        if (ip4 >= 0 && d.layerLength(ip4) >= 20) {
            return carried(Ip.V4_PROTO, d, ip4, d.u16(d.layerStart(ip4) + 2) - d.layerLength(ip4));
        }
        int ip6 = d.find(Ip.IPV6);
        if (ip6 >= 0 && d.layerLength(ip6) >= 40) {
            return carried(Ip.V6_NXT, d, ip6, d.u16(d.layerStart(ip6) + 4));
        }
        int top = d.layerCount() - 1;
        return top <= 0 ? "" : d.layerType(top).name() + " (" + d.layerLength(top) + " bytes)";
    }

    /** "ICMPv6 (58), 8 bytes": the protocol an IP header names and the bytes it carries. */
    private static String carried(io.rdmascope.field.Field protocolField, Dissection d, int ipLayer, int bytes) {
        long p = protocolField.read(d.buffer(), d.layerAt(ipLayer));
        String name = protocolField.valueNames() == null ? null : protocolField.valueNames().nameOf(p);
        return (name != null ? name + " (" + p + ")" : "IP protocol " + p) + ", " + Math.max(0, bytes) + " bytes";
    }

    /**
     * tshark's ARP Info: "Who has 10.0.0.2? Tell 10.0.0.1" for a request, "10.0.0.2 is at
     * 02:00:00:00:00:02" for a reply; null for ARP that is not Ethernet/IPv4 or not captured whole.
     */
    private static String arpInfo(Dissection d, int at) {
        if (at + 28 > d.capturedLength() || d.u16(at) != 1 || d.u16(at + 2) != Ethernet.ETHERTYPE_IPV4
                || d.u8(at + 4) != 6 || d.u8(at + 5) != 4) {
            return null;
        }
        String senderIp = ipv4(d, at + 14);
        String targetIp = ipv4(d, at + 24);
        return switch (d.u16(at + 6)) {
            case 1 -> "Who has " + targetIp + "? Tell " + senderIp;
            case 2 -> {
                StringBuilder mac = new StringBuilder(17);
                for (int i = 0; i < 6; i++) {
                    mac.append(i > 0 ? ":" : "").append(Character.forDigit(d.u8(at + 8 + i) >> 4, 16))
                            .append(Character.forDigit(d.u8(at + 8 + i) & 0xF, 16));
                }
                yield senderIp + " is at " + mac;
            }
            default -> "ARP opcode " + d.u16(at + 6);
        };
    }

    private static String ipv4(Dissection d, int at) {
        return d.u8(at) + "." + d.u8(at + 1) + "." + d.u8(at + 2) + "." + d.u8(at + 3);
    }

    /** Set flags lowest bit first, as Wireshark lists them: "SYN, ACK", "FIN, ACK", "PSH, ACK". */
    private static String tcpFlags(int flags) {
        String[] names = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR"};
        StringBuilder sb = new StringBuilder();
        for (int bit = 0; bit < names.length; bit++) {
            if ((flags & (1 << bit)) != 0) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                sb.append(names[bit]);
            }
        }
        return sb.toString();
    }
}
