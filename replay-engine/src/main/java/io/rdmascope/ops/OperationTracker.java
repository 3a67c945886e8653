package io.rdmascope.ops;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.proto.Protocols;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.mad.CmConnections;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import static io.rdmascope.proto.ib.RcOpcodes.ACKNOWLEDGE;
import static io.rdmascope.proto.ib.RcOpcodes.READ_REQUEST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_LAST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_LAST;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_LAST_WITH_IMMEDIATE;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_MIDDLE;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_ONLY_WITH_IMMEDIATE;

/**
 * Turns dissected frames into operations (issue 19, item 6): a consumer of the dissection beside the
 * replay engine, fed only when someone asks for operations. Each protocol package reports its commands
 * and responses ({@link OperationExtractor}); this class pairs them by queue and id, and does what no
 * single protocol should repeat, on the RoCE/InfiniBand transport under all of them:
 * <ul>
 *   <li>data: an RDMA WRITE (First/Only) or READ Request whose RETH R_Key and virtual address fall in a
 *       buffer an outstanding command of the connection offered belongs to that command, and so do the
 *       WRITE Middle/Last packets after it and the READ responses that answer it (IBTA 9.4.3-9.4.4);</li>
 *   <li>delivery: the first ACK (AETH syndrome ACK, IBTA 9.7.5.1.1) from the responder whose PSN covers
 *       the command's first packet; ACKs are cumulative, so one covers every command before it;</li>
 *   <li>teardown: a CM DisconnectRequest naming one of the connection's QPs (IBTA 12.6.10), which makes
 *       the commands still outstanding at the capture's end {@link Operation#TEARDOWN} (sent before
 *       it) or {@link Operation#AFTER_TEARDOWN} (sent after it) rather than {@link Operation#CAPTURE_END}.</li>
 * </ul>
 * Over iWARP ({@link OperationEvents.Queue#transport()} a TCP connection) {@link IwarpTransport} does the
 * same from the DDP/RDMAP segments and the TCP segments: data by STag and tagged offset, delivery by the
 * TCP ACK, teardown by FIN, RST or Terminate.
 *
 * <p>An id reused while its first command is outstanding (NVMe CID, iSER task tag, RPC XID, SMB2
 * message id) is a peer's error, but both commands are real and both may be answered: the tracker keeps
 * both. A data transfer goes to the command whose buffer holds it (the address range decides, not the
 * id). A response goes to the outstanding command with its id whose data has moved, else the oldest:
 * a responder completes a command after moving its data (NVMe-oF 1.1 §7.3.2, RFC 7145 §7.3, RFC 8166
 * §3.5.4, MS-SMB2 §3.3.5.12), so a command whose data has moved is the one the responder worked on; with
 * no such evidence, commands are answered in the order they came, which is what a responder that (wrongly)
 * looks the id up in a table finds first (NVMe Base 2.0 §4.2: the CID is unique per SQ among outstanding
 * commands; RFC 5531 §9: the XID only matches a reply to its call). docs/cli.md "ops" argues it.
 *
 * <p>Memory is bounded: each queue keeps at most {@code maxOutstanding} commands waiting for their
 * response; one more makes the oldest {@link Operation#OVERFLOW} (counted in {@link #overflowed()}),
 * as a command that old has almost surely lost its response. Finished operations go to the sink at
 * once and are not kept. On a capture without storage traffic a frame costs a few field tests (issue 18):
 * the protocols' extractors are asked only about frames one of their payload heuristics claimed
 * ({@link Dissection#carriesUpperLayer()}), and the transport's data, ACKs and teardown are looked at
 * only once a queue exists.
 */
public final class OperationTracker implements OperationEvents {
    /** The default bound of commands outstanding on one queue: above NVMe-oF's usual 128-entry queues and iSER's. */
    public static final int MAX_OUTSTANDING_PER_QUEUE = 4096;

    /** UD SEND Only: how CM MADs travel (to QP1). */
    private static final int UD_SEND_ONLY = 0x64;
    /** BTH (IBTA 9.2): destination QP at byte 5, PSN at byte 9; the RETH and AETH follow it at 12. */
    private static final int BTH_DEST_QP = 5;
    private static final int BTH_PSN = 9;
    private static final int BTH_SIZE = 12;
    /** DREQ's Remote QPN/EECN (IBTA 12.6.10). */
    private static final int DREQ_REMOTE_QPN = 8;
    /** REQ's and REP's Local QPN (IBTA 12.6.5, 12.6.8). */
    private static final int REQ_LOCAL_QPN = 32;
    private static final int REP_LOCAL_QPN = 12;
    /** QPs whose CM setup was seen that are remembered; past it, a queue's start counts as not captured. */
    static final int MAX_CONNECTED_QPS = 65_536;
    private static final int PSN_MASK = 0xFFFFFF;
    private static final int PSN_HALF = 0x800000;

    private final List<OperationExtractor> extractors;
    /** Whether only frames a storage protocol claimed are offered to the extractors (see {@link #standard}). */
    private final boolean claimedFramesOnly;
    private final Consumer<Operation> sink;
    private final OperationListener listener;
    private final int maxOutstanding;
    /** QP numbers a captured CM ConnectRequest or ConnectReply named: their queues' start is in the capture. */
    private final Set<Integer> connectedQps = new HashSet<>();
    private final Map<Queue, QueueState> queues = new HashMap<>();
    /** Each QP number of a known queue, to the queues that use it (the same number on two host pairs: several). */
    private final Map<Integer, List<QueueState>> byQpn = new HashMap<>();
    /** The WRITE in progress towards a QP (after its First, until its Last). */
    private final Map<Integer, Pending> writes = new HashMap<>();
    /** READ Requests whose responses go to a QP, oldest first (IBTA 9.5: responses come in request order). */
    private final Map<Integer, ArrayDeque<Pending>> reads = new HashMap<>();
    /** Per queue: the PSNs its recent commands and responses came at, to know a transport resend. */
    private final Map<Queue, ResentPsns> recentPsns = new HashMap<>();
    /** The frame whose resend verdict was given ({@link #resent}), and the verdict: one per frame. */
    private long judgedFrame = -1;
    private boolean judgedResent;
    private long overflowed;
    private long unmatchedResponses;
    /** The queues on iWARP connections: their data, delivery and teardown. */
    private final IwarpTransport iwarp;
    // The frame being extracted.
    private Dissection current;
    private long frame;
    private long timeNanos;
    private int psn;

    /**
     * @param extractors     the protocols' extractors
     * @param sink           receives each operation once it is finished (answered, evicted, or at {@link #finish})
     * @param maxOutstanding the bound of commands waiting on one queue (at least 1)
     */
    public OperationTracker(List<OperationExtractor> extractors, Consumer<Operation> sink, int maxOutstanding) {
        this(extractors, sink, new OperationListener() { }, maxOutstanding);
    }

    /**
     * @param listener told what the storage rules judge ({@link OperationListener}), as it is met
     */
    public OperationTracker(List<OperationExtractor> extractors, Consumer<Operation> sink, OperationListener listener,
                            int maxOutstanding) {
        this(extractors, false, sink, listener, maxOutstanding);
    }

    /**
     * @param claimedFramesOnly whether the extractors read only layers the chain's payload heuristics
     *                          add (the protocol packages' do), so a frame none claimed needs no asking;
     *                          false for extractors that may report from any frame
     */
    private OperationTracker(List<OperationExtractor> extractors, boolean claimedFramesOnly, Consumer<Operation> sink,
                             OperationListener listener, int maxOutstanding) {
        if (maxOutstanding < 1) {
            throw new IllegalArgumentException("maxOutstanding must be at least 1");
        }
        this.extractors = List.copyOf(extractors);
        this.claimedFramesOnly = claimedFramesOnly;
        this.sink = Objects.requireNonNull(sink);
        this.listener = Objects.requireNonNull(listener);
        this.maxOutstanding = maxOutstanding;
        this.iwarp = new IwarpTransport(maxOutstanding);
        listener.fedBy(this); // last: the listener may keep this tracker to name queues as it does
    }

    /** A tracker over every protocol of {@link Protocols#ALL} that reports operations. */
    public static OperationTracker standard(Consumer<Operation> sink) {
        return standard(sink, new OperationListener() { });
    }

    /** As {@link #standard(Consumer)}, telling {@code listener} what the storage rules judge. */
    public static OperationTracker standard(Consumer<Operation> sink, OperationListener listener) {
        return ofModules(moduleExtractors(), sink, listener);
    }

    /** The extractors of the packages of {@link Protocols#ALL} that report operations. */
    static List<OperationExtractor> moduleExtractors() {
        List<OperationExtractor> extractors = new ArrayList<>();
        for (ProtocolModule m : Protocols.ALL) {
            OperationExtractor e = m.operations();
            if (e != null) {
                extractors.add(e);
            }
        }
        return extractors;
    }

    /**
     * A tracker over protocol packages' extractors. Each reads the layers its package's payload heuristic
     * added, which lie only in frames the chain marked as claimed ({@link Dissection#carriesUpperLayer}):
     * the other frames are not offered to them.
     */
    static OperationTracker ofModules(List<OperationExtractor> extractors, Consumer<Operation> sink,
                                      OperationListener listener) {
        return new OperationTracker(extractors, true, sink, listener, MAX_OUTSTANDING_PER_QUEUE);
    }

    /** Commands dropped because their queue held {@code maxOutstanding} others (reported as {@link Operation#OVERFLOW}). */
    public long overflowed() {
        return overflowed;
    }

    /** Responses whose command was not captured (or already answered). */
    public long unmatchedResponses() {
        return unmatchedResponses;
    }

    /**
     * One dissected frame, in capture order, right after its dissection. Until a storage protocol's
     * command made a queue, a frame none of them claimed ({@link Dissection#carriesUpperLayer()} false)
     * costs a few field tests, unless it is a UD SEND that may be a CM message (whose QPs are remembered):
     * that is every frame of a capture without storage traffic (issue 18).
     */
    public void accept(Dissection d) {
        RdmaContext r = d.rdma();
        int opcode = r.opcode; // -1 without a BTH
        boolean claimed = !claimedFramesOnly || d.carriesUpperLayer();
        boolean onIwarp = iwarp.tracking();
        if (!claimed && !onIwarp && opcode != UD_SEND_ONLY && byQpn.isEmpty()) {
            return; // nothing here could be a command, a response, their data, their ACK or a teardown
        }
        current = d;
        frame = d.frame().number();
        timeNanos = d.frame().timeNanos();
        psn = opcode >= 0 ? d.u24(r.bthStart + BTH_PSN) : -1;
        if (onIwarp) {
            iwarp.transfers(d, frame, timeNanos);
        }
        if (claimed) {
            for (int i = 0; i < extractors.size(); i++) {
                extractors.get(i).extract(d, this);
            }
        }
        if (iwarp.tracking()) {
            iwarp.teardown(d, frame, timeNanos);
        }
        if (opcode < 0) {
            return;
        }
        if (opcode == UD_SEND_ONLY) {
            connectionManagement(d);
            return;
        }
        if (byQpn.isEmpty()) {
            return; // no command seen yet: nothing a transfer or an ACK could belong to
        }
        int destQpn = d.u24(r.bthStart + BTH_DEST_QP);
        List<QueueState> candidates = byQpn.get(destQpn);
        if (opcode == ACKNOWLEDGE) {
            if (candidates != null && (d.u8(r.bthStart + BTH_SIZE) & 0x60) == 0) { // syndrome 0xx: ACK
                acknowledged(candidates, destQpn);
            }
            return;
        }
        int reth = r.bthStart + BTH_SIZE;
        if (candidates != null && (opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_WITH_IMMEDIATE
                || opcode == READ_REQUEST)) {
            checkExtent(candidates, d, reth, opcode == READ_REQUEST ? "RDMA READ" : "RDMA WRITE");
        }
        if (opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_WITH_IMMEDIATE) {
            Pending p = candidates == null ? null : owner(candidates, d.u32(reth + 8), rethAddress(d, reth));
            if (p != null) {
                p.data(frame, timeNanos);
                if (opcode == WRITE_FIRST) {
                    writes.put(destQpn, p);
                }
            }
        } else if (opcode == WRITE_MIDDLE || opcode == WRITE_LAST || opcode == WRITE_LAST_WITH_IMMEDIATE) {
            Pending p = opcode == WRITE_MIDDLE ? writes.get(destQpn) : writes.remove(destQpn);
            if (p != null && !p.done) {
                p.data(frame, timeNanos);
            }
        } else if (opcode == READ_REQUEST) {
            Pending p = candidates == null ? null : owner(candidates, d.u32(reth + 8), rethAddress(d, reth));
            if (p != null) {
                p.data(frame, timeNanos);
                int responsesTo = destQpn == p.queue.queue.requesterQpn() ? p.queue.queue.responderQpn()
                        : p.queue.queue.requesterQpn();
                ArrayDeque<Pending> waiting = reads.computeIfAbsent(responsesTo, k -> new ArrayDeque<>());
                if (waiting.size() >= maxOutstanding) {
                    waiting.poll(); // responses the capture never showed: forget the oldest request, stay bounded
                }
                waiting.add(p);
            }
        } else if (opcode >= READ_RESPONSE_FIRST && opcode <= READ_RESPONSE_ONLY) {
            ArrayDeque<Pending> waiting = reads.get(destQpn);
            if (waiting != null && !waiting.isEmpty()) {
                Pending p = opcode == READ_RESPONSE_LAST || opcode == READ_RESPONSE_ONLY ? waiting.poll()
                        : waiting.peek();
                if (!p.done) {
                    p.data(frame, timeNanos);
                }
            }
        }
    }

    /** The capture ended: every command still outstanding is unanswered. */
    public void finish() {
        for (QueueState q : queues.values()) {
            for (Pending p : q.all()) {
                String reason = q.teardownFrame == 0 ? Operation.CAPTURE_END
                        : q.teardownFrame > p.frame ? Operation.TEARDOWN : Operation.AFTER_TEARDOWN;
                close(p, Operation.UNANSWERED, reason, -1, 0, null);
            }
            q.clear();
        }
        writes.clear();
        reads.clear();
        iwarp.clear();
    }

    @Override
    public void command(Command c) {
        if (resent(c.queue(), true)) {
            return;
        }
        QueueState q = learnt(c.queue());
        if (q == null) {
            q = queues.computeIfAbsent(c.queue(), this::newQueue);
        }
        if (q.count >= maxOutstanding) {
            Pending evicted = q.removeOldest();
            overflowed++;
            close(evicted, Operation.UNANSWERED, Operation.OVERFLOW, -1, 0, null);
        }
        List<Pending> same = q.outstanding.get(c.id());
        Pending earlier = same == null || same.isEmpty() ? null : same.get(0);
        Pending p = new Pending(q, c, frame, timeNanos, psn);
        q.add(p);
        if (c.queue().transport() != null) {
            iwarp.commanded(p, current);
        }
        listener.commandSent(c, frame, q.count, startCaptured(c.queue()), earlier == null ? -1 : earlier.frame,
                earlier == null ? null : earlier.command.description());
    }

    @Override
    public void sendCredits(SendCredits credits) {
        if (resent(credits.queue(), credits.byRequester())) {
            return;
        }
        listener.sendCredits(credits, frame, startCaptured(credits.queue()));
    }

    @Override
    public void requestCredits(RequestCredits credits) {
        listener.requestCredits(credits, frame);
    }

    @Override
    public void response(Response r) {
        if (resent(r.queue(), false)) {
            return;
        }
        QueueState q = learnt(r.queue());
        Pending p = q == null ? null : q.answer(r.id());
        if (p == null) {
            unmatchedResponses++;
            listener.responseWithoutCommand(r, frame, startCaptured(r.queue()));
            return;
        }
        close(p, r.failure() == null ? Operation.COMPLETED : Operation.FAILED, r.failure(), frame, timeNanos,
                r.statusCode());
    }

    /**
     * The state of {@code queue}, else null. A queue {@code --decode-as} learnt without CM is first
     * reported with its requester's QP unknown ({@link CmConnections#UNKNOWN_QPN}: an RC packet names
     * only its destination) and, once its traffic showed that QP, with it: the same queue, which from
     * then on is also found by that QP (its ACKs and the RDMA transfers to it).
     */
    private QueueState learnt(Queue queue) {
        QueueState q = queues.get(queue);
        if (q != null || queue.requesterQpn() == CmConnections.UNKNOWN_QPN) {
            return q;
        }
        q = queues.remove(requesterUnknown(queue));
        if (q != null) {
            byQpn.get(CmConnections.UNKNOWN_QPN).remove(q);
            q.queue = queue;
            queues.put(queue, q);
            byQpn.computeIfAbsent(queue.requesterQpn(), k -> new ArrayList<>(1)).add(q);
        }
        return q;
    }

    private QueueState newQueue(Queue queue) {
        QueueState q = new QueueState(queue);
        if (queue.transport() != null) {
            iwarp.add(q, current); // no QPs: found by its connection, not in byQpn
            return q;
        }
        byQpn.computeIfAbsent(queue.requesterQpn(), k -> new ArrayList<>(1)).add(q);
        if (queue.responderQpn() != queue.requesterQpn()) {
            byQpn.computeIfAbsent(queue.responderQpn(), k -> new ArrayList<>(1)).add(q);
        }
        return q;
    }

    /**
     * Whether the frame being extracted is a transport resend (IBTA 9.7.4.1.5 go-back-N, or a duplicate)
     * of a SEND already seen on {@code queue} from the same side: same PSN as one of the side's recent
     * commands or responses. Its command, response or credits were counted the first time; counting them
     * again would make a lossy capture's resends look like reused ids and answers to nothing. Judged once
     * per frame (a frame's credits and command share its PSN). Frames without a PSN (iWARP: TCP resends
     * never reach the extractors) are never resends.
     */
    private boolean resent(Queue queue, boolean byRequester) {
        if (psn < 0) {
            return false;
        }
        if (judgedFrame != frame) {
            judgedFrame = frame;
            judgedResent = recentPsns(queue).seen(byRequester, psn);
        }
        return judgedResent;
    }

    /**
     * The PSN memory of {@code queue}. A queue learnt without CM changes its key when its requester's QP
     * is learnt ({@link #learnt}); its memory goes with it, so a resend of a command sent before that
     * moment is still known as one after it.
     */
    private ResentPsns recentPsns(Queue queue) {
        ResentPsns memory = recentPsns.get(queue);
        if (memory == null) {
            if (queue.requesterQpn() != CmConnections.UNKNOWN_QPN) {
                memory = recentPsns.remove(requesterUnknown(queue));
            }
            if (memory == null) {
                memory = new ResentPsns();
            }
            recentPsns.put(queue, memory);
        }
        return memory;
    }

    /** {@code queue} as it was reported before its requester's QP was learnt. */
    private static Queue requesterUnknown(Queue queue) {
        return new Queue(queue.protocol(), queue.name(), CmConnections.UNKNOWN_QPN, queue.responderQpn());
    }

    /** Whether the capture holds the CM exchange that set up {@code queue}'s connection. */
    private boolean startCaptured(Queue queue) {
        return connectedQps.contains(queue.requesterQpn()) || connectedQps.contains(queue.responderQpn());
    }

    /**
     * A CM MAD: a ConnectRequest or ConnectReply names a QP whose connection starts in the capture; a
     * DisconnectRequest tears the queues of the QP it names down from this frame on.
     */
    private void connectionManagement(Dissection d) {
        int req = d.find(Cm.REQ);
        int rep = req >= 0 ? -1 : d.find(Cm.REP);
        if ((req >= 0 || rep >= 0) && connectedQps.size() < MAX_CONNECTED_QPS) {
            connectedQps.add(req >= 0 ? d.u24(d.layerStart(req) + REQ_LOCAL_QPN)
                    : d.u24(d.layerStart(rep) + REP_LOCAL_QPN));
            return;
        }
        int dreq = d.find(Cm.DREQ);
        if (dreq < 0) {
            return;
        }
        List<QueueState> named = byQpn.get(d.u24(d.layerStart(dreq) + DREQ_REMOTE_QPN));
        if (named != null) {
            for (QueueState q : named) {
                q.tornDown(frame, timeNanos, Operation.BY_DREQ);
            }
        }
    }

    /** An ACK to {@code destQpn}: the commands its PSN covers, on queues whose requester that QP is, were delivered. */
    private void acknowledged(List<QueueState> candidates, int destQpn) {
        for (QueueState q : candidates) {
            if (q.queue.requesterQpn() != destQpn) {
                continue;
            }
            for (List<Pending> same : q.outstanding.values()) {
                for (Pending p : same) {
                    if (p.ackNanos < 0 && p.psn >= 0 && ((psn - p.psn) & PSN_MASK) < PSN_HALF) {
                        p.ackNanos = timeNanos;
                    }
                }
            }
        }
    }

    /**
     * Tells the listener about a transfer (its RETH at {@code reth}) under a key an outstanding command
     * advertised whose bytes no buffer under that key holds whole. A key no outstanding command advertised
     * says nothing: its command may precede the capture, or the transfer carry no storage protocol.
     */
    private void checkExtent(List<QueueState> candidates, Dissection d, int reth, String operation) {
        long va = d.u32(reth) << 32 | d.u32(reth + 4);
        long key = d.u32(reth + 8);
        long length = d.u32(reth + 12);
        Pending newest = null;
        Buffer newestBuffer = null;
        List<Buffer> underKey = null;
        for (QueueState q : candidates) {
            for (List<Pending> same : q.outstanding.values()) {
                for (Pending p : same) {
                    for (Buffer b : p.command.buffers()) {
                        if (b.key() != key) {
                            continue;
                        }
                        if (underKey == null) {
                            underKey = new ArrayList<>(2);
                        }
                        underKey.add(b);
                        if (newest == null || p.frame > newest.frame) {
                            newest = p;
                            newestBuffer = b;
                        }
                    }
                }
            }
        }
        if (newest != null && !covered(underKey, va, length)) {
            listener.transferOutside(newest.queue.queue, frame, operation, key, va, length, newest.frame,
                    newest.command, newestBuffer);
        }
    }

    /**
     * Whether {@code [va, va + length)} lies within the union of {@code buffers} (segments of one region
     * may be advertised side by side, RFC 8166 §3.4.3). A zero-length transfer needs its address inside one.
     */
    static boolean covered(List<Buffer> buffers, long va, long length) {
        long at = va;
        long end = va + Math.max(length, 1);
        boolean advanced = true;
        while (Long.compareUnsigned(at, end) < 0 && advanced) {
            advanced = false;
            for (Buffer b : buffers) {
                if (Long.compareUnsigned(at, b.address()) >= 0 && Long.compareUnsigned(at - b.address(), b.length()) < 0) {
                    at = b.address() + b.length();
                    advanced = true;
                }
            }
        }
        return Long.compareUnsigned(at, end) >= 0;
    }

    /** A RETH's virtual address (IBTA 9.3.3: VA, then R_Key, then DMA length). */
    private static long rethAddress(Dissection d, int reth) {
        return d.u32(reth) << 32 | d.u32(reth + 4);
    }

    /**
     * The outstanding command of {@code candidates} whose buffer holds address {@code va} under R_Key or
     * STag {@code key}, else null.
     */
    static Pending owner(List<QueueState> candidates, long key, long va) {
        for (QueueState q : candidates) {
            for (List<Pending> same : q.outstanding.values()) {
                for (Pending p : same) {
                    for (Buffer b : p.command.buffers()) {
                        if (b.key() == key && Long.compareUnsigned(va, b.address()) >= 0
                                && Long.compareUnsigned(va - b.address(), b.length()) < 0) {
                            return p;
                        }
                    }
                }
            }
        }
        return null;
    }

    private void close(Pending p, String status, String reason, long responseFrame, long responseNanos,
                       Long statusCode) {
        p.done = true;
        boolean answered = responseFrame >= 0;
        Command c = p.command;
        Queue queue = p.queue.queue; // with the requester's QP a learnt queue found after the command
        boolean data = p.dataFrames != null;
        long dataEnd = data ? p.lastDataNanos : p.timeNanos;
        Operation operation = new Operation(queue.protocol(), queueText(queue), queue.requesterQpn(),
                queue.responderQpn(), c.opcode(), c.description(), c.id(), c.idText(), c.size(), status, reason,
                statusCode, p.frame,
                answered ? responseFrame : null, data ? p.dataFrames : List.of(),
                p.queue.teardownFrame == 0 ? null : p.queue.teardownFrame,
                p.queue.teardownFrame == 0 ? null : p.queue.teardownNanos - p.timeNanos,
                answered ? responseNanos - p.timeNanos : null, p.ackNanos < 0 ? null : p.ackNanos - p.timeNanos,
                data ? p.lastDataNanos - p.firstDataNanos : null, answered ? responseNanos - dataEnd : null,
                p.queue.teardownBy);
        sink.accept(operation);
        if (Operation.UNANSWERED.equals(status)) {
            listener.unanswered(operation, c);
        }
    }

    /**
     * A queue as {@code ops} and the storage rules' findings name it (one definition for both): the
     * protocol's name for it, then the connection, the side that opened it first. On RoCE and InfiniBand
     * the two QPs, the CM requester's first (the CM active side, which sends the commands); over iWARP the
     * TCP connection, the MPA initiator's endpoint first: the side that sent the MPA Request (RFC 5044
     * §7.1), or, for a connection followed mid-stream by {@code -d tcp.port==N,...}, the side talking to
     * port N. That is the TCP client, the source of the connection's first packet, which is the side
     * tshark's conversation table ({@code -z conv,tcp}) lists first as Address A, whichever side then
     * sends the first command (docs/cli.md "ops").
     */
    public String queueText(Queue queue) {
        return (queue.name().isEmpty() ? "" : queue.name() + " ") + (queue.transport() != null
                ? IwarpTransport.text((IwarpConnection) queue.transport())
                : String.format("QP 0x%06x/0x%06x", queue.requesterQpn(), queue.responderQpn()));
    }

    /**
     * One queue: its commands waiting for their response, by id (several under one reused id, oldest
     * first; ids in the order their first outstanding command came), and its teardown.
     */
    static final class QueueState {
        Queue queue;
        private final LinkedHashMap<Long, List<Pending>> outstanding = new LinkedHashMap<>();
        int count;
        long teardownFrame;
        long teardownNanos;
        /** What tore it down ({@link Operation#BY_DREQ}, ...), null while it stands. */
        String teardownBy;

        QueueState(Queue queue) {
            this.queue = queue;
        }

        void add(Pending p) {
            outstanding.computeIfAbsent(p.command.id(), k -> new ArrayList<>(1)).add(p);
            count++;
        }

        /** The command a response with {@code id} answers, removed; null when none is outstanding (see the class). */
        Pending answer(long id) {
            List<Pending> same = outstanding.get(id);
            if (same == null) {
                return null;
            }
            int chosen = 0;
            for (int i = 0; i < same.size(); i++) {
                if (same.get(i).dataFrames != null) {
                    chosen = i;
                    break;
                }
            }
            Pending p = same.remove(chosen);
            if (same.isEmpty()) {
                outstanding.remove(id);
            }
            count--;
            return p;
        }

        /** The command outstanding longest (the first of the id that came first), removed. */
        Pending removeOldest() {
            Iterator<Map.Entry<Long, List<Pending>>> first = outstanding.entrySet().iterator();
            Map.Entry<Long, List<Pending>> e = first.next();
            Pending p = e.getValue().remove(0);
            if (e.getValue().isEmpty()) {
                first.remove();
            }
            count--;
            return p;
        }

        /** The first teardown counts: later ones (the peer's FIN after a FIN) change nothing. */
        void tornDown(long frame, long nanos, String by) {
            if (teardownFrame == 0) {
                teardownFrame = frame;
                teardownNanos = nanos;
                teardownBy = by;
            }
        }

        /** Every outstanding command. */
        Iterable<Pending> all() {
            return () -> outstanding.values().stream().flatMap(List::stream).iterator();
        }

        void clear() {
            outstanding.clear();
            count = 0;
        }
    }

    /** The PSNs of a queue's last {@value #SIZE} commands and responses, per side, oldest overwritten. */
    private static final class ResentPsns {
        static final int SIZE = 64;
        private final int[][] psns = {new int[SIZE], new int[SIZE]};
        private final int[] next = new int[2];
        private final int[] count = new int[2];

        /** Whether {@code psn} is among the side's recent ones; it is remembered either way. */
        boolean seen(boolean byRequester, int psn) {
            int side = byRequester ? 0 : 1;
            for (int i = 0; i < count[side]; i++) {
                if (psns[side][i] == psn) {
                    return true;
                }
            }
            psns[side][next[side]] = psn;
            next[side] = (next[side] + 1) % SIZE;
            count[side] = Math.min(count[side] + 1, SIZE);
            return false;
        }
    }

    /** A command waiting for its response. */
    static final class Pending {
        final QueueState queue;
        final Command command;
        final long frame;
        final long timeNanos;
        final int psn;
        /** Over iWARP: the TCP sequence number just past the command's last byte, or -1 while unknown. */
        long transportEnd = -1;
        long ackNanos = -1;
        List<Long> dataFrames;
        long firstDataNanos;
        long lastDataNanos;
        boolean done;

        Pending(QueueState queue, Command command, long frame, long timeNanos, int psn) {
            this.queue = queue;
            this.command = command;
            this.frame = frame;
            this.timeNanos = timeNanos;
            this.psn = psn;
        }

        void data(long frame, long nanos) {
            if (dataFrames == null) {
                dataFrames = new ArrayList<>(2);
                firstDataNanos = nanos;
            }
            dataFrames.add(frame);
            lastDataNanos = nanos;
        }
    }
}
