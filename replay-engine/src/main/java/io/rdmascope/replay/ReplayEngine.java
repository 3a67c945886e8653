package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.proto.ib.Service;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.replay.iwarp.IwarpReplay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays dissected frames through per-queue-pair state machines (IBTA Vol. 1 chapter 9): the
 * demultiplexer ({@code QpDemux} in DESIGN.md) keys packets by (source address, destination
 * address, destination QPN) and joins the two directions of a connection into one conversation —
 * from CM REQ/REP where the capture has them, else by pairing packets to a QP with the traffic that
 * QP sent. Feed frames in capture order with {@link #accept}, then call {@link #finish} once.
 *
 * <p>Single-threaded; the only state is per conversation plus the routing maps, so nothing is shared
 * between engines (no static mutable state).
 */
public final class ReplayEngine {
    private final ReplayListener listener;
    private final ReplayLimits limits;
    private final PacketFacts facts = new PacketFacts();
    private final Map<RouteKey, Route> routes = new HashMap<>();
    private final Map<PairKey, List<Conversation>> byHosts = new HashMap<>();
    private final Map<String, Conversation> conversations = new LinkedHashMap<>();
    /** CM connections by the active side's communication ID, until the REP names the passive one. */
    private final Map<Long, Conversation> byCommId = new HashMap<>();
    private boolean conversationLimitReported;
    private boolean finished;
    /** Time of the newest frame seen, RDMA or not: where the capture ends. */
    private long lastFrameNanos = Long.MIN_VALUE;
    /** Conversation ids, shared with the iWARP replay so that all are numbered in order of first frame. */
    private int nextConversationId = 1;
    private final IwarpReplay iwarp;

    /** Where packets with one key go: a conversation and the side that sends them. */
    private record Route(Conversation conversation, int side) {
    }

    /** Source, destination and destination QPN (and, for UD, the DETH source QP). */
    private record RouteKey(Address source, Address destination, int destQp, int udSourceQp) {
    }

    /** An unordered pair of hosts, for finding a conversation to join. */
    private record PairKey(Address low, Address high) {
        static PairKey of(Address a, Address b) {
            return compare(a, b) <= 0 ? new PairKey(a, b) : new PairKey(b, a);
        }

        private static int compare(Address a, Address b) {
            int c = Long.compareUnsigned(a.hi(), b.hi());
            return c != 0 ? c : Long.compareUnsigned(a.lo(), b.lo());
        }
    }

    public ReplayEngine(ReplayListener listener) {
        this(listener, ReplayLimits.defaults());
    }

    public ReplayEngine(ReplayListener listener, ReplayLimits limits) {
        this.listener = listener;
        this.limits = limits;
        this.iwarp = new IwarpReplay(listener, limits, () -> String.valueOf(nextConversationId++));
    }

    /** Replays one dissected frame. Frames that are not InfiniBand transport packets are ignored. */
    public void accept(Dissection d) {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        lastFrameNanos = Math.max(lastFrameNanos, d.frame().timeNanos());
        boolean cutBySnapLength = d.frame().wireLength() > d.frame().capturedLength();
        if (!facts.read(d)) {
            if (iwarp.accept(d)) {
                return; // an iWARP connection's TCP segment (issue 8)
            }
            if (d.isMalformed() && !cutBySnapLength) {
                listener.observation(new Observation.Malformed(d.frame().number(), null));
            }
            return;
        }
        if (d.isMalformed() && !cutBySnapLength) {
            listener.observation(new Observation.Malformed(facts.frame, null));
        }
        Operation op = facts.opcode.operation();
        Service service = facts.opcode.service();
        if (service == Service.UD && facts.destQp <= 1) {
            if (facts.destQp == 1 && facts.cmType != null) {
                connectionManagement();
            }
            return; // QP0/QP1: subnet and general management, not application messages
        }
        if (op == Operation.CNP) {
            cnp();
            return;
        }
        Transport transport = switch (service) {
            case RC -> Transport.RC;
            case UC -> Transport.UC;
            case UD -> Transport.UD;
            case XRC -> Transport.XRC;
            default -> null;
        };
        if (transport == null || !facts.opcode.isDefined()) {
            return; // RD, reserved and vendor opcodes: decoded, not replayed
        }
        boolean request = op.isRequest();
        Route route = route(transport, request);
        if (route == null) {
            return;
        }
        Conversation c = route.conversation();
        int side = route.side();
        c.currentTimeNanos = facts.timeNanos;
        Endpoint sender = c.endpoint(side);
        if (sender.udpSourcePort < 0) {
            sender.udpSourcePort = facts.udpSourcePort; // CM-made routes learn the port from the first packet
        }
        c.stats.packet(side, facts.timeNanos, facts.payloadLength, request);
        frameChecks(c);
        if (transport == Transport.UD) {
            datagram(c, side);
            return;
        }
        if (request) {
            if (facts.ecn == 3) {
                c.observe(new Observation.CeMark(facts.frame, c.id, facts.psn));
                c.stats.ceMark(side);
            }
            c.channel(side).request(facts);
        } else {
            c.channel(1 - side).response(facts);
        }
    }

    private void frameChecks(Conversation c) {
        if (facts.icrcStatus() == Crcs.STATUS_BAD) {
            c.observe(new Observation.BadCrc(facts.frame, c.id, facts.psn, false));
        }
        if (facts.vcrcStatus() == Crcs.STATUS_BAD) {
            c.observe(new Observation.BadCrc(facts.frame, c.id, facts.psn, true));
        }
        if (facts.truncated) {
            c.observe(new Observation.TruncatedFrame(facts.frame, c.id, facts.psn, facts.capturedLength,
                    facts.wireLength));
        }
    }

    // ---- demultiplexing -------------------------------------------------------------------------------

    private Route route(Transport transport, boolean request) {
        Address src = facts.source();
        Address dst = facts.destination();
        int udSource = transport == Transport.UD ? facts.dethSourceQp : -1;
        RouteKey key = new RouteKey(src, dst, facts.destQp, udSource);
        Route known = routes.get(key);
        if (known != null) {
            return known;
        }
        if (transport != Transport.UD) {
            Route joined = join(key, request);
            if (joined != null) {
                return joined;
            }
        }
        Conversation c;
        int side;
        if (request || transport == Transport.UD) {
            c = newConversation(transport, src, dst);
            side = 0;
        } else {
            c = newConversation(transport, dst, src); // answers to requests the capture missed
            side = 1;
        }
        if (c == null) {
            return null;
        }
        Endpoint to = c.endpoint(1 - side);
        to.qpn = facts.destQp;
        Endpoint from = c.endpoint(side);
        if (transport == Transport.UD) {
            from.qpn = facts.dethSourceQp;
        }
        from.udpSourcePort = facts.udpSourcePort;
        Route r = new Route(c, side);
        routes.put(key, r);
        return r;
    }

    /**
     * A packet to a QP no key knows yet: if exactly one conversation between these hosts is waiting to
     * learn that QP's number (it sent requests from there), this is its other direction. For a
     * response, the candidate's requests must include the response's PSN.
     */
    private Route join(RouteKey key, boolean request) {
        List<Conversation> candidates = byHosts.get(PairKey.of(key.source(), key.destination()));
        if (candidates == null) {
            return null;
        }
        Conversation chosen = null;
        int chosenSide = -1;
        int matches = 0;
        for (Conversation c : candidates) {
            for (int s = 0; s < 2; s++) {
                Endpoint waiting = c.endpoint(s);
                if (waiting.qpn < 0 && waiting.address.equals(key.destination())
                        && c.endpoint(1 - s).address.equals(key.source()) && !c.inError()) {
                    if (request || c.channel(s).mayAnswer(facts.psn)) {
                        chosen = c;
                        chosenSide = s;
                        matches++;
                    }
                }
            }
        }
        if (matches != 1) {
            return null;
        }
        chosen.endpoint(chosenSide).qpn = key.destQp();
        Endpoint sender = chosen.endpoint(1 - chosenSide);
        if (sender.udpSourcePort < 0) {
            sender.udpSourcePort = facts.udpSourcePort;
        }
        Route r = new Route(chosen, 1 - chosenSide);
        routes.put(key, r);
        return r;
    }

    private Conversation newConversation(Transport transport, Address side0, Address side1) {
        if (conversations.size() >= limits.conversations()) {
            if (!conversationLimitReported) {
                conversationLimitReported = true;
                listener.observation(new Observation.LimitReached(facts.frame, null,
                        "conversations tracked (" + limits.conversations() + ")"));
            }
            return null;
        }
        String id = String.valueOf(nextConversationId++);
        Conversation c = new Conversation(id, transport, side0, side1, listener, limits);
        conversations.put(id, c);
        byHosts.computeIfAbsent(PairKey.of(side0, side1), k -> new ArrayList<>(1)).add(c);
        return c;
    }

    // ---- UD ---------------------------------------------------------------------------------------------

    /** UD: every packet is a whole message (IBTA 9.8.4); nothing acknowledges it. */
    private void datagram(Conversation c, int side) {
        if (facts.ecn == 3) {
            c.observe(new Observation.CeMark(facts.frame, c.id, facts.psn));
            c.stats.ceMark(side);
        }
        MessageBuilder m = new MessageBuilder(facts.opcode.operation().hasImmediate() ? MessageKind.SEND_WITH_IMM
                : MessageKind.SEND, facts.psn, facts.psn, facts.frame, facts.timeNanos);
        m.bytes = facts.payloadLength;
        if (facts.immediate >= 0) {
            m.immediate = facts.immediate;
        }
        m.finish(Message.COMPLETED, facts.frame, facts.timeNanos);
        c.stats.completed(side, m);
        c.emit(m, side);
    }

    // ---- congestion notification ---------------------------------------------------------------------

    /** A CNP (Annex A17.9.3) names the QP whose packets were marked: the conversation of that QP. */
    private void cnp() {
        Address src = facts.source();
        Address dst = facts.destination();
        Route r = routes.get(new RouteKey(src, dst, facts.destQp, -1));
        if (r == null) {
            r = join(new RouteKey(src, dst, facts.destQp, -1), true);
        }
        if (r == null) {
            listener.observation(new Observation.Cnp(facts.frame, null, facts.destQp));
            return;
        }
        Conversation c = r.conversation();
        c.observe(new Observation.Cnp(facts.frame, c.id, facts.destQp));
        c.stats.cnp(1 - r.side(), facts.timeNanos);
    }

    // ---- connection management (IBTA Vol. 1 ch. 12) ----------------------------------------------------

    private void connectionManagement() {
        Address src = facts.source();
        Address dst = facts.destination();
        if (facts.cmType == Cm.REQ) {
            long commId = facts.cm(Cm.REQ_LOCAL_COMM_ID);
            if (byCommId.containsKey(commId)) {
                return; // a CM retry of a REQ already seen
            }
            int service = (int) facts.cm(Cm.REQ_TRANSPORT_SERVICE_TYPE);
            Transport transport = service == 1 ? Transport.UC : service == 3 ? Transport.XRC : Transport.RC;
            Conversation c = newConversation(transport, src, dst);
            if (c == null) {
                return;
            }
            c.setup = "cm";
            c.activeCommId = commId;
            Endpoint active = c.endpoint(0);
            active.qpn = (int) facts.cm(Cm.REQ_LOCAL_QPN);
            active.retryCount = (int) facts.cm(Cm.REQ_RETRY_COUNT);
            active.ackTimeoutCode = (int) facts.cm(Cm.REQ_PRIM_LOCAL_ACK_TIMEOUT);
            Endpoint passive = c.endpoint(1);
            // The REQ's Starting PSN is what the passive side sends with (Linux ib_cm: the passive QP's
            // sq_psn and the active QP's rq_psn); every real capture here agrees. rc-transport-rules R1.4
            // says the opposite.
            passive.startPsn = (int) facts.cm(Cm.REQ_STARTING_PSN);
            passive.retryCount = active.retryCount; // librdmacm applies the REQ's count on both sides
            passive.ackTimeoutCode = active.ackTimeoutCode;
            passive.rnrRetryCount = (int) facts.cm(Cm.REQ_RNR_RETRY_COUNT);
            int mtuCode = (int) facts.cm(Cm.REQ_PATH_MTU);
            if (mtuCode >= 1 && mtuCode <= 5) {
                c.pmtuFromCm(128 << mtuCode);
            }
            routes.put(new RouteKey(dst, src, active.qpn, -1), new Route(c, 1));
            byCommId.put(commId, c);
            transition(c, "req");
            return;
        }
        if (facts.cmType == Cm.REP) {
            Conversation c = byCommId.get(facts.cm(Cm.REP_REMOTE_COMM_ID));
            if (c == null || c.passiveCommId != 0) {
                return;
            }
            c.passiveCommId = facts.cm(Cm.REP_LOCAL_COMM_ID);
            Endpoint passive = c.endpoint(1);
            passive.qpn = (int) facts.cm(Cm.REP_LOCAL_QPN);
            c.endpoint(0).startPsn = (int) facts.cm(Cm.REP_STARTING_PSN); // the active side's send PSN
            c.endpoint(0).rnrRetryCount = (int) facts.cm(Cm.REP_RNR_RETRY_COUNT);
            routes.put(new RouteKey(dst, src, passive.qpn, -1), new Route(c, 0)); // A → B's QP: side 0 sends
            byCommId.put(c.passiveCommId, c);
            transition(c, "rep");
            return;
        }
        if (facts.cmType == Cm.RTU) {
            Conversation c = byCommId.get(facts.cm(Cm.RTU_REMOTE_COMM_ID));
            if (c != null) {
                transition(c, "established");
            }
            return;
        }
        if (facts.cmType == Cm.REJ) {
            Conversation c = byCommId.get(facts.cm(Cm.REJ_REMOTE_COMM_ID));
            if (c != null) {
                int reason = (int) facts.cm(Cm.REJ_REASON);
                transition(c, "rejected");
                c.observe(new Observation.CmReject(facts.frame, c.id, reason, Cm.REJ_REASON_NAMES.nameOf(reason)));
            }
            return;
        }
        if (facts.cmType == Cm.DREQ) {
            Conversation c = byCommId.get(facts.cm(Cm.DREQ_REMOTE_COMM_ID));
            if (c != null) {
                transition(c, "disconnecting");
            }
            return;
        }
        if (facts.cmType == Cm.DREP) {
            Conversation c = byCommId.get(facts.cm(Cm.DREP_REMOTE_COMM_ID));
            if (c != null) {
                transition(c, "closed");
            }
        }
    }

    private void transition(Conversation c, String state) {
        c.currentTimeNanos = facts.timeNanos;
        c.transition(facts.frame, state);
    }

    // ---- end ------------------------------------------------------------------------------------------

    /** The capture ended: unanswered messages become incomplete (or, where CM told the retry count, failed). */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        for (Conversation c : conversations.values()) {
            c.finish(lastFrameNanos);
        }
        iwarp.finish();
    }

    /** Every conversation, in order of first frame. */
    public List<Flow> flows() {
        List<Flow> out = new ArrayList<>(conversations.size());
        for (Conversation c : conversations.values()) {
            out.add(c.flow());
        }
        out.addAll(iwarp.flows());
        out.sort(java.util.Comparator.comparingInt(f -> Integer.parseInt(f.conversation())));
        return out;
    }
}
