package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.ConnectionKey;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.dissect.stream.TcpConversation;
import io.rdmascope.dissect.stream.TcpStreams;

import java.util.List;

/**
 * The iWARP part of a dissection's stream state: what the frame just dissected yielded ({@link
 * IwarpFrame}). The connections being followed hang off the TCP dissector's table ({@link
 * TcpConversation#upper}), one table for TCP and iWARP. One per {@link Dissection}; frames must come
 * in capture order (see {@link io.rdmascope.dissect.stream}).
 */
public final class IwarpStreams {
    /** The TCP connections of the same dissection, where the iWARP connections are kept. */
    TcpStreams tcp;
    final IwarpFrame frame = new IwarpFrame();
    /** The dissection of the frame being decoded, where PDUs are placed; null while flushing. */
    Dissection current;
    /** The Send whose payload is being offered to the protocols riding on iWARP; null otherwise. */
    IwarpPdu send;
    private int nextId = 1;

    IwarpStreams() {
    }

    static IwarpStreams of(Dissection d) {
        return StreamState.of(d).get(IwarpStreams.class, IwarpStreams::new);
    }

    static IwarpStreams peek(Dissection d) {
        return StreamState.peek(d, IwarpStreams.class);
    }

    /** The iWARP state of {@code d}, or null when no iWARP connection was seen yet (or since a restart). */
    public static IwarpStreams find(Dissection d) {
        return peek(d);
    }

    /**
     * Starts following the connection {@code probe} names as iWARP, on its TCP conversation; the MPA
     * initiator is the key's low endpoint when {@code initiatorLow}.
     */
    IwarpConnection create(TcpConversation conversation, ConnectionKey probe, boolean initiatorLow) {
        IwarpConnection c = new IwarpConnection(this, nextId++, probe.copy(), initiatorLow);
        conversation.setUpper(c);
        return c;
    }

    /** Connections (TCP ones, iWARP among them) given up to stay within the table's capacity. */
    public long evictions() {
        return tcp == null ? 0 : tcp.evictions();
    }

    /**
     * The capture ended: every hole in every direction becomes a gap and what was held behind it is
     * framed. Returns the result (PDUs decoded only now, none shown), or null when nothing was held.
     */
    public IwarpFrame flush() {
        frame.begin(0);
        current = null;
        boolean any = false;
        for (TcpConversation conversation : tcp == null ? List.<TcpConversation>of() : tcp.conversations()) {
            IwarpConnection c = conversation.upper(IwarpConnection.class);
            if (c == null) {
                continue;
            }
            for (int d = 0; d < 2; d++) {
                if (c.direction(d).heldBytes() > 0) {
                    any = true;
                    c.direction(d).flush(0, c.framer(d));
                }
            }
        }
        return any ? frame : null;
    }
}
