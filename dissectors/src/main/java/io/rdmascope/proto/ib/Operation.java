package io.rdmascope.proto.ib;

/**
 * The operation in BTH opcode bits 4:0 (IBTA 9.2.1, table 36), with what the replay engine needs to
 * know about it: which message it belongs to, where in the message it sits, and who sends it.
 */
public enum Operation {
    SEND_FIRST("SEND First", Kind.SEND, Position.FIRST, true),
    SEND_MIDDLE("SEND Middle", Kind.SEND, Position.MIDDLE, true),
    SEND_LAST("SEND Last", Kind.SEND, Position.LAST, true),
    SEND_LAST_WITH_IMMEDIATE("SEND Last with Immediate", Kind.SEND, Position.LAST, true),
    SEND_ONLY("SEND Only", Kind.SEND, Position.ONLY, true),
    SEND_ONLY_WITH_IMMEDIATE("SEND Only with Immediate", Kind.SEND, Position.ONLY, true),
    RDMA_WRITE_FIRST("RDMA WRITE First", Kind.WRITE, Position.FIRST, true),
    RDMA_WRITE_MIDDLE("RDMA WRITE Middle", Kind.WRITE, Position.MIDDLE, true),
    RDMA_WRITE_LAST("RDMA WRITE Last", Kind.WRITE, Position.LAST, true),
    RDMA_WRITE_LAST_WITH_IMMEDIATE("RDMA WRITE Last with Immediate", Kind.WRITE, Position.LAST, true),
    RDMA_WRITE_ONLY("RDMA WRITE Only", Kind.WRITE, Position.ONLY, true),
    RDMA_WRITE_ONLY_WITH_IMMEDIATE("RDMA WRITE Only with Immediate", Kind.WRITE, Position.ONLY, true),
    RDMA_READ_REQUEST("RDMA READ Request", Kind.READ, Position.ONLY, true),
    RDMA_READ_RESPONSE_FIRST("RDMA READ response First", Kind.READ, Position.FIRST, false),
    RDMA_READ_RESPONSE_MIDDLE("RDMA READ response Middle", Kind.READ, Position.MIDDLE, false),
    RDMA_READ_RESPONSE_LAST("RDMA READ response Last", Kind.READ, Position.LAST, false),
    RDMA_READ_RESPONSE_ONLY("RDMA READ response Only", Kind.READ, Position.ONLY, false),
    ACKNOWLEDGE("Acknowledge", Kind.ACK, Position.ONLY, false),
    ATOMIC_ACKNOWLEDGE("ATOMIC Acknowledge", Kind.ATOMIC, Position.ONLY, false),
    COMPARE_SWAP("CmpSwap", Kind.ATOMIC, Position.ONLY, true),
    FETCH_ADD("FetchAdd", Kind.ATOMIC, Position.ONLY, true),
    RESYNC("RESYNC", Kind.OTHER, Position.ONLY, true),
    SEND_LAST_WITH_INVALIDATE("SEND Last with Invalidate", Kind.SEND, Position.LAST, true),
    SEND_ONLY_WITH_INVALIDATE("SEND Only with Invalidate", Kind.SEND, Position.ONLY, true),
    /** IBTA 1.5 memory placement extensions (Annex A19). */
    FLUSH("FLUSH", Kind.FLUSH, Position.ONLY, true),
    ATOMIC_WRITE("ATOMIC WRITE", Kind.ATOMIC_WRITE, Position.ONLY, true),
    CNP("CNP", Kind.CONGESTION, Position.ONLY, false),
    UNKNOWN("Unknown OpCode", Kind.OTHER, Position.ONLY, false);

    /** The message family a packet belongs to. */
    public enum Kind { SEND, WRITE, READ, ACK, ATOMIC, FLUSH, ATOMIC_WRITE, CONGESTION, OTHER }

    /** Where a packet sits in its message. */
    public enum Position { FIRST, MIDDLE, LAST, ONLY }

    private final String label;
    private final Kind kind;
    private final Position position;
    private final boolean request;

    Operation(String label, Kind kind, Position position, boolean request) {
        this.label = label;
        this.kind = kind;
        this.position = position;
        this.request = request;
    }

    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    public Position position() {
        return position;
    }

    /** True when the requester sends it; false for responses, CNPs and unknown opcodes. */
    public boolean isRequest() {
        return request;
    }

    public boolean isResponse() {
        return !request && kind != Kind.CONGESTION && this != UNKNOWN;
    }

    public boolean hasImmediate() {
        return this == SEND_LAST_WITH_IMMEDIATE || this == SEND_ONLY_WITH_IMMEDIATE
                || this == RDMA_WRITE_LAST_WITH_IMMEDIATE || this == RDMA_WRITE_ONLY_WITH_IMMEDIATE;
    }

    public boolean hasInvalidate() {
        return this == SEND_LAST_WITH_INVALIDATE || this == SEND_ONLY_WITH_INVALIDATE;
    }
}
