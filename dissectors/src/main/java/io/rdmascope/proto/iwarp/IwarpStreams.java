package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.ConnectionKey;
import io.rdmascope.dissect.stream.ConnectionTable;
import io.rdmascope.dissect.stream.StreamState;

/**
 * The iWARP part of a dissection's stream state: the connections being followed and what the frame
 * just dissected yielded ({@link IwarpFrame}). One per {@link Dissection}; frames must come in
 * capture order (see {@link io.rdmascope.dissect.stream}).
 */
public final class IwarpStreams {
    final ConnectionTable<IwarpConnection> connections = new ConnectionTable<>();
    final ConnectionKey probe = new ConnectionKey();
    final IwarpFrame frame = new IwarpFrame();
    /** The dissection of the frame being decoded, where PDUs are placed; null while flushing. */
    Dissection current;
    private int nextId = 1;

    IwarpStreams() {
    }

    static IwarpStreams of(Dissection d) {
        return StreamState.of(d).get(IwarpStreams.class, IwarpStreams::new);
    }

    static IwarpStreams peek(Dissection d) {
        StreamState s = StreamState.peek(d);
        return s == null ? null : s.peek(IwarpStreams.class);
    }

    /** The iWARP state of {@code d}, or null when no iWARP connection was seen yet (or since a restart). */
    public static IwarpStreams find(Dissection d) {
        return peek(d);
    }

    IwarpConnection create(boolean initiatorLow) {
        IwarpConnection c = new IwarpConnection(this, nextId++, probe.copy(), initiatorLow);
        connections.put(probe, c);
        return c;
    }

    /** Connections given up to stay within the table's capacity. */
    public long evictions() {
        return connections.evictions();
    }

    /**
     * The capture ended: every hole in every direction becomes a gap and what was held behind it is
     * framed. Returns the result (PDUs decoded only now, none shown), or null when nothing was held.
     */
    public IwarpFrame flush() {
        frame.begin(0);
        current = null;
        boolean any = false;
        for (IwarpConnection c : connections.values()) {
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
