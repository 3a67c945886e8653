package io.rdmascope.samples;

import io.rdmascope.build.CmMad;
import io.rdmascope.build.Header;
import io.rdmascope.build.RocePacket;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.iser.Iser;
import io.rdmascope.samples.ScenarioCatalog.Format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An iSER session over RoCEv2 (issue 19), built through the packet builder with the dissector's own
 * {@link Iser} declarations: RDMA-CM for port 3260 (RFC 7145 §5.1), login, a SCSI READ(10) whose data
 * the target RDMA WRITEs into the initiator's buffer (the Read STag, §7.3.5), a SCSI WRITE(10) whose
 * data the target fetches with an RDMA READ (the Write STag), a READ(16) in one RDMA WRITE, their SCSI
 * Responses, a NOP-Out answered by a NOP-In and a Task Management request and response. Every SEND and
 * READ response is acknowledged as an RC responder would. Kept apart from {@link ScenarioCatalog}, whose
 * committed cases stay byte-identical; {@code IserSessionTest} compares it with tshark.
 */
public final class IserSession {
    private static final int PMTU = 1024;
    private static final int BLOCK = 512;
    /** Initiator (host 1) and target (host 2) queue pairs, and their first PSNs. */
    private static final int INITIATOR_QPN = 0x000111;
    private static final int TARGET_QPN = 0x000222;
    /** The STags the initiator advertises: the buffer the target writes READ data into, the one it reads from. */
    public static final long READ_STAG = 0x00A1B2C3L;
    public static final long READ_VA = 0x00007F3A10000000L;
    public static final long WRITE_STAG = 0x00D4E5F6L;
    public static final long WRITE_VA = 0x00007F3A20000000L;
    public static final long READ16_STAG = 0x00A1B2C4L;
    public static final long READ16_VA = 0x00007F3A30000000L;

    private final Host initiator = Host.numbered(1);
    private final Host target = Host.numbered(2);
    private final List<Trace.CapturedFrame> frames = new ArrayList<>();
    private long clock = Scenarios.START_NANOS;
    private int initiatorPsn = 0x100;
    private int targetPsn = 0x800;
    private int initiatorMsn;
    private int targetMsn;
    private int cmdSn = 1;
    private int statSn = 1;

    private IserSession() {
    }

    /** The session's frames, in capture order. */
    public static List<Trace.CapturedFrame> frames() {
        IserSession s = new IserSession();
        s.script();
        return s.frames;
    }

    /** Writes the session as a pcap file. */
    public static void write(Path out) throws IOException {
        Scenarios.writeCapture(out, Format.PCAP, frames());
    }

    private void script() {
        connect();
        // Login: one request moving straight to full feature phase (RFC 7143 §6.3), accepted.
        sendFromInitiator(login());
        sendFromTarget(loginResponse());
        // READ(10) of 4 blocks at LBA 0x1000: the target writes the data into the Read STag's buffer.
        int readItt = 0x10;
        sendFromInitiator(iserHeader(Iser.RSV, 0, 0, READ_STAG, READ_VA),
                scsiCommand(readItt, true, false, 4 * BLOCK, rw10(Iser.READ_10, 0x1000, 4)), new byte[0]);
        rdmaWrite(READ_STAG, READ_VA, 4 * BLOCK);
        sendFromTarget(iserHeader(0, 0, 0, 0, 0), scsiResponse(readItt, 0x00), new byte[0]);
        // WRITE(10) of 2 blocks at LBA 0x2000: the target reads the data from the Write STag's buffer.
        int writeItt = 0x11;
        sendFromInitiator(iserHeader(Iser.WSV, WRITE_STAG, WRITE_VA, 0, 0),
                scsiCommand(writeItt, false, true, 2 * BLOCK, rw10(Iser.WRITE_10, 0x2000, 2)), new byte[0]);
        rdmaRead(WRITE_STAG, WRITE_VA, 2 * BLOCK);
        sendFromTarget(iserHeader(0, 0, 0, 0, 0), scsiResponse(writeItt, 0x00), new byte[0]);
        // READ(16) of one block at a 64-bit LBA, answered with CHECK CONDITION after its data.
        int read16Itt = 0x12;
        sendFromInitiator(iserHeader(Iser.RSV, 0, 0, READ16_STAG, READ16_VA),
                scsiCommand(read16Itt, true, false, BLOCK, rw16(Iser.READ_16, 0x0000000123456789L, 1)),
                new byte[0]);
        rdmaWrite(READ16_STAG, READ16_VA, BLOCK);
        sendFromTarget(iserHeader(0, 0, 0, 0, 0), scsiResponse(read16Itt, 0x02), new byte[0]);
        // A NOP-Out ping answered by a NOP-In (RFC 7143 §11.18-19).
        int nopItt = 0x13;
        sendFromInitiator(iserHeader(0, 0, 0, 0, 0), nopOut(nopItt), new byte[0]);
        sendFromTarget(iserHeader(0, 0, 0, 0, 0), nopIn(nopItt), new byte[0]);
        // ABORT TASK for the finished READ(16): the target no longer has it (response 1).
        int tmfItt = 0x14;
        sendFromInitiator(iserHeader(0, 0, 0, 0, 0), taskManagement(tmfItt, read16Itt), new byte[0]);
        sendFromTarget(iserHeader(0, 0, 0, 0, 0), taskManagementResponse(tmfItt, 1), new byte[0]);
    }

    // ---- the wire ----

    private void connect() {
        long tid = 0x1234L << 32;
        int activeCommId = 0x11223344;
        int passiveCommId = 0x55667788;
        gsi(initiator, target, 0, CmMad.req(new CmMad.Request(tid, activeCommId, INITIATOR_QPN, targetPsn,
                CmMad.mtuCode(PMTU), 16, 16, 14, 7, 7, initiator.gid(), target.gid(), Iser.PORT, initiator.ipv4(),
                target.ipv4(), initiator.caGuid())));
        gsi(target, initiator, 0, CmMad.rep(tid, passiveCommId, activeCommId, TARGET_QPN, initiatorPsn, 16, 16, 7,
                target.caGuid()));
        gsi(initiator, target, 1, CmMad.rtu(tid, activeCommId, passiveCommId));
    }

    private void gsi(Host from, Host to, int psn, byte[] mad) {
        emit(RocePacket.v2Ipv4(from.mac(), to.mac(), from.ipv4(), to.ipv4()).gsiMad(mad).psn(psn), 30_000);
    }

    private RocePacket packet(boolean fromInitiator) {
        Host from = fromInitiator ? initiator : target;
        Host to = fromInitiator ? target : initiator;
        return RocePacket.v2Ipv4(from.mac(), to.mac(), from.ipv4(), to.ipv4())
                .destQp(fromInitiator ? TARGET_QPN : INITIATOR_QPN)
                .udpSourcePort(RocePacket.DEFAULT_UDP_SOURCE_PORT + (fromInitiator ? 1 : 2));
    }

    private void emit(RocePacket p, long gapNanos) {
        clock += gapNanos;
        byte[] bytes = p.build();
        frames.add(new Trace.CapturedFrame(clock, bytes, bytes.length, p.linkType()));
    }

    private void sendFromInitiator(byte[] iser, byte[] bhs, byte[] data) {
        emit(packet(true).opcode(0x04).psn(initiatorPsn).ackReq(true).payload(concat(iser, bhs, data)), 4_000);
        initiatorPsn++;
        targetMsn++;
        ack(false, initiatorPsn - 1, targetMsn);
    }

    private void sendFromTarget(byte[] iser, byte[] bhs, byte[] data) {
        emit(packet(false).opcode(0x04).psn(targetPsn).ackReq(true).payload(concat(iser, bhs, data)), 6_000);
        targetPsn++;
        initiatorMsn++;
        ack(true, targetPsn - 1, initiatorMsn);
    }

    private void sendFromInitiator(byte[][] login) {
        sendFromInitiator(login[0], login[1], login[2]);
    }

    private void sendFromTarget(byte[][] login) {
        sendFromTarget(login[0], login[1], login[2]);
    }

    private void ack(boolean fromInitiator, int psn, int msn) {
        emit(packet(fromInitiator).opcode(0x11).psn(psn).set(InfiniBand.AETH_SYNDROME, 0x1F)
                .set(InfiniBand.AETH_MSN, msn), 2_000);
    }

    /** The target's RDMA WRITE of {@code bytes} into the initiator's buffer, path-MTU packets, acknowledged. */
    private void rdmaWrite(long stag, long va, int bytes) {
        int packets = (bytes + PMTU - 1) / PMTU;
        for (int i = 0; i < packets; i++) {
            int size = Math.min(PMTU, bytes - i * PMTU);
            int opcode = packets == 1 ? 0x0A : i == 0 ? 0x06 : i == packets - 1 ? 0x08 : 0x07;
            RocePacket p = packet(false).opcode(opcode).psn(targetPsn++).payload(pattern(size, i))
                    .ackReq(i == packets - 1);
            if (i == 0) {
                p.set(InfiniBand.RETH_VA, va).set(InfiniBand.RETH_R_KEY, stag).set(InfiniBand.RETH_DMALEN, bytes);
            }
            emit(p, 1_000);
        }
        initiatorMsn++;
        ack(true, targetPsn - 1, initiatorMsn);
    }

    /** The target's RDMA READ of {@code bytes} from the initiator's buffer, and the responses. */
    private void rdmaRead(long stag, long va, int bytes) {
        int requestPsn = targetPsn;
        emit(packet(false).opcode(0x0C).psn(requestPsn).ackReq(true).set(InfiniBand.RETH_VA, va)
                .set(InfiniBand.RETH_R_KEY, stag).set(InfiniBand.RETH_DMALEN, bytes), 3_000);
        int packets = (bytes + PMTU - 1) / PMTU;
        targetPsn += packets;
        initiatorMsn++;
        for (int i = 0; i < packets; i++) {
            int size = Math.min(PMTU, bytes - i * PMTU);
            int opcode = packets == 1 ? 0x10 : i == 0 ? 0x0D : i == packets - 1 ? 0x0F : 0x0E;
            RocePacket p = packet(true).opcode(opcode).psn(requestPsn + i).payload(pattern(size, 7 + i));
            if (i == 0 || i == packets - 1) {
                p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, initiatorMsn);
            }
            emit(p, 2_000);
        }
    }

    // ---- iSER and iSCSI PDUs, through Iser's declarations ----

    private static byte[] iserHeader(int flags, long writeStag, long writeVa, long readStag, long readVa) {
        return new Header(Iser.CONTROL, Iser.HEADER_SIZE)
                .set(Iser.OPCODE, Iser.OPCODE_ISCSI_CONTROL)
                .set(Iser.FLAG_WSV, (flags & Iser.WSV) != 0).set(Iser.FLAG_RSV, (flags & Iser.RSV) != 0)
                .set(Iser.WRITE_STAG, writeStag).set(Iser.WRITE_VA, writeVa)
                .set(Iser.READ_STAG, readStag).set(Iser.READ_VA, readVa).toBytes();
    }

    private byte[][] login() {
        byte[] data = text("InitiatorName=iqn.2026-01.io.rdmascope:host1\0"
                + "TargetName=iqn.2026-01.io.rdmascope:disk1\0SessionType=Normal\0");
        byte[] bhs = flags(bhs(Iser.LOGIN_REQUEST, Iser.LOGIN, data.length)
                .set(Iser.VERSION_MAX, 0).set(Iser.VERSION_MIN, 0)
                .set(Iser.ITT, 0x0).set(Iser.CID, 1).set(Iser.CMDSN, cmdSn).set(Iser.EXPSTATSN, 0),
                true, 0x87); // T, CSG 1 (operational), NSG 3 (full feature)
        writeIsid(bhs);
        return new byte[][] {iserHeader(0, 0, 0, 0, 0), bhs, data};
    }

    private byte[][] loginResponse() {
        byte[] data = text("TargetPortalGroupTag=1\0");
        byte[] bhs = flags(bhs(Iser.LOGIN_RESPONSE_PDU, Iser.LOGIN_RESPONSE, data.length)
                .set(Iser.VERSION_MAX, 0).set(Iser.VERSION_ACTIVE, 0).set(Iser.TSIH, 0x0101)
                .set(Iser.ITT, 0x0).set(Iser.STATSN, statSn++).set(Iser.EXPCMDSN, ++cmdSn)
                .set(Iser.MAXCMDSN, cmdSn + 31).set(Iser.LOGIN_STATUS, 0), false, 0x87);
        writeIsid(bhs);
        return new byte[][] {iserHeader(0, 0, 0, 0, 0), bhs, data};
    }

    /** ISID type 0x40 (random, RFC 7143 §11.12.5), as open-iscsi makes it. */
    private static void writeIsid(byte[] bhs) {
        byte[] isid = {0x40, 0x00, 0x01, 0x37, 0x00, 0x00};
        System.arraycopy(isid, 0, bhs, 8, isid.length);
    }

    private byte[] scsiCommand(int itt, boolean read, boolean write, int length, byte[] cdb) {
        int flags = 0x80 | (read ? 0x40 : 0) | (write ? 0x20 : 0) | 0x01; // F, R/W, attr Simple
        byte[] bhs = flags(bhs(Iser.COMMAND, Iser.SCSI_COMMAND, 0).set(Iser.ITT, itt)
                .set(Iser.EXPECTED_LENGTH, length).set(Iser.CMDSN, cmdSn++).set(Iser.EXPSTATSN, statSn), false, flags);
        System.arraycopy(cdb, 0, bhs, 32, cdb.length);
        return bhs;
    }

    private static byte[] rw10(int opcode, long lba, int blocks) {
        byte[] cdb = new Header(Iser.CDB_RW10, 10).set(Iser.SBC_OPCODE, opcode).set(Iser.RW10_LBA, lba)
                .set(Iser.RW10_LENGTH, blocks).toBytes();
        return cdb;
    }

    private static byte[] rw16(int opcode, long lba, int blocks) {
        byte[] cdb = new Header(Iser.CDB_RW16, 16).set(Iser.SBC_OPCODE, opcode).set(Iser.RW16_LENGTH, blocks)
                .toBytes();
        for (int i = 0; i < 8; i++) {
            cdb[2 + i] = (byte) (lba >>> (56 - 8 * i));
        }
        return cdb;
    }

    private byte[] scsiResponse(int itt, int status) {
        return flags(bhs(Iser.RESPONSE, Iser.SCSI_RESPONSE, 0).set(Iser.RSP_STATUS, status).set(Iser.ITT, itt)
                .set(Iser.STATSN, statSn++).set(Iser.EXPCMDSN, cmdSn).set(Iser.MAXCMDSN, cmdSn + 31), false, 0x80);
    }

    private byte[] nopOut(int itt) {
        return flags(bhs(Iser.NOP_OUT_PDU, Iser.NOP_OUT, 0).set(Iser.ITT, itt).set(Iser.TTT, 0xFFFFFFFFL)
                .set(Iser.CMDSN, cmdSn).set(Iser.EXPSTATSN, statSn), true, 0x80);
    }

    private byte[] nopIn(int itt) {
        return flags(bhs(Iser.NOP_IN_PDU, Iser.NOP_IN, 0).set(Iser.ITT, itt).set(Iser.TTT, 0xFFFFFFFFL)
                .set(Iser.STATSN, statSn++).set(Iser.EXPCMDSN, cmdSn).set(Iser.MAXCMDSN, cmdSn + 31), false, 0x80);
    }

    private byte[] taskManagement(int itt, int referencedItt) {
        return flags(bhs(Iser.TASK_REQUEST, Iser.TASK_MANAGEMENT, 0).set(Iser.ITT, itt)
                .set(Iser.TMF_REFERENCED_TASK, referencedItt).set(Iser.CMDSN, cmdSn).set(Iser.EXPSTATSN, statSn)
                .set(Iser.REFCMDSN, cmdSn - 2), true, 0x81); // F and function 1, ABORT TASK
    }

    private byte[] taskManagementResponse(int itt, int response) {
        return flags(bhs(Iser.TASK_RESPONSE, Iser.TASK_MANAGEMENT_RESPONSE, 0).set(Iser.TMF_RESPONSE, response)
                .set(Iser.ITT, itt).set(Iser.STATSN, statSn++).set(Iser.EXPCMDSN, cmdSn + 1)
                .set(Iser.MAXCMDSN, cmdSn + 32), false, 0x80);
    }

    /**
     * A basic header segment of {@code type} with its opcode and data segment length; the opcode's
     * flags byte and the I bit are written by {@link #flags} once the other fields are set.
     */
    private static Header bhs(HeaderType type, int opcode, int dataLength) {
        Header h = new Header(type, Iser.BHS_SIZE).set(Iser.ISCSI_OPCODE, opcode);
        return h.declares(Iser.DATA_SEGMENT_LENGTH) ? h.set(Iser.DATA_SEGMENT_LENGTH, dataLength) : h;
    }

    /** The BHS with byte 1 (the opcode-specific flags) and, for an immediate request, the I bit (RFC 7143 §11.2.1.1). */
    private static byte[] flags(Header bhs, boolean immediate, int flags) {
        byte[] b = bhs.toBytes();
        b[0] |= immediate ? 0x40 : 0;
        b[1] = (byte) flags;
        return b;
    }

    /** Text keys padded to a 4-byte boundary (RFC 7143 §11.2.3: the data segment is padded). */
    private static byte[] text(String keys) {
        byte[] raw = keys.getBytes(StandardCharsets.US_ASCII);
        byte[] padded = new byte[(raw.length + 3) & ~3];
        System.arraycopy(raw, 0, padded, 0, raw.length);
        return padded;
    }

    private static byte[] pattern(int size, int seed) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
