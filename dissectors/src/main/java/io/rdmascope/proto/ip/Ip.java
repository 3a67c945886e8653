package io.rdmascope.proto.ip;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.eth.Ethernet;

/** IPv4 (RFC 791) and IPv6 (RFC 8200; extension headers skipped), with Wireshark's field names. */
public final class Ip {
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;

    public static final ValueNames PROTOCOL_NAMES = ValueNames.of(1, "ICMP", 2, "IGMP", PROTO_TCP, "TCP",
            PROTO_UDP, "UDP", 41, "IPv6", 47, "GRE", 50, "ESP", 58, "ICMPv6", 132, "SCTP");
    public static final ValueNames ECN_NAMES = ValueNames.of(0, "Not ECN-Capable Transport", 1,
            "ECN-Capable Transport codepoint '01'", 2, "ECN-Capable Transport codepoint '10'", 3,
            "Congestion Experienced");

    public static final Protocol V4 = new Protocol("ip", "Internet Protocol Version 4");
    public static final Field V4_VERSION = Field.uint8("ip.version", "Version", 0).mask(0xF0);
    /** Wireshark shows the header length in bytes (the nibble times four). */
    public static final Field V4_HDR_LEN = Field.computed("ip.hdr_len", "Header Length", FieldType.UINT8, Base.DEC,
            (d, l) -> d.layerLength(l) < 1 ? 0 : (d.u8(d.layerStart(l)) & 0x0F) * 4L).unit("bytes");
    public static final Field V4_DSFIELD = Field.uint8("ip.dsfield", "Differentiated Services Field", 1).hex();
    public static final Field V4_DSCP = Field.uint8("ip.dsfield.dscp", "Differentiated Services Codepoint", 1)
            .mask(0xFC);
    public static final Field V4_ECN = Field.uint8("ip.dsfield.ecn", "Explicit Congestion Notification", 1)
            .mask(0x03).names(ECN_NAMES);
    public static final Field V4_LEN = Field.uint16("ip.len", "Total Length", 2);
    public static final Field V4_ID = Field.uint16("ip.id", "Identification", 4).base(Base.HEX_DEC);
    public static final Field V4_FLAGS = Field.uint8("ip.flags", "Flags", 6).mask(0xE0).hex();
    public static final Field V4_FLAGS_RB = Field.bool("ip.flags.rb", "Reserved bit", 6, 1, 0x80);
    public static final Field V4_FLAGS_DF = Field.bool("ip.flags.df", "Don't fragment", 6, 1, 0x40);
    public static final Field V4_FLAGS_MF = Field.bool("ip.flags.mf", "More fragments", 6, 1, 0x20);
    public static final Field V4_FRAG_OFFSET = Field.uint16("ip.frag_offset", "Fragment Offset", 6).mask(0x1FFF);
    public static final Field V4_TTL = Field.uint8("ip.ttl", "Time to Live", 8);
    public static final Field V4_PROTO = Field.uint8("ip.proto", "Protocol", 9).names(PROTOCOL_NAMES);
    public static final Field V4_CHECKSUM = Field.uint16("ip.checksum", "Header Checksum", 10).hex();
    public static final Field V4_SRC = Field.ipv4("ip.src", "Source Address", 12);
    public static final Field V4_DST = Field.ipv4("ip.dst", "Destination Address", 16);
    public static final Field V4_ADDR = Field.ipv4("ip.addr", "Source or Destination Address", 12).alsoAt(16);
    public static final HeaderType IPV4 = HeaderType.protocolHeader(V4, V4_VERSION, V4_HDR_LEN, V4_DSFIELD, V4_DSCP,
            V4_ECN, V4_LEN, V4_ID, V4_FLAGS, V4_FLAGS_RB, V4_FLAGS_DF, V4_FLAGS_MF, V4_FRAG_OFFSET, V4_TTL, V4_PROTO,
            V4_CHECKSUM, V4_SRC, V4_DST, V4_ADDR);

    public static final Protocol V6 = new Protocol("ipv6", "Internet Protocol Version 6");
    public static final Field V6_VERSION = Field.uint8("ipv6.version", "Version", 0).mask(0xF0);
    public static final Field V6_TCLASS = Field.uint32("ipv6.tclass", "Traffic Class", 0).mask(0x0FF00000).hex();
    public static final Field V6_DSCP = Field.uint32("ipv6.tclass.dscp", "Differentiated Services Codepoint", 0)
            .mask(0x0FC00000);
    public static final Field V6_ECN = Field.uint32("ipv6.tclass.ecn", "Explicit Congestion Notification", 0)
            .mask(0x00300000).names(ECN_NAMES);
    public static final Field V6_FLOW = Field.uint24("ipv6.flow", "Flow Label", 1).mask(0x0FFFFF).hex();
    public static final Field V6_PLEN = Field.uint16("ipv6.plen", "Payload Length", 4);
    public static final Field V6_NXT = Field.uint8("ipv6.nxt", "Next Header", 6).names(PROTOCOL_NAMES);
    public static final Field V6_HLIM = Field.uint8("ipv6.hlim", "Hop Limit", 7);
    public static final Field V6_SRC = Field.ipv6("ipv6.src", "Source Address", 8);
    public static final Field V6_DST = Field.ipv6("ipv6.dst", "Destination Address", 24);
    public static final Field V6_ADDR = Field.ipv6("ipv6.addr", "Source or Destination Address", 8).alsoAt(24);
    public static final HeaderType IPV6 = HeaderType.protocolHeader(V6, V6_VERSION, V6_TCLASS, V6_DSCP, V6_ECN,
            V6_FLOW, V6_PLEN, V6_NXT, V6_HLIM, V6_SRC, V6_DST, V6_ADDR);

    private Ip() {
    }

    public static void dissectV4(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(IPV4, offset, 20) < 0) {
            return;
        }
        int headerLength = (d.u8(offset) & 0x0F) * 4;
        int totalLength = d.u16(offset + 2);
        if (headerLength < 20 || totalLength < headerLength) {
            d.markMalformed(); // a length field that cannot be true: keep the header, decode no further
            return;
        }
        int layer = d.layerCount() - 1;
        if (headerLength > 20) {
            if (offset + headerLength > d.capturedLength()) {
                d.setLength(layer, headerLength);
                d.markMalformed();
                return;
            }
            d.setLength(layer, headerLength);
        }
        d.declaredEnd(offset + totalLength);
        int payloadEnd = Math.min(end, offset + totalLength);
        int fragment = d.u16(offset + 6) & 0x3FFF; // MF or a non-zero offset: not the whole datagram
        int protocol = d.u8(offset + 9);
        if (fragment != 0) {
            io.rdmascope.proto.data.Data.dissect(chain, d, offset + headerLength, payloadEnd);
        } else {
            chain.ipProtocol(d, protocol, offset + headerLength, payloadEnd);
        }
        Ethernet.padding(d, offset + totalLength, end);
    }

    public static void dissectV6(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(IPV6, offset, 40) < 0) {
            return;
        }
        int layer = d.layerCount() - 1;
        int plen = d.u16(offset + 4);
        if (plen != 0) { // 0: a jumbogram (RFC 2675) whose length is in a hop-by-hop option
            d.declaredEnd(offset + 40 + plen);
        }
        int payloadEnd = Math.min(end, offset + 40 + plen);
        int next = d.u8(offset + 6);
        int at = offset + 40;
        // Hop-by-hop, routing, destination options: skip them (bounded by the layer limit of one frame).
        for (int hops = 0; hops < 8 && (next == 0 || next == 43 || next == 60); hops++) {
            if (at + 8 > d.capturedLength()) {
                d.setLength(layer, d.capturedLength() - offset);
                d.markMalformed();
                return;
            }
            int extLength = (d.u8(at + 1) + 1) * 8;
            next = d.u8(at);
            at += extLength;
        }
        if (next == 44) {
            d.setLength(layer, at - offset);
            io.rdmascope.proto.data.Data.dissect(chain, d, at, payloadEnd); // fragment: not reassembled
            return;
        }
        if (at > d.capturedLength()) {
            d.setLength(layer, d.capturedLength() - offset);
            d.markMalformed();
            return;
        }
        d.setLength(layer, at - offset);
        chain.ipProtocol(d, next, at, payloadEnd);
        Ethernet.padding(d, payloadEnd, end);
    }

    /** A raw IP link type (LINKTYPE_RAW): the version nibble says IPv4 or IPv6. */
    public static void dissectRaw(DissectorChain chain, Dissection d, int offset, int end) {
        if (offset >= d.capturedLength()) {
            d.markMalformed();
            return;
        }
        int version = d.u8(offset) >> 4;
        if (version == 4) {
            dissectV4(chain, d, offset, end);
        } else if (version == 6) {
            dissectV6(chain, d, offset, end);
        } else {
            io.rdmascope.proto.data.Data.dissect(chain, d, offset, end);
        }
    }

    /** Frame offset of the IP header that carries layer {@code layer}, searching backwards; -1 if none. */
    public static int enclosingIpLayer(Dissection d, int layer) {
        for (int i = layer - 1; i >= 0; i--) {
            if (d.layerType(i) == IPV4 || d.layerType(i) == IPV6) {
                return i;
            }
        }
        return -1;
    }
}
