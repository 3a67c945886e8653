package io.rdmascope.replay.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.iwarp.IwarpFrame;
import io.rdmascope.proto.iwarp.IwarpPdu;
import io.rdmascope.proto.iwarp.IwarpStreams;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.Observation.IwarpEvent;
import io.rdmascope.replay.ReplayLimits;
import io.rdmascope.replay.ReplayListener;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The replay of iWARP connections (issue 8), fed by the replay engine with every dissected frame in
 * capture order. It reads what the dissection's stream layer found in the frame ({@link IwarpFrame}:
 * how the TCP segment arrived, the MPA PDUs it completed, gaps and resynchronisations) and turns it
 * into the same messages, observations and flows as the RoCE replay. Conversation ids come from the
 * engine, so RoCE and iWARP conversations are numbered together in order of first frame.
 */
public final class IwarpReplay {
    private final ReplayListener listener;
    private final ReplayLimits limits;
    private final Supplier<String> ids;
    private final Map<IwarpConnection, IwarpConversation> byConnection = new IdentityHashMap<>();
    private final List<IwarpConversation> conversations = new ArrayList<>();
    private IwarpStreams streams;
    private boolean limitReported;

    public IwarpReplay(ReplayListener listener, ReplayLimits limits, Supplier<String> ids) {
        this.listener = listener;
        this.limits = limits;
        this.ids = ids;
    }

    /** Replays frame {@code d} if it belongs to an iWARP connection; returns whether it did. */
    public boolean accept(Dissection d) {
        IwarpFrame f = IwarpFrame.of(d);
        if (f == null) {
            return false;
        }
        streams = IwarpStreams.find(d);
        long frame = d.frame().number();
        long time = d.frame().timeNanos();
        IwarpConversation c = conversation(f.connection(), frame);
        if (c == null) {
            return true;
        }
        int dir = f.direction();
        listener.placement(frame, c.id, dir, io.rdmascope.replay.FrameRole.TCP_SEGMENT);
        c.frame(frame, time, dir, f.payloadLength());
        if (d.isMalformed() && d.frame().wireLength() <= d.frame().capturedLength()) {
            c.observe(new Observation.Malformed(frame, c.id));
        }
        switch (f.arrival()) {
            case RETRANSMISSION, PARTIAL_RETRANSMISSION -> {
                c.observe(frame, -1, IwarpEvent.TCP_RETRANSMISSION, "TCP bytes sent again");
                c.retransmitted(dir, f.seq(), f.payloadLength(), frame);
            }
            case FILLED_AFTER_LOSS -> {
                c.observe(frame, -1, IwarpEvent.TCP_RETRANSMISSION,
                        "TCP segment sent again after the receiver's duplicate ACK: lost before the capture point");
                c.retransmitted(dir, f.seq(), f.payloadLength(), frame);
                c.lost(dir);
            }
            case FILLED_LATE -> c.observe(frame, -1, IwarpEvent.TCP_OUT_OF_ORDER,
                    "TCP segment arrived after later bytes of its stream");
            default -> {
            }
        }
        events(c, f, frame);
        for (int i = 0; i < f.pduCount(); i++) {
            if (f.pdu(i).inOrder()) {
                c.pdu(f.pdu(i), frame, time); // one shown ahead of a hole comes again in order
            }
        }
        if ((f.flags() & 0x10) != 0) {
            c.acknowledged(1 - dir, f.ack(), frame, time);
        }
        if ((f.flags() & 0x04) != 0) {
            c.close(frame, dir, true);
        } else if ((f.flags() & 0x01) != 0) {
            c.close(frame, dir, false);
        }
        return true;
    }

    private void events(IwarpConversation c, IwarpFrame f, long frame) {
        for (IwarpFrame.Event e : f.events()) {
            switch (e.type()) {
                case GAP -> {
                    c.observe(frame, -1, IwarpEvent.TCP_MISSING_FROM_CAPTURE, (e.to() - e.from())
                            + " bytes of the " + (e.direction() == 0 ? "initiator's" : "responder's")
                            + " stream acknowledged but not in the capture");
                    c.gap(e.direction());
                }
                case RESYNC -> c.observe(frame, -1, IwarpEvent.MPA_RESYNC, "MPA framing found again "
                        + (e.to() - e.from()) + " bytes after the gap");
                case INVALID_STARTUP -> c.observe(frame, -1, IwarpEvent.MPA_INVALID_STARTUP,
                        "the " + (e.direction() == 0 ? "initiator's" : "responder's")
                                + " stream does not start with a valid MPA " + (e.direction() == 0 ? "Request" : "Reply"));
                default -> {
                }
            }
        }
    }

    private IwarpConversation conversation(IwarpConnection connection, long frame) {
        IwarpConversation c = byConnection.get(connection);
        if (c != null) {
            return c;
        }
        if (byConnection.size() >= limits.conversations()) {
            if (!limitReported) {
                limitReported = true;
                listener.observation(new Observation.LimitReached(frame, null, "iWARP conversations tracked ("
                        + limits.conversations() + ")"));
            }
            return null;
        }
        c = new IwarpConversation(ids.get(), connection, listener, limits);
        byConnection.put(connection, c);
        conversations.add(c);
        return c;
    }

    /** The capture ended: bytes held behind open holes are framed, and what never completed is incomplete. */
    public void finish() {
        if (streams != null) {
            IwarpFrame f = streams.flush();
            if (f != null) {
                for (IwarpFrame.Event e : f.events()) {
                    IwarpConversation c = byConnection.get(e.connection());
                    if (c != null && e.type() == IwarpFrame.EventType.GAP) {
                        c.gap(e.direction()); // a hole never filled: what follows it is framed anyway
                    }
                }
                for (int i = 0; i < f.pduCount(); i++) {
                    IwarpPdu p = f.pdu(i);
                    IwarpConversation c = byConnection.get(p.connection());
                    if (c != null) {
                        long frame = p.lastFrame();
                        c.pdu(p, frame, c.timeOf(frame, 0));
                    }
                }
            }
        }
        for (IwarpConversation c : conversations) {
            c.finish();
        }
    }

    /** Every iWARP conversation, in order of first frame. */
    public List<Flow> flows() {
        List<Flow> out = new ArrayList<>(conversations.size());
        for (IwarpConversation c : conversations) {
            out.add(c.flow());
        }
        return out;
    }
}
