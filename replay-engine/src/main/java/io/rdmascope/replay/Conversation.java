package io.rdmascope.replay;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A queue-pair conversation: two endpoints, the requests each sends ({@link Channel}) and what the
 * other answers, its CM lifecycle and statistics. All state is plain per-conversation data, so
 * conversations can be replayed independently (a distributed engine could partition by them).
 */
final class Conversation {
    final String id;
    final Transport transport;
    private final Endpoint[] endpoints = new Endpoint[2];
    private final Channel[] channels = new Channel[2];
    private final ReplayListener listener;
    /** The listener takes each message as a {@link Message} ({@link ReplayListener#keepsMessages}), else only counts them. */
    private final boolean listenerKeepsMessages;
    private final ReplayLimits limits;
    final ConversationStats stats = new ConversationStats();

    /** Path MTU: from CM, or the largest legal FIRST/MIDDLE payload seen; 0 unknown. */
    int pmtu;
    private boolean pmtuFromCm;
    String setup = "none";
    private String state;
    private boolean error;
    private final List<Flow.Transition> lifecycle = new ArrayList<>();
    /** CM communication IDs of the active and passive sides, 0 when no CM. */
    long activeCommId;
    long passiveCommId;
    /**
     * Messages completed per ACK frame, counted as the ACK completes them and uncounted when a resend
     * reopens one (that ACK did not complete it after all): the last {@value #ACK_SLOTS} ACK frames, the
     * oldest whose messages are all final (output) reported as it leaves. Counted at completion, not at
     * output: a message is output only after those before it, so one completed with others may come out
     * long after them (behind a READ answered late). A slot waiting for such a message stays while an
     * older one can leave instead, so a late resend can still uncount it.
     */
    private static final int ACK_SLOTS = 64;
    private final long[] ackFrame = new long[ACK_SLOTS];
    private final int[] ackCount = new int[ACK_SLOTS];
    /** Messages counted in a slot that are not final (emitted) yet: a resend may still reopen them. */
    private final int[] ackPending = new int[ACK_SLOTS];
    private final int[] ackPsn = new int[ACK_SLOTS];
    private int ackNext;
    private int ackUsed;
    /** The highest ACK frame in the window: a later one cannot be there yet, so it needs no search. */
    private long ackHighest = -1;
    /**
     * Every slot so far was made for an ACK frame above all earlier ones (the usual case: ACKs are met in
     * frame order). Slots keep the order they were made in (an eviction moves the older ones up one
     * place), so while this holds the window's frames ascend from the oldest slot and a frame is found by
     * bisection, or known to have left when below the oldest: a message is output 64 messages after its
     * ACK, so its slot is among the oldest of the window (on mixed_large every one of them is still
     * there: slots waiting for a message stay while others can leave), which a newest-first scan reached
     * only after reading most of the window.
     */
    private boolean ackFramesAscending = true;
    /** The capture showed this connection's CM REQ (a REP may have come first, or alone). */
    boolean reqSeen;
    /** Time of the frame being replayed, set by the engine before it hands the frame over. */
    long currentTimeNanos;
    /** The largest capture-timestamp inversion seen (a response before its request), its frame and lagging side. */
    private long inversionNanos = -1;
    private long inversionFrame;
    private int inversionSide;

    /** What the whole capture has shown about itself, shared by every conversation of one replay. */
    static final class CaptureState {
        /** Some responder acknowledged PSNs the capture never showed: the capture drops packets. */
        boolean missesPackets;
        /** Completed messages not yet in their conversation's statistics (shared for the same replay). */
        final CompletionLog completions = new CompletionLog();
    }

    final CaptureState capture;

    Conversation(String id, Transport transport, Address side0, Address side1, ReplayListener listener,
                 ReplayLimits limits, CaptureState capture) {
        this.id = id;
        this.capture = capture;
        this.transport = transport;
        this.endpoints[0] = new Endpoint(side0);
        this.endpoints[1] = new Endpoint(side1);
        this.listener = listener;
        this.listenerKeepsMessages = listener.keepsMessages();
        this.limits = limits;
    }

    /** Whether the listener takes each message as a {@link Message} ({@link ReplayListener#keepsMessages}). */
    boolean keepsMessages() {
        return listenerKeepsMessages;
    }

    Endpoint endpoint(int side) {
        return endpoints[side];
    }

    Channel channel(int side) {
        if (channels[side] == null) {
            channels[side] = new Channel(this, side, transport, limits);
        }
        return channels[side];
    }

    boolean inError() {
        return error;
    }

    void observe(Observation o) {
        listener.observation(o);
    }

    /** The connection ends at {@code frame} ({@code cause}: a CM DisconnectRequest or Reject): outstanding work fails. */
    void tearDown(long frame, long timeNanos, String cause) {
        for (Channel c : channels) {
            if (c != null) {
                c.tearDown(frame, timeNanos, cause);
            }
        }
    }

    void transition(long frame, String newState) {
        boolean setup = newState.equals("req") || newState.equals("rep");
        if (!setup || state == null || state.equals("req") || state.equals("rep")) {
            state = newState; // a REQ or REP the capture shows after the RTU does not take the state back
        }
        stats.touch(currentTimeNanos);
        lifecycle.add(new Flow.Transition(frame, newState));
        observe(new Observation.StateChange(frame, id, newState));
    }

    /** A fatal NAK or exhausted retries ({@code cause}): both QPs are in the error state; outstanding work is flushed (R3.5). */
    void enterError(long frame, String cause) {
        if (error) {
            return;
        }
        error = true;
        transition(frame, "error");
        for (Channel c : channels) {
            if (c != null) {
                c.flushOnError(frame, cause);
            }
        }
    }

    void pmtuFromCm(int bytes) {
        pmtu = bytes;
        pmtuFromCm = true;
    }

    void learnPmtu(int payload) {
        if (!pmtuFromCm && payload > pmtu) {
            pmtu = payload;
        }
    }

    /** The five IBTA path MTUs (9.7.1 / 12.6.5). */
    static boolean isPathMtu(long bytes) {
        return bytes == 256 || bytes == 512 || bytes == 1024 || bytes == 2048 || bytes == 4096;
    }

    /** Turns a finished (or, at the end, unfinished) message of side {@code side}'s requester into output. */
    void emit(MessageBuilder m, int side) {
        if (m.emitted()) {
            return;
        }
        m.markEmitted();
        long ackFrame = m.ackCountedFrame();
        if (ackFrame >= 0 && (m.handOutFlags() & RecentMessages.FINAL_AT_ACK) == 0) {
            ackUndone(m); // final now, and not as that ACK's completion
        } else if (ackFrame >= 0) {
            ackFinal(ackFrame);
        }
        deliver(m, side);
    }

    /**
     * {@link #emit} for a message leaving its only placement among the recent messages, with the hand-out
     * fields they kept for it ({@code ackFrame}, {@code flags}: {@link MessageBuilder#handOutFlags}): a
     * listener that only counts is told without this builder being read.
     */
    void handOut(MessageBuilder m, int side, long ackFrame, byte flags) {
        if ((flags & RecentMessages.EMITTED) != 0) {
            return;
        }
        boolean undone = ackFrame >= 0 && (flags & RecentMessages.FINAL_AT_ACK) == 0;
        m.markEmittedLeaving(undone);
        if (undone) {
            ackUndone(ackFrame); // final now, and not as that ACK's completion
        } else if (ackFrame >= 0) {
            ackFinal(ackFrame);
        }
        deliver(m, side);
    }

    private void deliver(MessageBuilder m, int side) {
        if (!listenerKeepsMessages) {
            listener.messageCounted();
            return;
        }
        Endpoint from = endpoints[side];
        Endpoint to = endpoints[1 - side];
        listener.message(new Message(id, from.addressText, to.addressText, from.qpn < 0 ? null : from.qpnBoxed(),
                to.qpn, m.kind, transport, m.firstPsn, m.lastPsn, m.bytes, m.frameList(), m.responseFrameList(),
                m.hasCompletion() ? Integer.valueOf(m.completionFrame()) : null,
                m.hasCompletion() ? Long.valueOf(m.latencyNanos) : null, m.status(), m.immediate, m.invalidatedRkey,
                m.firstMissing || m.lastMissing || m.psnsMissing ? Boolean.TRUE : null));
    }

    /**
     * A response reached the capture {@code skewNanos} before the request it answers, sent by side
     * {@code requesterSide}: that side's transmissions are timestamped late (the capturing host stamps
     * its own packets after the wire sees the peer's reply). Reported once, with the largest skew.
     */
    void timestampInversion(long responseFrame, long skewNanos, int requesterSide) {
        if (inversionNanos < 0 || responseFrame < inversionFrame) {
            inversionFrame = responseFrame; // the earliest frame that shows it
        }
        if (skewNanos > inversionNanos) {
            inversionNanos = skewNanos;
            inversionSide = requesterSide;
        }
    }

    /**
     * A message counted toward an ACK turned out not to be completed by it (a resend reopened it, or it
     * ended otherwise): that ACK's count goes down, if its slot is still in the window.
     */
    void ackUndone(MessageBuilder m) {
        if (m.ackCountedFrame() < 0) {
            return;
        }
        ackUndone(m.ackCountedFrame());
        m.ackCountedFrame(-1);
    }

    /** The count of the ACK in {@code frame}, if its slot is still in the window, goes down by one message. */
    private void ackUndone(long frame) {
        int slot = findAckSlot(frame);
        if (slot >= 0) {
            ackCount[slot]--;
            ackPending[slot]--;
        }
    }

    /** A message counted toward the ACK in {@code frame} is final: that ACK's slot no longer waits for it. */
    private void ackFinal(long frame) {
        int slot = findAckSlot(frame);
        if (slot >= 0) {
            ackPending[slot]--;
        }
    }

    /** The slot of the ACK in {@code frame}, or -1 (never seen, or left the window). */
    private int findAckSlot(long frame) {
        if (frame > ackHighest || ackUsed == 0) {
            return -1;
        }
        int newest = (ackNext - 1 + ACK_SLOTS) % ACK_SLOTS;
        if (ackFrame[newest] == frame) {
            return newest; // the ACK being processed, completing another message
        }
        int oldest = (ackNext - ackUsed + ACK_SLOTS) % ACK_SLOTS;
        if (ackFramesAscending) {
            if (frame < ackFrame[oldest]) {
                return -1; // left the window
            }
            // A window's frames are distinct (a slot is made only for a frame not found), so the bisection
            // finds the one slot the scan below would.
            int low = 0;
            int high = ackUsed - 2;
            while (low <= high) {
                int mid = (low + high) >>> 1;
                int slot = (oldest + mid) % ACK_SLOTS;
                long f = ackFrame[slot];
                if (f == frame) {
                    return slot;
                }
                if (f < frame) {
                    low = mid + 1;
                } else {
                    high = mid - 1;
                }
            }
            return -1;
        }
        for (int n = 1, slot = (newest - 1 + ACK_SLOTS) % ACK_SLOTS; n < ackUsed;
                n++, slot = (slot - 1 + ACK_SLOTS) % ACK_SLOTS) {
            if (ackFrame[slot] == frame) {
                return slot;
            }
        }
        return -1;
    }

    /** Message {@code m} completed by the ACK in {@code frame}. */
    void ackCompleted(MessageBuilder m, long frame, int psn) {
        ackUndone(m);
        m.ackCountedFrame(frame);
        // ACKs mostly come in frame order, so the search (newest first, over a window that fits in a few
        // cache lines) is rare and short.
        int slot = findAckSlot(frame);
        if (slot < 0) {
            if (ackUsed == ACK_SLOTS) {
                evictAckSlot();
            }
            slot = ackNext;
            ackFrame[slot] = frame;
            ackCount[slot] = 0;
            ackPending[slot] = 0;
            ackPsn[slot] = psn;
            ackNext = (ackNext + 1) % ACK_SLOTS;
            ackUsed++;
            if (frame <= ackHighest) {
                ackFramesAscending = false; // an ACK met out of frame order (a held response): scan from now on
            }
            ackHighest = Math.max(ackHighest, frame);
        }
        ackCount[slot]++;
        ackPending[slot]++;
    }

    /**
     * The ring is full: the oldest slot whose messages are all final leaves (reported), the older ones
     * moving up one place to keep the ring in order; the oldest of all when every slot still waits.
     */
    private void evictAckSlot() {
        int oldest = (ackNext - ackUsed + ACK_SLOTS) % ACK_SLOTS;
        int leaving = 0;
        while (leaving < ackUsed && ackPending[(oldest + leaving) % ACK_SLOTS] > 0) {
            leaving++;
        }
        if (leaving == ackUsed) {
            leaving = 0;
        }
        flushAckSlot((oldest + leaving) % ACK_SLOTS);
        for (int i = leaving; i > 0; i--) {
            int to = (oldest + i) % ACK_SLOTS;
            int from = (oldest + i - 1) % ACK_SLOTS;
            ackFrame[to] = ackFrame[from];
            ackCount[to] = ackCount[from];
            ackPending[to] = ackPending[from];
            ackPsn[to] = ackPsn[from];
        }
        ackUsed--;
    }

    /** An ACK frame leaves the window: one that completed several messages is a coalesced ACK (R3.2). */
    private void flushAckSlot(int slot) {
        if (ackCount[slot] > 1) {
            observe(new Observation.CoalescedAck(ackFrame[slot], id, ackPsn[slot], ackCount[slot]));
        }
    }

    void finish(long captureEndNanos) {
        for (Channel c : channels) {
            if (c != null) {
                c.finish(captureEndNanos);
            }
        }
        for (int k = ackUsed; k > 0; k--) {
            flushAckSlot((ackNext - k + ACK_SLOTS) % ACK_SLOTS);
        }
        ackUsed = 0;
        if (inversionNanos >= 0) {
            observe(new Observation.TimestampInversion(inversionFrame, id, inversionNanos,
                    endpoints[inversionSide].addressText));
        }
    }

    /** A message of side {@code side}'s requester completed (or ended): into the statistics, by way of the log. */
    void completed(int side, MessageBuilder m) {
        capture.completions.add(stats, side, m);
    }

    Flow flow() {
        capture.completions.flush(); // every conversation's statistics complete before any is read
        Map<MessageKind, Flow.Latency> byKind = new EnumMap<>(MessageKind.class);
        for (MessageKind kind : MessageKind.values()) {
            if (stats.latencyByKind[kind.ordinal()] != null) {
                byKind.put(kind, Flow.Latency.of(stats.latencyByKind[kind.ordinal()]));
            }
        }
        long first = Math.max(0, stats.firstNanos);
        long duration = Math.max(0, stats.lastNanos - first);
        Flow.Side a = side(0);
        Flow.Side b = side(1);
        return new Flow(id, transport, a, b, setup, state == null ? "active" : state, pmtu > 0 ? pmtu : null, first,
                stats.lastNanos, duration, Flow.goodput(a.messageBytes() + b.messageBytes(), duration),
                List.copyOf(lifecycle), Flow.Latency.of(stats.latency()), byKind, stats.goodput.snapshot(), capturePoint());
    }

    /**
     * Where the capture point appears to sit, from what the wire showed, or null without evidence: a
     * host whose own transmissions are stamped late is capturing itself; requests captured and then
     * NAKed as missing were lost after the capture point (it sits toward their requester); requests
     * first seen as resends were lost before it (it sits toward their responder).
     */
    String capturePoint() {
        if (inversionNanos >= 0) {
            return "on " + endpoints[inversionSide].addressText + " (its own transmissions are timestamped late)";
        }
        List<String> says = new ArrayList<>(2);
        for (int s = 0; s < 2; s++) {
            long after = stats.lostAfterCapture[s];
            long before = stats.lost[s] - after;
            String from = endpoints[s].addressText;
            String to = endpoints[1 - s].addressText;
            if (after > 0 && before > 0) {
                says.add("between " + from + " and " + to + " (its requests were lost on both sides of it)");
            } else if (after > 0) {
                says.add("toward " + from + " (its requests were lost after the capture point)");
            } else if (before > 0) {
                says.add("toward " + to + " (" + from + "'s requests were lost before the capture point)");
            }
        }
        return says.isEmpty() ? null : String.join("; ", says);
    }

    private Flow.Side side(int s) {
        Endpoint e = endpoints[s];
        ConversationStats t = stats;
        long cnpGaps = t.cnps[s] - 1;
        return new Flow.Side(e.addressText, e.qpn < 0 ? null : e.qpn, e.udpSourcePort < 0 ? null : e.udpSourcePort,
                t.packets[s], t.requestPackets[s], t.payloadBytes[s], t.messages[s], t.messageBytes[s], t.retransmissions[s],
                t.duplicates[s], t.timeouts[s], t.lost[s], t.naks[s], t.rnrNaks[s], t.rnrWaitNanos[s], t.ceMarks[s],
                t.cnps[s], cnpGaps > 0 ? t.cnpGapMinNanos[s] : null,
                cnpGaps > 0 ? t.cnpGapSumNanos[s] / cnpGaps : null);
    }
}
