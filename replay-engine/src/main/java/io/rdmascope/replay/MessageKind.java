package io.rdmascope.replay;

/** Message kinds as {@code messages --json} spells them (a stable contract). */
public enum MessageKind {
    SEND, SEND_WITH_IMM, SEND_WITH_INV, WRITE, WRITE_WITH_IMM, READ, COMPARE_SWAP, FETCH_ADD, FLUSH, ATOMIC_WRITE;

    /** READ, the atomics, FLUSH and ATOMIC WRITE complete by their own response, not by an ACK (R3.2). */
    public boolean answeredByResponse() {
        return this == READ || this == COMPARE_SWAP || this == FETCH_ADD || this == FLUSH || this == ATOMIC_WRITE;
    }
}
