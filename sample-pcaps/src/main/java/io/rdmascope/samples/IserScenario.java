package io.rdmascope.samples;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * iSER on RoCEv2 (issue 19): an initiator's RC connection to a target by RDMA-CM for port 3260
 * (RFC 7145 §5.1), a login straight to full feature phase, SCSI reads whose data the target RDMA
 * WRITEs into the initiator's buffer (the Read STag of the iSER header, RFC 7145 §7.3.5), a write whose
 * data it RDMA READs (the Write STag), a read ended with CHECK CONDITION, a NOP-Out ping, and the
 * errors issue 19's rules must find. Every iSER header, BHS and CDB is written here from RFC 7145 §9.2,
 * RFC 7143 §11 and SBC-3, not through the dissector's declarations.
 */
final class IserScenario {
    private static final int PORT = 3260;
    private static final int BLOCK = 512;
    // iSCSI opcodes (RFC 7143 §11.2.1.2), the I (immediate) bit, and the SCSI status CHECK CONDITION.
    private static final int NOP_OUT = 0x00;
    private static final int SCSI_COMMAND = 0x01;
    private static final int LOGIN = 0x03;
    private static final int NOP_IN = 0x20;
    private static final int SCSI_RESPONSE = 0x21;
    private static final int LOGIN_RESPONSE = 0x23;
    private static final int IMMEDIATE = 0x40;
    private static final int CHECK_CONDITION = 0x02;
    // SBC-3 operation codes.
    private static final int READ_10 = 0x28;
    private static final int WRITE_10 = 0x2A;
    private static final int READ_16 = 0x88;

    private IserScenario() {
    }

    /** The session's sequence numbers (RFC 7143 §4.2.2): CmdSN from the initiator, StatSN from the target. */
    private static final class Session {
        final Ulp link;
        int cmdSn = 1;
        int statSn = 1;

        Session(Ulp link) {
            this.link = link;
        }
    }

    static void script(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 4096).establish(PORT, null, null);
        Session s = new Session(new Ulp(f, Ulp.ISER, c));
        f.idle();
        login(s);
        f.idle();
        // READ(10) of 8 blocks: the target RDMA WRITEs them into the Read STag's buffer, then responds.
        read(s, 0x10, rw10(READ_10, 0x1000, 8), 8 * BLOCK, 0x00A1_0001L, 0x0000_7F3A_1000_0000L);
        // WRITE(10) of 16 blocks: the target RDMA READs the Write STag's buffer.
        long writeVa = 0x0000_7F3A_2000_0000L;
        int writeFrame = s.link.hostSends(command(s, 0x11, false, 16 * BLOCK, 0x00D4_0001L, writeVa,
                rw10(WRITE_10, 0x2000, 16)));
        TruthLog.OperationRecord write = s.link.command("Write(10)", 0x11, writeFrame);
        write.data(s.link.targetReads(16 * BLOCK, writeVa, 0x00D4_0001L));
        write.completed(s.link.targetSends(response(s, 0x11, 0)));
        // READ(16) at a 64-bit LBA, its data moved, ended with CHECK CONDITION (SAM-5 §5.3.1).
        long read16Va = 0x0000_7F3A_3000_0000L;
        int read16Frame = s.link.hostSends(command(s, 0x12, true, BLOCK, 0x00A1_0002L, read16Va,
                rw16(READ_16, 0x0000_0001_2345_6789L, 1)));
        TruthLog.OperationRecord read16 = s.link.command("Read(16)", 0x12, read16Frame);
        read16.data(s.link.targetWrites(BLOCK, read16Va, 0x00A1_0002L));
        read16.failed(s.link.targetSends(response(s, 0x12, CHECK_CONDITION)), "Check Condition");
        // A NOP-Out ping answered by a NOP-In (RFC 7143 §11.18, §11.19).
        int nopFrame = s.link.hostSends(nopOut(s, 0x13));
        s.link.command("NOP Out", 0x13, nopFrame).completed(s.link.targetSends(nopIn(s, 0x13)));
        f.idle();

        // Task tag 0x20 reused while the READ(10) that carries it is outstanding: the target ends both.
        long aVa = 0x0000_7F3A_4000_0000L;
        long bVa = 0x0000_7F3A_5000_0000L;
        int aFrame = s.link.hostSends(command(s, 0x20, true, BLOCK, 0x00A1_0003L, aVa, rw10(READ_10, 0x3000, 1)));
        TruthLog.OperationRecord a = s.link.command("Read(10)", 0x20, aFrame);
        int bFrame = s.link.hostSends(command(s, 0x20, false, BLOCK, 0x00D4_0002L, bVa, rw10(WRITE_10, 0x3100, 1)));
        TruthLog.OperationRecord b = s.link.command("Write(10)", 0x20, bFrame);
        s.link.planted(UlpError.ID_REUSED_WHILE_OUTSTANDING, 0x20L, bFrame,
                "Write(10) reuses task tag 0x20 of the Read(10) in frame " + aFrame + ", still outstanding");
        a.data(s.link.targetWrites(BLOCK, aVa, 0x00A1_0003L));
        a.completed(s.link.targetSends(response(s, 0x20, 0)));
        b.data(s.link.targetReads(BLOCK, bVa, 0x00D4_0002L));
        b.completed(s.link.targetSends(response(s, 0x20, 0)));
        f.idle();

        // A READ(10) whose data the target first writes 4 KiB past the buffer offered (the same STag).
        long cVa = 0x0000_7F3A_6000_0000L;
        int cFrame = s.link.hostSends(command(s, 0x21, true, 8 * BLOCK, 0x00A1_0004L, cVa,
                rw10(READ_10, 0x4000, 8)));
        TruthLog.OperationRecord cOp = s.link.command("Read(10)", 0x21, cFrame);
        List<Integer> stray = s.link.targetWrites(4096, cVa + 4096, 0x00A1_0004L);
        s.link.planted(UlpError.TRANSFER_OUTSIDE_BUFFERS, null, stray.get(0), "RDMA WRITE at 0x"
                + Long.toHexString(cVa + 4096) + " under STag 0x00a10004, past the 4096 bytes the Read(10) in frame "
                + cFrame + " offered");
        cOp.data(s.link.targetWrites(8 * BLOCK, cVa, 0x00A1_0004L));
        cOp.completed(s.link.targetSends(response(s, 0x21, 0)));
        f.idle();

        // A SCSI Response for task tag 0x77, which the initiator never used.
        int orphan = s.link.targetSends(response(s, 0x77, 0));
        s.link.planted(UlpError.RESPONSE_WITHOUT_COMMAND, 0x77L, orphan, "SCSI Response for task tag 0x77, never sent");
        f.idle();

        // A READ(10) never answered: the initiator disconnects with it outstanding.
        long dVa = 0x0000_7F3A_7000_0000L;
        int dFrame = s.link.hostSends(command(s, 0x22, true, 8 * BLOCK, 0x00A1_0005L, dVa,
                rw10(READ_10, 0x5000, 8)));
        s.link.command("Read(10)", 0x22, dFrame).unanswered("teardown");
        f.pause(2_000_000L);
        int dreq = c.disconnect();
        s.link.planted(UlpError.COMMAND_UNANSWERED, 0x22L, dreq, "Read(10) of frame " + dFrame
                + " outstanding when the connection was torn down");
    }

    /** Login (RFC 7143 §11.12): one request from operational to full feature phase, accepted. */
    private static void login(Session s) {
        byte[] keys = Ulp.text("InitiatorName=iqn.2026-01.io.rdmascope:host1\0"
                + "TargetName=iqn.2026-01.io.rdmascope:disk1\0SessionType=Normal\0");
        ByteBuffer bhs = bhs(LOGIN | IMMEDIATE, 0x87, keys.length); // T, CSG 1, NSG 3
        isid(bhs);
        bhs.putInt(16, 0).putShort(20, (short) 1).putInt(24, s.cmdSn).putInt(28, 0);
        int frame = s.link.hostSends(Ulp.concat(iserHeader(0, 0, 0, 0, 0), bhs.array(), keys));
        TruthLog.OperationRecord op = s.link.command("Login Command", 0, frame);
        byte[] answer = Ulp.text("TargetPortalGroupTag=1\0");
        ByteBuffer rsp = bhs(LOGIN_RESPONSE, 0x87, answer.length);
        isid(rsp);
        rsp.putShort(14, (short) 0x0101).putInt(16, 0).putInt(24, s.statSn++).putInt(28, s.cmdSn)
                .putInt(32, s.cmdSn + 31).put(36, (byte) 0).put(37, (byte) 0);
        op.completed(s.link.targetSends(Ulp.concat(iserHeader(0, 0, 0, 0, 0), rsp.array(), answer)));
    }

    /** A READ(10) whose data the target RDMA WRITEs, then its good response. */
    private static void read(Session s, int itt, byte[] cdb, int bytes, long stag, long va) {
        int frame = s.link.hostSends(command(s, itt, true, bytes, stag, va, cdb));
        TruthLog.OperationRecord op = s.link.command("Read(10)", itt, frame);
        op.data(s.link.targetWrites(bytes, va, stag));
        op.completed(s.link.targetSends(response(s, itt, 0)));
    }

    /**
     * A SCSI Command PDU (RFC 7143 §11.3) behind an iSER header advertising the initiator's buffer: a
     * Read STag for a read, a Write STag for a write (RFC 7145 §9.2), F and R or W flags, Simple attribute.
     */
    private static byte[] command(Session s, int itt, boolean read, int length, long stag, long va, byte[] cdb) {
        ByteBuffer bhs = bhs(SCSI_COMMAND, 0x80 | (read ? 0x40 : 0x20) | 0x01, 0);
        bhs.putInt(16, itt).putInt(20, length).putInt(24, s.cmdSn++).putInt(28, s.statSn);
        bhs.put(32, cdb);
        byte[] iser = read ? iserHeader(0x04, 0, 0, stag, va) : iserHeader(0x08, stag, va, 0, 0);
        return Ulp.concat(iser, bhs.array());
    }

    /** A SCSI Response PDU (RFC 7143 §11.4): response 0 (completed at target), {@code status}. */
    private static byte[] response(Session s, int itt, int status) {
        ByteBuffer bhs = bhs(SCSI_RESPONSE, 0x80, 0);
        bhs.put(2, (byte) 0).put(3, (byte) status).putInt(16, itt).putInt(24, s.statSn++).putInt(28, s.cmdSn)
                .putInt(32, s.cmdSn + 31);
        return Ulp.concat(iserHeader(0, 0, 0, 0, 0), bhs.array());
    }

    private static byte[] nopOut(Session s, int itt) {
        ByteBuffer bhs = bhs(NOP_OUT | IMMEDIATE, 0x80, 0);
        bhs.putInt(16, itt).putInt(20, 0xFFFFFFFF).putInt(24, s.cmdSn).putInt(28, s.statSn);
        return Ulp.concat(iserHeader(0, 0, 0, 0, 0), bhs.array());
    }

    private static byte[] nopIn(Session s, int itt) {
        ByteBuffer bhs = bhs(NOP_IN, 0x80, 0);
        bhs.putInt(16, itt).putInt(20, 0xFFFFFFFF).putInt(24, s.statSn++).putInt(28, s.cmdSn)
                .putInt(32, s.cmdSn + 31);
        return Ulp.concat(iserHeader(0, 0, 0, 0, 0), bhs.array());
    }

    /** A 48-byte basic header segment (RFC 7143 §11.2.1): opcode byte, flags byte, data segment length. */
    private static ByteBuffer bhs(int opcode, int flags, int dataLength) {
        ByteBuffer b = Ulp.be(48);
        b.put(0, (byte) opcode).put(1, (byte) flags).putInt(4, dataLength & 0xFFFFFF);
        return b;
    }

    /** ISID type 0x40 (random, RFC 7143 §11.12.5), as open-iscsi makes it. */
    private static void isid(ByteBuffer bhs) {
        bhs.put(8, new byte[] {0x40, 0x00, 0x01, 0x37, 0x00, 0x00});
    }

    /** The iSER header (RFC 7145 §9.2): opcode 1 (iSCSI control) and W/R flags, the two STags and VAs. */
    private static byte[] iserHeader(int flags, long writeStag, long writeVa, long readStag, long readVa) {
        return Ulp.be(28).put(0, (byte) (0x10 | flags)).putInt(4, (int) writeStag).putLong(8, writeVa)
                .putInt(16, (int) readStag).putLong(20, readVa).array();
    }

    /** READ(10)/WRITE(10) (SBC-3 §5.11, §5.31): opcode, 4-byte LBA, 2-byte transfer length. */
    private static byte[] rw10(int opcode, long lba, int blocks) {
        return Ulp.be(16).put(0, (byte) opcode).putInt(2, (int) lba).putShort(7, (short) blocks).array();
    }

    /** READ(16) (SBC-3 §5.13): opcode, 8-byte LBA, 4-byte transfer length. */
    private static byte[] rw16(int opcode, long lba, int blocks) {
        return Ulp.be(16).put(0, (byte) opcode).putLong(2, lba).putInt(10, blocks).array();
    }
}
