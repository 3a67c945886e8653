package io.rdmascope.proto.ip;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.text.TreeLabels;

import java.util.List;
import java.util.Set;

/** IPv4, IPv6, UDP and TCP: their registrations, columns and tree text. */
public final class IpModule implements ProtocolModule {
    /**
     * Fields Wireshark adds to the tree hidden, for filters only: the "either" fields of IP, TCP and
     * UDP (packet-ip.c, packet-tcp.c and packet-udp.c add them with {@code PROTO_ITEM_SET_HIDDEN}).
     * Ethernet's {@code eth.addr} is shown, under Destination and Source, so it is not here.
     */
    private static final Set<Field> HIDDEN = Set.of(Ip.V4_ADDR, Ip.V6_ADDR, Transport.TCP_PORT, Transport.UDP_PORT);

    @Override
    public List<HeaderType> headers() {
        return List.of(Ip.IPV4, Ip.IPV6, Transport.UDP, Transport.TCP);
    }

    @Override
    public void register(Registrations r) {
        r.linkType(LinkTypes.RAW, Ip::dissectRaw);
        r.linkType(LinkTypes.IPV4, Ip::dissectV4);
        r.linkType(LinkTypes.IPV6, Ip::dissectV6);
        r.etherType(Ethernet.ETHERTYPE_IPV4, Ip::dissectV4);
        r.etherType(Ethernet.ETHERTYPE_IPV6, Ip::dissectV6);
        r.ipProtocol(Ip.PROTO_UDP, Transport::dissectUdp);
        r.ipProtocol(Ip.PROTO_TCP, Transport::dissectTcp);
    }

    @Override
    public Addresses addresses(Dissection d) {
        int ip4 = d.find(Ip.IPV4);
        if (ip4 >= 0 && d.layerLength(ip4) >= 20) {
            return new Addresses(TreeLabels.text(Ip.V4_SRC, d, ip4), TreeLabels.text(Ip.V4_DST, d, ip4),
                    Addresses.IP);
        }
        int ip6 = d.find(Ip.IPV6);
        if (ip6 >= 0 && d.layerLength(ip6) >= 40) {
            return new Addresses(TreeLabels.text(Ip.V6_SRC, d, ip6), TreeLabels.text(Ip.V6_DST, d, ip6),
                    Addresses.IP);
        }
        return null;
    }

    @Override
    public String protocolColumn(Dissection d, int layer) {
        return switch (d.layerType(layer).protocol().abbrev()) {
            case "udp" -> "UDP";
            case "tcp" -> "TCP";
            case "ip" -> "IPv4";
            case "ipv6" -> "IPv6";
            default -> null;
        };
    }

    @Override
    public String info(Dissection d) {
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
        return null;
    }

    /** What the IP header says it carries, for a payload nobody decodes: "ICMPv6 (58), 8 bytes". */
    @Override
    public String fallbackInfo(Dissection d) {
        int ip4 = d.find(Ip.IPV4);
        if (ip4 >= 0 && d.layerLength(ip4) >= 20) {
            return carried(Ip.V4_PROTO, d, ip4, d.u16(d.layerStart(ip4) + 2) - d.layerLength(ip4));
        }
        int ip6 = d.find(Ip.IPV6);
        if (ip6 >= 0 && d.layerLength(ip6) >= 40) {
            return carried(Ip.V6_NXT, d, ip6, d.u16(d.layerStart(ip6) + 4));
        }
        return null;
    }

    @Override
    public String headerLabel(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        if (h == Ip.IPV4 && d.layerLength(layer) >= 20) {
            return h.name() + ", Src: " + TreeLabels.text(Ip.V4_SRC, d, layer) + ", Dst: "
                    + TreeLabels.text(Ip.V4_DST, d, layer);
        }
        if (h == Ip.IPV6 && d.layerLength(layer) >= 40) {
            return h.name() + ", Src: " + TreeLabels.text(Ip.V6_SRC, d, layer) + ", Dst: "
                    + TreeLabels.text(Ip.V6_DST, d, layer);
        }
        if ((h == Transport.UDP || h == Transport.TCP) && d.layerLength(layer) >= 4) {
            return h.name() + ", Src Port: " + (d.u16(d.layerStart(layer))) + ", Dst Port: "
                    + d.u16(d.layerStart(layer) + 2);
        }
        return null;
    }

    @Override
    public boolean isGenerated(Field f) {
        return f == Transport.TCP_NXTSEQ;
    }

    @Override
    public boolean isHidden(Field f, HeaderType h) {
        return HIDDEN.contains(f);
    }

    /**
     * With raw TCP numbers (tcp.relative_sequence_numbers off) tshark 4.0 hides tcp.seq_raw, and
     * tcp.ack_raw when the ACK flag is set, since tcp.seq and tcp.ack then show the same values.
     */
    @Override
    public boolean isHiddenIn(Field f, Dissection d, int layer) {
        if (d.layerType(layer) != Transport.TCP || d.tcpRelative()) {
            return false;
        }
        return f == Transport.TCP_SEQ_RAW || f == Transport.TCP_ACK_RAW && tcpAckFlag(d, layer);
    }

    /** IPv4 and TCP flags read "Set"/"Not set" (Wireshark's {@code tfs_set_notset}). */
    @Override
    public String booleanText(Field f, long value) {
        if (f.abbrev().startsWith("ip.flags.") || f.abbrev().startsWith("tcp.flags.")) {
            return value != 0 ? "Set" : "Not set";
        }
        return null;
    }

    @Override
    public void appendToFieldLabel(StringBuilder sb, Field f, Dissection d, int layer) {
        lengthBeyondFrame(sb, f, d, layer);
        relativeTcpNumber(sb, f, d, layer);
    }

    private static boolean tcpAckFlag(Dissection d, int layer) {
        return (d.u16(d.layerStart(layer) + 12) & 0x10) != 0;
    }

    /** tshark's words after a relative TCP number: "Sequence Number: 1    (relative sequence number)". */
    private static void relativeTcpNumber(StringBuilder sb, Field f, Dissection d, int layer) {
        if (!d.tcpRelative()) {
            return;
        }
        if (f == Transport.TCP_SEQ || f == Transport.TCP_NXTSEQ) {
            sb.append("    (relative sequence number)");
        } else if (f == Transport.TCP_ACK && tcpAckFlag(d, layer)) {
            sb.append("    (relative ack number)");
        }
    }

    /**
     * A length field that says the packet runs past the frame's bytes on the wire (a frame cut
     * without saying so, {@link Dissection#isCutSilently}): Wireshark's expert texts for it.
     */
    private static void lengthBeyondFrame(StringBuilder sb, Field f, Dissection d, int layer) {
        if (f != Ip.V4_LEN && f != Ip.V6_PLEN && f != Transport.UDP_LENGTH || !d.isCutSilently()) {
            return;
        }
        int available = d.capturedLength() - d.layerStart(layer); // from this header to the frame's end
        long declared = f.read(d.buffer(), d.layerAt(layer));
        if (f == Ip.V4_LEN && declared > available) {
            sb.append(" [IPv4 total length exceeds packet length (").append(available).append(" bytes)]");
        } else if (f == Ip.V6_PLEN && declared > available - 40) {
            sb.append(" [IPv6 payload length exceeds framing length (").append(available - 40).append(" bytes)]");
        } else if (f == Transport.UDP_LENGTH && declared > available) {
            sb.append(" (bogus, payload length ").append(available).append(')');
        }
    }

    /** "ICMPv6 (58), 8 bytes": the protocol an IP header names and the bytes it carries. */
    private static String carried(Field protocolField, Dissection d, int ipLayer, int bytes) {
        long p = protocolField.read(d.buffer(), d.layerAt(ipLayer));
        String name = protocolField.valueNames() == null ? null : protocolField.valueNames().nameOf(p);
        return (name != null ? name + " (" + p + ")" : "IP protocol " + p) + ", " + Math.max(0, bytes) + " bytes";
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
