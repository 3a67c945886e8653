package io.rdmascope.proto.ip;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.dissect.stream.TcpConversation;
import io.rdmascope.dissect.stream.TcpStreams;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.proto.data.Data;

/** UDP (RFC 768) and the TCP header (RFC 9293); what rides on TCP (iWARP) registers with the chain. */
public final class Transport {
    /** IANA port of RoCEv2 (IBTA Annex A17). */
    public static final int ROCE_V2_PORT = DissectorChain.ROCE_V2_PORT;

    public static final Protocol UDP_PROTOCOL = new Protocol("udp", "User Datagram Protocol");
    public static final Field UDP_SRCPORT = Field.uint16("udp.srcport", "Source Port", 0);
    public static final Field UDP_DSTPORT = Field.uint16("udp.dstport", "Destination Port", 2);
    public static final Field UDP_PORT = Field.uint16("udp.port", "Source or Destination Port", 0).alsoAt(2);
    public static final Field UDP_LENGTH = Field.uint16("udp.length", "Length", 4);
    public static final Field UDP_CHECKSUM = Field.uint16("udp.checksum", "Checksum", 6).hex();
    public static final HeaderType UDP = HeaderType.protocolHeader(UDP_PROTOCOL, UDP_SRCPORT, UDP_DSTPORT, UDP_PORT,
            UDP_LENGTH, UDP_CHECKSUM);

    public static final Protocol TCP_PROTOCOL = new Protocol("tcp", "Transmission Control Protocol");
    public static final Field TCP_SRCPORT = Field.uint16("tcp.srcport", "Source Port", 0);
    public static final Field TCP_DSTPORT = Field.uint16("tcp.dstport", "Destination Port", 2);
    public static final Field TCP_PORT = Field.uint16("tcp.port", "Source or Destination Port", 0).alsoAt(2);
    /**
     * Wireshark's tcp.seq, tcp.nxtseq and tcp.ack are relative to each direction's start by default
     * (the TCP dissector keeps the bases, {@link TcpStreams}); the raw fields are what the wire holds.
     * tshark words the two raw fields differently ("Number" against "number"), and so do we.
     */
    public static final Field TCP_SEQ = Field.computed("tcp.seq", "Sequence Number", FieldType.UINT32, Base.DEC,
            (d, l) -> d.tcpSeq());
    public static final Field TCP_SEQ_RAW = Field.uint32("tcp.seq_raw", "Sequence Number (raw)", 4);
    public static final Field TCP_NXTSEQ = Field.computed("tcp.nxtseq", "Next Sequence Number", FieldType.UINT32,
            Base.DEC, (d, l) -> d.tcpNextSeq());
    public static final Field TCP_ACK = Field.computed("tcp.ack", "Acknowledgment Number", FieldType.UINT32,
            Base.DEC, (d, l) -> d.tcpAck());
    public static final Field TCP_ACK_RAW = Field.uint32("tcp.ack_raw", "Acknowledgment number (raw)", 8);
    public static final Field TCP_HDR_LEN = Field.computed("tcp.hdr_len", "Header Length", FieldType.UINT8,
            Base.DEC, (d, l) -> d.layerLength(l) < 13 ? 0 : ((d.u8(d.layerStart(l) + 12) >> 4) & 0xF) * 4L)
            .unit("bytes");
    public static final Field TCP_FLAGS = Field.uint16("tcp.flags", "Flags", 12).mask(0x0FFF).hex();
    public static final Field TCP_FLAGS_CWR = Field.bool("tcp.flags.cwr", "Congestion Window Reduced", 12, 2, 0x80);
    public static final Field TCP_FLAGS_ECE = Field.bool("tcp.flags.ece", "ECN-Echo", 12, 2, 0x40);
    public static final Field TCP_FLAGS_URG = Field.bool("tcp.flags.urg", "Urgent", 12, 2, 0x20);
    public static final Field TCP_FLAGS_ACK = Field.bool("tcp.flags.ack", "Acknowledgment", 12, 2, 0x10);
    public static final Field TCP_FLAGS_PUSH = Field.bool("tcp.flags.push", "Push", 12, 2, 0x08);
    public static final Field TCP_FLAGS_RESET = Field.bool("tcp.flags.reset", "Reset", 12, 2, 0x04);
    public static final Field TCP_FLAGS_SYN = Field.bool("tcp.flags.syn", "Syn", 12, 2, 0x02);
    public static final Field TCP_FLAGS_FIN = Field.bool("tcp.flags.fin", "Fin", 12, 2, 0x01);
    public static final Field TCP_WINDOW = Field.uint16("tcp.window_size_value", "Window", 14);
    public static final Field TCP_CHECKSUM = Field.uint16("tcp.checksum", "Checksum", 16).hex();
    public static final Field TCP_URGENT = Field.uint16("tcp.urgent_pointer", "Urgent Pointer", 18);
    public static final Field TCP_LEN = Field.computed("tcp.len", "TCP Segment Len", FieldType.UINT32, Base.DEC,
            (d, l) -> d.tcpPayloadLength());
    public static final HeaderType TCP = HeaderType.protocolHeader(TCP_PROTOCOL, TCP_SRCPORT, TCP_DSTPORT, TCP_PORT,
            TCP_SEQ, TCP_SEQ_RAW, TCP_NXTSEQ, TCP_ACK, TCP_ACK_RAW, TCP_HDR_LEN, TCP_FLAGS, TCP_FLAGS_CWR, TCP_FLAGS_ECE, TCP_FLAGS_URG,
            TCP_FLAGS_ACK, TCP_FLAGS_PUSH, TCP_FLAGS_RESET, TCP_FLAGS_SYN, TCP_FLAGS_FIN, TCP_WINDOW, TCP_CHECKSUM,
            TCP_URGENT, TCP_LEN);

    private Transport() {
    }

    public static void dissectUdp(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(UDP, offset, 8) < 0) {
            return;
        }
        int length = d.u16(offset + 4);
        if (length < 8) {
            d.markMalformed();
            return;
        }
        d.declaredEnd(offset + length);
        int payloadEnd = Math.min(end, offset + length);
        int dst = d.u16(offset + 2);
        int src = d.u16(offset);
        if (chain.isRocePort(dst) || chain.isRocePort(src)) {
            chain.roceV2(d, offset + 8, payloadEnd);
        } else {
            Data.dissect(chain, d, offset + 8, payloadEnd);
        }
    }

    public static void dissectTcp(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(TCP, offset, 20) < 0) {
            return;
        }
        int headerLength = ((d.u8(offset + 12) >> 4) & 0xF) * 4;
        if (headerLength < 20) {
            d.markMalformed();
            return;
        }
        int layer = d.layerCount() - 1;
        StreamState.of(d).beginFrame(d.frame().number()); // before the lookup: frames out of order start a new pass
        TcpStreams streams = TcpStreams.of(d);
        TcpConversation conversation = trackNumbers(chain, d, layer, offset, Math.max(0, end - offset - headerLength),
                streams);
        if (offset + headerLength > d.capturedLength()) {
            d.setLength(layer, headerLength);
            d.markMalformed();
            return;
        }
        d.setLength(layer, headerLength);
        d.setTcpPayloadLength(Math.max(0, end - offset - headerLength));
        if (!chain.tcpPayload(d, layer, offset + headerLength, end, streams, conversation)) { // iWARP, issue 8
            Data.dissect(chain, d, offset + headerLength, end);
        }
    }

    /**
     * Follows the segment of TCP layer {@code layer} in its connection and records its numbers as
     * tcp.seq, tcp.ack and tcp.nxtseq show them: relative to the direction's base unless the chain
     * says raw. As tshark 4.0 does, the acknowledgment number is relative only with the ACK flag set,
     * and the next sequence number counts the payload ({@code payload}, tcp.len) plus one for a SYN
     * and one for a FIN (RFC 9293 §3.4). Returns the connection, or null without an enclosing IP header.
     */
    private static TcpConversation trackNumbers(DissectorChain chain, Dissection d, int layer, int offset,
                                                int payload, TcpStreams streams) {
        int seq = (int) d.u32(offset + 4);
        int ack = (int) d.u32(offset + 8);
        int flags = d.u16(offset + 12);
        TcpConversation c = streams.track(d, layer, seq, ack, flags);
        boolean relative = c != null && chain.relativeTcpSequenceNumbers();
        boolean fromLow = streams.probe().fromLow();
        int shownSeq = relative ? seq - c.base(fromLow) : seq;
        int shownAck = relative && (flags & 0x10) != 0 ? ack - c.base(!fromLow) : ack;
        int next = shownSeq + payload + ((flags & 0x02) != 0 ? 1 : 0) + ((flags & 0x01) != 0 ? 1 : 0);
        d.setTcpNumbers(shownSeq, shownAck, next, relative);
        return c;
    }
}
