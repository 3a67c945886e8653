package io.rdmascope.samples;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.Aeth;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.proto.ib.Service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * The random family's traffic: a small discrete-event simulation of requesters and responders
 * (IBTA Vol. 1 chapter 9, as rc-transport-rules.md summarises it) on a fabric of 2–16 hosts. Every
 * transmission is recorded as a {@link Tx} with what the generator knows of it (its message, PSN,
 * whether the capture holds it and whether the peer received it); {@link RandomTruth} later derives
 * the truth from the captured ones with the rules a passive observer can apply.
 *
 * <p>Requesters send back to back, go back N on a PSN sequence NAK (R3.3), wait out RNR NAKs
 * (R3.4), re-read from the first missing READ response PSN (R3.7, implied NAK R3.2) and go back to
 * their oldest unacknowledged PSN when the local ACK timer (67 ms) runs out (R3.6). Responders check
 * PSNs (R2.1), NAK once until the expected PSN arrives, re-acknowledge duplicates (C9-105), answer
 * duplicate READs and atomics again, and coalesce ACKs.
 */
final class RandomTraffic {
    static final long ACK_TIMEOUT_NANOS = Connection.ACK_TIMEOUT_NANOS;
    /** A requester reacts to a NAK no sooner than this: its resends fall outside the 8.192 µs duplicate window. */
    private static final long NAK_REACTION_NANOS = 10_000;

    enum Kind { REQUEST, ACK, NAK, RNR_NAK, READ_RESPONSE, ATOMIC_ACK, CM, DATAGRAM }

    enum Vantage {
        REQUESTER, SWITCH, RESPONDER;

        static Vantage parse(String s) {
            return switch (s.toLowerCase(java.util.Locale.ROOT)) {
                case "requester" -> REQUESTER;
                case "switch" -> SWITCH;
                case "responder" -> RESPONDER;
                default -> throw new IllegalArgumentException("vantage must be requester, switch or responder");
            };
        }

        String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One queue pair (or, for UD, one sender QP and one receiver QP): a conversation. */
    static final class Pair {
        final int index;
        final Service service;
        final Host a;
        final Host b;
        final int qpnA;
        final int qpnB;
        final int port;
        final Wire wire;
        final int pmtu;
        final boolean cm;
        final long latency;
        final int[] startPsn = new int[2];
        final int[] ipId = new int[2];
        final int[] gsiPsn = new int[2];
        final Flow[] flows = new Flow[2];
        final long rkey;
        final long qKey;

        Pair(int index, Service service, Host a, Host b, int qpnA, int qpnB, int port, Wire wire, int pmtu, boolean cm,
             long latency, long rkey, long qKey) {
            this.index = index;
            this.service = service;
            this.a = a;
            this.b = b;
            this.qpnA = qpnA;
            this.qpnB = qpnB;
            this.port = port;
            this.wire = wire;
            this.pmtu = pmtu;
            this.cm = cm;
            this.latency = latency;
            this.rkey = rkey;
            this.qKey = qKey;
        }

        Host host(int side) {
            return side == 0 ? a : b;
        }

        int qpn(int side) {
            return side == 0 ? qpnA : qpnB;
        }
    }

    /** One requester of a pair and the responder answering it (side 0: A requests, side 1: B requests). */
    static final class Flow {
        final Pair pair;
        final int side;
        final List<Msg> messages = new ArrayList<>();
        // requester
        int nextPsn;
        final ArrayDeque<Msg> queue = new ArrayDeque<>();
        int sendNext;
        int pumpGen;
        boolean pumping;
        int timerGen;
        boolean timerRunning;
        int recoverPending = -1;
        int recoveries;
        boolean noLoss;
        /** Newest PSN the requester knows acknowledged (-1 none). */
        int acked = -1;
        boolean posting = true;
        // responder
        int ePsn;
        int msn;
        int nakState; // 0 none, 1 sequence NAK sent, 2 RNR NAK sent
        int lastAckable = -1;
        boolean pendingAck;
        long respFree;
        double coalesce;

        Flow(Pair pair, int side) {
            this.pair = pair;
            this.side = side;
            this.nextPsn = pair.startPsn[side];
            this.sendNext = nextPsn;
            this.ePsn = nextPsn;
        }

        Host requester() {
            return pair.host(side);
        }

        Host responder() {
            return pair.host(1 - side);
        }

        int requesterQpn() {
            return pair.qpn(side);
        }

        int responderQpn() {
            return pair.qpn(1 - side);
        }

        Msg head() {
            return queue.peekFirst();
        }

        /** The posted message whose PSN range holds {@code psn}, or null. */
        Msg owner(int psn) {
            for (int i = messages.size() - 1; i >= 0; i--) {
                Msg m = messages.get(i);
                if (Psn.diff(psn, m.first) >= 0 && Psn.diff(psn, m.last()) <= 0) {
                    return m;
                }
                if (Psn.diff(psn, m.first) > 0) {
                    return null;
                }
            }
            return null;
        }

        boolean isRequestPsn(int psn) {
            Msg m = owner(psn);
            return m != null && (!m.readLike() || psn == m.first);
        }
    }

    /** A posted message. */
    static final class Msg {
        final Flow flow;
        final String kind;
        final int first;
        final int span;
        final long bytes;
        final List<RocePacket> packets = new ArrayList<>();
        final List<Integer> sizes = new ArrayList<>();
        Long immediate;
        Long invalidate;
        long va;
        int rnrLeft;
        boolean done;
        int expect;
        int acceptedMsn;
        long atomicOriginal;
        byte[][] readData;

        Msg(Flow flow, String kind, int first, int span, long bytes) {
            this.flow = flow;
            this.kind = kind;
            this.first = first;
            this.span = span;
            this.bytes = bytes;
            this.expect = first;
        }

        int last() {
            return Psn.add(first, span - 1);
        }

        boolean readLike() {
            return !kind.startsWith("SEND") && !kind.startsWith("WRITE");
        }

        boolean isRead() {
            return kind.equals("READ");
        }

        boolean zeroLengthAnswer() {
            return kind.equals("FLUSH") || kind.equals("ATOMIC_WRITE");
        }
    }

    /** One transmission, as the generator knows it; {@code frame} and {@code fileTime} are set once the capture is laid out. */
    static final class Tx {
        final long order;
        final long captureTime;
        final byte[] bytes;
        final int linkType;
        final Kind kind;
        final Pair pair;
        final Flow flow;
        final Host from;
        final int psn;
        final Msg msg;
        /** Request: payload bytes; READ response: payload bytes. */
        final int payload;
        /** Request: the last packet of its message (LAST/ONLY, or a READ/atomic); READ response: LAST or ONLY. */
        final boolean fin;
        /** READ response: FIRST or ONLY (carries an AETH that acknowledges what precedes it). */
        final boolean startsResponse;
        final boolean duplicate;
        final String cmState;
        /** Whether the capture holds this transmission. */
        boolean inCapture;
        /** RNR NAK: the timer code its syndrome carries. */
        int rnrCode;
        int frame;
        long fileTime;
        int causal;

        Tx(long order, long captureTime, byte[] bytes, int linkType, Kind kind, Pair pair, Flow flow, Host from, int psn,
           Msg msg, int payload, boolean fin, boolean startsResponse, boolean duplicate, String cmState) {
            this.order = order;
            this.captureTime = captureTime;
            this.bytes = bytes;
            this.linkType = linkType;
            this.kind = kind;
            this.pair = pair;
            this.flow = flow;
            this.from = from;
            this.psn = psn;
            this.msg = msg;
            this.payload = payload;
            this.fin = fin;
            this.startsResponse = startsResponse;
            this.duplicate = duplicate;
            this.cmState = cmState;
        }
    }

    /** Per-seed mix of rates, drawn from the seed. */
    static final class Mix {
        double loss;
        double notCaptured;
        double duplicate;
        double rnr;
        Vantage vantage;
    }

    private record Event(long time, long seq, Runnable action) {
    }

    final Random random;
    final Mix mix;
    final List<Pair> pairs = new ArrayList<>();
    final List<Tx> captured = new ArrayList<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>((x, y) -> x.time != y.time
            ? Long.compare(x.time, y.time) : Long.compare(x.seq, y.seq));
    private long seq;
    private long order;
    long now;
    private final int frameBudget;
    private int transmitted;

    RandomTraffic(Random random, Mix mix, long startNanos, int frameBudget) {
        this.random = random;
        this.mix = mix;
        this.now = startNanos;
        this.frameBudget = frameBudget;
    }

    // ---- the event loop ---------------------------------------------------------------------------------------

    private void at(long time, Runnable action) {
        events.add(new Event(time, seq++, action));
    }

    void run() {
        long guard = 0;
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.time;
            e.action.run();
            if (++guard > 5_000_000) {
                throw new IllegalStateException("random traffic did not settle");
            }
        }
    }

    // ---- set-up -------------------------------------------------------------------------------------------------

    Pair addPair(Service service, Host a, Host b, int qpnA, int qpnB, int port, Wire wire, int pmtu, boolean cm,
                 boolean bidirectional, int startA, int startB) {
        Pair p = new Pair(pairs.size(), service, a, b, qpnA, qpnB, port, wire, pmtu, cm, 600 + random.nextInt(1_400),
                0x1000 + random.nextInt(0xF000), 0x11110000L + random.nextInt(0x10000));
        p.startPsn[0] = startA;
        p.startPsn[1] = startB;
        p.ipId[0] = random.nextInt(0x10000);
        p.ipId[1] = random.nextInt(0x10000);
        p.gsiPsn[0] = random.nextInt(1 << 24);
        p.gsiPsn[1] = random.nextInt(1 << 24);
        pairs.add(p);
        p.flows[0] = new Flow(p, 0);
        if (bidirectional && service != Service.UD) {
            p.flows[1] = new Flow(p, 1);
        }
        for (Flow f : p.flows) {
            if (f != null) {
                f.coalesce = random.nextDouble() * 0.7;
            }
        }
        long start = now + random.nextInt(200_000);
        if (cm) {
            at(start, () -> establish(p));
            start += 120_000;
        }
        for (Flow f : p.flows) {
            if (f != null) {
                at(start + random.nextInt(20_000), () -> post(f));
            }
        }
        return p;
    }

    /** REQ, REP, RTU (IBTA 12.6): the REQ's Starting PSN is the passive side's send PSN (ReplayEngine, not R1.4). */
    private void establish(Pair p) {
        long tid = (random.nextLong() & 0xFFFFFFFFL) << 32;
        int activeCommId = random.nextInt();
        int passiveCommId = random.nextInt();
        gsi(p, 0, CmMad.req(new CmMad.Request(tid, activeCommId, p.qpnA, p.startPsn[1], CmMad.mtuCode(p.pmtu), 16, 16,
                Connection.LOCAL_ACK_TIMEOUT, 7, 7, p.a.gid(), p.b.gid(), 0x4a00 + p.index, p.a.ipv4(), p.b.ipv4(),
                p.a.caGuid())), "req");
        at(now + 20_000 + random.nextInt(30_000), () -> {
            gsi(p, 1, CmMad.rep(tid, passiveCommId, activeCommId, p.qpnB, p.startPsn[0], 16, 16, 7, p.b.caGuid()), "rep");
            at(now + 5_000 + random.nextInt(10_000),
                    () -> gsi(p, 0, CmMad.rtu(tid, activeCommId, passiveCommId), "established"));
        });
    }

    private void gsi(Pair p, int side, byte[] mad, String state) {
        RocePacket packet = p.wire.packet(p.host(side), p.host(1 - side)).gsiMad(mad).psn(p.gsiPsn[side]++ & Psn.MASK);
        packet.udpSourcePort(p.port);
        byte[] bytes = withIpId(p, side, packet).build();
        record(new Tx(order++, now, bytes, packet.linkType(), Kind.CM, p, null, p.host(side), 0, null, 0, false, false,
                false, state));
    }

    private static RocePacket withIpId(Pair p, int side, RocePacket packet) {
        if (p.wire.encap() == Wire.Encap.ROCE_V2_IPV4) {
            packet.ipId(p.ipId[side]++ & 0xFFFF);
        }
        return packet;
    }

    private void record(Tx tx) {
        tx.inCapture = true;
        captured.add(tx);
    }

    // ---- posting --------------------------------------------------------------------------------------------------

    private void post(Flow f) {
        if (transmitted >= frameBudget) {
            f.posting = false;
            return;
        }
        if (f.queue.size() < 4) {
            int n = 1 + random.nextInt(f.pair.service == Service.RC ? 4 : 3);
            for (int i = 0; i < n; i++) {
                postOne(f);
            }
            if (!f.pumping) {
                startPump(f, now);
            }
        }
        int flows = 0;
        for (Pair p : pairs) {
            flows += p.flows[1] == null ? 1 : 2;
        }
        at(now + 2_000 + random.nextInt(20_000) + (long) random.nextInt(2_000) * flows, () -> post(f));
    }

    private void postOne(Flow f) {
        Pair p = f.pair;
        int pmtu = p.pmtu;
        switch (p.service) {
            case UD -> {
                boolean imm = random.nextInt(3) == 0;
                postSendWrite(f, imm ? "SEND_WITH_IMM" : "SEND", random.nextInt(pmtu + 1), imm, false, false);
            }
            case UC -> {
                int k = random.nextInt(4);
                postSendWrite(f, switch (k) {
                    case 0 -> "SEND";
                    case 1 -> "SEND_WITH_IMM";
                    case 2 -> "WRITE";
                    default -> "WRITE_WITH_IMM";
                }, size(pmtu), k == 1 || k == 3, false, k >= 2);
            }
            case RC -> {
                int k = random.nextInt(100);
                if (k < 15) {
                    postSendWrite(f, "SEND", size(pmtu), false, false, false);
                } else if (k < 23) {
                    postSendWrite(f, "SEND_WITH_IMM", size(pmtu), true, false, false);
                } else if (k < 29) {
                    postSendWrite(f, "SEND_WITH_INV", size(pmtu), false, true, false);
                } else if (k < 44) {
                    postSendWrite(f, "WRITE", size(pmtu), false, false, true);
                } else if (k < 52) {
                    postSendWrite(f, "WRITE_WITH_IMM", size(pmtu), true, false, true);
                } else if (k < 70) {
                    postRead(f);
                } else if (k < 78) {
                    postAtomic(f, "COMPARE_SWAP");
                } else if (k < 86) {
                    postAtomic(f, "FETCH_ADD");
                } else if (k < 93) {
                    postAtomic(f, "FLUSH");
                } else {
                    postAtomic(f, "ATOMIC_WRITE");
                }
            }
        }
    }

    private int size(int pmtu) {
        int r = random.nextInt(10);
        if (r == 0) {
            return 0;
        }
        if (r < 5) {
            return 1 + random.nextInt(pmtu);
        }
        if (r < 8) {
            return 1 + random.nextInt(4 * pmtu);
        }
        return pmtu * (1 + random.nextInt(8)) - random.nextInt(2) * random.nextInt(pmtu);
    }

    private RocePacket request(Flow f, Operation op, int psn) {
        Pair p = f.pair;
        RocePacket r = p.wire.packet(f.requester(), f.responder()).opcode(Opcodes.code(p.service, op))
                .destQp(f.responderQpn()).psn(psn);
        r.udpSourcePort(p.port);
        return r;
    }

    private void postSendWrite(Flow f, String kind, int bytes, boolean imm, boolean inv, boolean write) {
        Pair p = f.pair;
        if (p.service == Service.UD) {
            Msg m = new Msg(f, kind, f.nextPsn, 1, bytes);
            RocePacket r = p.wire.packet(f.requester(), f.responder()).opcode(Opcodes.code(Service.UD, imm ? Operation.SEND_ONLY_WITH_IMMEDIATE : Operation.SEND_ONLY))
                    .destQp(f.responderQpn()).psn(f.nextPsn).set(InfiniBand.DETH_Q_KEY, p.qKey)
                    .set(InfiniBand.DETH_SRCQP, f.requesterQpn()).payload(payload(bytes));
            r.udpSourcePort(p.port);
            if (imm) {
                m.immediate = random.nextLong() & 0xFFFFFFFFL;
                r.immediate(m.immediate);
            }
            m.packets.add(r);
            m.sizes.add(bytes);
            enqueue(f, m);
            return;
        }
        int pmtu = p.pmtu;
        int n = Math.max(1, (bytes + pmtu - 1) / pmtu);
        Msg m = new Msg(f, kind, f.nextPsn, n, bytes);
        if (imm) {
            m.immediate = random.nextLong() & 0xFFFFFFFFL;
        }
        if (inv) {
            m.invalidate = (long) (0x100 + random.nextInt(0xFFFF00));
        }
        m.va = 0x7f3a00000000L + (long) random.nextInt(1 << 20) * 4096;
        for (int i = 0; i < n; i++) {
            boolean firstPacket = i == 0;
            boolean lastPacket = i == n - 1;
            int size = lastPacket ? bytes - (n - 1) * pmtu : pmtu;
            Operation op = write ? Connection.writeOperation(firstPacket, lastPacket, imm)
                    : Connection.sendOperation(firstPacket, lastPacket, imm, inv);
            RocePacket r = request(f, op, Psn.add(m.first, i)).ackReq(lastPacket && p.service == Service.RC)
                    .payload(payload(size));
            if (write && firstPacket) {
                r.set(InfiniBand.RETH_VA, m.va).set(InfiniBand.RETH_R_KEY, p.rkey).set(InfiniBand.RETH_DMALEN, bytes);
            }
            if (lastPacket && imm) {
                r.immediate(m.immediate);
            }
            if (lastPacket && inv) {
                r.invalidateRkey(m.invalidate);
            }
            m.packets.add(r);
            m.sizes.add(size);
        }
        if (kind.startsWith("SEND") && p.service == Service.RC && random.nextDouble() < mix.rnr) {
            m.rnrLeft = 1 + random.nextInt(2);
        }
        enqueue(f, m);
    }

    private void postRead(Flow f) {
        int pmtu = f.pair.pmtu;
        int r = random.nextInt(8);
        int bytes = r == 0 ? 0 : r < 4 ? 1 + random.nextInt(pmtu) : 1 + random.nextInt(pmtu * (2 + random.nextInt(15)));
        int span = Math.max(1, (bytes + pmtu - 1) / pmtu);
        Msg m = new Msg(f, "READ", f.nextPsn, span, bytes);
        m.va = 0x7f3b00000000L + (long) random.nextInt(1 << 20) * 4096;
        m.packets.add(readRequest(f, m, m.first));
        m.sizes.add(0);
        m.readData = new byte[span][];
        for (int i = 0; i < span; i++) {
            m.readData[i] = payload((int) Math.min(pmtu, bytes - (long) i * pmtu));
        }
        enqueue(f, m);
    }

    /** A READ request from {@code psn}: the original, or a retry for the responses from there on (R3.7). */
    private RocePacket readRequest(Flow f, Msg m, int psn) {
        int offset = Psn.diff(psn, m.first);
        long skip = (long) offset * f.pair.pmtu;
        return request(f, Operation.RDMA_READ_REQUEST, psn).ackReq(true).set(InfiniBand.RETH_VA, m.va + skip)
                .set(InfiniBand.RETH_R_KEY, f.pair.rkey).set(InfiniBand.RETH_DMALEN, m.bytes - skip);
    }

    private void postAtomic(Flow f, String kind) {
        Pair p = f.pair;
        Msg m = new Msg(f, kind, f.nextPsn, 1, kind.equals("FLUSH") ? 0 : 8);
        RocePacket r;
        int size = 0;
        switch (kind) {
            case "COMPARE_SWAP" -> r = request(f, Operation.COMPARE_SWAP, m.first).set(InfiniBand.ATOMICETH_CMPDT, random.nextInt(16))
                    .set(InfiniBand.ATOMICETH_SWAPDT, random.nextInt(16));
            case "FETCH_ADD" -> r = request(f, Operation.FETCH_ADD, m.first).set(InfiniBand.ATOMICETH_SWAPDT, 1 + random.nextInt(9));
            case "FLUSH" -> r = request(f, Operation.FLUSH, m.first).set(InfiniBand.FETH_SEL, 1).set(InfiniBand.FETH_PLT, 1)
                    .set(InfiniBand.RETH_VA, 0x7f3c00000000L).set(InfiniBand.RETH_R_KEY, p.rkey)
                    .set(InfiniBand.RETH_DMALEN, random.nextInt(4096));
            default -> {
                size = 8;
                r = request(f, Operation.ATOMIC_WRITE, m.first).set(InfiniBand.RETH_VA, 0x7f3d00000000L)
                        .set(InfiniBand.RETH_R_KEY, p.rkey).set(InfiniBand.RETH_DMALEN, 8).payload(payload(8));
            }
        }
        if (kind.equals("COMPARE_SWAP") || kind.equals("FETCH_ADD")) {
            r.set(InfiniBand.ATOMICETH_VA, 0x7f3e00000000L + random.nextInt(1 << 16) * 8L)
                    .set(InfiniBand.ATOMICETH_R_KEY, p.rkey);
        }
        r.ackReq(true);
        m.atomicOriginal = random.nextInt(1 << 20);
        m.packets.add(r);
        m.sizes.add(size);
        enqueue(f, m);
    }

    private void enqueue(Flow f, Msg m) {
        f.messages.add(m);
        f.queue.addLast(m);
        f.nextPsn = Psn.add(m.first, m.span);
    }

    private byte[] payload(int size) {
        byte[] b = new byte[Math.max(0, size)];
        random.nextBytes(b);
        return b;
    }

    // ---- the requester's transmissions ------------------------------------------------------------------------

    private void startPump(Flow f, long when) {
        f.pumpGen++;
        f.pumping = true;
        int gen = f.pumpGen;
        at(when, () -> pump(f, gen));
    }

    private void pump(Flow f, int gen) {
        if (gen != f.pumpGen) {
            return;
        }
        Msg head = f.head();
        if (head != null && Psn.diff(f.sendNext, head.first) < 0) {
            f.sendNext = head.first;
        }
        Msg m = null;
        for (Msg x : f.queue) {
            if (Psn.diff(f.sendNext, x.first) >= 0 && Psn.diff(f.sendNext, x.last()) <= 0) {
                m = x;
                break;
            }
        }
        if (m == null) {
            f.pumping = false;
            return;
        }
        int psn = f.sendNext;
        RocePacket r;
        int payload;
        boolean fin;
        if (m.readLike()) {
            r = m.isRead() && psn != m.first ? readRequest(f, m, psn) : m.packets.get(0);
            payload = m.sizes.get(0);
            fin = true;
            f.sendNext = Psn.add(m.last(), 1);
        } else {
            int i = Psn.diff(psn, m.first);
            r = m.packets.get(i);
            payload = m.sizes.get(i);
            fin = i == m.span - 1;
            f.sendNext = Psn.add(psn, 1);
        }
        Pair p = f.pair;
        byte[] bytes = withIpId(p, f.side, r).build();
        Kind kind = p.service == Service.UD ? Kind.DATAGRAM : Kind.REQUEST;
        boolean middle = !m.readLike() && !fin && psn != m.first;
        transmit(f, true, kind, bytes, r.linkType(), psn, m, payload, fin, false, middle && p.service == Service.RC,
                tx -> arriveRequest(f, tx));
        if (p.service != Service.RC && fin) {
            // UC and UD: nothing answers; the requester is done with the message once it is sent.
            m.done = true;
            f.queue.remove(m);
        }
        if (p.service == Service.RC) {
            if (!f.timerRunning) {
                armTimer(f);
            }
        }
        long gap = (long) bytes.length * 80 / 1000 + 50 + random.nextInt(200);
        at(now + gap, () -> pump(f, gen));
    }

    private void armTimer(Flow f) {
        f.timerGen++;
        f.timerRunning = true;
        int gen = f.timerGen;
        at(now + ACK_TIMEOUT_NANOS, () -> {
            if (gen != f.timerGen) {
                return;
            }
            f.timerRunning = false;
            Msg head = f.head();
            if (head == null) {
                return;
            }
            // R3.6: go back to the oldest unacknowledged PSN (a READ: its first response not yet received).
            int from = head.isRead() ? head.expect : head.readLike() ? head.first
                    : f.acked >= 0 && Psn.diff(f.acked, head.first) >= 0 ? Psn.add(f.acked, 1) : head.first;
            f.recoverPending = -1;
            recover(f, from, 0);
        });
    }

    private void recover(Flow f, int psn, long delay) {
        if (f.recoverPending >= 0 && Psn.diff(f.recoverPending, psn) <= 0) {
            return; // already going back to this PSN or an earlier one
        }
        f.recoverPending = psn;
        f.recoveries++;
        if (f.recoveries >= 2) {
            f.noLoss = true; // keep every seed finite: after two recoveries without progress the path is clean
        }
        f.sendNext = psn;
        startPump(f, now + delay);
    }

    private void progress(Flow f) {
        f.recoverPending = -1;
        f.recoveries = 0;
        f.noLoss = false;
        if (f.head() != null) {
            armTimer(f);
        } else {
            f.timerGen++;
            f.timerRunning = false;
        }
    }

    // ---- the wire ---------------------------------------------------------------------------------------------

    /**
     * Puts one packet on the wire: decides whether it is lost and on which side of the capture point,
     * whether the capture misses it, records it when captured and delivers it after the path latency.
     */
    private Tx transmit(Flow f, boolean request, Kind kind, byte[] bytes, int linkType, int psn, Msg m, int payload,
                        boolean fin, boolean startsResponse, boolean mayMissCapture, java.util.function.Consumer<Tx> arrive) {
        transmitted++;
        Pair p = f.pair;
        Vantage v = mix.vantage;
        long offset = switch (v) {
            case REQUESTER -> request ? 0 : p.latency;
            case RESPONDER -> request ? p.latency : 0;
            case SWITCH -> p.latency / 2;
        };
        boolean lost = !f.noLoss && random.nextDouble() < mix.loss;
        boolean captureHolds;
        if (lost) {
            boolean afterCapture = switch (v) {
                case REQUESTER -> request;
                case RESPONDER -> !request;
                case SWITCH -> random.nextBoolean();
            };
            captureHolds = afterCapture;
        } else {
            captureHolds = !(mayMissCapture && !f.noLoss && random.nextDouble() < mix.notCaptured);
        }
        Host from = request ? f.requester() : f.responder();
        Tx tx = new Tx(order++, now + offset, bytes, linkType, kind, p, f, from, psn, m, payload, fin, startsResponse,
                false, null);
        if (captureHolds) {
            record(tx);
        }
        if (!lost) {
            at(now + p.latency, () -> arrive.accept(tx));
        }
        return tx;
    }

    // ---- the responder ------------------------------------------------------------------------------------------

    private void arriveRequest(Flow f, Tx tx) {
        if (f.pair.service != Service.RC) {
            return; // UC, UD: the receiver answers nothing
        }
        Msg m = tx.msg;
        int q = tx.psn;
        int d = Psn.diff(q, f.ePsn);
        if (d > 0) {
            if (f.nakState == 0) {
                f.nakState = 1;
                int expected = f.ePsn;
                int msn = f.msn;
                respond(f, () -> ack(f, Kind.NAK, expected, 0x60, msn));
            }
            return;
        }
        if (d < 0) {
            duplicateRequest(f, m, q, tx);
            return;
        }
        if (m.rnrLeft > 0 && !m.readLike() && q == m.first) {
            m.rnrLeft--;
            f.nakState = 2;
            int code = 1 + random.nextInt(14);
            int msn = f.msn;
            respond(f, () -> ack(f, Kind.RNR_NAK, q, 0x20 | code, msn));
            return;
        }
        f.nakState = 0;
        if (m.readLike()) {
            f.ePsn = Psn.add(m.last(), 1);
            f.msn = (f.msn + 1) & Psn.MASK;
            m.acceptedMsn = f.msn;
            answer(f, m, q);
            return;
        }
        f.ePsn = Psn.add(q, 1);
        if (tx.fin) {
            f.msn = (f.msn + 1) & Psn.MASK;
            f.lastAckable = q;
            if (random.nextDouble() < f.coalesce) {
                if (!f.pendingAck) {
                    f.pendingAck = true;
                    at(now + 2_000 + random.nextInt(4_000), () -> {
                        if (f.pendingAck) {
                            int psn = f.lastAckable;
                            int msn = f.msn;
                            respond(f, () -> ack(f, Kind.ACK, psn, 0x1F, msn));
                        }
                    });
                }
            } else {
                int msn = f.msn;
                respond(f, () -> ack(f, Kind.ACK, q, 0x1F, msn));
            }
        }
        if (tx.inCapture && !f.noLoss && random.nextDouble() < mix.duplicate) {
            duplicateOnTheWire(f, tx);
        }
    }

    /** R2.1 duplicates: re-acknowledge a SEND/WRITE asking for it (C9-105), answer a READ or atomic again. */
    private void duplicateRequest(Flow f, Msg m, int q, Tx tx) {
        if (m.readLike()) {
            answer(f, m, q);
            return;
        }
        if (tx.fin && f.lastAckable >= 0) {
            int psn = f.lastAckable;
            int msn = f.msn;
            respond(f, () -> ack(f, Kind.ACK, psn, 0x1F, msn));
        }
    }

    /** A switch or mirror copies a captured packet: the copy is captured too and reaches the responder. */
    private void duplicateOnTheWire(Flow f, Tx original) {
        long delta = 200 + random.nextInt(800);
        Tx copy = new Tx(order++, original.captureTime + delta, original.bytes, original.linkType, original.kind,
                original.pair, f, original.from, original.psn, original.msg, original.payload, original.fin, false, true,
                null);
        transmitted++;
        record(copy);
        at(now + delta, () -> arriveRequest(f, copy));
    }

    private void answer(Flow f, Msg m, int from) {
        if (m.isRead()) {
            int n = Psn.diff(m.last(), from) + 1;
            for (int i = 0; i < n; i++) {
                int psn = Psn.add(from, i);
                Operation op = Connection.readResponseOperation(i, n);
                respond(f, () -> readResponse(f, m, psn, op));
            }
        } else if (m.zeroLengthAnswer()) {
            respond(f, () -> readResponse(f, m, m.first, Operation.RDMA_READ_RESPONSE_ONLY));
        } else {
            respond(f, () -> {
                RocePacket r = response(f, Operation.ATOMIC_ACKNOWLEDGE, m.first).set(InfiniBand.AETH_SYNDROME, 0x1F)
                        .set(InfiniBand.AETH_MSN, m.acceptedMsn).set(InfiniBand.ATOMICACKETH_ORIGREMDT, m.atomicOriginal);
                byte[] bytes = withIpId(f.pair, 1 - f.side, r).build();
                transmit(f, false, Kind.ATOMIC_ACK, bytes, r.linkType(), m.first, m, 0, true, true, false,
                        tx -> arriveResponse(f, tx));
            });
        }
    }

    /** Responses leave in order, one turnaround after the request, back to back; any response covers a deferred ACK. */
    private void respond(Flow f, Runnable emit) {
        f.pendingAck = false;
        long t = Math.max(now + 1_500 + random.nextInt(2_500), f.respFree);
        f.respFree = t + 300 + random.nextInt(300);
        at(t, emit);
    }

    private RocePacket response(Flow f, Operation op, int psn) {
        RocePacket r = f.pair.wire.packet(f.responder(), f.requester()).opcode(Opcodes.code(f.pair.service, op))
                .destQp(f.requesterQpn()).psn(psn);
        r.udpSourcePort(f.pair.port);
        return r;
    }

    private void ack(Flow f, Kind kind, int psn, int syndrome, int msn) {
        RocePacket r = response(f, Operation.ACKNOWLEDGE, psn).set(InfiniBand.AETH_SYNDROME, syndrome).set(InfiniBand.AETH_MSN, msn);
        byte[] bytes = withIpId(f.pair, 1 - f.side, r).build();
        Tx tx = transmit(f, false, kind, bytes, r.linkType(), psn, null, 0, false, false, kind == Kind.ACK,
                t -> arriveResponse(f, t));
        tx.rnrCode = syndrome & 0x1F;
    }

    private void readResponse(Flow f, Msg m, int psn, Operation op) {
        RocePacket r = response(f, op, psn);
        int size = 0;
        if (m.isRead()) {
            byte[] data = m.readData[Psn.diff(psn, m.first)];
            size = data.length;
            r.payload(data);
        }
        if (op != Operation.RDMA_READ_RESPONSE_MIDDLE) {
            r.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, m.acceptedMsn);
        }
        byte[] bytes = withIpId(f.pair, 1 - f.side, r).build();
        transmit(f, false, Kind.READ_RESPONSE, bytes, r.linkType(), psn, m, size, op == Operation.RDMA_READ_RESPONSE_LAST || op == Operation.RDMA_READ_RESPONSE_ONLY,
                op == Operation.RDMA_READ_RESPONSE_FIRST || op == Operation.RDMA_READ_RESPONSE_ONLY, false, tx -> arriveResponse(f, tx));
    }

    // ---- the requester's reactions ------------------------------------------------------------------------------

    private void arriveResponse(Flow f, Tx tx) {
        int psn = tx.psn;
        switch (tx.kind) {
            case ACK -> ackThrough(f, psn);
            case NAK -> {
                if (ackThrough(f, Psn.add(psn, -1)) && f.head() != null && Psn.diff(psn, f.head().first) >= 0) {
                    recover(f, psn, NAK_REACTION_NANOS + random.nextInt(5_000));
                }
            }
            case RNR_NAK -> {
                if (ackThrough(f, Psn.add(psn, -1)) && f.head() != null && Psn.diff(psn, f.head().first) >= 0) {
                    int code = tx.rnrCode;
                    f.recoverPending = -1;
                    recover(f, psn, Aeth.rnrTimerNanos(code) + random.nextInt(2_000));
                }
            }
            case READ_RESPONSE, ATOMIC_ACK -> {
                Msg m = tx.msg;
                if (tx.startsResponse && !ackThrough(f, Psn.add(psn, -1))) {
                    return;
                }
                Msg head = f.head();
                if (head == null || m.done) {
                    return; // stale: already complete
                }
                if (head != m) {
                    // A response for a later message while the head READ/atomic is unanswered: its responses were lost.
                    if (Psn.diff(m.first, head.first) > 0) {
                        recover(f, head.isRead() ? head.expect : head.first, NAK_REACTION_NANOS);
                    }
                    return;
                }
                if (!m.isRead()) {
                    complete(f, m);
                    return;
                }
                int d = Psn.diff(psn, m.expect);
                if (d == 0) {
                    m.expect = Psn.add(m.expect, 1);
                    if (Psn.diff(m.expect, m.last()) > 0) {
                        complete(f, m);
                    }
                } else if (d > 0) {
                    recover(f, m.expect, NAK_REACTION_NANOS); // R3.7: re-read from the first missing response PSN
                }
            }
            default -> {
            }
        }
    }

    /**
     * R3.2: everything up to {@code psn} reached the responder. SEND/WRITE messages ending there complete;
     * a READ or atomic passed over is an implied NAK. Returns false when the response is stale or
     * triggered a recovery instead.
     */
    private boolean ackThrough(Flow f, int psn) {
        Msg head = f.head();
        if (head == null) {
            return false;
        }
        if (Psn.diff(psn, Psn.add(head.first, -1)) < 0) {
            return false; // stale: older than what is already acknowledged (R3.1)
        }
        if (f.acked < 0 || Psn.diff(psn, f.acked) > 0) {
            f.acked = psn;
        }
        while ((head = f.head()) != null) {
            if (!head.readLike()) {
                if (Psn.diff(head.last(), psn) <= 0) {
                    complete(f, head);
                    continue;
                }
                return true;
            }
            if (Psn.diff(head.last(), psn) <= 0) {
                recover(f, head.isRead() ? head.expect : head.first, NAK_REACTION_NANOS);
                return false;
            }
            return true;
        }
        return true;
    }

    private void complete(Flow f, Msg m) {
        m.done = true;
        f.queue.remove(m);
        progress(f);
    }
}
