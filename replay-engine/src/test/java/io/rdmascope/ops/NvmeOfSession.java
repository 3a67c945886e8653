package io.rdmascope.ops;

import io.rdmascope.build.Addresses;
import io.rdmascope.build.CmMad;
import io.rdmascope.build.Header;
import io.rdmascope.build.RocePacket;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.Mad;
import io.rdmascope.proto.nvmeof.NvmeOf;

import java.util.ArrayList;
import java.util.List;

/**
 * An NVMe-oF session over RoCEv2 built through the packet builder with NVMe-oF's own declarations, for
 * the operation tracker: an I/O queue (qid 1) with a Connect whose data the controller READs, a Write
 * (two READ response packets), a Read (an RDMA WRITE First and Last), a Flush that fails with Invalid
 * Field in Command, a Read nobody answers before the controller's DisconnectRequest, a Write the host
 * sends after it, and an RDMA WRITE into no command's buffer; then an admin queue (qid 0) whose Keep
 * Alive the capture ends on. Frame n is at n µs; the frame numbers below are what the test checks.
 */
final class NvmeOfSession {
    static final int HOST_QPN = 0x000011;
    static final int CONTROLLER_QPN = 0x000022;
    static final int ADMIN_HOST_QPN = 0x000033;
    static final int ADMIN_CONTROLLER_QPN = 0x000044;
    private static final byte[] HOST_MAC = {2, 0, 0, 0, 0, 1};
    private static final byte[] CONTROLLER_MAC = {2, 0, 0, 0, 0, 2};
    private static final byte[] HOST_IP = {10, 0, 0, 1};
    private static final byte[] CONTROLLER_IP = {10, 0, 0, 2};
    /** SQE opcodes (NVMe Base 2.0 Figure 28; NVM Command Set Figure 18). */
    private static final int FLUSH = 0x00;
    private static final int WRITE = 0x01;
    private static final int READ = 0x02;
    private static final int KEEP_ALIVE = 0x18;
    private static final int FABRICS_CONNECT = 0x01;
    /** Status field: SCT 0, SC 0x02 Invalid Field in Command, shifted past the reserved phase bit. */
    static final int INVALID_FIELD = 0x02 << 1;

    private final List<byte[]> frames = new ArrayList<>();
    private int hostPsn = 100;
    private int controllerPsn = 500;

    static List<Frame> frames() {
        NvmeOfSession s = new NvmeOfSession();
        s.script();
        List<Frame> out = new ArrayList<>();
        for (int i = 0; i < s.frames.size(); i++) {
            out.add(Frame.of(i + 1, (i + 1) * 1_000L, LinkTypes.ETHERNET, s.frames.get(i)));
        }
        return out;
    }

    private void script() {
        connect(1, HOST_QPN, CONTROLLER_QPN, 0x100);                                  // 1-3
        command(sqe(NvmeOf.OPC_FABRICS, 1, 0x1000, 0x10000, 1024, FABRICS_CONNECT), true); // 4, ACK 5
        read(0x1000, 0x10000, 1);                                                     // 6-7
        response(1, 0);                                                               // 8
        command(sqe(WRITE, 2, 0x2000, 0x20000, 2048, 0), true);                       // 9, ACK 10
        read(0x2000, 0x20000, 2);                                                     // 11-13
        response(2, 0);                                                               // 14
        command(sqe(READ, 3, 0x3000, 0x30000, 2048, 0), true);                        // 15, ACK 16
        write(0x3000, 0x30000);                                                       // 17-18
        response(3, 0);                                                               // 19
        command(sqe(FLUSH, 4, -1, 0, 0, 0), false);                                   // 20
        response(4, INVALID_FIELD);                                                   // 21
        command(sqe(READ, 5, 0x5000, 0x50000, 512, 0), false);                        // 22
        gsi(false, CmMad.dreq(0x77, 0x200, 0x100, HOST_QPN));                          // 23
        command(sqe(WRITE, 6, 0x6000, 0x60000, 512, 0), false);                       // 24
        add(toHost().opcode(0x0A).psn(controllerPsn++).set(InfiniBand.RETH_VA, 0x90000)
                .set(InfiniBand.RETH_R_KEY, 0x9999).set(InfiniBand.RETH_DMALEN, 64).payload(new byte[64])); // 25
        connect(0, ADMIN_HOST_QPN, ADMIN_CONTROLLER_QPN, 0x300);                      // 26-28
        add(packet(true, ADMIN_CONTROLLER_QPN).opcode(0x04).psn(900)
                .payload(adminSqe(KEEP_ALIVE, 7)));                                   // 29
    }

    private void connect(int qid, int hostQpn, int controllerQpn, int commId) {
        CmMad.Request request = new CmMad.Request(0x40 + qid, commId, hostQpn, controllerPsn, CmMad.mtuCode(1024),
                16, 16, 14, 7, 7, Addresses.ipv4MappedGid(HOST_IP), Addresses.ipv4MappedGid(CONTROLLER_IP), NvmeOf.PORT, HOST_IP, CONTROLLER_IP, 0x1111);
        byte[] req = CmMad.req(request);
        // The NVMe-oF private data after the IP CM header (NVMe-oF 1.1 §7.3.1.2.1): record format 0, the queue id.
        req[Mad.COMMON_HEADER_SIZE + Cm.REQ_PRIVATE_DATA + 36 + 2] = (byte) qid;
        gsi(true, req);
        gsi(false, CmMad.rep(0x40 + qid, commId + 1, commId, controllerQpn, hostPsn, 16, 16, 7, 0x2222));
        gsi(true, CmMad.rtu(0x40 + qid, commId, commId + 1));
    }

    /** A command capsule; the controller's ACK of it when {@code acked}. */
    private void command(byte[] sqe, boolean acked) {
        int psn = hostPsn++;
        add(packet(true, CONTROLLER_QPN).opcode(0x04).psn(psn).ackReq(true).payload(sqe));
        if (acked) {
            add(toHost().opcode(0x11).psn(psn).set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 1));
        }
    }

    private void response(int cid, int status) {
        byte[] cqe = new Header(NvmeOf.RESPONSE, NvmeOf.CQE_SIZE).set(NvmeOf.CQE_CID, cid).set(NvmeOf.STATUS, status)
                .toBytes();
        add(toHost().opcode(0x04).psn(controllerPsn++).payload(cqe));
    }

    /** The controller READs the host's buffer: a request, then {@code packets} responses of 1024 bytes. */
    private void read(long key, long address, int packets) {
        int psn = controllerPsn;
        add(toHost().opcode(0x0C).psn(psn).set(InfiniBand.RETH_VA, address).set(InfiniBand.RETH_R_KEY, key)
                .set(InfiniBand.RETH_DMALEN, packets * 1024L));
        for (int i = 0; i < packets; i++) {
            int opcode = packets == 1 ? 0x10 : i == 0 ? 0x0D : 0x0F;
            add(packet(true, CONTROLLER_QPN).opcode(opcode).psn(psn + i).set(InfiniBand.AETH_SYNDROME, 0x1F)
                    .payload(new byte[1024]));
        }
        controllerPsn += packets;
    }

    /** The controller WRITEs 2048 bytes into the host's buffer, First and Last. */
    private void write(long key, long address) {
        add(toHost().opcode(0x06).psn(controllerPsn++).set(InfiniBand.RETH_VA, address)
                .set(InfiniBand.RETH_R_KEY, key).set(InfiniBand.RETH_DMALEN, 2048).payload(new byte[1024]));
        add(toHost().opcode(0x08).psn(controllerPsn++).payload(new byte[1024]));
    }

    private static byte[] sqe(int opcode, int cid, long key, long address, int length, int fctype) {
        byte[] b = new Header(NvmeOf.IO_COMMAND, NvmeOf.SQE_SIZE).set(NvmeOf.CID, cid).set(NvmeOf.SGL_ADDR, address)
                .set(NvmeOf.SGL_LEN, length).set(NvmeOf.SGL_KEY, Math.max(key, 0)).toBytes();
        b[0] = (byte) opcode; // the opcode and, for a Fabrics command, its type (byte 4) share no field here
        if (opcode == NvmeOf.OPC_FABRICS) {
            b[4] = (byte) fctype;
        }
        b[39] = (byte) (key >= 0 ? NvmeOf.SGL_KEYED_DATA_BLOCK << 4 : 0);
        return b;
    }

    private static byte[] adminSqe(int opcode, int cid) {
        return new Header(NvmeOf.ADMIN_COMMAND, NvmeOf.SQE_SIZE).set(NvmeOf.ADMIN_OPC, opcode).set(NvmeOf.CID, cid)
                .toBytes();
    }

    private RocePacket toHost() {
        return packet(false, HOST_QPN);
    }

    private static RocePacket packet(boolean fromHost, int destQp) {
        return (fromHost ? RocePacket.v2Ipv4(HOST_MAC, CONTROLLER_MAC, HOST_IP, CONTROLLER_IP)
                : RocePacket.v2Ipv4(CONTROLLER_MAC, HOST_MAC, CONTROLLER_IP, HOST_IP)).destQp(destQp);
    }

    private void gsi(boolean fromHost, byte[] mad) {
        add((fromHost ? RocePacket.v2Ipv4(HOST_MAC, CONTROLLER_MAC, HOST_IP, CONTROLLER_IP)
                : RocePacket.v2Ipv4(CONTROLLER_MAC, HOST_MAC, CONTROLLER_IP, HOST_IP)).gsiMad(mad));
    }

    private void add(RocePacket p) {
        frames.add(p.build());
    }
}
