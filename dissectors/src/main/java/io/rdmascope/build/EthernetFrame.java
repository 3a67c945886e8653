package io.rdmascope.build;

import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;

import java.util.ArrayList;
import java.util.List;

/**
 * Plain Ethernet frames — UDP and TCP over IPv4 or IPv6, or any ethertype — for tests that need
 * traffic beside the RDMA (the TCP out-of-band exchange of perftest, DNS, iWARP's TCP stream):
 * <pre>{@code
 * byte[] frame = EthernetFrame.between(srcMac, dstMac).vlan(10, 0).ipv4(srcIp, dstIp).udp(5353, 53, query);
 * }</pre>
 * Written through the same field declarations as {@link RocePacket}. Unlike RoCE, whose UDP
 * checksum is 0 by convention, these frames carry correct UDP and TCP checksums (RFC 768, RFC 9293)
 * and a correct IPv4 header checksum. No FCS, as libpcap delivers Ethernet.
 */
public final class EthernetFrame {
    private static final int TCP_HEADER_LENGTH = 20;

    private final byte[] srcMac;
    private final byte[] dstMac;
    private final List<int[]> tags = new ArrayList<>();
    private byte[] srcIp;
    private byte[] dstIp;
    private int hopLimit = 64;
    private int ipId;

    private EthernetFrame(byte[] srcMac, byte[] dstMac) {
        this.srcMac = RocePacket.length(srcMac, 6, "MAC address");
        this.dstMac = RocePacket.length(dstMac, 6, "MAC address");
    }

    public static EthernetFrame between(byte[] srcMac, byte[] dstMac) {
        return new EthernetFrame(srcMac, dstMac);
    }

    /** Adds an 802.1Q tag (outermost first when called repeatedly). */
    public EthernetFrame vlan(int id, int priority) {
        tags.add(new int[]{Ethernet.ETHERTYPE_VLAN, RocePacket.checkRange(priority, 7,
                "priority"), 0, RocePacket.checkRange(id, 0xFFF, "VLAN id")});
        return this;
    }

    public EthernetFrame ipv4(byte[] src, byte[] dst) {
        srcIp = RocePacket.length(src, 4, "IPv4 address");
        dstIp = RocePacket.length(dst, 4, "IPv4 address");
        return this;
    }

    public EthernetFrame ipv6(byte[] src, byte[] dst) {
        srcIp = RocePacket.length(src, 16, "IPv6 address");
        dstIp = RocePacket.length(dst, 16, "IPv6 address");
        return this;
    }

    /** IPv4 TTL / IPv6 hop limit (64 unless set). */
    public EthernetFrame hopLimit(int value) {
        hopLimit = RocePacket.checkRange(value, 0xFF, "hop limit");
        return this;
    }

    public EthernetFrame ipId(int value) {
        ipId = RocePacket.checkRange(value, 0xFFFF, "IP id");
        return this;
    }

    /** A UDP datagram with a correct checksum. */
    public byte[] udp(int srcPort, int dstPort, byte[] payload) {
        int length = 8 + payload.length;
        Header udp = new Header(Transport.UDP, 8)
                .set(Transport.UDP_SRCPORT, RocePacket.checkRange(srcPort, 0xFFFF, "port"))
                .set(Transport.UDP_DSTPORT, RocePacket.checkRange(dstPort, 0xFFFF, "port"))
                .set(Transport.UDP_LENGTH, RocePacket.checkRange(length, 0xFFFF, "UDP length"));
        byte[] segment = concat(udp.toBytes(), payload);
        int sum = Checksums.internet(segment, 0, segment.length, pseudoHeaderSum(Ip.PROTO_UDP, segment.length));
        HeaderWriter.write(segment, 0, Transport.UDP_CHECKSUM, sum == 0 ? 0xFFFF : sum); // 0 means "none" (RFC 768)
        return ip(Ip.PROTO_UDP, segment);
    }

    /**
     * A TCP segment without options and with a correct checksum.
     *
     * @param flags the 12 flag bits as {@code tcp.flags} shows them (SYN 0x002, ACK 0x010, PSH 0x008, FIN 0x001)
     */
    public byte[] tcp(int srcPort, int dstPort, long seq, long ack, int flags, byte[] payload) {
        Header tcp = new Header(Transport.TCP, TCP_HEADER_LENGTH)
                .set(Transport.TCP_SRCPORT, RocePacket.checkRange(srcPort, 0xFFFF, "port"))
                .set(Transport.TCP_DSTPORT, RocePacket.checkRange(dstPort, 0xFFFF, "port"))
                .set(Transport.TCP_SEQ_RAW, seq)
                .set(Transport.TCP_ACK_RAW, ack)
                .set(Transport.TCP_FLAGS, flags)
                .set(Transport.TCP_WINDOW, 0xFFFF);
        byte[] segment = concat(tcp.toBytes(), payload);
        // tcp.hdr_len is declared as a computed byte count, so the raw data-offset nibble has no
        // field to write through: 5 words, no options.
        segment[12] = (byte) ((TCP_HEADER_LENGTH / 4) << 4 | (segment[12] & 0x0F));
        int sum = Checksums.internet(segment, 0, segment.length, pseudoHeaderSum(Ip.PROTO_TCP, segment.length));
        HeaderWriter.write(segment, 0, Transport.TCP_CHECKSUM, sum);
        return ip(Ip.PROTO_TCP, segment);
    }

    /** Any payload under any ethertype (ARP, LLDP, a raw RoCEv1 body built by hand). */
    public byte[] etherType(int etherType, byte[] payload) {
        return link(RocePacket.checkRange(etherType, 0xFFFF, "ethertype"), payload);
    }

    private byte[] ip(int protocol, byte[] segment) {
        if (srcIp == null) {
            throw new IllegalStateException("call ipv4() or ipv6() first");
        }
        if (srcIp.length == 4) {
            byte[] header = RocePacket.ipv4(srcIp, dstIp, 0, ipId, true, hopLimit, protocol, 20 + segment.length)
                    .toBytes();
            header[0] = (byte) ((header[0] & 0xF0) | 5);
            HeaderWriter.write(header, 0, Ip.V4_CHECKSUM, Checksums.internet(header, 0, 20, 0));
            return link(Ethernet.ETHERTYPE_IPV4, concat(header, segment));
        }
        byte[] header = RocePacket.ipv6(srcIp, dstIp, 0, 0, hopLimit, protocol, segment.length).toBytes();
        return link(Ethernet.ETHERTYPE_IPV6, concat(header, segment));
    }

    private byte[] link(int etherType, byte[] payload) {
        List<Header> headers = RocePacket.ethernetAndTags(srcMac, dstMac, tags, etherType);
        int length = payload.length;
        for (Header h : headers) {
            length += h.length();
        }
        byte[] out = new byte[length];
        int at = 0;
        for (Header h : headers) {
            h.writeTo(out, at);
            at += h.length();
        }
        System.arraycopy(payload, 0, out, at, payload.length);
        return out;
    }

    private long pseudoHeaderSum(int protocol, int segmentLength) {
        if (srcIp == null) {
            throw new IllegalStateException("call ipv4() or ipv6() first");
        }
        long sum = Checksums.partialSum(srcIp, 0, srcIp.length) + Checksums.partialSum(dstIp, 0, dstIp.length);
        // IPv4: zero, protocol, 16-bit length; IPv6: 32-bit length, three zero bytes, next header.
        return sum + protocol + (segmentLength & 0xFFFF) + (segmentLength >>> 16);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
