package io.rdmascope.samples;

import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.proto.ib.Service;

/**
 * Mellanox Dynamically Connected traffic as a ConnectX NIC puts it on the wire (docs/dc.md, issue
 * 16): a DC initiator (DCI) on one host connects to a DC target (DCT) on another and writes to it.
 * Every byte follows the real capture {@code magnate3_linux-riscv-dev_dc-small2.pcap} as docs/dc.md
 * records it (and tshark 4.0 reads it), not the dissector: after the BTH an 8-byte DCETH (flags 0x11
 * on requests and 0x10 on responses, the sending DC QP, an identifier the same on every packet),
 * then an RDETH and a DETH (Q_Key 0xc0de, source QP 0), then the operation's RC-form headers.
 *
 * <p>The DC connect is a RESYNC (0x55) to QP 0xFFFFFF with the Solicited Event bit clear, its RDETH
 * context 0xFFFFFF, its DCCETH carrying the 64-bit DC access key; the DCT answers it with an
 * acknowledge whose AETH reads NAK "Invalid RD Request" (0x64) followed by 8 bytes
 * {@code 10 00 00 00 00 00 00 00}, as the capture shows (their meaning is not public). Data
 * packets ask for an acknowledgement on a WRITE's first and last packet; the DCT answers with an
 * acknowledge whose AETH is {@code 1f000000} (ACK, no credit information, MSN 0). DC is decoded,
 * not replayed (docs/dc.md "Replay"), so the truth names the conversation and no messages.
 */
public final class DcTraffic {
    /** DCETH flags the capture shows on every request and every response. */
    static final int FLAGS_REQUEST = 0x11;
    static final int FLAGS_RESPONSE = 0x10;
    /** A DC connect goes to this QP and carries this RDETH context (docs/dc.md, frame 3 of the capture). */
    static final int CONNECT_QP = 0xFFFFFF;
    static final int CONNECT_EE_CONTEXT = 0xFFFFFF;
    /** The DCCETH's first word on the captured connect. */
    static final long CONNECT_CONTROL = 0x20000000L;
    /** perftest's DC key ({@code #define DC_KEY 0xffeeddcc}, perftest_resources.c), seen on the connect. */
    static final long PERFTEST_DC_KEY = 0xffeeddccL;
    /** The DETH every DC packet of the capture carries: Q_Key 0xc0de, source QP 0. */
    static final long DETH_Q_KEY = 0xc0deL;
    /** AETH syndromes the DCT answers with: NAK Invalid RD Request (on the connect), ACK without credit. */
    static final int SYNDROME_CONNECT_ANSWER = 0x64;
    static final int SYNDROME_ACK = 0x1F;
    private static final byte[] CONNECT_ANSWER_TRAILER = {0x10, 0, 0, 0, 0, 0, 0, 0};
    /** RoCEv2 port the capture's NICs use as source too. */
    private static final int ROCE_PORT = 4791;
    /** The capture's requests carry DSCP 26 (the RoCE data class), its responses DSCP 0; both ECT(0). */
    private static final int RESPONSE_DSCP = 0;

    private final Fabric fabric;
    private final Host initiator;
    private final Host target;
    private final int pmtu;
    private final int dci;
    private final int dctNumber;
    private final long identifier;
    private final int eeContext;
    private final long rkey;
    private long virtualAddress;
    private int psn;

    DcTraffic(Fabric fabric, Host initiator, Host target, int pmtu) {
        this.fabric = fabric;
        this.initiator = initiator;
        this.target = target;
        this.pmtu = pmtu;
        this.dci = fabric.newQpn();
        this.dctNumber = fabric.newQpn();
        this.identifier = fabric.random.nextInt() & 0xFFFFFFFFL;
        this.eeContext = 1 + fabric.random.nextInt(0xFFFFFE); // never the connect's 0xFFFFFF
        this.rkey = fabric.random.nextInt() & 0xFFFFFFFFL;
        this.virtualAddress = 0x00007F0000000000L | ((long) fabric.random.nextInt(0x100000) << 12);
        this.psn = fabric.random.nextInt(1 << 24);
        Wire wire = fabric.wire;
        if (!wire.encap().roceV2()) {
            throw new IllegalArgumentException("the DC case follows a RoCEv2 capture");
        }
        TruthLog.ConnectionRecord record = fabric.truth.connection("DC",
                wire.encap().name().toLowerCase(java.util.Locale.ROOT));
        record.requester = new Truth.Endpoint(wire.address(initiator), Fabric.macText(initiator.mac()), dci,
                ROCE_PORT, psn);
        record.responder = new Truth.Endpoint(wire.address(target), Fabric.macText(target.mac()), dctNumber,
                null, null);
        record.pmtu = pmtu;
    }

    /** The DC connect naming the DCT's access key, and the DCT's answer. */
    public void connect(long accessKey) {
        RocePacket connect = request(Operation.RESYNC, CONNECT_QP, CONNECT_EE_CONTEXT).ackReq(true)
                .set(InfiniBand.DCCETH_CONTROL, CONNECT_CONTROL).set(InfiniBand.DCCETH_ACCESS_KEY, accessKey);
        send(connect);
        fabric.trace.turnaround();
        send(response(SYNDROME_CONNECT_ANSWER).payload(CONNECT_ANSWER_TRAILER.clone()));
        psn = Psn.add(psn, 1);
    }

    /**
     * An RDMA WRITE of {@code bytes} to the DCT in path-MTU packets (WRITE Only when it fits one),
     * acknowledged after its first and after its last packet.
     */
    public void write(int bytes) {
        int packets = Math.max(1, (bytes + pmtu - 1) / pmtu);
        for (int i = 0; i < packets; i++) {
            boolean first = i == 0;
            boolean last = i == packets - 1;
            Operation op = Connection.writeOperation(first, last, false);
            int size = last ? bytes - i * pmtu : pmtu;
            RocePacket p = request(op, dctNumber, eeContext).ackReq(first || last)
                    .payload(fabric.payload(size));
            if (first) {
                p.set(InfiniBand.RETH_VA, virtualAddress).set(InfiniBand.RETH_R_KEY, rkey)
                        .set(InfiniBand.RETH_DMALEN, bytes);
            }
            send(p);
            if (first || last) {
                fabric.trace.turnaround();
                send(response(SYNDROME_ACK));
            }
            psn = Psn.add(psn, 1);
        }
        virtualAddress += (bytes + 0xFFFL) & ~0xFFFL;
    }

    /** A request from the DCI: BTH with MigReq set as ConnectX sends it, DCETH, RDETH, DETH. */
    private RocePacket request(Operation op, int destQp, int context) {
        return fabric.wire.packet(initiator, target).udpSourcePort(ROCE_PORT).opcode(Opcodes.code(Service.DC, op))
                .destQp(destQp).psn(psn).migReq(true).solicited(false)
                .set(InfiniBand.DCETH_FLAGS, FLAGS_REQUEST).set(InfiniBand.DCETH_SRCQP, dci)
                .set(InfiniBand.DCETH_ID, identifier).set(InfiniBand.RDETH_EECNXT, context)
                .set(InfiniBand.DETH_Q_KEY, DETH_Q_KEY);
    }

    /** The DCT's acknowledge of the current PSN: DCETH naming the DCT, the data context, AETH MSN 0. */
    private RocePacket response(int syndrome) {
        return fabric.wire.packet(target, initiator).udpSourcePort(ROCE_PORT).dscp(RESPONSE_DSCP)
                .opcode(Opcodes.code(Service.DC, Operation.ACKNOWLEDGE))
                .destQp(dci).psn(psn).migReq(true)
                .set(InfiniBand.DCETH_FLAGS, FLAGS_RESPONSE).set(InfiniBand.DCETH_SRCQP, dctNumber)
                .set(InfiniBand.DCETH_ID, identifier).set(InfiniBand.RDETH_EECNXT, eeContext)
                .set(InfiniBand.DETH_Q_KEY, DETH_Q_KEY).set(InfiniBand.AETH_SYNDROME, syndrome);
    }

    private void send(RocePacket p) {
        byte[] frame = p.build();
        fabric.trace.nextPacket(frame.length);
        fabric.trace.add(frame, p.linkType());
    }
}
