package io.rdmascope.samples;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * NVMe over Fabrics on RoCEv2 (issue 19): a host connecting an admin queue and an I/O queue to a
 * controller, each its own RC connection made by RDMA-CM for port 4420 with the NVMe-oF private
 * data, and what a host and a controller then do, with the errors issue 19's rules must find.
 *
 * <p>Every capsule is written here from the specifications (NVMe 1.4 §4.2 submission queue entry,
 * §4.6 completion queue entry, §4.4 SGL descriptors; NVMe-oF 1.1 §3.3 Fabrics commands and §7.3 the
 * RDMA transport binding), not through the dissector's declarations, so that a decoding error cannot
 * cancel out in the generated capture. Data moves as NVMe-oF on RDMA moves it (§7.3.2): a command
 * names a host buffer with a keyed SGL data block descriptor (address, length, R_Key); the controller
 * RDMA READs that buffer for a Write and RDMA WRITEs into it for a Read or an Identify, then SENDs the
 * response capsule.
 */
final class NvmeOfScenario {
    private static final int PORT = 4420;
    private static final int BLOCK = 512;
    private static final int ADMIN_QUEUE_SIZE = 32;
    private static final int IO_QUEUE_SIZE = 128;
    private static final int CNTLID = 0x0001;
    // Opcodes (NVMe 1.4 figure 139 admin, figure 346 NVM; NVMe-oF 1.1 figure 14 Fabrics command types).
    private static final int OPC_FABRICS = 0x7F;
    private static final int FCTYPE_PROPERTY_SET = 0x00;
    private static final int FCTYPE_CONNECT = 0x01;
    private static final int FCTYPE_PROPERTY_GET = 0x04;
    private static final int ADMIN_IDENTIFY = 0x06;
    private static final int ADMIN_SET_FEATURES = 0x09;
    private static final int ADMIN_KEEP_ALIVE = 0x18;
    private static final int IO_FLUSH = 0x00;
    private static final int IO_WRITE = 0x01;
    private static final int IO_READ = 0x02;
    // Status field (NVMe 1.4 figure 126): SC in bits 8:1, SCT in 11:9, DNR bit 15; generic status 0x80.
    private static final int STATUS_LBA_OUT_OF_RANGE = 0x80 << 1 | 1 << 15;
    // Properties (NVMe-oF 1.1 figure 22): CAP, CC, CSTS offsets.
    private static final int PROPERTY_CAP = 0x00;
    private static final int PROPERTY_CC = 0x14;
    private static final int PROPERTY_CSTS = 0x1C;

    private NvmeOfScenario() {
    }

    /** The controller's side of one queue: its id and submission queue head (NVMe 1.4 §4.6 SQHD). */
    private static final class Queue {
        final Ulp link;
        final int qid;
        final int size;
        int sqHead;

        Queue(Ulp link, int qid, int size) {
            this.link = link;
            this.qid = qid;
            this.size = size;
        }

        /** The controller fetched one more command. */
        int fetched() {
            sqHead = (sqHead + 1) % size;
            return sqHead;
        }
    }

    static void script(Fabric f) {
        Host host = f.host(1);
        Host controller = f.host(2);
        Queue admin = connect(f, host, controller, 0, ADMIN_QUEUE_SIZE);
        f.idle();
        // Admin queue start (NVMe-oF 1.1 §3.3, NVMe 1.4 §7.6.1): Connect, CAP, CC.EN = 1, CSTS.RDY, Identify.
        fabricsConnect(admin, 0x0000, 0, ADMIN_QUEUE_SIZE - 1, 0xFFFF);
        propertyGet(admin, 0x0001, PROPERTY_CAP, 8, 0x0000_0020_0F00_03FFL);
        propertySet(admin, 0x0002, PROPERTY_CC, 0x0046_0001L);
        propertyGet(admin, 0x0003, PROPERTY_CSTS, 4, 0x0000_0001L);
        long identifyBuffer = 0x0000_7F3A_0010_0000L;
        read(admin, "Identify", 0x0004, adminCommand(ADMIN_IDENTIFY, 0x0004, 0, identifyBuffer, 4096, 0x2001,
                0x0000_0001, 0), identifyBuffer, 4096, 0x2001, 0);
        // Number of Queues (feature 0x07, NVMe 1.4 §5.21.1.7): one I/O queue pair asked, one granted.
        simple(admin, "Set Features", 0x0005, adminCommand(ADMIN_SET_FEATURES, 0x0005, 0, 0, 0, 0, 0x07, 0), 0, 0);
        f.idle();

        Queue io = connect(f, host, controller, 1, IO_QUEUE_SIZE);
        f.idle();
        fabricsConnect(io, 0x0000, 1, IO_QUEUE_SIZE - 1, CNTLID);
        // A Write of 16 blocks: the controller RDMA READs the host's 8 KiB buffer, then completes it.
        long writeBuffer = 0x0000_7F3A_0020_0000L;
        write(io, 0x0010, 1, 0x1000, 16, writeBuffer, 0x3001);
        // A Read of 8 blocks: the controller RDMA WRITEs 4 KiB into the host's buffer.
        long readBuffer = 0x0000_7F3A_0030_0000L;
        read(io, "Read", 0x0011, ioCommand(IO_READ, 0x0011, 1, 0x2000, 8, readBuffer, 0x3002), readBuffer, 4096,
                0x3002, 0);
        // A Read past the namespace's end: LBA Out of Range, no data moved (NVMe 1.4 figure 128).
        long badBuffer = 0x0000_7F3A_0040_0000L;
        int failedFrame = io.link.hostSends(ioCommand(IO_READ, 0x0012, 1, 0x7FFF_FFFFL, 8, badBuffer, 0x3003));
        TruthLog.OperationRecord failed = io.link.command("Read", 0x0012, failedFrame);
        io.link.idle();
        failed.failed(io.link.targetSends(cqe(0x0012, io.qid, io.fetched(), 0, STATUS_LBA_OUT_OF_RANGE)),
                "LBA Out of Range");
        simple(io, "Flush", 0x0013, ioCommand(IO_FLUSH, 0x0013, 1, 0, 0, 0, 0), 0, 0);
        f.idle();

        // CID 0x0020 reused while the Read that carries it is outstanding: the controller answers both,
        // in order, each with its own data; a matcher keyed on the CID alone pairs them wrongly.
        long aBuffer = 0x0000_7F3A_0050_0000L;
        long bBuffer = 0x0000_7F3A_0060_0000L;
        int aFrame = io.link.hostSends(ioCommand(IO_READ, 0x0020, 1, 0x3000, 1, aBuffer, 0x3004));
        TruthLog.OperationRecord a = io.link.command("Read", 0x0020, aFrame);
        int bFrame = io.link.hostSends(ioCommand(IO_WRITE, 0x0020, 1, 0x3100, 1, bBuffer, 0x3005));
        TruthLog.OperationRecord b = io.link.command("Write", 0x0020, bFrame);
        io.link.planted(UlpError.ID_REUSED_WHILE_OUTSTANDING, 0x0020L, bFrame,
                "Write reuses CID 0x0020 of the Read in frame " + aFrame + ", still outstanding");
        a.data(io.link.targetWrites(BLOCK, aBuffer, 0x3004));
        a.completed(io.link.targetSends(cqe(0x0020, io.qid, io.fetched(), 0, 0)));
        b.data(io.link.targetReads(BLOCK, bBuffer, 0x3005));
        b.completed(io.link.targetSends(cqe(0x0020, io.qid, io.fetched(), 0, 0)));
        f.idle();

        // A Read whose data the controller writes 4 KiB past the buffer its SGL named (same key, wrong
        // range: an MR larger than the command's buffer accepts it), then into the right place.
        long cBuffer = 0x0000_7F3A_0070_0000L;
        int cFrame = io.link.hostSends(ioCommand(IO_READ, 0x0021, 1, 0x4000, 8, cBuffer, 0x3006));
        TruthLog.OperationRecord c = io.link.command("Read", 0x0021, cFrame);
        List<Integer> stray = io.link.targetWrites(4096, cBuffer + 4096, 0x3006);
        io.link.planted(UlpError.TRANSFER_OUTSIDE_BUFFERS, null, stray.get(0),
                "RDMA WRITE at 0x" + Long.toHexString(cBuffer + 4096) + " under key 0x3006, past the 4096 bytes "
                        + "the Read in frame " + cFrame + " offered at 0x" + Long.toHexString(cBuffer));
        c.data(io.link.targetWrites(4096, cBuffer, 0x3006));
        c.completed(io.link.targetSends(cqe(0x0021, io.qid, io.fetched(), 0, 0)));
        f.idle();

        // A completion for CID 0x0077, which the host never used.
        int orphan = io.link.targetSends(cqe(0x0077, io.qid, io.sqHead, 0, 0));
        io.link.planted(UlpError.RESPONSE_WITHOUT_COMMAND, 0x0077L, orphan, "completion for CID 0x0077, never sent");
        f.idle();

        // A Read the controller never answers; the host tears the I/O queue down with it outstanding.
        long dBuffer = 0x0000_7F3A_0080_0000L;
        int dFrame = io.link.hostSends(ioCommand(IO_READ, 0x0022, 1, 0x5000, 8, dBuffer, 0x3007));
        io.link.command("Read", 0x0022, dFrame).unanswered("teardown");
        f.pause(2_000_000L);
        int dreq = io.link.toTarget.disconnect();
        io.link.planted(UlpError.COMMAND_UNANSWERED, 0x0022L, dreq, "Read of frame " + dFrame
                + " outstanding when the queue was torn down");
        f.idle();

        // The admin queue stays: a Keep Alive (NVMe 1.4 §5.16) the controller acknowledges on the RC
        // level and never completes before the capture ends, as in the real discovery capture.
        int kaFrame = admin.link.hostSends(adminCommand(ADMIN_KEEP_ALIVE, 0x0006, 0, 0, 0, 0, 0, 0));
        admin.link.command("Keep Alive", 0x0006, kaFrame).unanswered("capture_end");
        admin.link.planted(UlpError.COMMAND_UNANSWERED, 0x0006L, kaFrame, "Keep Alive never completed");
    }

    /** RDMA-CM for port 4420 with the NVMe-oF private data (NVMe-oF 1.1 §7.3.1: figures 52 and 53). */
    private static Queue connect(Fabric f, Host host, Host controller, int qid, int size) {
        ByteBuffer request = Ulp.le(32).putShort((short) 0).putShort((short) qid).putShort((short) size)
                .putShort((short) (size - 1)).putShort((short) (qid == 0 ? 0xFFFF : CNTLID));
        ByteBuffer accept = Ulp.le(32).putShort((short) 0).putShort((short) size);
        Connection c = f.rc(host, controller, 4096).establish(PORT, request.array(), accept.array());
        return new Queue(new Ulp(f, Ulp.NVME, c), qid, size);
    }

    /** Connect (NVMe-oF 1.1 §3.3): its 1024 bytes of data in the capsule (SGL data block, offset 0). */
    private static void fabricsConnect(Queue q, int cid, int qid, int sqSize, int cntlid) {
        ByteBuffer sqe = Ulp.le(64 + 1024);
        sqe.put(0, (byte) OPC_FABRICS).put(1, (byte) 0x40).putShort(2, (short) cid).put(4, (byte) FCTYPE_CONNECT);
        inCapsule(sqe, 1024);
        sqe.putShort(40, (short) 0).putShort(42, (short) qid).putShort(44, (short) sqSize).putInt(48, 120_000);
        // Connect data (figure 20): HOSTID, CNTLID, SUBNQN at 256, HOSTNQN at 512.
        for (int i = 0; i < 16; i++) {
            sqe.put(64 + i, (byte) (0xA0 + i));
        }
        sqe.putShort(64 + 16, (short) cntlid);
        sqe.put(64 + 256, Ulp.ascii("nqn.2026-01.io.rdmascope:subsys1", 256));
        sqe.put(64 + 512, Ulp.ascii("nqn.2014-08.org.nvmexpress:uuid:0a0b0c0d-0000-4000-8000-00000000000a", 256));
        int frame = q.link.hostSends(sqe.array());
        TruthLog.OperationRecord op = q.link.command("Connect", cid, frame);
        q.link.idle();
        op.completed(q.link.targetSends(cqe(cid, q.qid, q.fetched(), CNTLID, 0)));
    }

    private static void propertyGet(Queue q, int cid, int offset, int size, long value) {
        ByteBuffer sqe = fabrics(cid, FCTYPE_PROPERTY_GET);
        sqe.put(40, (byte) (size == 8 ? 1 : 0)).putInt(44, offset);
        int frame = q.link.hostSends(sqe.array());
        TruthLog.OperationRecord op = q.link.command("Property Get", cid, frame);
        q.link.idle();
        op.completed(q.link.targetSends(cqe(cid, q.qid, q.fetched(), value, 0)));
    }

    private static void propertySet(Queue q, int cid, int offset, long value) {
        ByteBuffer sqe = fabrics(cid, FCTYPE_PROPERTY_SET);
        sqe.put(40, (byte) 0).putInt(44, offset).putLong(48, value);
        int frame = q.link.hostSends(sqe.array());
        TruthLog.OperationRecord op = q.link.command("Property Set", cid, frame);
        q.link.idle();
        op.completed(q.link.targetSends(cqe(cid, q.qid, q.fetched(), 0, 0)));
    }

    /** A command with no data: sent, completed with {@code dword0} and {@code status}. */
    private static void simple(Queue q, String name, int cid, byte[] sqe, long dword0, int status) {
        int frame = q.link.hostSends(sqe);
        TruthLog.OperationRecord op = q.link.command(name, cid, frame);
        q.link.idle();
        op.completed(q.link.targetSends(cqe(cid, q.qid, q.fetched(), dword0, status)));
    }

    /** A command whose data the controller RDMA WRITEs into the host's buffer before completing it. */
    private static void read(Queue q, String name, int cid, byte[] sqe, long buffer, int bytes, long key, long dword0) {
        int frame = q.link.hostSends(sqe);
        TruthLog.OperationRecord op = q.link.command(name, cid, frame);
        op.data(q.link.targetWrites(bytes, buffer, key));
        op.completed(q.link.targetSends(cqe(cid, q.qid, q.fetched(), dword0, 0)));
    }

    /** A Write: the controller RDMA READs the host's buffer, then completes it. */
    private static void write(Queue q, int cid, int nsid, long lba, int blocks, long buffer, long key) {
        int frame = q.link.hostSends(ioCommand(IO_WRITE, cid, nsid, lba, blocks, buffer, key));
        TruthLog.OperationRecord op = q.link.command("Write", cid, frame);
        op.data(q.link.targetReads(blocks * BLOCK, buffer, key));
        op.completed(q.link.targetSends(cqe(cid, q.qid, q.fetched(), 0, 0)));
    }

    /** A Fabrics command's SQE (NVMe-oF 1.1 figure 9): opcode 0x7F, FCTYPE at byte 4, no data. */
    private static ByteBuffer fabrics(int cid, int fctype) {
        ByteBuffer sqe = Ulp.le(64);
        sqe.put(0, (byte) OPC_FABRICS).put(1, (byte) 0x40).putShort(2, (short) cid).put(4, (byte) fctype);
        return sqe;
    }

    /** An admin command: keyed SGL for {@code bytes} at {@code buffer} when there is data, CDW10 and CDW11. */
    private static byte[] adminCommand(int opcode, int cid, int nsid, long buffer, int bytes, long key, int cdw10,
                                       int cdw11) {
        ByteBuffer sqe = command(opcode, cid, nsid, buffer, bytes, key);
        sqe.putInt(40, cdw10).putInt(44, cdw11);
        return sqe.array();
    }

    /** An NVM command (NVMe 1.4 §6.9, §6.15): SLBA in CDW10-11, the 0's based block count in CDW12. */
    private static byte[] ioCommand(int opcode, int cid, int nsid, long lba, int blocks, long buffer, long key) {
        ByteBuffer sqe = command(opcode, cid, nsid, buffer, blocks * BLOCK, key);
        if (opcode != IO_FLUSH) {
            sqe.putLong(40, lba).putInt(48, blocks - 1);
        }
        return sqe.array();
    }

    /**
     * The common SQE (NVMe 1.4 figure 105): opcode, PSDT 01b (SGL, NVMe-oF requires SGLs), CID, NSID and
     * SGL1 as a keyed data block descriptor (figure 117: address, 3-byte length, 4-byte key, type 4 in
     * the high nibble of byte 15, subtype 0 address) when there is data.
     */
    private static ByteBuffer command(int opcode, int cid, int nsid, long buffer, int bytes, long key) {
        ByteBuffer sqe = Ulp.le(64);
        sqe.put(0, (byte) opcode).put(1, (byte) 0x40).putShort(2, (short) cid).putInt(4, nsid);
        if (bytes > 0) {
            sqe.putLong(24, buffer);
            sqe.put(32, (byte) bytes).put(33, (byte) (bytes >> 8)).put(34, (byte) (bytes >> 16));
            sqe.putInt(35, (int) key);
            sqe.put(39, (byte) 0x40);
        }
        return sqe;
    }

    /** An SGL data block descriptor with subtype offset (figure 116): {@code bytes} of in-capsule data. */
    private static void inCapsule(ByteBuffer sqe, int bytes) {
        sqe.putLong(24, 0).putInt(32, bytes).put(39, (byte) 0x01);
    }

    /** A completion queue entry (NVMe 1.4 figure 124): DW0-1, SQHD, SQID, CID, status (phase bit 0 on RDMA). */
    private static byte[] cqe(int cid, int sqid, int sqHead, long dw0, int status) {
        return Ulp.le(16).putLong(0, dw0).putShort(8, (short) sqHead).putShort(10, (short) sqid)
                .putShort(12, (short) cid).putShort(14, (short) status).array();
    }
}
