package io.rdmascope.replay;

/**
 * What a frame is to the conversation the engine placed it in: the engine's one answer to "whose
 * frame is this and what does it do", read by display filters, the GUI's ladder and its lists.
 */
public enum FrameRole {
    /** A request packet (SEND, WRITE, READ request, atomic, FLUSH, ATOMIC WRITE), original or resent. */
    REQUEST,
    /** A positive acknowledgement (AETH syndrome ACK). */
    ACK,
    /** A NAK: PSN sequence error or a fatal NAK. */
    NAK,
    /** An RNR NAK (receiver not ready). */
    RNR_NAK,
    /** An RDMA READ response packet. */
    READ_RESPONSE,
    /** An atomic acknowledgement. */
    ATOMIC_ACK,
    /** A congestion notification packet (Annex A17.9.3). */
    CNP,
    /** A connection management MAD (REQ, REP, RTU, REJ, DREQ, DREP). */
    CM,
    /** A UD datagram. */
    DATAGRAM,
    /** A TCP segment of an iWARP connection. */
    TCP_SEGMENT;

    private static final FrameRole[] VALUES = values();

    static FrameRole of(int ordinal) {
        return VALUES[ordinal];
    }

    /** Whether the frame goes from the responder back to the requester. */
    public boolean isResponse() {
        return this == ACK || this == NAK || this == RNR_NAK || this == READ_RESPONSE || this == ATOMIC_ACK;
    }
}
