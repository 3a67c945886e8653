package io.rdmascope.dissect;

import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;

import java.nio.ByteBuffer;

/**
 * The fast-path result of dissecting one frame: which headers it holds, where each starts and how
 * long it is, with no tree, no strings and no per-frame allocation (DESIGN.md, "Two speeds").
 * Fields are read on demand straight from the frame's buffer through their declarations.
 *
 * <p>One instance is reused frame after frame by one thread; {@link #reset} clears it. A layer
 * whose header runs past the captured bytes is kept with the bytes that are there and flagged
 * malformed, and a {@code _ws.malformed} marker layer follows it, as in Wireshark.
 */
public final class Dissection {
    /** Bound on headers per frame: stacked VLAN tags or a crafted frame cannot grow it further. */
    public static final int MAX_LAYERS = 48;

    private final HeaderType[] types = new HeaderType[MAX_LAYERS];
    private final int[] starts = new int[MAX_LAYERS];
    private final int[] lengths = new int[MAX_LAYERS];
    private final boolean[] truncated = new boolean[MAX_LAYERS];
    private int count;
    private boolean malformed;
    private boolean cutSilently;
    private Frame frame;
    private ByteBuffer buffer;
    private int base;
    private final RdmaContext rdma = new RdmaContext();
    private long referenceTimeNanos = Long.MIN_VALUE;
    private long previousTimeNanos = Long.MIN_VALUE;
    private int tcpPayloadLength;
    /** The TCP segment's numbers as tcp.seq, tcp.ack and tcp.nxtseq show them (relative or raw). */
    private int tcpSeq;
    private int tcpAck;
    private int tcpNextSeq;
    private boolean tcpRelative;
    /** State a stream decoder keeps across frames (TCP reassembly for iWARP, issue 8); survives reset. */
    private Object streamState;
    /** Frame bytes followed by reassembled bytes, once a frame needs them; reused from frame to frame. */
    private byte[] extended = new byte[0];
    private int reassembledLength;
    /** Whether a protocol riding on RDMA claimed some of this frame's payload ({@link #carriesUpperLayer}). */
    private boolean upperLayer;

    /**
     * Makes this dissection the next one after {@code previous} when frames are dissected into several
     * {@code Dissection}s in turn (a replay thread replays one while the next is dissected): the stream
     * decoders' state, the reference time and the previous frame's time carry over, so fields and
     * stream decoding come out as if one dissection had been reused.
     */
    public void continueFrom(Dissection previous) {
        streamState = previous.streamState;
        referenceTimeNanos = previous.referenceTimeNanos;
        previousTimeNanos = previous.previousTimeNanos;
        frame = previous.frame;
    }

    /** Starts a new frame: forgets every layer of the previous one. */
    public void reset(Frame newFrame) {
        if (frame != null && frame != newFrame) {
            previousTimeNanos = io.rdmascope.proto.erf.Erf.shownTimeNanos(frame);
        }
        if (referenceTimeNanos == Long.MIN_VALUE) {
            referenceTimeNanos = io.rdmascope.proto.erf.Erf.shownTimeNanos(newFrame); // frame.time_relative counts from the first frame
        }
        this.frame = newFrame;
        if (buffer != newFrame.buffer()) {
            buffer = newFrame.buffer(); // frames share their reader's buffer: a store only when it moves (see push)
        }
        this.base = newFrame.offset();
        this.count = 0;
        this.malformed = false;
        this.cutSilently = false;
        this.tcpPayloadLength = 0;
        this.tcpSeq = 0;
        this.tcpAck = 0;
        this.tcpNextSeq = 0;
        this.tcpRelative = false;
        this.reassembledLength = 0;
        this.upperLayer = false;
        this.rdma.reset();
    }

    /**
     * Records a header of {@code length} bytes at frame offset {@code start}. When fewer bytes were
     * captured, keeps what is there, marks the frame malformed and returns -1 so the caller stops.
     */
    public int add(HeaderType type, int start, int length) {
        int available = limit() - start;
        if (length <= available) {
            return push(type, start, length, false);
        }
        push(type, start, Math.max(0, available), true);
        markMalformed();
        return -1;
    }

    private int push(HeaderType type, int start, int length, boolean cut) {
        if (count == MAX_LAYERS) {
            markMalformed();
            return -1;
        }
        if (types[count] != type) {
            // Stored only when it differs: frame after frame the same types sit at the same indices, and a
            // reference store into this long-lived array costs a G1 write barrier with a fence each time.
            types[count] = type;
        }
        starts[count] = start;
        lengths[count] = length;
        truncated[count] = cut;
        return count++;
    }

    /** Adjusts a layer's length once its dissector knows it (never beyond the captured bytes). */
    public void setLength(int layer, int length) {
        lengths[layer] = Math.min(length, limit() - starts[layer]);
    }

    /** End of the addressable bytes: the captured frame, then any reassembled bytes. */
    private int limit() {
        return frame.capturedLength() + reassembledLength;
    }

    // ---- bytes from other frames and state across frames (iWARP over TCP, issue 8) -------------------

    /**
     * Appends bytes that are not in this frame as captured (a PDU put together from several TCP
     * segments, its MPA markers removed: Wireshark's "Reassembled TCP" data source) and returns the
     * frame offset where they now start, at or past {@link #capturedLength()}. Layers may lie there
     * and every field reads them as usual through {@link #buffer()} and {@link #layerAt}; the frame
     * itself, and hex dumps of it, are unchanged. The first call in a frame copies the frame's bytes
     * into a private array that is reused from frame to frame, so only frames that need it pay.
     */
    public int addReassembled(byte[] bytes, int from, int length) {
        int captured = frame.capturedLength();
        int at = captured + reassembledLength;
        if (extended.length < at + length) {
            extended = java.util.Arrays.copyOf(extended, Math.max(at + length, extended.length * 2));
        }
        if (reassembledLength == 0) {
            frame.buffer().get(frame.offset(), extended, 0, captured);
            buffer = ByteBuffer.wrap(extended);
            base = 0;
        }
        System.arraycopy(bytes, from, extended, at, length);
        reassembledLength += length;
        if (buffer.capacity() != extended.length) {
            buffer = ByteBuffer.wrap(extended); // the array grew
        }
        return at;
    }

    /** Bytes appended by {@link #addReassembled} in this frame. */
    public int reassembledLength() {
        return reassembledLength;
    }

    /**
     * What a stream decoder keeps across frames of this dissection, in capture order (TCP
     * connections and their reassembly state). It lives as long as this object, like the time
     * reference, and is never cleared by {@link #reset}; null until a decoder sets it.
     */
    public Object streamState() {
        return streamState;
    }

    public void setStreamState(Object state) {
        streamState = state;
    }

    /**
     * Whether a protocol riding on RDMA (one the chain offers InfiniBand payloads or iWARP Send messages
     * to: NVMe-oF, iSER, RPC-over-RDMA, SMB Direct) claimed some of this frame's payload. Their layers lie
     * only in such frames, so whoever reads them (the operation tracker) can pass every other frame by
     * with this one test.
     */
    public boolean carriesUpperLayer() {
        return upperLayer;
    }

    /** Set by the chain when one of its payload heuristics claims bytes of this frame. */
    void markUpperLayer() {
        upperLayer = true;
    }

    /** Flags the frame malformed (a header was cut short or a length field lied), once. */
    public void markMalformed() {
        if (!malformed) {
            malformed = true;
            if (count < MAX_LAYERS) {
                types[count] = Malformed.HEADER;
                starts[count] = frame.capturedLength();
                lengths[count] = 0;
                truncated[count] = false;
                count++;
            }
        }
    }

    /**
     * A header declares its packet to end at frame offset {@code end} (IPv4 total length, IPv6 payload
     * length, UDP length, GRH payload length, LRH packet length). When that lies past the captured bytes
     * while the capture record says nothing was cut (captured length not below the wire length), the
     * frame is cut though its record says it is whole (a capture tool cutting frames without saying so,
     * issue 15): dissectors then treat it as a snap-length cut. Captured bytes, not the wire length, are
     * the measure: an ERF record's frame starts with its own header, which the wire length leaves out.
     */
    public void declaredEnd(int end) {
        if (end > frame.capturedLength() && frame.wireLength() <= frame.capturedLength()) {
            cutSilently = true;
        }
    }

    /**
     * Whether the frame is shorter than its own IP, UDP, GRH or LRH length while its capture record
     * claims the wire length was captured ({@link #declaredEnd}). Wireshark flags the same frames with
     * {@code ip.bogus_ip_length} and {@code udp.length.bad}.
     */
    public boolean isCutSilently() {
        return cutSilently;
    }

    /** Cut by the snap length or silently: the bytes that end the packet (pad, ICRC) are not there. */
    public boolean isCut() {
        return frame.wireLength() > frame.capturedLength() || cutSilently;
    }

    // ---- queries ------------------------------------------------------------------------------

    public Frame frame() {
        return frame;
    }

    /** The buffer holding the frame; absolute index of frame byte {@code i} is {@code base() + i}. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public int base() {
        return base;
    }

    public int layerCount() {
        return count;
    }

    public HeaderType layerType(int layer) {
        return types[layer];
    }

    /** Frame offset of the layer's first byte. */
    public int layerStart(int layer) {
        return starts[layer];
    }

    /** Absolute buffer index of the layer's first byte, what {@link io.rdmascope.field.Field#read} takes. */
    public int layerAt(int layer) {
        return base + starts[layer];
    }

    public int layerLength(int layer) {
        return lengths[layer];
    }

    public boolean isLayerTruncated(int layer) {
        return truncated[layer];
    }

    public boolean isMalformed() {
        return malformed;
    }

    /** Index of the first layer of {@code type}, or -1. */
    public int find(HeaderType type) {
        for (int i = 0; i < count; i++) {
            if (types[i] == type) {
                return i;
            }
        }
        return -1;
    }

    /** Index of the first layer of {@code type} after layer {@code after}, or -1. */
    public int findNext(HeaderType type, int after) {
        for (int i = after + 1; i < count; i++) {
            if (types[i] == type) {
                return i;
            }
        }
        return -1;
    }

    /** Unsigned byte at frame offset {@code i}. */
    public int u8(int i) {
        return buffer.get(base + i) & 0xFF;
    }

    /** Big-endian unsigned 16-bit value at frame offset {@code i}. */
    public int u16(int i) {
        return buffer.getShort(base + i) & 0xFFFF;
    }

    /** Big-endian unsigned 24-bit value at frame offset {@code i}. */
    public int u24(int i) {
        return (u8(i) << 16) | u16(i + 1);
    }

    /** Big-endian 32-bit value at frame offset {@code i}, as unsigned. */
    public long u32(int i) {
        return buffer.getInt(base + i) & 0xFFFFFFFFL;
    }

    /** Little-endian unsigned 16-bit value at frame offset {@code i} (NVMe's byte order). */
    public int u16le(int i) {
        return Short.reverseBytes(buffer.getShort(base + i)) & 0xFFFF;
    }

    /** Little-endian 32-bit value at frame offset {@code i}, as unsigned. */
    public long u32le(int i) {
        return Integer.reverseBytes(buffer.getInt(base + i)) & 0xFFFFFFFFL;
    }

    /** Time {@code frame.time_relative} counts from: the first frame seen, unless set. */
    /** The frame's time as TShark shows it: the ERF timestamp for an ERF record (see {@code Erf}). */
    public long timeNanos() {
        return io.rdmascope.proto.erf.Erf.shownTimeNanos(frame);
    }

    public long referenceTimeNanos() {
        return referenceTimeNanos;
    }

    public void setReferenceTimeNanos(long nanos) {
        referenceTimeNanos = nanos;
    }

    /** Time of the frame dissected before this one, or {@code Long.MIN_VALUE} for the first. */
    public long previousTimeNanos() {
        return previousTimeNanos;
    }

    /** Bytes after the TCP header up to the IP payload's end (tcp.len), per the IP lengths. */
    public int tcpPayloadLength() {
        return tcpPayloadLength;
    }

    public void setTcpPayloadLength(int length) {
        tcpPayloadLength = length;
    }

    /**
     * Records the TCP segment's numbers as shown: relative to the direction's base (Wireshark's
     * default) or raw, with the next sequence number after it (tcp.nxtseq). Unsigned 32-bit values.
     */
    public void setTcpNumbers(int seq, int ack, int nextSeq, boolean relative) {
        tcpSeq = seq;
        tcpAck = ack;
        tcpNextSeq = nextSeq;
        tcpRelative = relative;
    }

    /** tcp.seq: the sequence number, relative when {@link #tcpRelative()}. */
    public long tcpSeq() {
        return Integer.toUnsignedLong(tcpSeq);
    }

    /** tcp.ack: the acknowledgment number, relative when {@link #tcpRelative()} and the ACK flag is set. */
    public long tcpAck() {
        return Integer.toUnsignedLong(tcpAck);
    }

    /** tcp.nxtseq: the sequence number after this segment (its bytes, SYN and FIN each take one). */
    public long tcpNextSeq() {
        return Integer.toUnsignedLong(tcpNextSeq);
    }

    /** Whether the TCP numbers are relative ones (tshark's tcp.relative_sequence_numbers, on by default). */
    public boolean tcpRelative() {
        return tcpRelative;
    }

    public int capturedLength() {
        return frame.capturedLength();
    }

    /** What the RDMA dissectors learned about this frame, for ICRC checks and the replay engine. */
    public RdmaContext rdma() {
        return rdma;
    }
}
