package io.rdmascope.dissect.stream;

import io.rdmascope.dissect.Dissection;

/**
 * The TCP connections of one {@link Dissection}, in capture order: the one table both the TCP
 * dissector (relative sequence numbers) and the protocols on TCP (iWARP's reassembly) keep their
 * per-connection state in. A frame costs one lookup with a reused probe and no allocation; a new
 * connection costs its key and its {@link TcpConversation}.
 */
public final class TcpStreams {
    private final ConnectionTable<TcpConversation> connections = new ConnectionTable<>();
    private final ConnectionKey probe = new ConnectionKey();

    private TcpStreams() {
    }

    /** The TCP state of {@code d}, made on first use. */
    public static TcpStreams of(Dissection d) {
        return StreamState.of(d).get(TcpStreams.class, TcpStreams::new);
    }

    /** The TCP state of {@code d} if any, else null (never makes one). */
    public static TcpStreams peek(Dissection d) {
        return StreamState.peek(d, TcpStreams.class);
    }

    /**
     * Follows the segment of TCP layer {@code tcpLayer}: finds or starts its connection and notes its
     * numbers. Returns null when no IP header encloses it. Afterwards {@link #probe()} names the
     * segment's connection and direction.
     */
    public TcpConversation track(Dissection d, int tcpLayer, int seq, int ack, int flags) {
        if (!probe.set(d, tcpLayer)) {
            return null;
        }
        boolean syn = (flags & 0x02) != 0;
        boolean ackFlag = (flags & 0x10) != 0;
        TcpConversation c = connections.get(probe);
        if (c == null) {
            c = new TcpConversation();
            connections.put(probe, c);
        } else if (syn && !ackFlag && c.baseSet(probe.fromLow()) && c.base(probe.fromLow()) != seq) {
            // A SYN with another initial sequence number: packet-tcp.c starts a new conversation on the
            // same ports (TCP_A_REUSED_PORTS); its numbers count from the new SYN.
            c.restart();
        }
        c.note(probe.fromLow(), seq, ack, syn, ackFlag);
        return c;
    }

    /** The key of the segment last tracked, with its direction ({@link ConnectionKey#fromLow}). */
    public ConnectionKey probe() {
        return probe;
    }

    /** Connections given up to stay within the table's capacity. */
    public long evictions() {
        return connections.evictions();
    }

    /** Every connection followed, oldest activity first. */
    public Iterable<TcpConversation> conversations() {
        return connections.values();
    }
}
