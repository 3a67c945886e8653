package io.rdmascope.replay;

import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;

import java.util.function.UnaryOperator;

/**
 * A hand-played RC connection for unit tests: host A (10.0.0.1, QP 0xA) sends requests to host B
 * (10.0.0.2, QP 0xB), each frame built by the packet builder, dissected and fed to one engine,
 * one millisecond apart unless {@link #step} says otherwise.
 */
final class Wire {
    static final int QP_A = 0xA;
    static final int QP_B = 0xB;
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};

    final ReplayResult result = new ReplayResult();
    private final DissectorChain chain = DissectorChain.standard();
    private final Dissection d = new Dissection();
    private long frame;
    /** Added to every later frame's time: a pause in the traffic. */
    private long pausedNanos;
    /** Time from one frame to the next, and the newest frame's time before pauses. */
    private long stepNanos = 1_000_000L;
    private long clockNanos;

    /** A request from A to B. */
    long request(int opcode, int psn, int payloadBytes, UnaryOperator<RocePacket> extra) {
        RocePacket p = RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).opcode(opcode).destQp(QP_B).psn(psn)
                .ackReq(true).payload(new byte[payloadBytes]).ipId((int) frame);
        return play(extra == null ? p : extra.apply(p));
    }

    long request(int opcode, int psn, int payloadBytes) {
        return request(opcode, psn, payloadBytes, null);
    }

    /** An ACKNOWLEDGE from B with this syndrome. */
    long ack(int psn, int syndrome, int msn) {
        return play(RocePacket.v2Ipv4(MAC_B, MAC_A, IP_B, IP_A).opcode(0x11).destQp(QP_A).psn(psn)
                .set(InfiniBand.AETH_SYNDROME, syndrome).set(InfiniBand.AETH_MSN, msn));
    }

    /** Any response from B. */
    long response(int opcode, int psn, int payloadBytes, UnaryOperator<RocePacket> extra) {
        RocePacket p = RocePacket.v2Ipv4(MAC_B, MAC_A, IP_B, IP_A).opcode(opcode).destQp(QP_A).psn(psn)
                .payload(new byte[payloadBytes]);
        return play(extra == null ? p : extra.apply(p));
    }

    /** Later frames follow each other {@code nanos} apart (1 ms until told otherwise). */
    void step(long nanos) {
        stepNanos = nanos;
    }

    /** Nothing on the wire for {@code nanos} before the next frame. */
    void pause(long nanos) {
        pausedNanos += nanos;
    }

    private long play(RocePacket p) {
        frame++;
        clockNanos += stepNanos;
        byte[] bytes = p.build();
        chain.dissect(Frame.of(frame, clockNanos + pausedNanos, p.linkType(), bytes), d);
        result.accept(d);
        return frame;
    }

    /** Sends one SEND Only to each of {@code qps} different destination QPs of B, through {@code into}. */
    static void feed(ReplayResult into, int qps) {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (int q = 0; q < qps; q++) {
            byte[] bytes = RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).opcode(0x04).destQp(0x100 + q).psn(q)
                    .payload(new byte[8]).build();
            chain.dissect(Frame.of(q + 1, q * 1000L, io.rdmascope.frame.LinkTypes.ETHERNET, bytes), d);
            into.accept(d);
        }
    }

    ReplayResult finish() {
        return result.finish();
    }
}
