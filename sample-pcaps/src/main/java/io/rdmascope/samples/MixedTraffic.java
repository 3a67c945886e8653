package io.rdmascope.samples;

import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.proto.ib.Service;

import java.util.Random;
import java.util.function.ObjLongConsumer;

/**
 * The {@code mixed_large} scenario: RoCEv2 over IPv4 between {@code qps} reliable connections on
 * eight hosts, interleaving SEND, RDMA WRITE (First/Middle/Last) and RDMA READ messages with their
 * ACKs and READ responses, and a small rate of go-back-N retransmissions after a NAK. Deterministic
 * for a seed. Frames are built with the packet builder, so every ICRC is correct.
 *
 * <p>Path MTU is 256 bytes so that a million frames stay a few hundred megabytes: the point of this
 * scenario is frame count (benchmarks), not bytes.
 */
public final class MixedTraffic {
    private static final int PMTU = 256;
    private static final int HOSTS = 8;

    private final Random random;
    private final Qp[] qps;
    private long clockNanos;

    /** One RC connection: requester on {@code client}, responder on {@code server}. */
    private static final class Qp {
        final int client;
        final int server;
        final int requesterQpn;
        final int responderQpn;
        final int udpPort;
        int psn;
        int msn;

        Qp(int client, int server, int requesterQpn, int responderQpn, int udpPort, int psn) {
            this.client = client;
            this.server = server;
            this.requesterQpn = requesterQpn;
            this.responderQpn = responderQpn;
            this.udpPort = udpPort;
            this.psn = psn;
        }
    }

    public MixedTraffic(long seed, int qpCount, long startNanos) {
        if (qpCount < 1 || qpCount > 4096) {
            throw new IllegalArgumentException("qps must be 1..4096");
        }
        this.random = new Random(seed);
        this.qps = new Qp[qpCount];
        for (int i = 0; i < qpCount; i++) {
            int client = random.nextInt(HOSTS);
            int server = (client + 1 + random.nextInt(HOSTS - 1)) % HOSTS;
            qps[i] = new Qp(client, server, 0x100 + 2 * i, 0x101 + 2 * i, 49152 + random.nextInt(16384),
                    random.nextInt(1 << 24));
        }
        this.clockNanos = startNanos;
    }

    /** Emits exactly {@code frames} frames to {@code sink} as (bytes, capture time in nanoseconds). */
    public void generate(long frames, ObjLongConsumer<byte[]> sink) {
        long emitted = 0;
        while (emitted < frames) {
            Qp qp = qps[random.nextInt(qps.length)];
            int kind = random.nextInt(10);
            Message m = kind < 4 ? write(qp) : kind < 7 ? send(qp) : read(qp);
            for (int i = 0; i < m.count && emitted < frames; i++) {
                sink.accept(m.frames[i], m.times[i]);
                emitted++;
            }
        }
    }

    private static final class Message {
        final byte[][] frames = new byte[64][];
        final long[] times = new long[64];
        int count;

        void add(byte[] frame, long time) {
            frames[count] = frame;
            times[count++] = time;
        }
    }

    private long tick(int minNanos, int spreadNanos) {
        clockNanos += minNanos + random.nextInt(spreadNanos);
        return clockNanos;
    }

    private RocePacket request(Qp qp, Operation op) {
        return RocePacket.v2Ipv4(mac(qp.client), mac(qp.server), ip(qp.client), ip(qp.server))
                .udpSourcePort(qp.udpPort).opcode(Opcodes.code(Service.RC, op)).destQp(qp.responderQpn).psn(qp.psn);
    }

    private RocePacket response(Qp qp, Operation op, int psn) {
        return RocePacket.v2Ipv4(mac(qp.server), mac(qp.client), ip(qp.server), ip(qp.client))
                .udpSourcePort(qp.udpPort).opcode(Opcodes.code(Service.RC, op)).destQp(qp.requesterQpn).psn(psn);
    }

    private Message write(Qp qp) {
        Message m = new Message();
        int packets = 1 + random.nextInt(6);
        int last = 1 + random.nextInt(PMTU);
        int length = (packets - 1) * PMTU + last;
        int firstPsn = qp.psn;
        boolean retransmit = packets > 2 && random.nextInt(100) == 0; // rare loss: NAK then go-back-N
        int lostIndex = retransmit ? 1 : -1;
        for (int i = 0; i < packets; i++) {
            Operation op = Connection.writeOperation(i == 0, i == packets - 1, false);
            RocePacket p = request(qp, op).ackReq(i == packets - 1)
                    .payload(payload(i == packets - 1 ? last : PMTU));
            if (i == 0) { // WRITE First or Only: the RETH
                p.set(InfiniBand.RETH_VA, 0x7f0000000000L + random.nextInt(1 << 20) * 64L)
                        .set(InfiniBand.RETH_R_KEY, 0x1000 + qp.requesterQpn).set(InfiniBand.RETH_DMALEN, length);
            }
            long t = tick(300, 400);
            if (i != lostIndex) {
                m.add(p.build(), t);
            }
            qp.psn = (qp.psn + 1) & 0xFFFFFF;
        }
        if (retransmit) {
            int lostPsn = (firstPsn + lostIndex) & 0xFFFFFF;
            m.add(response(qp, Operation.ACKNOWLEDGE, lostPsn).set(InfiniBand.AETH_SYNDROME, 0x60)
                    .set(InfiniBand.AETH_MSN, qp.msn).build(), tick(2_000, 1_000));
            for (int i = lostIndex; i < packets; i++) {
                Operation op = Connection.writeOperation(false, i == packets - 1, false);
                m.add(request(qp, op).psn((firstPsn + i) & 0xFFFFFF).ackReq(i == packets - 1)
                        .payload(payload(i == packets - 1 ? last : PMTU)).build(), tick(300, 400));
            }
        }
        qp.msn = (qp.msn + 1) & 0xFFFFFF;
        m.add(ack(qp, (qp.psn - 1) & 0xFFFFFF), tick(2_000, 3_000));
        return m;
    }

    private Message send(Qp qp) {
        Message m = new Message();
        int packets = 1 + random.nextInt(3);
        for (int i = 0; i < packets; i++) {
            Operation op = Connection.sendOperation(i == 0, i == packets - 1, false, false);
            int size = i == packets - 1 ? 1 + random.nextInt(PMTU) : PMTU;
            m.add(request(qp, op).ackReq(i == packets - 1).payload(payload(size)).build(), tick(300, 400));
            qp.psn = (qp.psn + 1) & 0xFFFFFF;
        }
        qp.msn = (qp.msn + 1) & 0xFFFFFF;
        m.add(ack(qp, (qp.psn - 1) & 0xFFFFFF), tick(2_000, 3_000));
        return m;
    }

    private Message read(Qp qp) {
        Message m = new Message();
        int packets = 1 + random.nextInt(4);
        int last = 1 + random.nextInt(PMTU);
        int length = (packets - 1) * PMTU + last;
        int first = qp.psn;
        m.add(request(qp, Operation.RDMA_READ_REQUEST).ackReq(true).set(InfiniBand.RETH_VA, 0x7e0000000000L + random.nextInt(1 << 20) * 64L)
                .set(InfiniBand.RETH_R_KEY, 0x2000 + qp.requesterQpn).set(InfiniBand.RETH_DMALEN, length).build(),
                tick(300, 400));
        qp.msn = (qp.msn + 1) & 0xFFFFFF; // IBTA C9-148: a READ counts when the request is accepted
        for (int i = 0; i < packets; i++) {
            Operation op = Connection.readResponseOperation(i, packets);
            RocePacket p = response(qp, op, (first + i) & 0xFFFFFF)
                    .payload(payload(i == packets - 1 ? last : PMTU));
            if (op != Operation.RDMA_READ_RESPONSE_MIDDLE) {
                p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, qp.msn);
            }
            m.add(p.build(), tick(i == 0 ? 2_000 : 300, i == 0 ? 2_000 : 400));
        }
        qp.psn = (first + packets) & 0xFFFFFF; // a READ occupies as many PSNs as its responses (R1.3)
        return m;
    }

    private byte[] ack(Qp qp, int psn) {
        return response(qp, Operation.ACKNOWLEDGE, psn).set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, qp.msn).build();
    }

    private byte[] payload(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    private static byte[] mac(int host) {
        return new byte[]{0x02, 0x00, 0x00, 0x00, 0x00, (byte) (host + 1)};
    }

    private static byte[] ip(int host) {
        return new byte[]{10, 0, 0, (byte) (host + 1)};
    }
}
