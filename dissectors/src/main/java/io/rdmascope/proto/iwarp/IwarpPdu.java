package io.rdmascope.proto.iwarp;

import java.util.Arrays;

/**
 * One MPA PDU taken whole from a TCP stream: a Request or Reply frame, or an FPDU with the DDP
 * segment and RDMAP message it carries. The stream layer fills it in the frame whose bytes complete
 * it; the dissection's layers show it and the replay engine reads it through the accessors here,
 * which decode the DDP/RDMAP header from a copy of its first bytes. Instances are pooled by
 * {@link IwarpFrame} and reused frame after frame: read them during the frame, do not keep them.
 */
public final class IwarpPdu {
    /** What the PDU is. */
    public enum Kind { REQUEST, REPLY, FPDU }

    /** Bytes of the ULPDU (or Request/Reply frame) kept for decoding headers: DDP + the longest RDMAP header. */
    static final int HEADER_COPY = 80;

    Kind kind;
    /** False for an FPDU shown ahead of a hole: it comes again, in order, when the stream reaches it. */
    boolean inOrder = true;
    IwarpConnection connection;
    int direction;
    long streamStart;
    int rawLength;
    int endSeq;
    int ulpduLength;
    /** Bytes of header copy (at most {@link #HEADER_COPY}). */
    int headerLength;
    final byte[] header = new byte[HEADER_COPY];
    int pad;
    int crcOnWire;
    int crcComputed;
    int crcStatus = Mpa.STATUS_UNVERIFIED;
    int markerCount;
    long[] markerPositions = new long[4];
    int[] markerValues = new int[4];
    int badMarkers;
    /**
     * The marker layout the framer read this FPDU's markers under, when not RFC 5044 §5's: a marker
     * clock that skips each FPDU's CRC field, and FPDUPTR in little-endian byte order (docs/iwarp.md).
     */
    boolean markerClockSkipsCrc;
    boolean markerPointerLittleEndian;
    long[] frames = new long[4];
    int frameCount;
    // Where the dissection shows it: frame offsets (or reassembled offsets) of the marker-free image
    // and of each marker; -1 when it is not shown (decoded at the end of a replay).
    int imageAt = -1;
    int imageLength;
    int[] markerAt = new int[4];
    int layer = -1;

    void clear() {
        kind = null;
        inOrder = true;
        connection = null;
        direction = 0;
        streamStart = 0;
        rawLength = 0;
        endSeq = 0;
        ulpduLength = 0;
        headerLength = 0;
        pad = 0;
        crcOnWire = 0;
        crcComputed = 0;
        crcStatus = Mpa.STATUS_UNVERIFIED;
        markerCount = 0;
        badMarkers = 0;
        markerClockSkipsCrc = false;
        markerPointerLittleEndian = false;
        frameCount = 0;
        imageAt = -1;
        imageLength = 0;
        layer = -1;
    }

    void addMarker(long position, int value, boolean good) {
        if (markerCount == markerPositions.length) {
            markerPositions = Arrays.copyOf(markerPositions, markerCount * 2);
            markerValues = Arrays.copyOf(markerValues, markerCount * 2);
            markerAt = Arrays.copyOf(markerAt, markerCount * 2);
        }
        markerPositions[markerCount] = position;
        markerValues[markerCount] = value;
        markerAt[markerCount] = -1;
        markerCount++;
        if (!good) {
            badMarkers++;
        }
    }

    void addFrame(long frame) {
        if (frameCount > 0 && frames[frameCount - 1] == frame) {
            return;
        }
        if (frameCount == frames.length) {
            frames = Arrays.copyOf(frames, frameCount * 2);
        }
        frames[frameCount++] = frame;
    }

    // ---- what the stream layer found ---------------------------------------------------------------

    public Kind kind() {
        return kind;
    }

    /**
     * Whether the stream reached it in order. An FPDU in a segment held ahead of a hole is shown in its
     * own frame at once but is not in order; it comes again, in order (and not shown twice), when the
     * hole fills or is given up. The replay reads only PDUs in order.
     */
    public boolean inOrder() {
        return inOrder;
    }

    /** The connection it travelled on. */
    public IwarpConnection connection() {
        return connection;
    }

    /** 0 when the MPA initiator sent it (the side that sent the Request), 1 when the responder did. */
    public int direction() {
        return direction;
    }

    /** Stream offset of its first byte in its direction (0 = the first byte of the Request or Reply). */
    public long streamStart() {
        return streamStart;
    }

    /** Bytes it takes in the TCP stream, markers included. */
    public int rawLength() {
        return rawLength;
    }

    /** TCP sequence number just after its last byte: an ACK at or past it acknowledges all of it. */
    public int endSeq() {
        return endSeq;
    }

    /** Frames that carried its bytes, in stream order, each once. */
    public int frameCount() {
        return frameCount;
    }

    public long frame(int i) {
        return frames[i];
    }

    /** The frame that carried its last byte. */
    public long lastFrame() {
        return frameCount == 0 ? 0 : frames[frameCount - 1];
    }

    /** Bad (0), good (1) or unverified (2, CRC not negotiated): {@link Mpa#STATUS_NAMES}. */
    public int crcStatus() {
        return crcStatus;
    }

    /** CRC32c on the wire and as computed, both read as Wireshark shows them (the wire order is little-endian). */
    public int crcOnWire() {
        return crcOnWire;
    }

    public int crcComputed() {
        return crcComputed;
    }

    public int markerCount() {
        return markerCount;
    }

    public long markerPosition(int i) {
        return markerPositions[i];
    }

    /** The marker's FPDUPTR. */
    public int markerPointer(int i) {
        return markerValues[i] & 0xFFFF;
    }

    /** Markers whose FPDUPTR does not point back at this FPDU's start (RFC 5044 §5). */
    public int badMarkers() {
        return badMarkers;
    }

    /** Its markers were placed by a clock that skips each FPDU's CRC field (not RFC 5044 §5's). */
    public boolean markerClockSkipsCrc() {
        return markerClockSkipsCrc;
    }

    /** Its markers' FPDUPTR is little-endian (RFC 5044 §5 has network byte order). */
    public boolean markerPointerLittleEndian() {
        return markerPointerLittleEndian;
    }

    /** Layer index of its Request/Reply or FPDU layer in the frame's dissection, -1 if not shown. */
    public int layer() {
        return layer;
    }

    // ---- Request and Reply frames ---------------------------------------------------------------------

    /** The M, C, R and reserved bits of a Request or Reply (byte 16). */
    public int flags() {
        return u8(16);
    }

    public int revision() {
        return u8(17);
    }

    public int privateDataLength() {
        return u16(18);
    }

    // ---- FPDU: ULPDU length, pad and the DDP/RDMAP headers (RFC 5041 §4, RFC 5040 §4) --------------------

    public int ulpduLength() {
        return ulpduLength;
    }

    public int pad() {
        return pad;
    }

    /** Whether the ULPDU holds a whole DDP header (14 bytes tagged, 18 untagged). */
    public boolean hasDdpHeader() {
        return headerLength >= 2 && ulpduLength >= ddpHeaderLength();
    }

    public boolean tagged() {
        return (u8(0) & 0x80) != 0;
    }

    public boolean last() {
        return (u8(0) & 0x40) != 0;
    }

    public int ddpVersion() {
        return u8(0) & 0x03;
    }

    public int rdmapVersion() {
        return u8(1) >> 6;
    }

    public int opcode() {
        return u8(1) & 0x0F;
    }

    public int ddpHeaderLength() {
        return tagged() ? DdpRdmap.TAGGED_HEADER_LENGTH : DdpRdmap.UNTAGGED_HEADER_LENGTH;
    }

    public long stag() {
        return u32(2);
    }

    public long taggedOffset() {
        return (u32(6) << 32) | u32(10);
    }

    public long queueNumber() {
        return u32(6);
    }

    public long msn() {
        return u32(10);
    }

    public long messageOffset() {
        return u32(14);
    }

    /** RsvdULP bytes 2-5: the STag a Send with Invalidate invalidates. */
    public long invalidateStag() {
        return u32(2);
    }

    /** Bytes of RDMAP header after the DDP header: Read Request, Terminate, atomics. */
    public int rdmapHeaderLength() {
        int h = ddpHeaderLength();
        return switch (opcode()) {
            case DdpRdmap.OP_READ_REQUEST -> DdpRdmap.READ_REQUEST_LENGTH;
            case DdpRdmap.OP_TERMINATE -> terminateLength(h);
            case DdpRdmap.OP_ATOMIC_REQUEST -> DdpRdmap.ATOMIC_REQUEST_LENGTH;
            case DdpRdmap.OP_ATOMIC_RESPONSE -> DdpRdmap.ATOMIC_RESPONSE_LENGTH;
            default -> 0;
        };
    }

    private int terminateLength(int at) {
        int hdrct = u8(at + 2);
        int length = 4;
        if ((hdrct & DdpRdmap.HDRCT_D) != 0) {
            length += 2 + ((u8(at + 6) & 0x80) != 0 ? DdpRdmap.TAGGED_HEADER_LENGTH : DdpRdmap.UNTAGGED_HEADER_LENGTH);
        }
        if ((hdrct & DdpRdmap.HDRCT_R) != 0) {
            length += DdpRdmap.READ_REQUEST_LENGTH;
        }
        return length;
    }

    /** ULPDU bytes after every header: the data a Send, Write or Read Response places. */
    public int payloadLength() {
        return Math.max(0, ulpduLength - ddpHeaderLength() - rdmapHeaderLength());
    }

    /** The 8 bytes of an Immediate Data message (RFC 7306 §5.4), big-endian. */
    public long immediateData() {
        int at = ddpHeaderLength();
        return (u32(at) << 32) | u32(at + 4);
    }

    /** Read Request (RFC 5040 §4.4): sink STag and TO, size, source STag and TO. */
    public long readSinkStag() {
        return u32(ddpHeaderLength());
    }

    public long readSinkOffset() {
        int at = ddpHeaderLength() + 4;
        return (u32(at) << 32) | u32(at + 4);
    }

    public long readSize() {
        return u32(ddpHeaderLength() + 12);
    }

    public long readSourceStag() {
        return u32(ddpHeaderLength() + 16);
    }

    public long readSourceOffset() {
        int at = ddpHeaderLength() + 20;
        return (u32(at) << 32) | u32(at + 4);
    }

    /** Terminate control (RFC 5040 §4.8): layer, error type, error code. */
    public int terminateLayer() {
        return u8(ddpHeaderLength()) >> 4;
    }

    public int terminateType() {
        return u8(ddpHeaderLength()) & 0x0F;
    }

    public int terminateCode() {
        return u8(ddpHeaderLength() + 1);
    }

    /** Atomic Request (RFC 7306 §5.2): operation and request identifier; Atomic Response: the original id. */
    public int atomicOperation() {
        return u8(ddpHeaderLength() + 3) & 0x0F;
    }

    public long atomicRequestId() {
        return u32(ddpHeaderLength() + 4);
    }

    public long atomicOriginalRequestId() {
        return u32(ddpHeaderLength());
    }

    // ---- the header copy ----------------------------------------------------------------------------

    private int u8(int i) {
        return i < headerLength ? header[i] & 0xFF : 0;
    }

    private int u16(int i) {
        return (u8(i) << 8) | u8(i + 1);
    }

    private long u32(int i) {
        return ((long) u16(i) << 16) | u16(i + 2);
    }
}
