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
 * address, destination QPN) — a <em>direction</em> — and joins the two directions of a connection
 * into one conversation. Feed frames in capture order with {@link #accept}, then call
 * {@link #finish} once.
 *
 * <p>Pairing comes from evidence, never from arrival order. CM REQ/REP name both QPs. Without CM a
 * new direction is held (its packets kept, bounded) until the wire shows which reverse direction it
 * belongs to: a response (ACK, NAK, READ response, atomic ACK) whose PSN falls inside the window of
 * requests exactly one candidate sent. A BTH names only the destination QP, so with several QP
 * pairs between two hosts nothing else can tell. When evidence decides, the held packets of both
 * directions are replayed in frame order. A direction that gathers no evidence within
 * {@link #HOLD_PACKETS} packets or {@link #HOLD_NANOS} of capture time, or by the end, is paired by
 * the RoCEv2 UDP source port if exactly one reverse direction shares it (Linux derives one port per
 * QP pair from both QPNs), else stands alone with a {@code pairing_undecided} note.
 *
 * <p>Conversation ids given to the listener while replaying are provisional: pairing can merge two
 * directions after both were seen. {@link #finalConversationId} maps them to the ids of the
 * output, numbered 1, 2, … in order of first frame; {@link ReplayResult} applies it.
 *
 * <p>Single-threaded; the only state is per conversation plus the routing maps, so nothing is shared
 * between engines (no static mutable state).
 */
public final class ReplayEngine {
    /** Packets a direction may hold while its pairing is undecided. */
    static final int HOLD_PACKETS = 512;
    /** Capture time a direction may hold its packets while its pairing is undecided. */
    static final long HOLD_NANOS = 50_000_000L;
    /**
     * How far outside a candidate's request window a response PSN may fall and still count as evidence:
     * responses to requests sent just before the capture began, or to requests the capture has not
     * shown yet (missed, or timestamped late by the capturing host).
     */
    static final int WINDOW_SLACK = 1024;
    /** Response PSNs a held direction remembers as pairing evidence. */
    private static final int EVIDENCE_PSNS = 64;

    private final ReplayListener listener;
    private final ReplayLimits limits;
    /** Facts of the frame being replayed: {@link #ownFacts}, or those a {@link ReplayFeed} read ahead. */
    private PacketFacts facts;
    private final PacketFacts ownFacts = new PacketFacts();
    private final Conversation.CaptureState capture = new Conversation.CaptureState();
    private final RouteTable<Route> routes = new RouteTable<>();
    private final Map<PairKey, List<Conversation>> byHosts = new HashMap<>();
    private final Map<String, Conversation> conversations = new LinkedHashMap<>();
    /** Directions whose pairing is undecided, in order of first frame. */
    private final Map<RouteKey, Held> held = new LinkedHashMap<>();
    private final Map<PairKey, List<Held>> heldByHosts = new HashMap<>();
    /** CM connections by the active side's communication ID, until the REP names the passive one. */
    private final Map<Long, Conversation> byCommId = new HashMap<>();
    /** First frame of every conversation id handed out (RoCE and iWARP), for the final numbering. */
    private final Map<String, Long> firstFrameOfId = new HashMap<>();
    private Map<String, String> finalIds;
    private boolean conversationLimitReported;
    private boolean finished;
    /** Time of the newest frame seen, RDMA or not: where the capture ends. */
    private long lastFrameNanos = Long.MIN_VALUE;

    long captureEndNanos() {
        return lastFrameNanos;
    }
    private long currentFrame;
    /** Conversation ids, shared with the iWARP replay. */
    private int nextConversationId = 1;
    private final IwarpReplay iwarp;
    private final CaptureArtifacts artifacts;

    /** Where packets with one key go: a conversation and the side that sends them. */
    private record Route(Conversation conversation, int side) {
    }

    /** Source, destination and destination QPN (and, for UD, the DETH source QP). */
    private record RouteKey(Address source, Address destination, int destQp, int udSourceQp) {
    }

    private void route(RouteKey key, Route route) {
        routes.put(key.source(), key.destination(), key.destQp(), key.udSourceQp(), route);
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

    /** A direction whose reverse is not known yet: its packets, held, and what they say about pairing. */
    private static final class Held {
        final RouteKey key;
        final Transport transport;
        final List<PacketFacts> packets = new ArrayList<>();
        final long firstFrame;
        final long firstNanos;
        final int udpSourcePort;
        /** Request PSN window: first request PSN and one past the newest (a READ counts its largest span). */
        boolean hasRequests;
        int firstRequestPsn;
        int endRequestPsn;
        /** PSNs of the first responses it carried. */
        final int[] responsePsns = new int[EVIDENCE_PSNS];
        int responses;

        Held(RouteKey key, Transport transport, PacketFacts first) {
            this.key = key;
            this.transport = transport;
            this.firstFrame = first.frame;
            this.firstNanos = first.timeNanos;
            this.udpSourcePort = first.udpSourcePort;
        }

        /** Adds a packet; returns whether it is pairing evidence (a request widening the window, or a response). */
        boolean add(PacketFacts p) {
            packets.add(p);
            Operation op = p.opcode.operation();
            if (op == Operation.CNP) {
                return false;
            }
            if (op.isRequest()) {
                int end = Psn.add(p.psn, op.kind() == Operation.Kind.READ ? Channel.maxReadSpan(p.rethDmaLength) : 1);
                if (!hasRequests) {
                    hasRequests = true;
                    firstRequestPsn = p.psn;
                    endRequestPsn = end;
                    return true;
                }
                if (Psn.diff(p.psn, firstRequestPsn) < 0 && Psn.diff(p.psn, firstRequestPsn) > -WINDOW_SLACK) {
                    firstRequestPsn = p.psn;
                }
                if (Psn.diff(end, endRequestPsn) > 0) {
                    endRequestPsn = end;
                    return true;
                }
                return false;
            }
            if (responses < EVIDENCE_PSNS) {
                responsePsns[responses++] = p.psn;
                return true;
            }
            return false;
        }

        /**
         * Whether a response with this PSN could answer this direction's requests: strictly, inside the
         * PSNs its requests used (or the one just before); loosely, within {@link #WINDOW_SLACK} of them
         * (requests sent before the capture, missed by it, or stamped late).
         */
        boolean answers(int psn, boolean strict) {
            int slack = strict ? 0 : WINDOW_SLACK;
            return hasRequests && Psn.diff(psn, firstRequestPsn) >= -slack
                    && Psn.diff(psn, endRequestPsn) < (strict ? 0 : WINDOW_SLACK);
        }

        /** Responses of {@code reverse} that fall in this direction's request window. */
        int evidenceFrom(Held reverse, boolean strict) {
            int n = 0;
            for (int i = 0; i < reverse.responses; i++) {
                if (answers(reverse.responsePsns[i], strict)) {
                    n++;
                }
            }
            return n;
        }

        int evidenceFrom(Held reverse) {
            return evidenceFrom(reverse, false);
        }
    }

    public ReplayEngine(ReplayListener listener) {
        this(listener, ReplayLimits.defaults());
    }

    public ReplayEngine(ReplayListener listener, ReplayLimits limits) {
        this(listener, limits, IcrcCheck.AUTO);
    }

    /** @param icrc how ICRCs that do not verify are reported ({@code --icrc}) */
    public ReplayEngine(ReplayListener listener, ReplayLimits limits, IcrcCheck icrc) {
        this.listener = listener;
        this.limits = limits;
        this.artifacts = new CaptureArtifacts(listener, icrc);
        this.iwarp = new IwarpReplay(listener, limits, () -> newId(currentFrame));
    }

    /** A provisional conversation id, remembered with the conversation's first frame for the final numbering. */
    private String newId(long firstFrame) {
        String id = String.valueOf(nextConversationId++);
        firstFrameOfId.put(id, firstFrame);
        return id;
    }

    /** Replays one dissected frame. Frames that are not InfiniBand transport packets are ignored. */
    public void accept(Dissection d) {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        accept(d, ownFacts, ownFacts.read(d));
    }

    /**
     * What of a frame's replay depends on that frame alone, done ahead (possibly on another thread):
     * the facts read from {@code d} and, when {@code crcs}, its CRC verdicts (otherwise they are computed
     * when the engine first asks, as on one thread). Returns whether it is a transport packet, as
     * {@link PacketFacts#read} does. The engine's state is not touched.
     */
    boolean readAhead(Dissection d, PacketFacts into, boolean crcs) {
        boolean transport = into.read(d);
        if (crcs && transport && !into.headersCut) {
            into.computeCrcs(artifacts.icrcCheck() != IcrcCheck.OFF); // the check mode is fixed: safe to read here
        }
        return transport;
    }

    /** {@link #accept(Dissection)} with the frame's facts already read ({@link #readAhead}). */
    void accept(Dissection d, PacketFacts read, boolean transportPacket) {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        facts = read;
        currentFrame = d.frame().number();
        lastFrameNanos = Math.max(lastFrameNanos, d.frame().timeNanos());
        releaseAged(d.frame().timeNanos());
        boolean cutBySnapLength = d.isCut(); // or silently: a frame shorter than its own IP/UDP length
        if (!transportPacket) {
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
        if (facts.headersCut) {
            artifacts.headersCut(facts.frame, facts.addressKind == 0 ? null : new CaptureArtifacts.Place(
                    facts.source(), facts.destination(), facts.destQp));
            return; // no opcode or PSN to follow: the capture finding names what it leaves out
        }
        Operation op = facts.opcode.operation();
        Service service = facts.opcode.service();
        if (service == Service.UD && facts.destQp <= 1) {
            if (facts.destQp == 1 && facts.cmType != null) {
                connectionManagement();
            }
            return; // QP0/QP1: subnet and general management, not application messages
        }
        Transport transport = op == Operation.CNP ? null : switch (service) {
            case RC -> Transport.RC;
            case UC -> Transport.UC;
            case UD -> Transport.UD;
            case XRC -> Transport.XRC;
            default -> null;
        };
        if (op != Operation.CNP && (transport == null || !facts.opcode.isDefined())) {
            return; // RD, reserved and vendor opcodes: decoded, not replayed
        }
        if (transport == Transport.UD) {
            Route route = datagramRoute();
            if (route != null) {
                process(facts, route);
            }
            return;
        }
        Route known = routes.get(facts.addressKind, facts.srcHi, facts.srcLo, facts.dstHi, facts.dstLo, facts.destQp, -1);
        if (known != null) {
            if (!heldByHosts.isEmpty() && op != Operation.CNP) {
                joinHeldAnswering(known);
            }
            process(facts, known);
            return;
        }
        RouteKey key = new RouteKey(facts.source(), facts.destination(), facts.destQp, -1);
        Held h = held.get(key);
        if (h == null) {
            if (op == Operation.CNP) {
                // A CNP to a QP no traffic has named yet: nothing to place it in.
                listener.observation(new Observation.Cnp(facts.frame, null, facts.destQp));
                return;
            }
            h = new Held(key, transport, facts);
            held.put(key, h);
            heldByHosts.computeIfAbsent(PairKey.of(key.source(), key.destination()), k -> new ArrayList<>(2)).add(h);
        }
        if (h.add(facts.copy())) {
            decide(h);
        }
        if (held.get(key) == h && h.packets.size() >= HOLD_PACKETS) {
            force(h);
        }
    }

    /** Replays one packet of a known direction. */
    private void process(PacketFacts p, Route route) {
        Conversation c = route.conversation();
        int side = route.side();
        c.currentTimeNanos = p.timeNanos;
        Operation op = p.opcode.operation();
        if (op == Operation.CNP) {
            // A CNP (Annex A17.9.3) names the QP whose packets were marked: it goes back to that QP's peer.
            listener.placement(p.frame, c.id, side, FrameRole.CNP);
            c.observe(new Observation.Cnp(p.frame, c.id, p.destQp));
            c.stats.cnp(1 - side, p.timeNanos);
            return;
        }
        boolean request = op.isRequest();
        Endpoint sender = c.endpoint(side);
        if (sender.udpSourcePort < 0) {
            sender.udpSourcePort = p.udpSourcePort; // CM-made routes learn the port from the first packet
        }
        listener.placement(p.frame, c.id, side, roleOf(p, c.transport));
        c.stats.packet(side, p.timeNanos, p.payloadLength, request);
        frameChecks(c, p);
        if (c.transport == Transport.UD) {
            datagram(c, side, p);
            return;
        }
        if (request) {
            if (p.ecn == 3) {
                c.observe(new Observation.CeMark(p.frame, c.id, p.psn));
                c.stats.ceMark(side);
            }
            c.channel(side).request(p);
        } else {
            c.channel(1 - side).response(p);
        }
    }

    private static FrameRole roleOf(PacketFacts p, Transport transport) {
        if (transport == Transport.UD) {
            return FrameRole.DATAGRAM;
        }
        Operation op = p.opcode.operation();
        if (op.isRequest()) {
            return FrameRole.REQUEST;
        }
        return switch (op) {
            case ATOMIC_ACKNOWLEDGE -> FrameRole.ATOMIC_ACK;
            case RDMA_READ_RESPONSE_FIRST, RDMA_READ_RESPONSE_MIDDLE, RDMA_READ_RESPONSE_LAST,
                 RDMA_READ_RESPONSE_ONLY -> FrameRole.READ_RESPONSE;
            default -> {
                int type = p.aethSyndrome < 0 ? 0 : (p.aethSyndrome >> 5) & 0x3;
                yield type == 1 ? FrameRole.RNR_NAK : type == 3 ? FrameRole.NAK : FrameRole.ACK;
            }
        };
    }

    private void frameChecks(Conversation c, PacketFacts p) {
        IcrcCheck icrc = artifacts.icrcCheck();
        int icrcStatus = icrc == IcrcCheck.OFF ? Crcs.STATUS_UNVERIFIED : p.icrcStatus(); // none on a cut frame
        if (icrcStatus == Crcs.STATUS_BAD && icrc == IcrcCheck.STRICT) {
            c.observe(new Observation.BadCrc(p.frame, c.id, p.psn, false));
        } else if (icrcStatus != Crcs.STATUS_UNVERIFIED && icrc == IcrcCheck.AUTO) {
            artifacts.icrc(p, c.id, icrcStatus == Crcs.STATUS_GOOD);
        }
        if (p.vcrcStatus() == Crcs.STATUS_BAD) {
            c.observe(new Observation.BadCrc(p.frame, c.id, p.psn, true));
        }
        if (p.truncated) {
            c.observe(new Observation.TruncatedFrame(p.frame, c.id, p.psn, p.capturedLength, p.wireLength));
        } else if (p.cutSilently) {
            artifacts.cutSilently(p.frame);
        } else if ((p.payloadLength + p.padCount) % 4 != 0) {
            // IBTA 9.2 (BTH PadCnt): payload and pad fill whole 4-byte words, on every opcode. Only a
            // frame whose end was captured shows its real length.
            c.observe(new Observation.PadMisaligned(p.frame, c.id, p.psn, p.payloadLength, p.padCount));
        }
    }

    // ---- demultiplexing -------------------------------------------------------------------------------

    /** UD needs no pairing: the DETH names the source QP (IBTA 9.8.4). */
    private Route datagramRoute() {
        Route known = routes.get(facts.addressKind, facts.srcHi, facts.srcLo, facts.dstHi, facts.dstLo, facts.destQp,
                facts.dethSourceQp);
        if (known != null) {
            return known;
        }
        RouteKey key = new RouteKey(facts.source(), facts.destination(), facts.destQp, facts.dethSourceQp);
        Conversation c = newConversation(Transport.UD, facts.source(), facts.destination(), facts.frame);
        if (c == null) {
            return null;
        }
        c.endpoint(1).qpn = facts.destQp;
        c.endpoint(0).qpn = facts.dethSourceQp;
        c.endpoint(0).udpSourcePort = facts.udpSourcePort;
        Route r = new Route(c, 0);
        route(key, r);
        return r;
    }

    /**
     * Pairs held direction {@code h} if the evidence now names exactly one reverse direction (held, or a
     * live conversation waiting to learn that QP) and that one has no other candidate either.
     */
    private void decide(Held h) {
        // Pairs at once only on strict evidence (a response inside the PSNs one candidate's requests used):
        // with start PSNs close together, loose windows overlap. Loose evidence waits for the hold limit.
        Held only = null;
        int heldCandidates = 0;
        for (Held r : reverseHeld(h)) {
            if (h.evidenceFrom(r, true) + r.evidenceFrom(h, true) > 0) {
                only = r;
                heldCandidates++;
            }
        }
        Route live = null;
        int liveCandidates = 0;
        for (Route w : waitingRoutes(h)) {
            if (answersLive(h, w)) {
                live = w;
                liveCandidates++;
            }
        }
        if (heldCandidates + liveCandidates > 1 && liveCandidates == 0) {
            // PSN windows overlap (start PSNs close together): the RoCEv2 UDP source port, one per QP pair
            // in both directions on Linux, tells the PSN-consistent candidates apart when exactly one shares it.
            Held byPort = samePort(h, reverseHeld(h), true);
            if (byPort != null) {
                pair(h, byPort);
            }
            return;
        }
        if (heldCandidates + liveCandidates != 1) {
            return; // nothing yet, or more than one: wait for more evidence
        }
        if (live != null) {
            joinLive(h, live);
            return;
        }
        for (Held other : reverseHeld(only)) {
            if (other != h && only.evidenceFrom(other, true) + other.evidenceFrom(only, true) > 0) {
                return; // the candidate has another claimant: wait
            }
        }
        if (h.udpSourcePort > 0 && only.udpSourcePort > 0 && h.udpSourcePort != only.udpSourcePort) {
            // Linux sends both directions of a QP pair from one UDP port: a candidate on another port may be
            // a neighbour whose PSNs happen to be close while the real reverse is not seen yet. Let the hold
            // limit decide on all the evidence then.
            return;
        }
        pair(h, only);
    }

    /** Held directions going the other way between the same two hosts. */
    private List<Held> reverseHeld(Held h) {
        List<Held> all = heldByHosts.get(PairKey.of(h.key.source(), h.key.destination()));
        if (all == null) {
            return List.of();
        }
        List<Held> out = new ArrayList<>(all.size());
        for (Held r : all) {
            if (r != h && r.transport == h.transport && r.key.source().equals(h.key.destination())
                    && r.key.destination().equals(h.key.source())) {
                out.add(r);
            }
        }
        return out;
    }

    /** The one candidate that shares {@code h}'s UDP source port (among those with evidence, if asked), or null. */
    private static Held samePort(Held h, List<Held> candidates, boolean withEvidence) {
        if (h.udpSourcePort <= 0) {
            return null;
        }
        Held found = null;
        for (Held r : candidates) {
            if (r.udpSourcePort == h.udpSourcePort
                    && (!withEvidence || h.evidenceFrom(r) + r.evidenceFrom(h) > 0)) {
                if (found != null) {
                    return null;
                }
                found = r;
            }
        }
        return found;
    }

    /**
     * Live conversations between these hosts that do not know the QP {@code h} goes to: the side whose
     * QP number is missing receives {@code h}'s packets. The route returned is the one {@code h} would take.
     */
    private List<Route> waitingRoutes(Held h) {
        List<Conversation> candidates = byHosts.get(PairKey.of(h.key.source(), h.key.destination()));
        if (candidates == null) {
            return List.of();
        }
        List<Route> out = new ArrayList<>(1);
        for (Conversation c : candidates) {
            if (c.transport != h.transport || c.inError()) {
                continue;
            }
            for (int s = 0; s < 2; s++) {
                Endpoint waiting = c.endpoint(s);
                if (waiting.qpn < 0 && waiting.address.equals(h.key.destination())
                        && c.endpoint(1 - s).address.equals(h.key.source())) {
                    out.add(new Route(c, 1 - s));
                }
            }
        }
        return out;
    }

    /**
     * Whether a response {@code h} holds answers requests the waiting side of a live conversation sent,
     * or a response the live conversation holds for want of its request (stamped before it) falls
     * strictly inside {@code h}'s request window, from {@code h}'s UDP port when both are known.
     */
    private static boolean answersLive(Held h, Route w) {
        Conversation c = w.conversation();
        Channel requests = c.channel(1 - w.side());
        for (int i = 0; i < h.responses; i++) {
            if (requests.mayAnswer(h.responsePsns[i], 0)) {
                return true;
            }
        }
        int port = c.endpoint(1 - w.side()).udpSourcePort;
        return h.hasRequests && c.channel(w.side()).holdsResponseWhere(psn -> answeredBy(h, psn, port));
    }

    /**
     * A packet on a live route whose conversation still misses the QP number of the side that sent it
     * (the QP the other side's packets go to): a held direction that is that other side's joins before
     * the packet is replayed, so that its earlier frames keep their place. For a request the evidence is
     * a held response near its PSN (a response stamped before its request stays so); for a response, a
     * held request window that holds its PSN strictly (R2.5, R3.7: a response names a PSN its requester
     * sent), the response having arrived after those requests on the wire.
     */
    private void joinHeldAnswering(Route live) {
        List<Held> all = heldByHosts.get(PairKey.of(facts.source(), facts.destination()));
        if (all == null) {
            return;
        }
        Conversation c = live.conversation();
        int sendingSide = live.side(); // the QP the held direction's packets would go to is this side's
        if (c.endpoint(sendingSide).qpn >= 0) {
            return;
        }
        boolean request = facts.opcode.operation().isRequest();
        int port = c.endpoint(sendingSide).udpSourcePort;
        Held only = null;
        for (Held h : all) {
            if (h.key.source().equals(facts.destination()) && h.key.destination().equals(facts.source())
                    && h.transport == c.transport
                    && (request ? answersPsn(h, facts.psn) : answeredBy(h, facts.psn, port))) {
                if (only != null) {
                    return; // two could answer it: leave it to more evidence
                }
                only = h;
            }
        }
        if (only != null) {
            joinLive(only, new Route(c, 1 - sendingSide));
        }
    }

    /**
     * Whether a response with this PSN, sent from UDP port {@code port} (or -1), answers {@code h}'s
     * requests: strictly inside the PSNs they used, and from {@code h}'s port when both are known
     * (Linux sends both directions of a QP pair from one port; a neighbour's close PSNs must not pair).
     */
    private static boolean answeredBy(Held h, int psn, int port) {
        return h.answers(psn, true) && (port <= 0 || h.udpSourcePort <= 0 || port == h.udpSourcePort);
    }

    /** Whether a response {@code h} holds is for a PSN near {@code psn}. */
    private static boolean answersPsn(Held h, int psn) {
        for (int i = 0; i < h.responses; i++) {
            int d = Psn.diff(h.responsePsns[i], psn);
            if (d >= -WINDOW_SLACK && d < WINDOW_SLACK) {
                return true;
            }
        }
        return false;
    }

    private void joinLive(Held h, Route w) {
        unhold(h);
        Conversation c = w.conversation();
        c.endpoint(1 - w.side()).qpn = h.key.destQp();
        route(h.key, w);
        for (PacketFacts p : h.packets) {
            process(p, w);
        }
    }

    /** Two held directions are one QP pair: one conversation, their held packets replayed in frame order. */
    private void pair(Held a, Held b) {
        unhold(a);
        unhold(b);
        Held first = a.firstFrame <= b.firstFrame ? a : b;
        Held second = first == a ? b : a;
        // The first packet decides who is side 0: its sender for a request, its receiver for a response.
        boolean firstIsRequest = first.packets.get(0).opcode.operation().isRequest();
        Address side0 = firstIsRequest ? first.key.source() : first.key.destination();
        Conversation c = newConversation(first.transport, side0, side0.equals(first.key.source())
                ? first.key.destination() : first.key.source(), first.firstFrame);
        if (c == null) {
            return;
        }
        int firstSide = firstIsRequest ? 0 : 1;
        Route r1 = new Route(c, firstSide);
        Route r2 = new Route(c, 1 - firstSide);
        c.endpoint(1 - firstSide).qpn = first.key.destQp();
        c.endpoint(firstSide).qpn = second.key.destQp();
        route(first.key, r1);
        route(second.key, r2);
        int i = 0;
        int j = 0;
        while (i < first.packets.size() || j < second.packets.size()) {
            boolean takeFirst = j >= second.packets.size()
                    || (i < first.packets.size() && first.packets.get(i).frame < second.packets.get(j).frame);
            if (takeFirst) {
                process(first.packets.get(i++), r1);
            } else {
                process(second.packets.get(j++), r2);
            }
        }
    }

    /**
     * A held direction out of time or room (or at the end): the best evidence it has, else the UDP
     * source port as a hint, else a conversation of its own, said so.
     */
    private void force(Held h) {
        Held best = null;
        int bestScore = 0;
        boolean tie = false;
        for (Held r : reverseHeld(h)) {
            int score = h.evidenceFrom(r) + r.evidenceFrom(h);
            if (score > bestScore) {
                best = r;
                bestScore = score;
                tie = false;
            } else if (score == bestScore && score > 0) {
                tie = true;
            }
        }
        if (best != null && !tie) {
            pair(h, best);
            return;
        }
        Held byPort = samePort(h, reverseHeld(h), bestScore > 0);
        if (byPort != null) {
            pair(h, byPort);
            return;
        }
        boolean ambiguous = !reverseHeld(h).isEmpty() || !waitingRoutes(h).isEmpty();
        unhold(h);
        PacketFacts firstPacket = h.packets.get(0);
        boolean request = firstPacket.opcode.operation().isRequest();
        Conversation c = request ? newConversation(h.transport, h.key.source(), h.key.destination(), h.firstFrame)
                : newConversation(h.transport, h.key.destination(), h.key.source(), h.firstFrame);
        if (c == null) {
            return;
        }
        int side = request ? 0 : 1;
        c.endpoint(1 - side).qpn = h.key.destQp();
        if (ambiguous && h.transport != Transport.UC) {
            // Candidates there were, but nothing told them apart. (With none, the reverse direction is
            // simply not in the capture; UC has no responses, so nothing could ever pair it.)
            c.observe(new Observation.PairingUndecided(h.firstFrame, c.id, h.key.destQp()));
        }
        Route r = new Route(c, side);
        route(h.key, r);
        for (PacketFacts p : h.packets) {
            process(p, r);
        }
    }

    private void unhold(Held h) {
        held.remove(h.key);
        List<Held> list = heldByHosts.get(PairKey.of(h.key.source(), h.key.destination()));
        if (list != null) {
            list.remove(h);
            if (list.isEmpty()) {
                heldByHosts.remove(PairKey.of(h.key.source(), h.key.destination()));
            }
        }
    }

    /** Directions held longer than {@link #HOLD_NANOS} of capture time are decided now. */
    private void releaseAged(long nowNanos) {
        while (!held.isEmpty()) {
            Held oldest = held.values().iterator().next();
            if (nowNanos - oldest.firstNanos < HOLD_NANOS) {
                return;
            }
            force(oldest);
        }
    }

    private Conversation newConversation(Transport transport, Address side0, Address side1, long firstFrame) {
        if (conversations.size() >= limits.conversations()) {
            if (!conversationLimitReported) {
                conversationLimitReported = true;
                listener.observation(new Observation.LimitReached(firstFrame, null,
                        "conversations tracked (" + limits.conversations() + ")"));
            }
            return null;
        }
        String id = newId(firstFrame);
        Conversation c = new Conversation(id, transport, side0, side1, listener, limits, capture);
        conversations.put(id, c);
        byHosts.computeIfAbsent(PairKey.of(side0, side1), k -> new ArrayList<>(1)).add(c);
        return c;
    }

    // ---- UD ---------------------------------------------------------------------------------------------

    /** UD: every packet is a whole message (IBTA 9.8.4); nothing acknowledges it. */
    private void datagram(Conversation c, int side, PacketFacts p) {
        if (p.ecn == 3) {
            c.observe(new Observation.CeMark(p.frame, c.id, p.psn));
            c.stats.ceMark(side);
        }
        MessageBuilder m = new MessageBuilder(p.opcode.operation().hasImmediate() ? MessageKind.SEND_WITH_IMM
                : MessageKind.SEND, p.psn, p.psn, p.frame, p.timeNanos);
        m.bytes = p.payloadLength;
        if (p.immediate >= 0) {
            m.immediate = p.immediate;
        }
        m.finish(Message.COMPLETED, p.frame, p.timeNanos);
        c.completed(side, m);
        c.emit(m, side);
    }

    // ---- connection management (IBTA Vol. 1 ch. 12) ----------------------------------------------------

    private void connectionManagement() {
        Address src = facts.source();
        Address dst = facts.destination();
        if (facts.cmType == Cm.REQ) {
            long commId = facts.cm(Cm.REQ_LOCAL_COMM_ID);
            Conversation c = byCommId.get(commId);
            if (c != null && c.reqSeen) {
                return; // a CM retry of a REQ already seen
            }
            int service = (int) facts.cm(Cm.REQ_TRANSPORT_SERVICE_TYPE);
            Transport transport = service == 1 ? Transport.UC : service == 3 ? Transport.XRC : Transport.RC;
            if (c == null) {
                c = newConversation(transport, src, dst, facts.frame);
                if (c == null) {
                    return;
                }
                c.setup = "cm";
                c.activeCommId = commId;
                byCommId.put(commId, c);
            } // else the REP reached the capture first (timestamps): the REQ completes what it began
            c.reqSeen = true;
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
            transition(c, "req");
            adopt(new RouteKey(dst, src, active.qpn, -1), new Route(c, 1));
            return;
        }
        if (facts.cmType == Cm.REP) {
            long activeCommId = facts.cm(Cm.REP_REMOTE_COMM_ID);
            Conversation c = byCommId.get(activeCommId);
            if (c != null && c.passiveCommId != 0) {
                return; // a CM retry of a REP already seen
            }
            if (c == null) {
                // The REQ is not in the capture (it began after it, or the REP was stamped first): the REP
                // names the passive QP, enough to place the connection. REP carries no service type: RC.
                c = newConversation(Transport.RC, dst, src, facts.frame);
                if (c == null) {
                    return;
                }
                c.setup = "cm";
                c.activeCommId = activeCommId;
                byCommId.put(activeCommId, c);
            }
            c.passiveCommId = facts.cm(Cm.REP_LOCAL_COMM_ID);
            Endpoint passive = c.endpoint(1);
            passive.qpn = (int) facts.cm(Cm.REP_LOCAL_QPN);
            c.endpoint(0).startPsn = (int) facts.cm(Cm.REP_STARTING_PSN); // the active side's send PSN
            c.endpoint(0).rnrRetryCount = (int) facts.cm(Cm.REP_RNR_RETRY_COUNT);
            byCommId.put(c.passiveCommId, c);
            transition(c, "rep");
            adopt(new RouteKey(dst, src, passive.qpn, -1), new Route(c, 0)); // A → B's QP: side 0 sends
            return;
        }
        if (facts.cmType == Cm.RTU) {
            Conversation c = cmConversation(Cm.RTU_REMOTE_COMM_ID, Cm.RTU_LOCAL_COMM_ID);
            if (c != null) {
                transition(c, "established");
            }
            return;
        }
        if (facts.cmType == Cm.REJ) {
            Conversation c = cmConversation(Cm.REJ_REMOTE_COMM_ID, Cm.REJ_LOCAL_COMM_ID);
            if (c != null) {
                int reason = (int) facts.cm(Cm.REJ_REASON);
                transition(c, "rejected");
                c.tearDown(facts.frame, facts.timeNanos, "the CM Reject");
                c.observe(new Observation.CmReject(facts.frame, c.id, reason, Cm.REJ_REASON_NAMES.nameOf(reason)));
            }
            return;
        }
        if (facts.cmType == Cm.DREQ) {
            Conversation c = cmConversation(Cm.DREQ_REMOTE_COMM_ID, Cm.DREQ_LOCAL_COMM_ID);
            if (c != null) {
                transition(c, "disconnecting");
                c.tearDown(facts.frame, facts.timeNanos, "the CM DisconnectRequest");
            }
            return;
        }
        if (facts.cmType == Cm.DREP) {
            Conversation c = cmConversation(Cm.DREP_REMOTE_COMM_ID, Cm.DREP_LOCAL_COMM_ID);
            if (c != null) {
                transition(c, "closed");
            }
        }
    }

    /**
     * The connection a CM message names: by the peer's communication ID (what it was sent to), else by the
     * sender's own, when the capture shows the messages out of order (a REP stamped after the RTU).
     */
    private Conversation cmConversation(io.rdmascope.field.Field remote, io.rdmascope.field.Field local) {
        Conversation c = byCommId.get(facts.cm(remote));
        return c != null ? c : byCommId.get(facts.cm(local));
    }

    private void transition(Conversation c, String state) {
        c.currentTimeNanos = facts.timeNanos;
        Address src = facts.source();
        listener.placement(facts.frame, c.id, c.endpoint(0).address.equals(src) ? 0 : 1, FrameRole.CM);
        c.transition(facts.frame, state);
    }

    /** CM named a route: packets of that direction held before it are replayed there. */
    private void adopt(RouteKey key, Route route) {
        route(key, route);
        Held h = held.get(key);
        if (h != null) {
            unhold(h);
            for (PacketFacts p : h.packets) {
                process(p, route);
            }
        }
    }

    // ---- end ------------------------------------------------------------------------------------------

    /** The capture ended: unanswered messages become incomplete (or, where CM told the retry count, failed). */
    public void finish() {
        finish(Long.MIN_VALUE);
    }

    /**
     * As {@link #finish()}, told that the capture went on until {@code captureEndNanos} (issue 21): a
     * replay of part of a capture (one host pair's frames, one ring file of several) judges the messages
     * left unanswered against the whole capture's end, not its own last frame — a request sent well
     * before the real end is incomplete, not "unanswered when the capture ended". An earlier time than
     * the last frame replayed changes nothing.
     */
    public void finish(long captureEndNanos) {
        if (finished) {
            return;
        }
        lastFrameNanos = Math.max(lastFrameNanos, captureEndNanos);
        finished = true;
        while (!held.isEmpty()) {
            force(held.values().iterator().next());
        }
        for (Conversation c : conversations.values()) {
            c.finish(lastFrameNanos);
        }
        iwarp.finish();
        artifacts.finish(this::placeCut);
    }

    /**
     * The final id of the conversation a frame cut inside its headers belonged to: by its route when
     * the BTH named the QP, else the only conversation between its two hosts; null when neither tells.
     */
    private String placeCut(CaptureArtifacts.Place p) {
        if (p.destQp() >= 0) {
            Route r = routes.get(p.source(), p.destination(), p.destQp(), -1);
            if (r != null) {
                return finalConversationId(r.conversation().id);
            }
        }
        List<Conversation> between = byHosts.get(PairKey.of(p.source(), p.destination()));
        return between != null && between.size() == 1 ? finalConversationId(between.get(0).id) : null;
    }

    /**
     * The id the output gives a conversation the listener was told as {@code provisional}: ids numbered
     * 1, 2, … in order of each conversation's first frame. Valid after {@link #finish}; null for null.
     */
    public String finalConversationId(String provisional) {
        if (provisional == null) {
            return null;
        }
        if (finalIds == null) {
            List<String> ids = new ArrayList<>(firstFrameOfId.keySet());
            ids.sort(java.util.Comparator.comparingLong((String id) -> firstFrameOfId.get(id))
                    .thenComparingInt(Integer::parseInt));
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < ids.size(); i++) {
                m.put(ids.get(i), String.valueOf(i + 1));
            }
            finalIds = m;
        }
        return finalIds.getOrDefault(provisional, provisional);
    }

    /**
     * Every conversation id handed to the listener (provisional, as the listener saw it) with its first
     * frame. A replay split into parts (the Spark job, issue 21: one engine per host pair) numbers the
     * conversations of all parts together from these, as {@link #finalConversationId} does for one.
     */
    public Map<String, Long> conversationFirstFrames() {
        return java.util.Collections.unmodifiableMap(firstFrameOfId);
    }

    /** Whether every provisional id is already its final one (nothing to renumber). */
    public boolean idsFinal() {
        for (String id : firstFrameOfId.keySet()) {
            if (!id.equals(finalConversationId(id))) {
                return false;
            }
        }
        return true;
    }

    /** Every conversation, in order of first frame, with final ids. */
    public List<Flow> flows() {
        List<Flow> out = new ArrayList<>(conversations.size());
        for (Conversation c : conversations.values()) {
            out.add(c.flow().withConversation(finalConversationId(c.id)));
        }
        for (Flow f : iwarp.flows()) {
            out.add(f.withConversation(finalConversationId(f.conversation())));
        }
        out.sort(java.util.Comparator.comparingInt(f -> Integer.parseInt(f.conversation())));
        return out;
    }
}
