package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.Aeth;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;

/**
 * The packet-list columns of one frame (Source, Destination, Protocol, Info), as tshark's one-line
 * output and the GUI's packet list show them. Info for RDMA reads like
 * {@code RC RDMA WRITE First QP=0x000011 PSN=42}.
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
        }
        if (d.isMalformed()) {
            info = info + " [Malformed Packet]";
        }
        return new Columns(src, dst, protocol, info);
    }

    private static String rdmaInfo(Dissection d, RdmaContext r) {
        Opcode op = Opcodes.of(r.opcode);
        StringBuilder sb = new StringBuilder(64);
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
        if (r.icrcOffset >= 0 && Crcs.icrcStatus(d) == Crcs.STATUS_BAD) {
            sb.append(" [ICRC bad]");
        }
        if (r.vcrcOffset >= 0 && Crcs.vcrcStatus(d) == Crcs.STATUS_BAD) {
            sb.append(" [VCRC bad]");
        }
        return sb.toString();
    }

    private static String topProtocol(Dissection d) {
        for (int i = d.layerCount() - 1; i >= 0; i--) {
            HeaderType h = d.layerType(i);
            String p = h.protocol().abbrev();
            switch (p) {
                case "udp": return "UDP";
                case "tcp": return "TCP";
                case "ip": return "IPv4";
                case "ipv6": return "IPv6";
                case "eth": return d.u16(d.layerStart(i) + 12) == Ethernet.ETHERTYPE_ARP ? "ARP" : "Ethernet";
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
            return d.u16(s) + " \u2192 " + d.u16(s + 2) + " [" + tcpFlags(d.u8(s + 13)) + "] Seq=" + d.u32(s + 4)
                    + " Len=" + d.tcpPayloadLength();
        }
        return "";
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
