package io.rdmascope.dissect.stream;

/**
 * One TCP connection as the TCP dissector follows it: where each direction's relative sequence
 * numbers start (Wireshark's {@code tcp_flow_t.base_seq}), and the state of the protocol that rides
 * on it (iWARP's connection), so that one table serves TCP and what it carries.
 */
public final class TcpConversation {
    private int baseLow;
    private int baseHigh;
    private boolean baseLowSet;
    private boolean baseHighSet;
    private Object upper;

    TcpConversation() {
    }

    /**
     * Notes a segment from the low endpoint ({@code fromLow}) or the high one, as packet-tcp.c's
     * {@code tcp_analyze_sequence_number} does in tshark 4.0: the sender's base is fixed by its first
     * segment (its SYN's sequence number, else one before its first sequence number, so that a
     * connection seen mid-way starts at 1); the receiver's base, when still unknown, by the first
     * acknowledgement (one before the byte it asks for).
     */
    void note(boolean fromLow, int seq, int ack, boolean syn, boolean ackFlag) {
        if (!baseSet(fromLow)) {
            setBase(fromLow, syn ? seq : seq - 1);
        }
        if (ackFlag && !baseSet(!fromLow)) {
            setBase(!fromLow, ack - 1);
        }
    }

    /** Forgets both bases (a new connection reuses the ports); the upper state is kept for its owner to judge. */
    void restart() {
        baseLowSet = false;
        baseHighSet = false;
    }

    boolean baseSet(boolean low) {
        return low ? baseLowSet : baseHighSet;
    }

    /** The base of the low endpoint's direction ({@code low}) or the high one's: relative = raw - base. */
    public int base(boolean low) {
        return low ? baseLow : baseHigh;
    }

    private void setBase(boolean low, int base) {
        if (low) {
            baseLow = base;
            baseLowSet = true;
        } else {
            baseHigh = base;
            baseHighSet = true;
        }
    }

    /** The state of the protocol riding on this connection if it is a {@code type}, else null. */
    public <T> T upper(Class<T> type) {
        return type.isInstance(upper) ? type.cast(upper) : null;
    }

    /** Sets (or, with null, drops) the state of the protocol riding on this connection. */
    public void setUpper(Object state) {
        upper = state;
    }
}
