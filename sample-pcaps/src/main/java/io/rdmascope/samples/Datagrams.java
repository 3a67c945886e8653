package io.rdmascope.samples;

import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.proto.ib.Service;

/**
 * Unreliable datagram traffic from one UD QP to another (IBTA Vol. 1 9.8.4, 10.2): one packet per
 * message, no acknowledgement, the DETH naming the source QP and the Q_Key.
 */
public final class Datagrams {
    private final Fabric fabric;
    private final Host sender;
    private final Host receiver;
    private final int pmtu;
    private final int sourceQpn;
    private final int destinationQpn;
    private final long qKey;
    private final int udpPort;
    private int psn;
    private final TruthLog.ConnectionRecord record;

    Datagrams(Fabric fabric, Host sender, Host receiver, int pmtu) {
        this.fabric = fabric;
        this.sender = sender;
        this.receiver = receiver;
        this.pmtu = pmtu;
        this.sourceQpn = fabric.newQpn();
        this.destinationQpn = fabric.newQpn();
        this.qKey = 0x11110000L + fabric.random.nextInt(0x10000); // bit 31 clear: not a controlled Q_Key
        this.udpPort = 0xC000 + fabric.random.nextInt(0x4000);
        this.psn = fabric.random.nextInt(1 << 24);
        Wire wire = fabric.wire;
        this.record = fabric.truth.connection("UD", wire.encap().name().toLowerCase(java.util.Locale.ROOT));
        boolean eth = wire.encap().ethernet();
        record.requester = new Truth.Endpoint(wire.address(sender), eth ? Fabric.macText(sender.mac()) : null,
                sourceQpn, wire.encap().roceV2() ? udpPort : null, psn);
        record.responder = new Truth.Endpoint(wire.address(receiver), eth ? Fabric.macText(receiver.mac()) : null,
                destinationQpn, null, null);
        record.pmtu = pmtu;
    }

    /** One datagram of {@code bytes} (at most the path MTU, IBTA C10-93.1.1); returns its frame. */
    public int send(int bytes, Long immediate) {
        if (bytes > pmtu) {
            throw new IllegalArgumentException("a UD message is one packet: at most " + pmtu + " bytes");
        }
        RocePacket p = fabric.wire.packet(sender, receiver).opcode(Opcodes.code(Service.UD,
                immediate == null ? Operation.SEND_ONLY : Operation.SEND_ONLY_WITH_IMMEDIATE))
                .destQp(destinationQpn).psn(psn).set(InfiniBand.DETH_Q_KEY, qKey)
                .set(InfiniBand.DETH_SRCQP, sourceQpn).payload(fabric.payload(bytes));
        if (immediate != null) {
            p.immediate(immediate);
        }
        if (fabric.wire.encap().roceV2()) {
            p.udpSourcePort(udpPort);
        }
        TruthLog.MessageRecord m = fabric.truth.message(record.id, immediate == null ? "SEND" : "SEND_WITH_IMM",
                psn, psn, bytes);
        m.immediate = immediate;
        byte[] frame = p.build();
        fabric.trace.nextPacket(frame.length);
        int number = fabric.trace.add(frame, p.linkType());
        m.frames.add(number);
        // UD has no acknowledgement (IBTA 9.8.4): a datagram is complete once sent, as UC messages are.
        m.status = "completed";
        m.completionFrame = number;
        m.latencyNanos = 0L;
        psn = Psn.add(psn, 1);
        return number;
    }
}
