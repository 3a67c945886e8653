package io.rdmascope.samples;

import io.rdmascope.proto.ib.Service;
import io.rdmascope.samples.RandomTraffic.Flow;
import io.rdmascope.samples.RandomTraffic.Kind;
import io.rdmascope.samples.RandomTraffic.Msg;
import io.rdmascope.samples.RandomTraffic.Pair;
import io.rdmascope.samples.RandomTraffic.Tx;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The random family's truth. Messages come from the generator's own records (which message each
 * transmission carried); observations are derived from the captured transmissions, in the order
 * they happened at the capture point, with the rules a passive observer there can apply
 * (sample-pcaps/README.md, "random family"). Frame numbers are those of the written file, after
 * the timestamp skew re-sorted it. The replay engine is never consulted.
 */
final class RandomTruth {
    private record Obs(Expected kind, int frame, Pair pair, Integer psn, String detail) {
    }

    /** How long (file time) a response waits for the request that reaches it: 1 ms (README, "Truth rules"). */
    private static final long WAIT_NANOS = 1_000_000L;

    /** What the observer knows of one requester. */
    private static final class FlowView {
        boolean started;
        int start;
        int next;
        /** Request PSNs skipped in capture order and not resolved yet, with the frame where each gap showed. */
        final LinkedHashMap<Integer, Integer> gaps = new LinkedHashMap<>();
        /** Every PSN skipped so far (UC: never resolved; a UC message with one is dropped). */
        final Map<Integer, Integer> everSkipped = new HashMap<>();
        final Map<Integer, Tx> lastTransmission = new HashMap<>();
        int trigger = -1;
        boolean inRun;
        int runNext;
        /** Processing index of the frame that began the current run. */
        int runStart;
        final List<Tx> responses = new ArrayList<>();
        /** Responses captured before this requester's first captured request, held as the engine holds them. */
        final List<Tx> preStart = new ArrayList<>();
        /** Responses for PSNs past every request shown so far, waiting for the request that reaches them. */
        final List<Tx> ahead = new ArrayList<>();
    }

    /** What the observer knows of one message. */
    private static final class MsgView {
        final List<Tx> requests = new ArrayList<>();
        Tx firstRequest;
        Tx lastTransmission;
        Integer minPsn;
        Integer maxPsn;
        final Map<Integer, Integer> payloadByPsn = new HashMap<>();
        boolean finalSeen;
        final List<Tx> responses = new ArrayList<>();
        Integer maxResponsePsn;
    }

    private static final class PairView {
        boolean req;
        boolean rep;
        final boolean[] qpnShown = new boolean[2];
        final List<Truth.Transition> lifecycle = new ArrayList<>();
        int firstFrame = Integer.MAX_VALUE;
    }

    private final List<Obs> observations = new ArrayList<>();
    private final Map<Flow, FlowView> flows = new IdentityHashMap<>();
    private final Map<Msg, MsgView> messages = new IdentityHashMap<>();
    private final Map<Pair, PairView> pairs = new IdentityHashMap<>();
    /** Connections whose path MTU the capture shows: a CM REQ, or a request or READ response FIRST or MIDDLE. */
    private final Set<Pair> pathMtuShown = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** Processing order: each transmission's place when the observer takes it into account. */
    private int processed;

    private RandomTruth() {
    }

    static Truth derive(String scenario, String description, long seed, String capture, String format,
                        List<Tx> causal, List<Pair> allPairs) {
        RandomTruth t = new RandomTruth();
        for (Pair p : allPairs) {
            t.pairs.put(p, new PairView());
        }
        // The observer reads the file in order; a response for a PSN its requester has not shown yet
        // waits for the request that reaches it (the capture stamped that request late), as the replay
        // does. "causal" below is this processing order.
        List<Tx> file = new ArrayList<>(causal);
        file.sort(Comparator.comparingInt((Tx x) -> x.frame));
        for (Tx tx : file) {
            t.accept(tx);
        }
        for (FlowView fv : t.flows.values()) {
            List<Tx> left = new ArrayList<>(fv.ahead);
            fv.ahead.clear();
            for (Tx r : left) {
                t.respondNow(r);
            }
        }
        long end = Long.MIN_VALUE;
        for (Tx tx : causal) {
            end = Math.max(end, tx.fileTime);
        }
        t.inversions(causal);
        return t.freeze(scenario, description, seed, capture, format, causal.size(), allPairs, end, causal);
    }

    private FlowView flow(Flow f) {
        return flows.computeIfAbsent(f, k -> new FlowView());
    }

    private MsgView view(Msg m) {
        return messages.computeIfAbsent(m, k -> new MsgView());
    }

    private void observe(Expected kind, int frame, Pair pair, Integer psn, String detail) {
        observations.add(new Obs(kind, frame, pair, psn, detail));
    }

    // ---- the pass in capture order ----------------------------------------------------------------------------

    private void accept(Tx tx) {
        tx.causal = processed++;
        boolean firstOrMiddle = (tx.kind == Kind.REQUEST && !tx.fin && tx.msg != null && !tx.msg.readLike())
                || (tx.kind == Kind.READ_RESPONSE && !tx.fin);
        if (firstOrMiddle || (tx.kind == Kind.CM && "req".equals(tx.cmState))) {
            pathMtuShown.add(tx.pair);
        }
        PairView pv = pairs.get(tx.pair);
        if (tx.kind != Kind.CM) {
            pv.firstFrame = Math.min(pv.firstFrame, tx.frame);
        }
        switch (tx.kind) {
            case CM -> cm(tx, pv);
            case DATAGRAM -> {
                pv.qpnShown[1] = true;
                MsgView mv = view(tx.msg);
                mv.requests.add(tx);
                mv.firstRequest = tx;
                mv.lastTransmission = tx;
                mv.minPsn = tx.psn;
                mv.maxPsn = tx.psn;
                mv.payloadByPsn.put(tx.psn, tx.payload);
                mv.finalSeen = true;
            }
            case REQUEST -> {
                pv.qpnShown[1 - tx.flow.side] = true;
                request(tx);
            }
            default -> {
                pv.qpnShown[tx.flow.side] = true;
                response(tx);
            }
        }
    }

    /**
     * CM: a REQ or a REP starts the lifecycle (each names a QP of the pair: the REQ the active one, the REP
     * the passive one, so an observer can tell which QP pair it belongs to); RTU, DREQ, DREP name only
     * communication IDs and count only after the REQ or REP that they follow was captured.
     */
    private void cm(Tx tx, PairView pv) {
        switch (tx.cmState) {
            case "req" -> {
                pv.req = true;
                pv.qpnShown[0] = true;
            }
            case "rep" -> {
                pv.rep = true;
                pv.qpnShown[1] = true;
            }
            default -> {
                if (!pv.req && !pv.rep) {
                    return;
                }
            }
        }
        pv.firstFrame = Math.min(pv.firstFrame, tx.frame);
        pv.lifecycle.add(new Truth.Transition(tx.frame, tx.cmState));
        observe(Expected.QP_STATE, tx.frame, tx.pair, null, tx.cmState);
    }

    /** The start PSN CM announced for this requester, if the capture holds the CM message naming it. */
    private Integer cmStart(Flow f) {
        PairView pv = pairs.get(f.pair);
        if (!f.pair.cm) {
            return null;
        }
        // The REQ carries the passive side's send PSN, the REP the active side's (ReplayEngine; not R1.4).
        if (f.side == 1 && pv.req) {
            return f.pair.startPsn[1];
        }
        if (f.side == 0 && pv.rep) {
            return f.pair.startPsn[0];
        }
        return null;
    }

    private void request(Tx tx) {
        FlowView fv = flow(tx.flow);
        boolean first = !fv.started;
        requestInOrder(tx);
        if (!fv.ahead.isEmpty()) {
            List<Tx> waiting = new ArrayList<>(fv.ahead);
            fv.ahead.clear();
            for (Tx r : waiting) {
                if (tx.fileTime - r.fileTime > WAIT_NANOS || !waits(fv, r)) {
                    respondNow(r);
                } else {
                    fv.ahead.add(r);
                }
            }
        }
        if (first) {
            // Responses captured before the first request answer requests from before the capture, unless
            // their PSN is at or after that first request's: then they answer it (a response stamped early,
            // or a NAK naming the PSN the first request resends) and count after it.
            List<Tx> held = new ArrayList<>(fv.preStart);
            fv.preStart.clear();
            for (Tx r : held) {
                // They wait like the others: a first request more than the wait after them is not theirs
                // to count after (an RNR NAK answering a send from before the capture, resent much later).
                if (Psn.diff(r.psn, tx.psn) >= 0 && Psn.diff(r.psn, tx.psn) <= 2048
                        && tx.fileTime - r.fileTime <= WAIT_NANOS) {
                    response(r);
                }
            }
        }
    }

    private void requestInOrder(Tx tx) {
        Flow f = tx.flow;
        FlowView fv = flow(f);
        Msg m = tx.msg;
        int q = tx.psn;
        boolean rc = f.pair.service == Service.RC;
        if (!fv.started) {
            fv.started = true;
            Integer announced = cmStart(f);
            int ahead = announced == null ? -1 : Psn.diff(q, announced);
            fv.start = ahead >= 0 && ahead <= 64 ? announced : q;
            fv.next = fv.start;
        }
        boolean inScope = Psn.diff(q, fv.start) >= 0;
        // A fabric copy is a duplicate to the observer only when the file holds an earlier transmission of
        // its PSN: with the original before the capture began, the copy is the PSN's first sighting and
        // nothing in the capture tells it from an original (the duplicate rule compares with what was shown).
        if (tx.duplicate && fv.lastTransmission.containsKey(q)) {
            observe(Expected.DUPLICATE, tx.frame, f.pair, q, null);
            if (inScope) {
                attach(m, tx, true);
            }
            return;
        }
        int d = Psn.diff(q, fv.next);
        MsgView owner = messages.get(m);
        if (rc && d == 0 && fv.inRun && q == fv.runNext && owner != null && owner.firstRequest != null
                && owner.firstRequest.causal < fv.runStart) {
            // A go-back-N run reaching a PSN never captured inside a message begun before the run: a run
            // resends what was sent, so this was sent before and lost ahead of the capture point (R3.3).
            observe(Expected.PACKET_LOST, tx.frame, f.pair, q, "resent by a go-back-N run, never captured before");
            observe(Expected.RETRANSMISSION, tx.frame, f.pair, q, null);
            fv.next = Psn.add(q, 1);
            fv.runNext = fv.next;
            fv.lastTransmission.put(q, tx);
            if (inScope) {
                attach(m, tx, false);
            }
            return;
        }
        if (d >= 0) {
            for (int x = fv.next; x != q; x = Psn.add(x, 1)) {
                if (f.isRequestPsn(x)) {
                    fv.gaps.put(x, tx.frame);
                    fv.everSkipped.putIfAbsent(x, tx.frame);
                }
            }
            fv.next = m.isRead() ? Psn.add(m.last(), 1) : Psn.add(q, 1);
            fv.inRun = false;
        } else if (rc) {
            Integer gapFrame = fv.gaps.remove(q);
            if (gapFrame != null) {
                observe(Expected.PACKET_LOST, gapFrame, f.pair, q, "skipped, then resent");
            }
            if (!(fv.inRun && (q == fv.runNext || acrossMissedResends(fv, q)))) {
                if (fv.trigger != q && !impliedNak(fv, m, q, tx.fileTime)) {
                    observe(Expected.ACK_TIMEOUT, tx.frame, f.pair, q, null);
                }
                fv.trigger = -1;
                fv.inRun = true;
                fv.runStart = tx.causal;
            }
            observe(Expected.RETRANSMISSION, tx.frame, f.pair, q, null);
            fv.runNext = m.isRead() ? Psn.add(m.last(), 1) : Psn.add(q, 1);
        }
        fv.lastTransmission.put(q, tx);
        if (inScope) {
            attach(m, tx, false);
        }
    }

    /**
     * Whether a run that would go on at {@code fv.runNext} reaches {@code q} across PSNs the capture
     * showed requests at, none of them named by a response (its PSN or a later one) since its latest
     * captured transmission. Go-back-N resends every unacknowledged PSN from the run's start in order
     * (R3.3, R3.4, R3.6), so the requester resent those too and the capture missed the resends; a new run
     * cannot start at {@code q} while they are unacknowledged (the timer resends from the oldest
     * unacknowledged PSN, a NAK names the PSN the responder expects). A skipped PSN the capture never
     * showed, or one a response may have acknowledged, leaves the run ended (README, run rule).
     */
    private boolean acrossMissedResends(FlowView fv, int q) {
        int x = fv.runNext;
        while (Psn.diff(q, x) > 0) {
            Tx shown = fv.lastTransmission.get(x);
            if (shown == null || namedSince(fv, x, shown.causal)) {
                return false;
            }
            x = shown.msg != null && shown.msg.isRead() ? Psn.add(shown.msg.last(), 1) : Psn.add(x, 1);
        }
        return x == q;
    }

    /** Whether a response processed after {@code since} names {@code psn} or a later PSN. */
    private static boolean namedSince(FlowView fv, int psn, int since) {
        for (int i = fv.responses.size() - 1; i >= 0 && fv.responses.get(i).causal > since; i--) {
            if (Psn.diff(fv.responses.get(i).psn, psn) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * A READ, atomic, FLUSH or ATOMIC WRITE sent again from {@code psn} after the capture showed, since
     * its previous transmission, a response with a later PSN: the responder had processed it, so its
     * response went missing and the requester resent at once (implied NAK, R3.2; READ response gap,
     * R3.7), not on its ACK timer — provided it came within half an ACK timeout of that response (a
     * resend after a longer silence is the timer's, whatever preceded it).
     */
    private boolean impliedNak(FlowView fv, Msg m, int psn, long when) {
        if (!m.readLike()) {
            return false;
        }
        MsgView mv = messages.get(m);
        int since = mv == null || mv.lastTransmission == null ? -1 : mv.lastTransmission.causal;
        for (int i = fv.responses.size() - 1; i >= 0; i--) {
            Tx r = fv.responses.get(i);
            if (r.causal < since) {
                break;
            }
            if (Psn.diff(r.psn, psn) > 0 && when - r.fileTime < RandomTraffic.ACK_TIMEOUT_NANOS / 2) {
                return true;
            }
        }
        return false;
    }

    /**
     * A captured request frame joins its message: the first sighting of a PSN starts or extends it. A
     * {@code copy} (a duplicate of a transmission the file holds) is not a transmission of its own.
     */
    private void attach(Msg m, Tx tx, boolean copy) {
        MsgView mv = view(m);
        mv.requests.add(tx);
        if (mv.firstRequest == null) {
            mv.firstRequest = tx;
        }
        int q = tx.psn;
        if (!copy) {
            mv.lastTransmission = tx;
            if (!m.readLike() && mv.maxPsn != null && Psn.diff(q, mv.maxPsn) > 0 && q < mv.maxPsn) {
                observe(Expected.PSN_WRAP, tx.frame, m.flow.pair, q, "inside a message");
            }
        }
        if (mv.minPsn == null || Psn.diff(q, mv.minPsn) < 0) {
            mv.minPsn = q;
        }
        if (mv.maxPsn == null || Psn.diff(q, mv.maxPsn) > 0) {
            mv.maxPsn = q;
        }
        mv.payloadByPsn.putIfAbsent(q, tx.payload);
        if (tx.fin) {
            mv.finalSeen = true;
        }
    }

    private void response(Tx tx) {
        Flow f = tx.flow;
        FlowView fv = flow(f);
        if (!fv.started) {
            fv.preStart.add(tx); // judged when the first request shows where this requester's PSNs begin
            return;
        }
        if (waits(fv, tx)) {
            fv.ahead.add(tx);
            return;
        }
        respondNow(tx);
    }

    /**
     * Whether a response waits for a request: its PSN is past every request shown, or it is a READ response
     * or atomic ACK whose message the capture has not shown a request of yet (a resend still to come).
     */
    private boolean waits(FlowView fv, Tx r) {
        if (isAhead(fv, r)) {
            return true;
        }
        if ((r.kind != Kind.READ_RESPONSE && r.kind != Kind.ATOMIC_ACK) || Psn.diff(r.psn, fv.start) < 0) {
            return false;
        }
        MsgView mv = messages.get(r.msg);
        return mv == null || mv.firstRequest == null;
    }

    /** Whether response {@code r} is for a PSN past every request its requester has shown (by at most 2048). */
    private static boolean isAhead(FlowView fv, Tx r) {
        int d = Psn.diff(r.psn, Psn.add(fv.next, -1));
        return d > 0 && d <= 2048;
    }

    private void respondNow(Tx tx) {
        tx.causal = processed++;
        Flow f = tx.flow;
        FlowView fv = flow(f);
        int q = tx.psn;
        switch (tx.kind) {
            case ACK -> cover(fv, f, q);
            case NAK -> {
                observe(Expected.NAK_SEQUENCE_ERROR, tx.frame, f.pair, q, null);
                Integer gapFrame = fv.gaps.remove(q);
                if (gapFrame != null) {
                    observe(Expected.PACKET_LOST, gapFrame, f.pair, q, "skipped, then NAKed");
                } else {
                    Tx seen = fv.lastTransmission.get(q);
                    if (seen != null) {
                        observe(Expected.PACKET_LOST, seen.frame, f.pair, q, "captured, then NAKed");
                    }
                }
                fv.trigger = q;
                cover(fv, f, Psn.add(q, -1));
            }
            case RNR_NAK -> {
                observe(Expected.RNR_NAK, tx.frame, f.pair, q, "timer code " + tx.rnrCode);
                fv.trigger = q;
                cover(fv, f, Psn.add(q, -1));
            }
            case READ_RESPONSE, ATOMIC_ACK -> {
                if (tx.startsResponse) {
                    cover(fv, f, Psn.add(q, -1));
                }
                if (tx.startsResponse || tx.kind == Kind.ATOMIC_ACK) {
                    // The answer proves its own request reached the responder: missed by the capture if skipped.
                    Integer gapFrame = fv.gaps.remove(q);
                    if (gapFrame != null) {
                        observe(Expected.MISSING_FROM_CAPTURE, gapFrame, f.pair, q, "answered");
                    }
                }
                MsgView mv = messages.get(tx.msg);
                if (mv != null && mv.firstRequest != null) {
                    mv.responses.add(tx);
                    if (tx.msg.isRead()) {
                        if (mv.maxResponsePsn != null && Psn.diff(q, mv.maxResponsePsn) > 0 && q < mv.maxResponsePsn) {
                            observe(Expected.PSN_WRAP, tx.frame, f.pair, q, "inside READ responses");
                        }
                        if (mv.maxResponsePsn == null || Psn.diff(q, mv.maxResponsePsn) > 0) {
                            mv.maxResponsePsn = q;
                        }
                    }
                }
            }
            default -> {
            }
        }
        fv.responses.add(tx);
    }

    /** Everything up to {@code psn} reached the responder: gaps up to there were missing from the capture only. */
    private void cover(FlowView fv, Flow f, int psn) {
        for (Iterator<Map.Entry<Integer, Integer>> it = fv.gaps.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Integer> g = it.next();
            if (Psn.diff(g.getKey(), psn) <= 0) {
                it.remove();
                observe(Expected.MISSING_FROM_CAPTURE, g.getValue(), f.pair, g.getKey(), "acknowledged");
            }
        }
    }

    // ---- messages ----------------------------------------------------------------------------------------------

    /** Whether response {@code r} tells the observer that a SEND/WRITE ending at {@code last} reached the responder. */
    private static boolean covers(Tx r, int last) {
        int d = Psn.diff(r.psn, last);
        return switch (r.kind) {
            case ACK -> d >= 0;
            case NAK, RNR_NAK, ATOMIC_ACK -> d > 0;
            case READ_RESPONSE -> r.startsResponse && d > 0;
            default -> false;
        };
    }

    private Tx completion(Msg m, MsgView mv) {
        Tx after = mv.lastTransmission;
        if (after == null) {
            return null;
        }
        if (!m.readLike()) {
            for (Tx r : flow(m.flow).responses) {
                if (r.causal > after.causal && covers(r, m.last())) {
                    return r;
                }
            }
            return null;
        }
        if (!m.isRead()) {
            for (Tx r : mv.responses) {
                if (r.causal > after.causal) {
                    return r;
                }
            }
            return null;
        }
        Set<Integer> got = new HashSet<>();
        int need = Psn.diff(m.last(), after.psn) + 1;
        for (Tx r : mv.responses) {
            if (r.causal > after.causal && Psn.diff(r.psn, after.psn) >= 0) {
                got.add(r.psn);
                if (r.fin && got.size() >= need) {
                    return r;
                }
            }
        }
        return null;
    }

    /**
     * {@code coalesced_ack}: a captured ACK that completes more than one SEND/WRITE message (R3.2: one
     * ACK acknowledges every PSN up to its own).
     */
    private void coalescedAcks(List<Truth.Message> all, List<Tx> causal, List<Pair> present, Map<Pair, String> ids) {
        Map<Integer, Tx> byFrame = new HashMap<>();
        for (Tx tx : causal) {
            byFrame.put(tx.frame, tx);
        }
        Map<Integer, Integer> completedAt = new HashMap<>();
        for (Truth.Message m : all) {
            if (m.completionFrame() != null && "RC".equals(m.transport()) && (m.kind().startsWith("SEND")
                    || m.kind().startsWith("WRITE"))) {
                completedAt.merge(m.completionFrame(), 1, Integer::sum);
            }
        }
        completedAt.forEach((frame, n) -> {
            Tx ack = byFrame.get(frame);
            if (n > 1 && ack != null && ack.kind == Kind.ACK) {
                observe(Expected.COALESCED_ACK, frame, ack.pair, ack.psn, n + " messages");
            }
        });
    }

    /**
     * {@code timestamp_inversion}, once per conversation at the earliest such response frame: in file
     * order, a response for a PSN past every request its requester has shown so far (READ spans
     * included), answered by the first later request that reaches it when that request's PSN is at or
     * before the response's (the response answers it or an earlier one: its timestamp precedes its
     * cause). A later request beyond it means the capture missed requests instead.
     */
    private void inversions(List<Tx> causal) {
        List<Tx> file = new ArrayList<>(causal);
        file.sort(Comparator.comparingInt((Tx t) -> t.frame));
        Map<Flow, Integer> newestEnd = new IdentityHashMap<>();
        Map<Flow, List<Tx>> waiting = new IdentityHashMap<>();
        Map<Pair, Integer> earliest = new IdentityHashMap<>();
        for (Tx tx : file) {
            if (tx.flow == null || tx.pair.service != Service.RC || tx.kind == Kind.CM || tx.kind == Kind.DATAGRAM) {
                continue;
            }
            Flow f = tx.flow;
            if (tx.kind == Kind.REQUEST) {
                int end = tx.msg != null && tx.msg.isRead() ? tx.msg.last() : tx.psn;
                Integer old = newestEnd.get(f);
                if (old == null || Psn.diff(end, old) > 0) {
                    newestEnd.put(f, end);
                }
                List<Tx> held = waiting.get(f);
                if (held != null) {
                    for (Iterator<Tx> it = held.iterator(); it.hasNext(); ) {
                        Tx r = it.next();
                        if (tx.fileTime - r.fileTime > WAIT_NANOS) {
                            it.remove();
                        } else if (Psn.diff(r.psn, newestEnd.get(f)) <= 0) {
                            it.remove();
                            if (Psn.diff(r.psn, tx.psn) >= 0) {
                                earliest.merge(tx.pair, r.frame, Math::min);
                            }
                        }
                    }
                }
                continue;
            }
            Integer end = newestEnd.get(f);
            if (end == null || (Psn.diff(tx.psn, end) > 0 && Psn.diff(tx.psn, end) <= 2048)) {
                waiting.computeIfAbsent(f, k -> new ArrayList<>()).add(tx);
            }
        }
        earliest.forEach((pair, frame) -> observe(Expected.TIMESTAMP_INVERSION, frame, pair, null, "response before request"));
    }

    private Truth freeze(String scenario, String description, long seed, String capture, String format, int frameCount,
                         List<Pair> allPairs, long captureEnd, List<Tx> causal) {
        // Conversations: numbered by first frame.
        List<Pair> present = new ArrayList<>();
        for (Pair p : allPairs) {
            if (pairs.get(p).firstFrame != Integer.MAX_VALUE) {
                present.add(p);
            }
        }
        present.sort(Comparator.comparingInt(p -> pairs.get(p).firstFrame));
        Map<Pair, String> ids = new IdentityHashMap<>();
        for (int i = 0; i < present.size(); i++) {
            ids.put(present.get(i), String.valueOf(i + 1));
        }
        List<Truth.Conversation> conversations = new ArrayList<>();
        for (Pair p : present) {
            Wire w = p.wire;
            boolean eth = w.encap().ethernet();
            Truth.Endpoint req = new Truth.Endpoint(w.address(p.a), eth ? Fabric.macText(p.a.mac()) : null, p.qpnA,
                    p.port, p.startPsn[0]);
            Truth.Endpoint resp = new Truth.Endpoint(w.address(p.b), eth ? Fabric.macText(p.b.mac()) : null, p.qpnB,
                    p.flows[1] != null ? Integer.valueOf(p.port) : null, p.flows[1] != null ? p.startPsn[1] : null);
            conversations.add(new Truth.Conversation(ids.get(p), p.service.name(),
                    w.encap().name().toLowerCase(java.util.Locale.ROOT), req, resp, p.pmtu, p.cm ? "cm" : "none",
                    List.copyOf(pairs.get(p).lifecycle)));
        }
        List<Truth.Message> out = new ArrayList<>();
        List<int[]> order = new ArrayList<>();
        for (Pair p : allPairs) {
            for (Flow f : p.flows) {
                if (f == null) {
                    continue;
                }
                for (Map.Entry<Msg, MsgView> shown : asShown(f).entrySet()) {
                    Msg m = shown.getKey();
                    MsgView mv = shown.getValue();
                    Truth.Message tm = message(p, f, m, mv, ids.get(p), captureEnd);
                    order.add(new int[]{tm.frames().get(0), tm.firstPsn(), out.size()});
                    out.add(tm);
                }
            }
        }
        order.sort(Comparator.<int[]>comparingInt(x -> x[0]).thenComparingInt(x -> x[1]));
        List<Truth.Message> sortedMessages = new ArrayList<>();
        for (int[] o : order) {
            sortedMessages.add(out.get(o[2]));
        }
        coalescedAcks(sortedMessages, causal, present, ids);
        List<Obs> sorted = new ArrayList<>(observations);
        sorted.sort(Comparator.comparingInt(Obs::frame));
        List<Truth.Observation> os = new ArrayList<>();
        List<Truth.Finding> fs = new ArrayList<>();
        for (Obs o : sorted) {
            String conv = ids.get(o.pair);
            os.add(new Truth.Observation(o.kind.id(), o.frame, conv, o.psn, o.detail));
            if (o.kind.rule() != null) {
                fs.add(new Truth.Finding(o.kind.rule(), o.kind.severity().id(), o.frame, conv));
            }
        }
        return new Truth(scenario, description, seed, capture, format, frameCount, conversations, sortedMessages, os, fs);
    }

    /**
     * The messages of {@code f} the capture shows, in PSN order, as the capture can tell them apart. A
     * SEND (or WRITE) whose LAST the capture never holds, followed by one whose FIRST it never holds, with
     * only never-captured PSNs between, reads as one message or as several: the PSNs between could be
     * MIDDLEs, or a LAST and a FIRST (R2.2 allows both), and nothing in the capture says which *(choice:
     * one message, the reading that needs no boundary the capture never showed)*. A WRITE whose FIRST
     * was captured is not read so: its DMA length, at the path MTU its FIRST's payload gives (R2.3), says
     * where it ends.
     */
    private Map<Msg, MsgView> asShown(Flow f) {
        Map<Msg, MsgView> out = new LinkedHashMap<>();
        Msg previous = null;
        for (Msg m : f.messages) {
            MsgView mv = messages.get(m);
            if (mv == null || mv.requests.isEmpty()) {
                continue;
            }
            MsgView before = previous == null ? null : out.get(previous);
            if (before != null && oneAsShown(previous, before, m, mv)) {
                Msg joined = new Msg(f, m.kind, previous.first, Psn.diff(m.last(), previous.first) + 1,
                        previous.bytes + m.bytes);
                joined.immediate = m.immediate;
                joined.invalidate = m.invalidate;
                out.remove(previous);
                out.put(joined, joinViews(before, mv));
                previous = joined;
                continue;
            }
            out.put(m, mv);
            previous = m;
        }
        return out;
    }

    private static boolean oneAsShown(Msg a, MsgView av, Msg b, MsgView bv) {
        if (a.readLike() || b.readLike() || a.kind.startsWith("SEND") != b.kind.startsWith("SEND")) {
            return false;
        }
        boolean lastShown = av.finalSeen;
        boolean firstShown = bv.minPsn == b.first;
        boolean writeLengthShown = !a.kind.startsWith("SEND") && av.minPsn == a.first;
        return !lastShown && !firstShown && !writeLengthShown;
    }

    private static MsgView joinViews(MsgView a, MsgView b) {
        MsgView j = new MsgView();
        j.requests.addAll(a.requests);
        j.requests.addAll(b.requests);
        j.firstRequest = a.firstRequest.causal <= b.firstRequest.causal ? a.firstRequest : b.firstRequest;
        j.lastTransmission = a.lastTransmission == null ? b.lastTransmission
                : b.lastTransmission == null || a.lastTransmission.causal > b.lastTransmission.causal
                ? a.lastTransmission : b.lastTransmission;
        j.minPsn = a.minPsn;
        j.maxPsn = b.maxPsn;
        j.payloadByPsn.putAll(a.payloadByPsn);
        j.payloadByPsn.putAll(b.payloadByPsn);
        j.finalSeen = b.finalSeen;
        j.responses.addAll(a.responses);
        j.responses.addAll(b.responses);
        return j;
    }

    /**
     * Whether the capture shows where READ {@code m} ends: a response to it, a later request of its
     * requester (whose PSN bounds it, R1.3), or the path MTU of its connection, which with its DMA length
     * gives its span — shown by a CM REQ or by a FIRST or MIDDLE packet either way (R2.3: those carry
     * exactly the path MTU). Without any, its span is unknowable *(choice: it is its first PSN)*.
     */
    private boolean spanShown(Flow f, Msg m, MsgView mv) {
        if (!mv.responses.isEmpty()) {
            return true;
        }
        boolean after = false;
        for (Msg later : f.messages) {
            if (after && messages.get(later) != null && !messages.get(later).requests.isEmpty()) {
                return true;
            }
            after |= later == m;
        }
        return pathMtuShown.contains(f.pair);
    }

    private Truth.Message message(Pair p, Flow f, Msg m, MsgView mv, String conversation, long captureEnd) {
        List<Integer> frames = new ArrayList<>();
        long firstTime = Long.MAX_VALUE;
        int firstFrame = Integer.MAX_VALUE;
        long lastRequestTime = Long.MIN_VALUE;
        for (Tx r : mv.requests) {
            frames.add(r.frame);
            if (r.frame < firstFrame) {
                firstFrame = r.frame;
                firstTime = r.fileTime;
            }
            lastRequestTime = Math.max(lastRequestTime, r.fileTime);
        }
        frames.sort(null);
        int firstPsn = mv.minPsn;
        String kind = m.kind;
        Long immediate = m.immediate;
        Long invalidate = m.invalidate;
        if (!m.readLike() && !mv.finalSeen) {
            kind = m.kind.startsWith("SEND") ? "SEND" : "WRITE"; // the packet naming the variant was never captured
            immediate = null;
            invalidate = null;
        }
        int lastPsn = m.isRead() ? (spanShown(f, m, mv) ? m.last() : m.first) : m.readLike() ? m.first : mv.maxPsn;
        List<Integer> responseFrames = new ArrayList<>();
        long bytes;
        Map<Integer, Integer> readBytes = new HashMap<>();
        for (Tx r : mv.responses) {
            if (r.causal > mv.firstRequest.causal && Psn.diff(r.psn, firstPsn) >= 0) {
                responseFrames.add(r.frame);
                readBytes.putIfAbsent(r.psn, r.payload);
            }
        }
        responseFrames.sort(null);
        switch (m.kind) {
            case "READ" -> bytes = readBytes.values().stream().mapToLong(Integer::longValue).sum();
            case "COMPARE_SWAP", "FETCH_ADD" -> bytes = 8;
            case "FLUSH" -> bytes = 0;
            default -> bytes = mv.payloadByPsn.values().stream().mapToLong(Integer::longValue).sum();
        }
        Integer completionFrame = null;
        Long latency = null;
        String status = "incomplete";
        Integer srcQp = pairs.get(p).qpnShown[f.side] || p.service == Service.UD ? f.requesterQpn() : null;
        if (p.service == Service.UD) {
            completionFrame = firstFrame;
            latency = 0L;
            status = "completed";
        } else if (p.service == Service.UC) {
            FlowView fv = flow(f);
            int dropAt = Integer.MAX_VALUE;
            for (int x = m.first; ; x = Psn.add(x, 1)) {
                Integer g = fv.everSkipped.get(x);
                if (g != null && Psn.diff(x, fv.start) >= 0) {
                    dropAt = Math.min(dropAt, g);
                }
                if (x == m.last()) {
                    break;
                }
            }
            if (dropAt != Integer.MAX_VALUE) {
                status = "dropped";
                observe(Expected.UC_MESSAGE_DROPPED, dropAt, p, firstPsn, null);
            } else if (mv.finalSeen) {
                Tx fin = null;
                for (Tx r : mv.requests) {
                    if (r.fin) {
                        fin = r;
                        break;
                    }
                }
                completionFrame = fin.frame;
                latency = fin.fileTime - firstTime;
                status = "completed";
            }
        } else {
            Tx done = completion(m, mv);
            if (done != null) {
                completionFrame = done.frame;
                latency = done.fileTime - firstTime;
                status = "completed";
            }
        }
        if (status.equals("incomplete")) {
            boolean stale = captureEnd - lastRequestTime >= RandomTraffic.ACK_TIMEOUT_NANOS;
            observe(stale ? Expected.MESSAGE_INCOMPLETE : Expected.UNANSWERED_AT_CAPTURE_END, firstFrame, p, firstPsn,
                    kind);
        }
        Host requester = f.requester();
        Host responder = f.responder();
        return new Truth.Message(conversation, p.wire.address(requester), p.wire.address(responder), srcQp,
                f.responderQpn(), kind, p.service.name(), firstPsn, lastPsn, bytes, List.copyOf(frames),
                List.copyOf(responseFrames), completionFrame, latency, status, immediate, invalidate, null);
    }
}
