package io.rdmascope.samples;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.proto.ib.Service;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One reliable (RC, XRC) or unreliable (UC) connection between a requester QP and a responder QP,
 * played packet by packet onto a {@link Trace} while its {@link Truth} is written down.
 *
 * <p>A scenario posts messages ({@link #send}, {@link #write}, {@link #read}, atomics…), which
 * reserves their PSNs, then transmits them, choosing each packet's {@link Fate}. A small responder
 * model (IBTA Vol. 1 9.7.5: expected PSN, MSN, NAK-sent state) decides what the responder accepted,
 * so that ACKs, NAKs and MSNs the scenario asks for carry the values a real responder would send.
 * What happens next (ACK now or coalesce, NAK, retransmit, time out) is the scenario's choice.
 */
public final class Connection {

    /** What becomes of one transmitted packet. */
    public enum Fate {
        /** Captured and accepted or judged by the responder. */
        DELIVERED,
        /** Lost before the capture point: neither captured nor received. */
        LOST,
        /** Captured, then lost (or discarded for a bad ICRC) before the responder. */
        LOST_AFTER_CAPTURE,
        /** Received, but the capture missed it (mirror port overrun). */
        NOT_CAPTURED,
        /**
         * Captured and received, but refused by the responder (no receive WQE, a length or opcode
         * sequence error): its expected PSN does not move.
         */
        REFUSED
    }

    /** What the responder made of a request packet (IBTA 9.7.5.1.1 PSN checks). */
    public enum Delivery { ACCEPTED, OUT_OF_SEQUENCE, DUPLICATE, NOT_RECEIVED }

    /** One request packet as first sent; retransmissions resend its template. */
    public static final class Packet {
        final Msg message;
        final int index;
        final int psn;
        final RocePacket template;
        final boolean last;
        /** Payload bytes this packet carries (0 for a READ request, FLUSH, compare-and-swap, fetch-and-add). */
        final int size;

        Packet(Msg message, int index, int psn, RocePacket template, boolean last, int size) {
            this.message = message;
            this.index = index;
            this.psn = psn;
            this.template = template;
            this.last = last;
            this.size = size;
        }

        public int psn() {
            return psn;
        }
    }

    /** A posted message. */
    public static final class Msg {
        final String kind;
        final int firstPsn;
        /** PSNs the message occupies: packets for SEND/WRITE, responses for READ (IBTA 9.7.4.1.2). */
        final int psnSpan;
        final long bytes;
        final List<Packet> packets = new ArrayList<>();
        final TruthLog.MessageRecord record;
        final boolean readOrAtomic;
        /** The responder's MSN once it accepted this READ or atomic: what its responses carry (C9-148). */
        int acceptedMsn;
        final java.util.Set<Integer> countedPsns = new java.util.HashSet<>();

        Msg(String kind, int firstPsn, int psnSpan, long bytes, TruthLog.MessageRecord record, boolean readOrAtomic) {
            this.kind = kind;
            this.firstPsn = firstPsn;
            this.psnSpan = psnSpan;
            this.bytes = bytes;
            this.record = record;
            this.readOrAtomic = readOrAtomic;
        }

        public int firstPsn() {
            return firstPsn;
        }

        public int lastPsn() {
            return Psn.add(firstPsn, psnSpan - 1);
        }

        public Packet packet(int index) {
            return packets.get(index);
        }

        public int packetCount() {
            return packets.size();
        }

    }

    /** Local ACK timeout code every scenario uses: T_tr = 4.096 µs · 2^14 ≈ 67 ms (IBTA C9-140). */
    static final int LOCAL_ACK_TIMEOUT = 14;
    static final long ACK_TIMEOUT_NANOS = 4_096L << LOCAL_ACK_TIMEOUT;

    private final Fabric fabric;
    private final Trace trace;
    private final TruthLog truth;
    private final Random random;
    private final Wire wire;
    private final Service service;
    private final Host requester;
    private final Host responder;
    private final int requesterQpn;
    private final int responderQpn;
    private final int requesterPort;
    private final int responderPort;
    private final int pmtu;
    private final int xrcSrq;
    private final long rkey;
    final TruthLog.ConnectionRecord record;

    private int nextPsn;
    private final int responderStartPsn;
    // Responder state (IBTA 9.7.5): expected PSN, message sequence number, whether a sequence NAK is out.
    private int expectedPsn;
    private int msn;
    private boolean nakSent;
    /** Each host's IPv4 identification and GSI PSN counters, shared with the {@link #reverse()} direction. */
    private final HostCounters requesterCounters;
    private final HostCounters responderCounters;
    /** True for the {@link #reverse()} direction: its messages go from the conversation's responder. */
    private final boolean reversed;
    private int commId;
    private long transactionId;
    private final TreeMap<Long, Packet> sentByOrder = new TreeMap<>();
    private long sendOrder;
    private final List<Msg> messages = new ArrayList<>();
    private boolean inError;

    Connection(Fabric fabric, Service service, Host requester, Host responder, int pmtu) {
        if (pmtu != 256 && pmtu != 512 && pmtu != 1024 && pmtu != 2048 && pmtu != 4096) {
            throw new IllegalArgumentException("path MTU must be 256..4096, a power of two");
        }
        this.fabric = fabric;
        this.trace = fabric.trace;
        this.truth = fabric.truth;
        this.random = fabric.random;
        this.wire = fabric.wire;
        this.service = service;
        this.requester = requester;
        this.responder = responder;
        this.pmtu = pmtu;
        this.requesterQpn = fabric.newQpn();
        this.responderQpn = fabric.newQpn();
        this.requesterPort = 0xC000 + random.nextInt(0x4000);
        this.responderPort = 0xC000 + random.nextInt(0x4000);
        this.nextPsn = random.nextInt(1 << 24);
        this.responderStartPsn = random.nextInt(1 << 24);
        this.expectedPsn = nextPsn;
        this.requesterCounters = new HostCounters();
        this.responderCounters = new HostCounters();
        requesterCounters.ipId = random.nextInt(0x10000);
        responderCounters.ipId = random.nextInt(0x10000);
        requesterCounters.gsiPsn = random.nextInt(1 << 24);
        responderCounters.gsiPsn = random.nextInt(1 << 24);
        this.reversed = false;
        this.xrcSrq = service == Service.XRC ? 0x40 + random.nextInt(0x100) : 0;
        this.rkey = 0x1000 + random.nextInt(0xF000);
        this.record = truth.connection(service.name(), wire.encap().name().toLowerCase(java.util.Locale.ROOT));
        this.record.pmtu = pmtu;
        refreshEndpoints();
    }

    /**
     * The other direction of the same QP pair: the responder's QP posting requests (a SEND, an RDMA
     * WRITE or READ) to the requester's, as every storage protocol's target does. It sends from the
     * responder's starting PSN (the one the CM REQ announced), its messages belong to the same
     * conversation with source and destination swapped, and the two hosts keep one IPv4
     * identification counter each. CM (establish, disconnect) stays with this, the active side.
     */
    public Connection reverse() {
        return new Connection(this);
    }

    private Connection(Connection forward) {
        this.fabric = forward.fabric;
        this.trace = forward.trace;
        this.truth = forward.truth;
        this.random = forward.random;
        this.wire = forward.wire;
        this.service = forward.service;
        this.requester = forward.responder;
        this.responder = forward.requester;
        this.pmtu = forward.pmtu;
        this.requesterQpn = forward.responderQpn;
        this.responderQpn = forward.requesterQpn;
        this.requesterPort = forward.responderPort;
        this.responderPort = forward.requesterPort;
        this.nextPsn = forward.responderStartPsn;
        this.responderStartPsn = forward.record.requester.startPsn();
        this.expectedPsn = nextPsn;
        this.requesterCounters = forward.responderCounters;
        this.responderCounters = forward.requesterCounters;
        this.xrcSrq = forward.xrcSrq;
        this.rkey = forward.rkey;
        this.record = forward.record;
        this.reversed = true;
    }

    /** Counters a host keeps across both directions of a QP pair. */
    private static final class HostCounters {
        int ipId;
        int gsiPsn;
    }

    private TruthLog.MessageRecord newRecord(String kind, int firstPsn, int lastPsn, long bytes) {
        TruthLog.MessageRecord rec = truth.message(id(), kind, firstPsn, lastPsn, bytes);
        rec.fromResponder = reversed;
        return rec;
    }

    private void refreshEndpoints() {
        boolean v2 = wire.encap().roceV2();
        boolean eth = wire.encap().ethernet();
        record.requester = new Truth.Endpoint(wire.address(requester), eth ? Fabric.macText(requester.mac()) : null,
                requesterQpn, v2 ? requesterPort : null, nextPsn);
        record.responder = new Truth.Endpoint(wire.address(responder), eth ? Fabric.macText(responder.mac()) : null,
                responderQpn, v2 ? responderPort : null, responderStartPsn);
    }

    // ---- accessors for scenarios ------------------------------------------------------------------

    public int id() {
        return record.id;
    }

    public int nextPsn() {
        return nextPsn;
    }

    public int expectedPsn() {
        return expectedPsn;
    }

    public int pmtu() {
        return pmtu;
    }

    /** Starts the requester at {@code psn} (before anything is posted), e.g. just below the 2^24 wrap. */
    public Connection startPsn(int psn) {
        if (!messages.isEmpty()) {
            throw new IllegalStateException("start PSN must be set before the first message");
        }
        nextPsn = psn & Psn.MASK;
        expectedPsn = nextPsn;
        refreshEndpoints();
        return this;
    }

    // ---- connection management (IBTA Vol. 1 ch. 12) -------------------------------------------------

    /** {@link #establish(int, int)} with librdmacm's defaults: 7 retries, 7 RNR retries (infinite). */
    public Connection establish() {
        return establish(7, 7);
    }

    /**
     * REQ, REP, RTU over the GSI (QP1): both QPNs and starting PSNs announced — as Linux ib_cm does
     * it, the REQ's Starting PSN is the one the passive side sends with and the REP's the active
     * side's (every real capture agrees; rc-transport-rules R1.4 has them the other way round) — path MTU, local ACK
     * timeout {@link #LOCAL_ACK_TIMEOUT}, and the retry counts agreed.
     */
    public Connection establish(int retryCount, int rnrRetryCount) {
        return establish(retryCount, rnrRetryCount, 0x4a00 + record.id, null, null, false);
    }

    /**
     * REQ, REP, RTU as {@link #establish()}, for a storage protocol's listener: the REQ's IP CM
     * service ID names TCP port {@code tcpPort} (IBTA Annex A11.2), and each side's protocol private
     * data follows, the REQ's after the 36-byte IP CM header librdmacm puts first (Annex A11.6), the
     * REP's at the start of its private data (IBTA 12.6.8). Either may be null.
     */
    public Connection establish(int tcpPort, byte[] reqPrivateData, byte[] repPrivateData) {
        return establish(7, 7, tcpPort, reqPrivateData, repPrivateData, true);
    }

    /**
     * {@code mappedGids}: the REQ's GIDs are what a RoCEv2 NIC puts there, the IPv4-mapped IPv6 address
     * of each port (::ffff:a.b.c.d, as every real RoCEv2 capture has them); tshark keys its RDMA-CM
     * conversations on them, so a storage protocol's packets are found only so. The older scenarios keep
     * the IPv6 GID, and their committed bytes.
     */
    private Connection establish(int retryCount, int rnrRetryCount, int tcpPort, byte[] reqPrivateData,
                                 byte[] repPrivateData, boolean mappedGids) {
        int activeCommId = random.nextInt();
        int passiveCommId = random.nextInt();
        commId = activeCommId;
        transactionId = (random.nextLong() & 0xFFFFFFFFL) << 32;
        record.setup = "cm";
        int req = gsi(requester, responder, withPrivateData(CmMad.req(new CmMad.Request(transactionId, activeCommId,
                requesterQpn, responderStartPsn, CmMad.mtuCode(pmtu), 16, 16, LOCAL_ACK_TIMEOUT, retryCount,
                rnrRetryCount, cmGid(requester, mappedGids), cmGid(responder, mappedGids), tcpPort, requester.ipv4(), responder.ipv4(),
                requester.caGuid())), reqPrivateData, Mad.COMMON_HEADER_SIZE + Cm.REQ_PRIVATE_DATA + IP_CM_HEADER_SIZE));
        transition(req, "req");
        trace.pause(20_000 + random.nextInt(30_000)); // the passive side's rdma_accept
        int rep = gsi(responder, requester, withPrivateData(CmMad.rep(transactionId, passiveCommId, activeCommId,
                responderQpn, nextPsn, 16, 16, rnrRetryCount, responder.caGuid()), repPrivateData,
                Mad.COMMON_HEADER_SIZE + Cm.REP_PRIVATE.offset()));
        transition(rep, "rep");
        trace.pause(5_000 + random.nextInt(10_000));
        int rtu = gsi(requester, responder, CmMad.rtu(transactionId, activeCommId, passiveCommId));
        transition(rtu, "established");
        this.passiveCommId = passiveCommId;
        trace.idle();
        return this;
    }

    private int passiveCommId;

    /** The IP CM header at the start of a REQ's private data (IBTA Annex A11.6): version, port, two addresses. */
    private static final int IP_CM_HEADER_SIZE = 36;

    private byte[] cmGid(Host h, boolean mapped) {
        if (!mapped || wire.encap() != Wire.Encap.ROCE_V2_IPV4) {
            return h.gid();
        }
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(h.ipv4(), 0, gid, 12, 4);
        return gid;
    }

    private static byte[] withPrivateData(byte[] mad, byte[] privateData, int at) {
        if (privateData != null) {
            System.arraycopy(privateData, 0, mad, at, privateData.length);
        }
        return mad;
    }

    /** REQ answered by REJ: the connection never exists (IBTA 12.6.7). */
    public Connection rejected(int reason) {
        int activeCommId = random.nextInt();
        transactionId = (random.nextLong() & 0xFFFFFFFFL) << 32;
        record.setup = "cm";
        int req = gsi(requester, responder, CmMad.req(new CmMad.Request(transactionId, activeCommId, requesterQpn,
                responderStartPsn, CmMad.mtuCode(pmtu), 16, 16, LOCAL_ACK_TIMEOUT, 7, 7, requester.gid(),
                responder.gid(), 0x4a00 + record.id,
                requester.ipv4(), responder.ipv4(), requester.caGuid())));
        transition(req, "req");
        trace.pause(10_000 + random.nextInt(10_000));
        int rej = gsi(responder, requester, CmMad.rej(transactionId, random.nextInt(), activeCommId, reason));
        transition(rej, "rejected");
        truth.observe(Expected.CM_REJECT, rej, id(), null, Cm.REJ_REASON_NAMES.nameOf(reason));
        return this;
    }

    /** DREQ from the requester, DREP from the responder (IBTA 12.6.10-11); returns the DREQ's frame. */
    public int disconnect() {
        trace.idle();
        int dreq = gsi(requester, responder, CmMad.dreq(transactionId + 1, commId, passiveCommId, responderQpn));
        transition(dreq, "disconnecting");
        trace.pause(8_000 + random.nextInt(8_000));
        int drep = gsi(responder, requester, CmMad.drep(transactionId + 1, passiveCommId, commId));
        transition(drep, "closed");
        return dreq;
    }

    private int gsi(Host from, Host to, byte[] mad) {
        // Each side's QP1 numbers its own packets.
        int psn = from == requester ? requesterCounters.gsiPsn++ : responderCounters.gsiPsn++;
        RocePacket p = wire.packet(from, to).gsiMad(mad).psn(psn & Psn.MASK);
        if (wire.encap().roceV2()) {
            p.udpSourcePort(from == requester ? requesterPort : responderPort);
        }
        trace.nextPacket(mad.length + 80);
        return trace.add(withIpId(p, from == requester).build(), p.linkType());
    }

    void transition(int frame, String state) {
        record.lifecycle.add(new Truth.Transition(frame, state));
        truth.observe(Expected.QP_STATE, frame, id(), null, state);
    }

    // ---- posting messages (requester) ---------------------------------------------------------------

    public Msg send(int bytes) {
        return postSendOrWrite("SEND", bytes, null, null, false);
    }

    public Msg sendWithImmediate(int bytes, long immediate) {
        return postSendOrWrite("SEND_WITH_IMM", bytes, immediate, null, false);
    }

    public Msg sendWithInvalidate(int bytes, long rkeyToInvalidate) {
        return postSendOrWrite("SEND_WITH_INV", bytes, null, rkeyToInvalidate, false);
    }

    public Msg write(int bytes) {
        return postSendOrWrite("WRITE", bytes, null, null, true);
    }

    public Msg writeWithImmediate(int bytes, long immediate) {
        return postSendOrWrite("WRITE_WITH_IMM", bytes, immediate, null, true);
    }

    /**
     * A WRITE whose packets carry exactly {@code sizes} payload bytes and whose RETH says
     * {@code dmaLength}: for the length-violation scenarios.
     */
    public Msg writeSized(long dmaLength, int... sizes) {
        return post("WRITE", sizes, dmaLength, null, null, true, null, null);
    }

    /** A SEND carrying exactly {@code data} (a protocol's message), in path-MTU packets. */
    public Msg send(byte[] data) {
        return post("SEND", packetSizes(data.length), data.length, null, null, false, data, null);
    }

    /** A SEND with Invalidate carrying {@code data} and invalidating {@code rkeyToInvalidate} at the receiver. */
    public Msg sendWithInvalidate(byte[] data, long rkeyToInvalidate) {
        return post("SEND_WITH_INV", packetSizes(data.length), data.length, null, rkeyToInvalidate, false, data, null);
    }

    /** An RDMA WRITE of {@code data} into the peer's buffer at {@code va} under {@code rkey}. */
    public Msg writeTo(byte[] data, long va, long rkey) {
        return post("WRITE", packetSizes(data.length), data.length, null, null, true, data, new long[] {va, rkey});
    }

    /** An RDMA WRITE of {@code bytes} into the peer's buffer at {@code va} under {@code rkey} (one its protocol advertised). */
    public Msg writeTo(int bytes, long va, long rkey) {
        return post("WRITE", packetSizes(bytes), bytes, null, null, true, null, new long[] {va, rkey});
    }

    private Msg postSendOrWrite(String kind, int bytes, Long immediate, Long invalidate, boolean write) {
        return post(kind, packetSizes(bytes), bytes, immediate, invalidate, write, null, null);
    }

    /** Path-MTU packets for a message of {@code bytes}: full ones and the rest, at least one. */
    private int[] packetSizes(int bytes) {
        int packets = Math.max(1, (bytes + pmtu - 1) / pmtu);
        int[] sizes = new int[packets];
        for (int i = 0; i < packets; i++) {
            sizes[i] = i < packets - 1 ? pmtu : bytes - (packets - 1) * pmtu;
        }
        return sizes;
    }

    /**
     * Posts a SEND or WRITE. {@code data}, when given, is what the packets carry (else random bytes);
     * {@code target}, when given, is a WRITE's {VA, R_Key} (else a random VA and this connection's key).
     */
    private Msg post(String kind, int[] sizes, long dmaLength, Long immediate, Long invalidate, boolean write,
                     byte[] data, long[] target) {
        requireRequests();
        long total = 0;
        for (int s : sizes) {
            total += s;
        }
        int first = nextPsn;
        int span = sizes.length;
        // bytes: payload seen in the capture, each PSN once (messages --json contract), counted as captured.
        TruthLog.MessageRecord rec = newRecord(kind, first, first, 0);
        rec.immediate = immediate;
        rec.invalidatedRkey = invalidate;
        Msg m = new Msg(kind, first, span, total, rec, false);
        long va = target != null ? target[0] : 0x7f3a00000000L + (long) random.nextInt(1 << 20) * 4096;
        long key = target != null ? target[1] : rkey;
        int carried = 0;
        for (int i = 0; i < sizes.length; i++) {
            boolean firstPacket = i == 0;
            boolean lastPacket = i == sizes.length - 1;
            Operation op = write ? writeOperation(firstPacket, lastPacket, immediate != null)
                    : sendOperation(firstPacket, lastPacket, immediate != null, invalidate != null);
            byte[] bytes = data == null ? fabric.payload(sizes[i])
                    : java.util.Arrays.copyOfRange(data, carried, carried + sizes[i]);
            carried += sizes[i];
            RocePacket p = request(op, Psn.add(first, i)).ackReq(lastPacket && service != Service.UC).payload(bytes);
            if (write && firstPacket) {
                p.set(InfiniBand.RETH_VA, va).set(InfiniBand.RETH_R_KEY, key).set(InfiniBand.RETH_DMALEN, dmaLength);
            }
            if (lastPacket && immediate != null) {
                p.immediate(immediate);
            }
            if (lastPacket && invalidate != null) {
                p.invalidateRkey(invalidate);
            }
            m.packets.add(new Packet(m, i, Psn.add(first, i), p, lastPacket, sizes[i]));
        }
        nextPsn = Psn.add(first, span);
        messages.add(m);
        return m;
    }

    /**
     * A faulty requester that sets its next PSN back to {@code psn} (an FPGA stack that advanced its PSN
     * by a READ's request count instead of its response count): the next message reuses PSNs already
     * sent. The responder model sees the reused PSNs as duplicates (IBTA 9.7.5.1.1).
     */
    public Connection reusePsn(int psn) {
        nextPsn = psn & Psn.MASK;
        return this;
    }

    /** Marks {@code m} failed: its connection broke while it was outstanding (a stall, a teardown). */
    public void failed(Msg m) {
        m.record.status = "failed";
    }

    /** An RDMA READ of {@code bytes}: one request, max(1, ceil(bytes/PMTU)) response PSNs (R1.3). */
    public Msg read(int bytes) {
        return read(bytes, null);
    }

    /** An RDMA READ of {@code bytes} from the peer's buffer at {@code va} under {@code rkey} (one its protocol advertised). */
    public Msg readFrom(int bytes, long va, long rkey) {
        return read(bytes, new long[] {va, rkey});
    }

    private Msg read(int bytes, long[] source) {
        requireRequests();
        if (service == Service.UC) {
            throw new IllegalStateException("UC has no RDMA READ");
        }
        int span = Math.max(1, (bytes + pmtu - 1) / pmtu);
        int first = nextPsn;
        // A READ's bytes are what comes back (messages --json contract): counted as responses arrive.
        TruthLog.MessageRecord rec = newRecord("READ", first, Psn.add(first, span - 1), 0);
        Msg m = new Msg("READ", first, span, bytes, rec, true);
        RocePacket p = request(Operation.RDMA_READ_REQUEST, first).ackReq(true)
                .set(InfiniBand.RETH_VA, source != null ? source[0]
                        : 0x7f3b00000000L + (long) random.nextInt(1 << 20) * 4096)
                .set(InfiniBand.RETH_R_KEY, source != null ? source[1] : rkey).set(InfiniBand.RETH_DMALEN, bytes);
        m.packets.add(new Packet(m, 0, first, p, true, 0));
        nextPsn = Psn.add(first, span);
        messages.add(m);
        return m;
    }

    public Msg compareSwap(long compare, long swap) {
        return atomic("COMPARE_SWAP", Operation.COMPARE_SWAP, p -> p.set(InfiniBand.ATOMICETH_CMPDT, compare)
                .set(InfiniBand.ATOMICETH_SWAPDT, swap), 8);
    }

    public Msg fetchAdd(long add) {
        return atomic("FETCH_ADD", Operation.FETCH_ADD, p -> p.set(InfiniBand.ATOMICETH_SWAPDT, add), 8);
    }

    /** FLUSH (IBTA 1.5 Annex A19): persistence of {@code bytes} at the target, FETH selectivity 1 (region). */
    public Msg flush(int bytes) {
        return atomic("FLUSH", Operation.FLUSH, p -> p.set(InfiniBand.FETH_SEL, 1).set(InfiniBand.FETH_PLT, 1)
                .set(InfiniBand.RETH_VA, 0x7f3c00000000L).set(InfiniBand.RETH_R_KEY, rkey)
                .set(InfiniBand.RETH_DMALEN, bytes), bytes);
    }

    /** ATOMIC WRITE (IBTA 1.5): eight bytes written atomically, carried as payload after the RETH. */
    public Msg atomicWrite(long value) {
        byte[] data = new byte[8];
        for (int i = 0; i < 8; i++) {
            data[i] = (byte) (value >>> (56 - 8 * i));
        }
        return atomic("ATOMIC_WRITE", Operation.ATOMIC_WRITE, p -> p.set(InfiniBand.RETH_VA, 0x7f3d00000000L)
                .set(InfiniBand.RETH_R_KEY, rkey).set(InfiniBand.RETH_DMALEN, 8).payload(data), 8);
    }

    private Msg atomic(String kind, Operation op, Consumer<RocePacket> fields, long bytes) {
        requireRequests();
        if (service == Service.UC) {
            throw new IllegalStateException("UC has no atomics");
        }
        int psn = nextPsn;
        // Compare-and-swap and fetch-and-add move 8 bytes (the value returned); ATOMIC WRITE's 8 are its
        // payload, counted when captured; FLUSH carries none.
        TruthLog.MessageRecord rec = newRecord(kind, psn, psn, op.kind() == Operation.Kind.ATOMIC ? 8 : 0);
        Msg m = new Msg(kind, psn, 1, bytes, rec, true);
        RocePacket p = request(op, psn).ackReq(true);
        if (op.kind() == Operation.Kind.ATOMIC) {
            p.set(InfiniBand.ATOMICETH_VA, 0x7f3e00000000L + random.nextInt(1 << 16) * 8L)
                    .set(InfiniBand.ATOMICETH_R_KEY, rkey);
        }
        fields.accept(p);
        m.packets.add(new Packet(m, 0, psn, p, true, op == Operation.ATOMIC_WRITE ? 8 : 0));
        nextPsn = Psn.add(psn, 1);
        messages.add(m);
        return m;
    }

    /**
     * A WRITE that sends only its FIRST packet ({@code dmaLength} promised, {@code firstBytes}
     * carried) and is never finished: for the missing-LAST violation.
     */
    public Msg unfinishedWrite(long dmaLength, int firstBytes) {
        requireRequests();
        int psn = nextPsn;
        TruthLog.MessageRecord rec = newRecord("WRITE", psn, psn, 0);
        Msg m = new Msg("WRITE", psn, 1, dmaLength, rec, false);
        RocePacket p = request(Operation.RDMA_WRITE_FIRST, psn).payload(fabric.payload(firstBytes))
                .set(InfiniBand.RETH_VA, 0x7f0000001000L).set(InfiniBand.RETH_R_KEY, rkey)
                .set(InfiniBand.RETH_DMALEN, dmaLength);
        m.packets.add(new Packet(m, 0, psn, p, false, firstBytes));
        nextPsn = Psn.add(psn, 1);
        messages.add(m);
        return m;
    }

    /** The requester abandoned {@code m} unfinished: it can never complete (the responder saw a sequence error). */
    public void abandoned(Msg m) {
        m.record.status = "failed";
    }

    /** A lone request packet with any opcode at the next PSN, outside any message: opcode-sequence violations. */
    public Packet stray(Operation op, int payloadBytes) {
        requireRequests();
        int psn = nextPsn;
        Msg m = new Msg("STRAY", psn, 1, payloadBytes, null, false);
        Packet p = new Packet(m, 0, psn, request(op, psn).payload(fabric.payload(payloadBytes)), false,
                payloadBytes);
        m.packets.add(p);
        nextPsn = Psn.add(psn, 1);
        return p;
    }

    private RocePacket request(Operation op, int psn) {
        RocePacket p = wire.packet(requester, responder).opcode(Opcodes.code(service, op)).destQp(responderQpn)
                .psn(psn);
        if (wire.encap().roceV2()) {
            p.udpSourcePort(requesterPort);
        }
        if (service == Service.XRC) {
            p.set(InfiniBand.XRCETH_XRCSRQ, xrcSrq);
        }
        return p;
    }

    /** The SEND packet of a message at this place, with immediate data or an invalidate where asked. */
    static Operation sendOperation(boolean first, boolean last, boolean imm, boolean inv) {
        if (first && last) {
            return imm ? Operation.SEND_ONLY_WITH_IMMEDIATE : inv ? Operation.SEND_ONLY_WITH_INVALIDATE
                    : Operation.SEND_ONLY;
        }
        if (first) {
            return Operation.SEND_FIRST;
        }
        if (!last) {
            return Operation.SEND_MIDDLE;
        }
        return imm ? Operation.SEND_LAST_WITH_IMMEDIATE : inv ? Operation.SEND_LAST_WITH_INVALIDATE
                : Operation.SEND_LAST;
    }

    /** The RDMA WRITE packet of a message at this place, with immediate data where asked. */
    static Operation writeOperation(boolean first, boolean last, boolean imm) {
        if (first && last) {
            return imm ? Operation.RDMA_WRITE_ONLY_WITH_IMMEDIATE : Operation.RDMA_WRITE_ONLY;
        }
        if (first) {
            return Operation.RDMA_WRITE_FIRST;
        }
        return last ? (imm ? Operation.RDMA_WRITE_LAST_WITH_IMMEDIATE : Operation.RDMA_WRITE_LAST)
                : Operation.RDMA_WRITE_MIDDLE;
    }

    /** The READ response packet {@code index} of {@code span} (IBTA 9.4.4: Only, or First, Middle…, Last). */
    static Operation readResponseOperation(int index, int span) {
        return span == 1 ? Operation.RDMA_READ_RESPONSE_ONLY : index == 0 ? Operation.RDMA_READ_RESPONSE_FIRST
                : index == span - 1 ? Operation.RDMA_READ_RESPONSE_LAST : Operation.RDMA_READ_RESPONSE_MIDDLE;
    }

    private void requireRequests() {
        if (inError) {
            throw new IllegalStateException("connection " + id() + " is in the error state: it sends nothing more");
        }
    }

    // ---- transmitting (requester → responder) -------------------------------------------------------

    /** Transmits every packet of {@code m}, all delivered; returns their frame numbers. */
    public int[] transmit(Msg m) {
        return transmit(m, i -> Fate.DELIVERED);
    }

    /** Transmits every packet of {@code m} with the fate {@code fates} gives its index; -1 for uncaptured ones. */
    public int[] transmit(Msg m, java.util.function.IntFunction<Fate> fates) {
        int[] frames = new int[m.packets.size()];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = transmit(m.packets.get(i), fates.apply(i), null);
        }
        return frames;
    }

    /**
     * Transmits one packet (first time or again). {@code tweak}, when given, changes this emission
     * only (a corrupt ICRC, a lying pad count) on a copy of the template. Returns the frame number,
     * or -1 when the capture does not hold it.
     */
    public int transmit(Packet p, Fate fate, Consumer<RocePacket> tweak) {
        if (!sentByOrder.containsValue(p)) {
            sentByOrder.put(sendOrder++, p);
        }
        RocePacket template = p.template;
        if (tweak != null) {
            template = copy(p);
            tweak.accept(template);
        }
        byte[] bytes = withIpId(template, true).build();
        trace.nextPacket(bytes.length);
        sent(p);
        int frame = -1;
        if (fate == Fate.DELIVERED || fate == Fate.LOST_AFTER_CAPTURE || fate == Fate.REFUSED) {
            frame = trace.add(bytes, template.linkType());
            captured(p, frame);
        }
        lastDelivery = fate == Fate.DELIVERED || fate == Fate.NOT_CAPTURED ? deliver(p) : Delivery.NOT_RECEIVED;
        if (fate == Fate.NOT_CAPTURED && p.message.record != null && lastDelivery == Delivery.ACCEPTED) {
            p.message.record.partial = Boolean.TRUE; // the responder took it; the capture never shows it
        }
        return frame;
    }

    private Delivery lastDelivery;

    /** A captured request frame belongs to its message; its payload counts once per PSN. */
    /** A transmitted SEND/WRITE packet extends its message's PSN range (whether or not it was captured). */
    private void sent(Packet p) {
        TruthLog.MessageRecord r = p.message.record;
        if (r != null && !p.message.readOrAtomic && Psn.diff(p.psn, r.lastPsn) > 0) {
            r.lastPsn = p.psn;
        }
    }

    private void captured(Packet p, int frame) {
        if (p.message.record != null) {
            p.message.record.frames.add(frame);
            if (p.message.countedPsns.add(p.psn)) {
                p.message.record.bytes += p.size;
            }
        }
    }

    /** What the responder made of the packet last transmitted. */
    public Delivery lastDelivery() {
        return lastDelivery;
    }

    /**
     * Transmits {@code p}, delivered, but the capture keeps only its first {@code keep} bytes (a
     * snap length): the analyzer sees the headers, not the payload or ICRC.
     */
    public int transmitTruncated(Packet p, int keep) {
        int frame = transmitCut(p, keep, false);
        truth.observe(Expected.TRUNCATED_FRAME, frame, id(), p.psn, keep + " of " + trace.frames().get(frame - 1)
                .wireLength() + " bytes captured");
        return frame;
    }

    /**
     * Transmits {@code p}, delivered, but the capture keeps only its first {@code keep} bytes and its
     * record says that is the whole frame (issue 15): shorter than its own IP and UDP lengths. The
     * capture finding is the scenario's to record, once.
     */
    public int transmitCutSilently(Packet p, int keep) {
        return transmitCut(p, keep, true);
    }

    private int transmitCut(Packet p, int keep, boolean silently) {
        if (!sentByOrder.containsValue(p)) {
            sentByOrder.put(sendOrder++, p);
        }
        byte[] bytes = withIpId(p.template, true).build();
        trace.nextPacket(bytes.length);
        sent(p);
        int frame = silently ? trace.addCutSilently(bytes, keep, p.template.linkType())
                : trace.addTruncated(bytes, keep, p.template.linkType());
        captured(p, frame);
        lastDelivery = deliver(p);
        return frame;
    }

    /** Re-emits exactly the bytes of frame {@code frame} a moment later: a fabric or mirror duplicate. */
    public int duplicate(Packet p, int frame) {
        byte[] bytes = trace.frames().get(frame - 1).bytes();
        trace.pause(200 + random.nextInt(800));
        int copy = trace.add(bytes, p.template.linkType());
        if (p.message.record != null) {
            p.message.record.frames.add(copy);
        }
        truth.observe(Expected.DUPLICATE, copy, id(), p.psn, "copy of frame " + frame);
        deliver(p);
        return copy;
    }

    /**
     * Go-back-N (IBTA 9.7.4.1.5; rc-transport-rules R3.3): resends every packet already sent from
     * {@code fromPsn} through the newest, in PSN order. Each resent frame is a retransmission.
     */
    public List<Integer> goBackN(int fromPsn, String why) {
        List<Integer> frames = new ArrayList<>();
        List<Packet> run = new ArrayList<>();
        for (Packet p : sentByOrder.values()) {
            if (Psn.diff(p.psn, fromPsn) >= 0 && !run.contains(p)) {
                run.add(p);
            }
        }
        run.sort((a, b) -> Psn.diff(a.psn, b.psn));
        for (Packet p : run) {
            int f = transmit(p, Fate.DELIVERED, null);
            truth.observe(Expected.RETRANSMISSION, f, id(), p.psn, why);
            frames.add(f);
        }
        return frames;
    }

    /** The responder's PSN check and state update for one received request packet. */
    private Delivery deliver(Packet p) {
        int d = Psn.diff(p.psn, expectedPsn);
        if (d != 0 && service == Service.UC && p.index == 0) {
            expectedPsn = p.psn; // UC resynchronises on any FIRST or ONLY (IBTA 9.8.3; rxe check_psn)
            d = 0;
        }
        if (d > 0) {
            return Delivery.OUT_OF_SEQUENCE;
        }
        if (d < 0) {
            return Delivery.DUPLICATE;
        }
        Msg m = p.message;
        expectedPsn = Psn.add(expectedPsn, m.readOrAtomic ? m.psnSpan : 1);
        nakSent = false;
        // MSN counts completed messages: at a SEND/WRITE's last packet, a READ or atomic when accepted (C9-148).
        if (p.last || m.readOrAtomic) {
            msn = Psn.add(msn, 1);
            m.acceptedMsn = msn;
        }
        return Delivery.ACCEPTED;
    }

    // ---- responder → requester ------------------------------------------------------------------------

    private RocePacket response(Operation op, int psn) {
        RocePacket p = wire.packet(responder, requester).opcode(Opcodes.code(service, op)).destQp(requesterQpn)
                .psn(psn);
        if (wire.encap().roceV2()) {
            p.udpSourcePort(responderPort);
        }
        return p;
    }

    private int emitResponse(RocePacket p) {
        byte[] bytes = withIpId(p, false).build();
        trace.nextPacket(bytes.length);
        return trace.add(bytes, p.linkType());
    }

    /**
     * A cumulative ACK the capture cut to {@code keep} bytes (a snap length ending inside its headers):
     * sent and received, but no reader of the capture can tell what it acknowledged, so it completes
     * nothing in the truth; the next ACK, which covers it, does.
     */
    public int ackCut(int keep) {
        requireReliable();
        trace.turnaround();
        RocePacket p = withIpId(response(Operation.ACKNOWLEDGE, Psn.add(expectedPsn, -1)).set(InfiniBand.AETH_SYNDROME, 0x1F)
                .set(InfiniBand.AETH_MSN, msn), false);
        byte[] bytes = p.build();
        trace.nextPacket(bytes.length);
        return trace.addTruncated(bytes, keep, p.linkType());
    }

    /** A cumulative ACK of everything accepted so far (PSN = expected − 1), after a turnaround. */
    public int ack() {
        return ack(Psn.add(expectedPsn, -1));
    }

    /**
     * An ACK with this PSN and the current MSN. Completes every SEND/WRITE whose last PSN it covers
     * (R3.2); READs and atomics wait for their own responses.
     */
    public int ack(int psn) {
        requireReliable();
        trace.turnaround();
        int frame = emitResponse(response(Operation.ACKNOWLEDGE, psn).set(InfiniBand.AETH_SYNDROME, 0x1F)
                .set(InfiniBand.AETH_MSN, msn));
        int completed = completeThrough(psn, frame);
        if (completed > 1) {
            truth.observe(Expected.COALESCED_ACK, frame, id(), psn, completed + " messages");
        }
        return frame;
    }

    /**
     * An ACK for everything received so far that claims MSN {@code claimed} instead of the count the
     * responder keeps (a responder bug in MSN accounting, C9-148). Completes what it covers.
     */
    public int ackClaimingMsn(int claimed) {
        requireReliable();
        trace.turnaround();
        int psn = Psn.add(expectedPsn, -1);
        int frame = emitResponse(response(Operation.ACKNOWLEDGE, psn).set(InfiniBand.AETH_SYNDROME, 0x1F)
                .set(InfiniBand.AETH_MSN, claimed & Psn.MASK));
        completeThrough(psn, frame);
        return frame;
    }

    private int completeThrough(int psn, int frame) {
        int completed = 0;
        for (Msg m : messages) {
            if (!m.readOrAtomic && "incomplete".equals(m.record.status) && Psn.diff(m.lastPsn(), psn) <= 0
                    && !m.record.frames.isEmpty()) {
                complete(m, frame, "completed");
                completed++;
            }
        }
        return completed;
    }

    private void complete(Msg m, int frame, String status) {
        m.record.status = status;
        m.record.completionFrame = frame;
        if (!m.record.frames.isEmpty()) {
            m.record.latencyNanos = trace.timeOf(frame) - trace.timeOf(m.record.frames.get(0));
        }
    }

    /** NAK PSN sequence error at the expected PSN, once until it is received (R2.1). */
    public int nakSequenceError() {
        requireReliable();
        if (nakSent) {
            throw new IllegalStateException("a responder sends one sequence NAK until the expected PSN arrives");
        }
        trace.turnaround();
        int frame = emitResponse(response(Operation.ACKNOWLEDGE, expectedPsn).set(InfiniBand.AETH_SYNDROME, 0x60)
                .set(InfiniBand.AETH_MSN, msn));
        nakSent = true;
        completeThrough(Psn.add(expectedPsn, -1), frame);
        truth.observe(Expected.NAK_SEQUENCE_ERROR, frame, id(), expectedPsn, null);
        return frame;
    }

    /** RNR NAK for the packet at the expected PSN, with an RNR timer code (IBTA 9.7.5.2.8). */
    public int rnrNak(int timerCode) {
        requireReliable();
        trace.turnaround();
        int frame = emitResponse(response(Operation.ACKNOWLEDGE, expectedPsn).set(InfiniBand.AETH_SYNDROME, 0x20 | timerCode)
                .set(InfiniBand.AETH_MSN, msn));
        truth.observe(Expected.RNR_NAK, frame, id(), expectedPsn, "timer code " + timerCode);
        return frame;
    }

    /**
     * A fatal NAK (invalid request 1, remote access error 2, remote operational error 3) for the
     * packet at the expected PSN: the message holding it fails and both QPs go to the error state (R2.4).
     */
    public int fatalNak(int code, Msg failed) {
        requireReliable();
        Expected kind = switch (code) {
            case 1 -> Expected.NAK_INVALID_REQUEST;
            case 2 -> Expected.NAK_REMOTE_ACCESS_ERROR;
            case 3 -> Expected.NAK_REMOTE_OPERATIONAL_ERROR;
            default -> throw new IllegalArgumentException("fatal NAK codes are 1..3");
        };
        trace.turnaround();
        int psn = expectedPsn;
        int frame = emitResponse(response(Operation.ACKNOWLEDGE, psn).set(InfiniBand.AETH_SYNDROME, 0x60 | code)
                .set(InfiniBand.AETH_MSN, msn));
        completeThrough(Psn.add(psn, -1), frame);
        truth.observe(kind, frame, id(), psn, null);
        if (failed != null && failed.record != null) {
            complete(failed, frame, "failed");
        }
        transition(frame, "error");
        inError = true;
        return frame;
    }

    /** READ responses for {@code m} (R2.5, section 4): FIRST/MIDDLE/LAST or ONLY, AETH on FIRST/LAST/ONLY. */
    public int[] respondRead(Msg m) {
        requireReliable();
        trace.turnaround();
        int[] frames = new int[m.psnSpan];
        long remaining = m.bytes;
        for (int i = 0; i < m.psnSpan; i++) {
            int size = (int) Math.min(pmtu, remaining);
            remaining -= size;
            Operation op = readResponseOperation(i, m.psnSpan);
            RocePacket p = response(op, Psn.add(m.firstPsn, i)).payload(fabric.payload(size));
            if (op != Operation.RDMA_READ_RESPONSE_MIDDLE) {
                p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, msnAt(m));
            }
            frames[i] = emitResponse(p);
            m.record.responseFrames.add(frames[i]);
            m.record.bytes += size;
            if (i == 0) {
                completeThrough(Psn.add(m.firstPsn, -1), frames[i]); // a READ response implies an ACK (R3.2)
            }
        }
        complete(m, frames[frames.length - 1], "completed");
        return frames;
    }

    /** ATOMIC ACKNOWLEDGE with the value the target held before (IBTA 9.4.5). */
    public int atomicAck(Msg m, long original) {
        requireReliable();
        trace.turnaround();
        int frame = emitResponse(response(Operation.ATOMIC_ACKNOWLEDGE, m.firstPsn).set(InfiniBand.AETH_SYNDROME, 0x1F)
                .set(InfiniBand.AETH_MSN, msnAt(m)).set(InfiniBand.ATOMICACKETH_ORIGREMDT, original));
        m.record.responseFrames.add(frame);
        completeThrough(Psn.add(m.firstPsn, -1), frame);
        complete(m, frame, "completed");
        return frame;
    }

    /** FLUSH and ATOMIC WRITE are answered by a zero-length READ RESPONSE ONLY (rxe; rc-transport-rules §0). */
    public int zeroLengthReadResponse(Msg m) {
        requireReliable();
        trace.turnaround();
        int frame = emitResponse(response(Operation.RDMA_READ_RESPONSE_ONLY, m.firstPsn).set(InfiniBand.AETH_SYNDROME, 0x1F)
                .set(InfiniBand.AETH_MSN, msnAt(m)));
        m.record.responseFrames.add(frame);
        completeThrough(Psn.add(m.firstPsn, -1), frame);
        complete(m, frame, "completed");
        return frame;
    }

    /** A READ RESPONSE ONLY that answers no READ: the unmatched-response violation. */
    public int unsolicitedReadResponse(int psn, int bytes) {
        trace.turnaround();
        int frame = emitResponse(response(Operation.RDMA_READ_RESPONSE_ONLY, psn).payload(fabric.payload(bytes))
                .set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, msn));
        truth.observe(Expected.UNMATCHED_READ_RESPONSE, frame, id(), psn, null);
        return frame;
    }

    private static int msnAt(Msg m) {
        return m.acceptedMsn;
    }

    /** A CNP from the responder's NIC to the requester QP, answering CE-marked data (Annex A17.9.3). */
    public int cnpToRequester() {
        RocePacket p = wire.packet(responder, requester).opcode(Opcodes.code(Service.CNP, Operation.CNP)).destQp(requesterQpn).psn(0).becn(true)
                .dscp(48).ecn(Wire.ECT0);
        if (wire.encap().roceV2()) {
            p.udpSourcePort(0); // as the ConnectX-4 Lx vector in icrc-vectors.md
        }
        trace.pause(1_000 + random.nextInt(1_000));
        int frame = emitResponse(p);
        truth.observe(Expected.CNP, frame, id(), null, "to requester QP 0x" + Integer.toHexString(requesterQpn));
        return frame;
    }

    /**
     * The requester gives up on {@code m} after its last retry (RETRY_EXC_ERR or RNR_RETRY_EXC_ERR,
     * R3.4/R3.6): nothing shows on the wire but silence, so the finding points at the last attempt.
     */
    public void gaveUp(Msg m, Expected why, int lastAttemptFrame) {
        truth.observe(why, lastAttemptFrame, id(), m.firstPsn, m.kind);
        m.record.status = "failed";
        transition(lastAttemptFrame, "error");
        inError = true;
    }

    /** Marks a message as never completed: unanswered for longer than the ACK timeout when the capture ends. */
    public void incomplete(Msg m, Integer frame) {
        truth.observe(Expected.MESSAGE_INCOMPLETE, frame, id(), m.firstPsn, m.kind);
    }

    /** A message still unanswered when the capture ends, sent less than an ACK timeout before the end. */
    public void unansweredAtEnd(Msg m, Integer frame) {
        truth.observe(Expected.UNANSWERED_AT_CAPTURE_END, frame, id(), m.firstPsn, m.kind);
    }

    /** UC: the responder silently dropped {@code m} because a packet of it never arrived (IBTA 9.8.3). */
    public void ucDropped(Msg m, int detectedAt) {
        m.record.status = "dropped";
        truth.observe(Expected.UC_MESSAGE_DROPPED, detectedAt, id(), m.firstPsn, null);
    }

    /** UC has no acknowledgements: a fully delivered UC message is complete when its last packet is. */
    public void ucDelivered(Msg m) {
        List<Integer> frames = m.record.frames;
        complete(m, frames.get(frames.size() - 1), "completed");
    }

    private void requireReliable() {
        if (service == Service.UC) {
            throw new IllegalStateException("UC has no acknowledgements (IBTA 9.8)");
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------

    private RocePacket withIpId(RocePacket p, boolean fromRequester) {
        if (wire.encap() == Wire.Encap.ROCE_V2_IPV4) {
            p.ipId(fromRequester ? requesterCounters.ipId++ & 0xFFFF : responderCounters.ipId++ & 0xFFFF);
        }
        return p;
    }

    /** A template copy for a one-off emission: rebuilt from the same recipe rather than shared. */
    private RocePacket copy(Packet p) {
        return p.template.copy();
    }
}
