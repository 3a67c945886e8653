package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.stream.ConnectionKey;
import io.rdmascope.dissect.stream.TcpReassembler;

/**
 * One TCP connection carrying iWARP: its two directions (direction 0 from the MPA initiator, the
 * side that sent the Request), each reassembled and framed, and what the Request and Reply
 * negotiated (RFC 5044 §7.1: a side's M flag asks for markers in the stream it receives; CRCs are
 * used when either side's C flag is set; a Reply with R set rejects the connection).
 */
public final class IwarpConnection {
    private final IwarpStreams streams;
    private final int id;
    private final ConnectionKey key;
    /** Whether the initiator is the key's low endpoint. */
    private final boolean initiatorLow;
    private final TcpReassembler[] tcp = {new TcpReassembler(), new TcpReassembler()};
    private final MpaFramer[] framers = new MpaFramer[2];
    private int requestFlags = -1;
    private int replyFlags = -1;
    private int requestRevision = -1;
    private int replyRevision = -1;
    private boolean configured;
    private boolean crc;
    private boolean midStream;
    /** Found by its Reply: the Request was not captured. */
    private boolean requestMissed;
    private boolean requestMarkersKnown;
    /** The state of the protocol riding on this connection's Sends (SMB Direct's), or null. */
    private Object upper;
    private final SendReassembly sendReassembly = new SendReassembly();

    IwarpConnection(IwarpStreams streams, int id, ConnectionKey key, boolean initiatorLow) {
        this.streams = streams;
        this.id = id;
        this.key = key;
        this.initiatorLow = initiatorLow;
        framers[0] = new MpaFramer(this, 0);
        framers[1] = new MpaFramer(this, 1);
    }

    IwarpStreams streams() {
        return streams;
    }

    SendReassembly sendReassembly() {
        return sendReassembly;
    }

    TcpReassembler direction(int d) {
        return tcp[d];
    }

    MpaFramer framer(int d) {
        return framers[d];
    }

    /** Which direction a segment travelling from the key's low endpoint (or not) belongs to. */
    int directionOf(boolean fromLow) {
        return fromLow == initiatorLow ? 0 : 1;
    }

    /** A Request (direction 0) or Reply (1) was framed. */
    void startup(int direction, int flags, int revision) {
        if (direction == 0) {
            requestFlags = flags;
            requestRevision = revision;
        } else {
            replyFlags = flags;
            replyRevision = revision;
        }
        if ((requestFlags >= 0 || requestMissed) && replyFlags >= 0) {
            configure();
        }
    }

    /**
     * Found by its Reply: the capture began after the Request (RFC 5044 §7.1), so the initiator's
     * stream starts with FPDUs, {@code markersKnown} when it was synced on the Reply's acknowledgment
     * number (right after the Request, where its marker clock starts).
     */
    void requestNotCaptured(boolean markersKnown) {
        requestMissed = true;
        requestMarkersKnown = markersKnown;
        framers[0].startupMissed();
    }

    /**
     * A direction's Request or Reply cannot be read (cut by a gap, or not one). Without the Reply the
     * initiator's FPDUs are framed on what the Request asked for: CRC as it said, no markers (the
     * responder's wish is unknown; few implementations use markers).
     */
    void startupLost(int direction) {
        if (direction == 1 && requestFlags >= 0 && replyFlags < 0 && !configured) {
            configured = true;
            crc = (requestFlags & Mpa.FLAG_CRC) != 0;
            framers[0].configure(false, crc);
        }
    }

    /**
     * Followed by {@code --decode-as} without its Request and Reply (RFC 5044 §7.1): what they
     * negotiated is unknown, so both directions are framed without markers and without checking CRCs
     * (the CRC field is still there, RFC 5044 §4.1), each from its first segment that starts with a
     * plausible FPDU (RFC 5044 §5.1: senders align FPDUs with segments).
     */
    void followMidStream() {
        configured = true;
        midStream = true;
        framers[0].resyncFromStart();
        framers[1].resyncFromStart();
    }

    /** Whether the connection was taken up mid-stream by {@code --decode-as} (no Request or Reply captured). */
    public boolean midStream() {
        return midStream;
    }

    /** Whether the connection was found by its Reply, its Request not captured. */
    public boolean requestMissed() {
        return requestMissed;
    }

    private void configure() {
        if (configured) {
            return;
        }
        configured = true;
        if ((replyFlags & Mpa.FLAG_REJECT) != 0) {
            framers[0].stop();
            framers[1].stop();
            return;
        }
        // Without the Request: CRCs when the Reply asks for them (else they may still be there, and are
        // left unverified), markers towards the initiator taken as not asked for (few stacks use them).
        int request = requestMissed ? 0 : requestFlags;
        crc = ((request | replyFlags) & Mpa.FLAG_CRC) != 0;
        framers[0].configure((replyFlags & Mpa.FLAG_MARKERS) != 0 && (!requestMissed || requestMarkersKnown), crc);
        framers[1].configure((request & Mpa.FLAG_MARKERS) != 0, crc);
    }

    // ---- for the replay engine and the views ----------------------------------------------------------

    /** 1, 2, … in the order connections were first seen in this pass (like Wireshark's tcp.stream, but 1-based). */
    public int id() {
        return id;
    }

    /** 4 or 6. */
    public int family() {
        return key.family();
    }

    /** Address of the initiator (side 0) or responder (side 1): IPv4 in {@code lo}, IPv6 as (hi, lo). */
    public long addressHi(int side) {
        return key.addressHi((side == 0) == initiatorLow);
    }

    public long addressLo(int side) {
        return key.addressLo((side == 0) == initiatorLow);
    }

    public int port(int side) {
        return key.port((side == 0) == initiatorLow);
    }

    /** Whether both sides' startup frames were read and the connection was accepted (no Reject). */
    public boolean established() {
        return requestFlags >= 0 && replyFlags >= 0 && (replyFlags & Mpa.FLAG_REJECT) == 0;
    }

    public boolean rejected() {
        return replyFlags >= 0 && (replyFlags & Mpa.FLAG_REJECT) != 0;
    }

    /** Whether FPDUs carry CRCs (either side's C flag). */
    public boolean crc() {
        return crc;
    }

    /** Whether the stream of direction {@code d} carries markers. */
    public boolean markers(int d) {
        return framers[d].markers();
    }

    public int requestRevision() {
        return requestRevision;
    }

    public int replyRevision() {
        return replyRevision;
    }

    /** The state of the protocol riding on this connection's Sends if it is a {@code type}, else null. */
    public <T> T upper(Class<T> type) {
        return type.isInstance(upper) ? type.cast(upper) : null;
    }

    /** Sets the state of the protocol riding on this connection's Sends. */
    public void setUpper(Object state) {
        upper = state;
    }

    /** Stream bytes of direction {@code d} the capture never held (TCP gaps), and how many gaps. */
    public long gapBytes(int d) {
        return tcp[d].gapBytes();
    }
}
