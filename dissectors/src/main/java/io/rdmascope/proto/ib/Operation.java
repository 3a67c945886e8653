package io.rdmascope.proto.ib;

/**
 * The operation in BTH opcode bits 4:0 (IBTA 9.2.1, table 36), with its code there and what the
 * replay engine needs to know about it: which message it belongs to, where in the message it sits,
 * and who sends it. Opcodes are derived from {@link #code()} and {@link Service#prefix()}, never
 * written out elsewhere.
 */
public enum Operation {
    SEND_FIRST(0x00, "SEND First", Kind.SEND, Position.FIRST, true),
    SEND_MIDDLE(0x01, "SEND Middle", Kind.SEND, Position.MIDDLE, true),
    SEND_LAST(0x02, "SEND Last", Kind.SEND, Position.LAST, true),
    SEND_LAST_WITH_IMMEDIATE(0x03, "SEND Last with Immediate", Kind.SEND, Position.LAST, true),
    SEND_ONLY(0x04, "SEND Only", Kind.SEND, Position.ONLY, true),
    SEND_ONLY_WITH_IMMEDIATE(0x05, "SEND Only with Immediate", Kind.SEND, Position.ONLY, true),
    RDMA_WRITE_FIRST(0x06, "RDMA WRITE First", Kind.WRITE, Position.FIRST, true),
    RDMA_WRITE_MIDDLE(0x07, "RDMA WRITE Middle", Kind.WRITE, Position.MIDDLE, true),
    RDMA_WRITE_LAST(0x08, "RDMA WRITE Last", Kind.WRITE, Position.LAST, true),
    RDMA_WRITE_LAST_WITH_IMMEDIATE(0x09, "RDMA WRITE Last with Immediate", Kind.WRITE, Position.LAST, true),
    RDMA_WRITE_ONLY(0x0A, "RDMA WRITE Only", Kind.WRITE, Position.ONLY, true),
    RDMA_WRITE_ONLY_WITH_IMMEDIATE(0x0B, "RDMA WRITE Only with Immediate", Kind.WRITE, Position.ONLY, true),
    RDMA_READ_REQUEST(0x0C, "RDMA READ Request", Kind.READ, Position.ONLY, true),
    RDMA_READ_RESPONSE_FIRST(0x0D, "RDMA READ response First", Kind.READ, Position.FIRST, false),
    RDMA_READ_RESPONSE_MIDDLE(0x0E, "RDMA READ response Middle", Kind.READ, Position.MIDDLE, false),
    RDMA_READ_RESPONSE_LAST(0x0F, "RDMA READ response Last", Kind.READ, Position.LAST, false),
    RDMA_READ_RESPONSE_ONLY(0x10, "RDMA READ response Only", Kind.READ, Position.ONLY, false),
    ACKNOWLEDGE(0x11, "Acknowledge", Kind.ACK, Position.ONLY, false),
    ATOMIC_ACKNOWLEDGE(0x12, "ATOMIC Acknowledge", Kind.ATOMIC, Position.ONLY, false),
    COMPARE_SWAP(0x13, "CmpSwap", Kind.ATOMIC, Position.ONLY, true),
    FETCH_ADD(0x14, "FetchAdd", Kind.ATOMIC, Position.ONLY, true),
    RESYNC(0x15, "RESYNC", Kind.OTHER, Position.ONLY, true),
    SEND_LAST_WITH_INVALIDATE(0x16, "SEND Last with Invalidate", Kind.SEND, Position.LAST, true),
    SEND_ONLY_WITH_INVALIDATE(0x17, "SEND Only with Invalidate", Kind.SEND, Position.ONLY, true),
    /** IBTA 1.5 memory placement extensions (Annex A19). */
    FLUSH(0x1C, "FLUSH", Kind.FLUSH, Position.ONLY, true),
    ATOMIC_WRITE(0x1D, "ATOMIC WRITE", Kind.ATOMIC_WRITE, Position.ONLY, true),
    CNP(0x01, "CNP", Kind.CONGESTION, Position.ONLY, false),
    UNKNOWN(-1, "Unknown OpCode", Kind.OTHER, Position.ONLY, false);

    /** The message family a packet belongs to. */
    public enum Kind { SEND, WRITE, READ, ACK, ATOMIC, FLUSH, ATOMIC_WRITE, CONGESTION, OTHER }

    /** Where a packet sits in its message. */
    public enum Position { FIRST, MIDDLE, LAST, ONLY }

    private final int code;
    private final String label;
    private final Kind kind;
    private final Position position;
    private final boolean request;

    Operation(int code, String label, Kind kind, Position position, boolean request) {
        this.code = code;
        this.label = label;
        this.kind = kind;
        this.position = position;
        this.request = request;
    }

    /**
     * Opcode bits 4:0 (IBTA 9.2.1, table 36; 0x1C/0x1D from IBTA 1.5, Annex A19); the service adds bits
     * 7:5 ({@link Opcodes#code}). CNP's is 0x01 of the CNP range (0x81, what RoCEv2 NICs send, Annex
     * A17.9.3); -1 for {@link #UNKNOWN}.
     */
    public int code() {
        return code;
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
