package io.rdmascope.samples;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * SMB3 over SMB Direct on RoCEv2 (issue 19): a client's RC connection to a server by RDMA-CM for port
 * 5445, the SMB Direct negotiation ([MS-SMBD] §2.2.1, §2.2.2), then SMB2 NEGOTIATE, SESSION_SETUP,
 * TREE_CONNECT, a CREATE that fails with STATUS_OBJECT_NAME_NOT_FOUND, a CREATE that opens a file, a READ
 * whose data the server RDMA WRITEs into the buffer the request's channel descriptor names and a WRITE
 * whose data it RDMA READs from one ([MS-SMB2] §2.2.19, §2.2.21, SMB2_CHANNEL_RDMA_V1 with
 * SMB_DIRECT_BUFFER_DESCRIPTOR_V1, [MS-SMBD] §2.2.3.1), each SMB2 message in one SMB Direct Data
 * Transfer message (§2.2.3), and the errors issue 19's rules must find, send-credit overrun included.
 * Every message is written here from the specifications, not through the dissector's declarations.
 */
final class SmbDirectScenario {
    private static final int PORT = 5445;
    /** Send credits the server grants in its negotiate response, and one more with every message it sends. */
    private static final int INITIAL_CREDITS = 4;
    // SMB2 commands ([MS-SMB2] §2.2.1.2) and the statuses used ([MS-ERREF] §2.3).
    private static final int NEGOTIATE = 0x00;
    private static final int SESSION_SETUP = 0x01;
    private static final int TREE_CONNECT = 0x03;
    private static final int CREATE = 0x05;
    private static final int READ = 0x08;
    private static final int WRITE = 0x09;
    private static final int ECHO = 0x0D;
    private static final int STATUS_OBJECT_NAME_NOT_FOUND = 0xC0000034;
    private static final int CHANNEL_RDMA_V1 = 0x00000001;
    private static final long SESSION_ID = 0x0000_1000_0000_0041L;
    private static final int TREE_ID = 1;
    private static final byte[] FILE_ID = fileId();

    private SmbDirectScenario() {
    }

    /**
     * What the client knows: its send credits ([MS-SMBD] §3.1.1.1 SendCredits), the credits its next
     * message grants the server, and its next message id.
     */
    private static final class Client {
        final Ulp link;
        int sendCredits;
        /** The server holds no send credit until the client's first message grants some (§4.1): then one a message. */
        int grantNext = INITIAL_CREDITS;
        long messageId;

        Client(Ulp link) {
            this.link = link;
        }
    }

    static void script(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 4096).establish(PORT, null, null);
        Client cl = new Client(new Ulp(f, Ulp.SMB_DIRECT, c));
        f.idle();
        // SMB Direct negotiation: version 1.0, 255 credits asked, INITIAL_CREDITS granted.
        cl.link.hostSends(Ulp.le(20).putShort(0, (short) 0x0100).putShort(2, (short) 0x0100)
                .putShort(6, (short) 255).putInt(8, 1364).putInt(12, 8192).putInt(16, 1048576).array());
        cl.link.targetSends(Ulp.le(32).putShort(0, (short) 0x0100).putShort(2, (short) 0x0100)
                .putShort(4, (short) 0x0100).putShort(8, (short) 255).putShort(10, (short) INITIAL_CREDITS)
                .putInt(12, 0).putInt(16, 1048576).putInt(20, 1364).putInt(24, 8192).putInt(28, 1048576).array());
        cl.sendCredits = INITIAL_CREDITS;
        f.idle();
        exchange(cl, "Negotiate Protocol", NEGOTIATE, negotiateRequest(), 0, negotiateResponse(), null);
        exchange(cl, "Session Setup", SESSION_SETUP, sessionSetupRequest(), 0,
                Ulp.le(9).putShort(0, (short) 9).putShort(4, (short) 0x48).array(), null);
        exchange(cl, "Tree Connect", TREE_CONNECT, treeConnectRequest(), 0,
                Ulp.le(16).putShort(0, (short) 16).put(2, (byte) 1).putInt(12, 0x001F01FF).array(), null);
        exchange(cl, "Create", CREATE, createRequest("missing.dat"), STATUS_OBJECT_NAME_NOT_FOUND, errorResponse(),
                "STATUS_OBJECT_NAME_NOT_FOUND");
        exchange(cl, "Create", CREATE, createRequest("data.bin"), 0, createResponse(), null);
        f.idle();
        // READ of 64 KiB into the client's registered buffer: the server RDMA WRITEs it, then responds.
        long readVa = 0x0000_7F3A_C000_0000L;
        read(cl, 65536, readVa, 0x6001);
        // WRITE of 64 KiB: the server RDMA READs the client's buffer, then responds with the count.
        long writeVa = 0x0000_7F3A_D000_0000L;
        long id = cl.messageId;
        int frame = request(cl, WRITE, writeRequest(65536, writeVa, 0x6002));
        TruthLog.OperationRecord write = cl.link.command("Write", id, frame);
        write.data(cl.link.targetReads(65536, writeVa, 0x6002));
        write.completed(respond(cl, WRITE, id, 0, Ulp.le(16).putShort(0, (short) 17).putInt(4, 65536).array()));
        f.idle();

        // Five ECHOs back to back with four send credits: the fifth is sent with none left.
        int[] frames = new int[5];
        long first = cl.messageId;
        for (int i = 0; i < 5; i++) {
            boolean noCredit = cl.sendCredits == 0;
            frames[i] = cl.link.hostSendsUnacknowledged(dataTransfer(cl, smb2(ECHO, cl.messageId++, 0, false,
                    Ulp.le(4).putShort(0, (short) 4).array())));
            if (noCredit) {
                cl.link.planted(UlpError.CREDIT_OVERRUN, first + i, frames[i],
                        "Data Transfer message sent with no send credit left");
            }
        }
        cl.link.targetAcknowledges();
        for (int i = 0; i < 5; i++) {
            cl.link.command("KeepAlive", first + i, frames[i]).completed(respond(cl, ECHO, first + i, 0,
                    Ulp.le(4).putShort(0, (short) 4).array()));
        }
        f.idle();

        // Message id reused while the READ that carries it is outstanding; the server answers both.
        long reused = cl.messageId;
        long aVa = 0x0000_7F3A_E000_0000L;
        int aFrame = request(cl, READ, readRequest(4096, aVa, 0x6003));
        TruthLog.OperationRecord a = cl.link.command("Read", reused, aFrame);
        cl.messageId = reused;
        int bFrame = request(cl, ECHO, Ulp.le(4).putShort(0, (short) 4).array());
        TruthLog.OperationRecord b = cl.link.command("KeepAlive", reused, bFrame);
        cl.link.planted(UlpError.ID_REUSED_WHILE_OUTSTANDING, reused, bFrame,
                "ECHO reuses message id " + reused + " of the READ in frame " + aFrame + ", still outstanding");
        a.data(cl.link.targetWrites(4096, aVa, 0x6003));
        a.completed(respond(cl, READ, reused, 0, readResponse(4096)));
        b.completed(respond(cl, ECHO, reused, 0, Ulp.le(4).putShort(0, (short) 4).array()));
        f.idle();

        // A READ whose data the server first writes 4 KiB past the buffer the descriptor named (same token).
        long cVa = 0x0000_7F3A_F000_0000L;
        long cId = cl.messageId;
        int cFrame = request(cl, READ, readRequest(4096, cVa, 0x6004));
        TruthLog.OperationRecord cOp = cl.link.command("Read", cId, cFrame);
        List<Integer> stray = cl.link.targetWrites(4096, cVa + 4096, 0x6004);
        cl.link.planted(UlpError.TRANSFER_OUTSIDE_BUFFERS, null, stray.get(0), "RDMA WRITE at 0x"
                + Long.toHexString(cVa + 4096) + " under token 0x6004, past the 4096-byte buffer the READ in frame "
                + cFrame + " described");
        cOp.data(cl.link.targetWrites(4096, cVa, 0x6004));
        cOp.completed(respond(cl, READ, cId, 0, readResponse(4096)));
        f.idle();

        // A response for message id 999, which the client never sent.
        int orphan = respond(cl, ECHO, 999, 0, Ulp.le(4).putShort(0, (short) 4).array());
        cl.link.planted(UlpError.RESPONSE_WITHOUT_COMMAND, 999L, orphan, "ECHO response for message id 999, never sent");
        f.idle();

        // An ECHO never answered: the client disconnects with it outstanding.
        long dId = cl.messageId;
        int dFrame = request(cl, ECHO, Ulp.le(4).putShort(0, (short) 4).array());
        cl.link.command("KeepAlive", dId, dFrame).unanswered("teardown");
        f.pause(2_000_000L);
        int dreq = c.disconnect();
        cl.link.planted(UlpError.COMMAND_UNANSWERED, dId, dreq, "ECHO of frame " + dFrame
                + " outstanding when the connection was torn down");
    }

    /** A request and its response, no data moved by RDMA; {@code failure} names a non-success status. */
    private static void exchange(Client cl, String name, int command, byte[] body, int status, byte[] responseBody,
                                 String failure) {
        long id = cl.messageId;
        int frame = request(cl, command, body);
        TruthLog.OperationRecord op = cl.link.command(name, id, frame);
        cl.link.idle();
        int response = respond(cl, command, id, status, responseBody);
        if (failure == null) {
            op.completed(response);
        } else {
            op.failed(response, failure);
        }
    }

    private static void read(Client cl, int bytes, long va, long token) {
        long id = cl.messageId;
        int frame = request(cl, READ, readRequest(bytes, va, token));
        TruthLog.OperationRecord op = cl.link.command("Read", id, frame);
        op.data(cl.link.targetWrites(bytes, va, token));
        op.completed(respond(cl, READ, id, 0, readResponse(bytes)));
    }

    /** The client SENDs an SMB2 request in a Data Transfer message, spending one send credit. */
    private static int request(Client cl, int command, byte[] body) {
        return cl.link.hostSends(dataTransfer(cl, smb2(command, cl.messageId++, 0, false, body)));
    }

    /** The server SENDs the response, granting one credit back. */
    private static int respond(Client cl, int command, long id, int status, byte[] body) {
        cl.sendCredits++;
        ByteBuffer message = Ulp.le(24 + 64 + body.length);
        message.putShort(0, (short) 255).putShort(2, (short) 1).putInt(12, 24).putInt(16, 64 + body.length);
        message.put(24, smb2(command, id, status, true, body));
        return cl.link.targetSends(message.array());
    }

    /**
     * A Data Transfer message ([MS-SMBD] §2.2.3) from the client: 255 credits requested, credits granted
     * (the server needs one for every message it sends, §3.1.5.1: INITIAL_CREDITS in the first, then one
     * for each receive the server's last message used), the SMB2 message at offset 24.
     */
    private static byte[] dataTransfer(Client cl, byte[] smb2) {
        cl.sendCredits--;
        int granted = cl.grantNext;
        cl.grantNext = 1;
        ByteBuffer message = Ulp.le(24 + smb2.length);
        message.putShort(0, (short) 255).putShort(2, (short) granted).putShort(4, (short) 0).putInt(12, 24)
                .putInt(16, smb2.length).put(24, smb2);
        return message.array();
    }

    /** The SMB2 sync header ([MS-SMB2] §2.2.1.2) and the body. */
    private static byte[] smb2(int command, long messageId, int status, boolean response, byte[] body) {
        ByteBuffer h = Ulp.le(64 + body.length);
        h.putInt(0, 0x424D53FE).putShort(4, (short) 64).putShort(6, (short) 1).putInt(8, status)
                .putShort(12, (short) command).putShort(14, (short) (response ? 1 : 31))
                .putInt(16, response ? 1 : 0).putLong(24, messageId).putInt(32, 0xFEFF)
                .putInt(36, command == NEGOTIATE || command == SESSION_SETUP ? 0 : TREE_ID)
                .putLong(40, command == NEGOTIATE ? 0 : SESSION_ID).put(64, body);
        return h.array();
    }

    /** NEGOTIATE request (§2.2.3): one dialect, 3.0.2, the first to carry SMB Direct remote invalidation. */
    private static byte[] negotiateRequest() {
        ByteBuffer b = Ulp.le(38);
        b.putShort(0, (short) 36).putShort(2, (short) 1).putShort(4, (short) 1).putInt(8, 0x40)
                .putLong(12, 0x1122334455667788L).putLong(20, 0x99AABBCCDDEEFF00L).putShort(36, (short) 0x0302);
        return b.array();
    }

    /** NEGOTIATE response (§2.2.4): dialect 3.0.2, 1 MiB transact/read/write sizes, no security buffer. */
    private static byte[] negotiateResponse() {
        ByteBuffer b = Ulp.le(65);
        b.putShort(0, (short) 65).putShort(2, (short) 1).putShort(4, (short) 0x0302)
                .putLong(8, 0x0102030405060708L).putLong(16, 0x090A0B0C0D0E0F10L).putInt(24, 0x40)
                .putInt(28, 1048576).putInt(32, 1048576).putInt(36, 1048576).putShort(56, (short) 0x80);
        return b.array();
    }

    /** SESSION_SETUP request (§2.2.5) with an empty security buffer. */
    private static byte[] sessionSetupRequest() {
        return Ulp.le(25).putShort(0, (short) 25).put(3, (byte) 1).putShort(12, (short) 0x58).array();
    }

    /** TREE_CONNECT request (§2.2.9) for \\10.0.0.2\share in UTF-16LE. */
    private static byte[] treeConnectRequest() {
        byte[] path = "\\\\10.0.0.2\\share".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        return Ulp.le(8 + path.length).putShort(0, (short) 9).putShort(4, (short) 0x48)
                .putShort(6, (short) path.length).put(8, path).array();
    }

    /** CREATE request (§2.2.13): open {@code name} for read and write, existing only. */
    private static byte[] createRequest(String name) {
        byte[] n = name.getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        ByteBuffer b = Ulp.le(56 + n.length);
        b.putShort(0, (short) 57).putInt(4, 2).putInt(24, 0x0012019F).putInt(28, 0x80).putInt(32, 3)
                .putInt(36, 1).putInt(40, 0x40).putShort(44, (short) 0x78).putShort(46, (short) n.length).put(56, n);
        return b.array();
    }

    /** CREATE response (§2.2.14): opened, the file id the READ and WRITE use. */
    private static byte[] createResponse() {
        ByteBuffer b = Ulp.le(88);
        b.putShort(0, (short) 89).putInt(4, 1).putLong(40, 1 << 20).putLong(48, 1 << 20).putInt(56, 0x80)
                .put(64, FILE_ID);
        return b.array();
    }

    /** The error response (§2.2.2) a failed request gets. */
    private static byte[] errorResponse() {
        return Ulp.le(9).putShort(0, (short) 9).array();
    }

    /**
     * READ request (§2.2.19) over SMB2_CHANNEL_RDMA_V1: the data goes into the buffer the
     * SMB_DIRECT_BUFFER_DESCRIPTOR_V1 at byte 48 of the body names ([MS-SMBD] §2.2.3.1: offset, token, length).
     */
    private static byte[] readRequest(int bytes, long va, long token) {
        ByteBuffer b = Ulp.le(48 + 16);
        b.putShort(0, (short) 49).putInt(4, bytes).putLong(8, 0).put(16, FILE_ID).putInt(32, 1)
                .putInt(36, CHANNEL_RDMA_V1).putShort(44, (short) (64 + 48)).putShort(46, (short) 16);
        descriptor(b, 48, bytes, va, token);
        return b.array();
    }

    /** READ response (§2.2.20): no data inline; DataRemaining says what went by RDMA (§3.3.5.12). */
    private static byte[] readResponse(int bytes) {
        return Ulp.le(16).putShort(0, (short) 17).put(2, (byte) 0x50).putInt(4, 0).putInt(8, bytes).array();
    }

    /** WRITE request (§2.2.21) over SMB2_CHANNEL_RDMA_V1: Length 0, RemainingBytes the data, its descriptor. */
    private static byte[] writeRequest(int bytes, long va, long token) {
        ByteBuffer b = Ulp.le(48 + 16);
        b.putShort(0, (short) 49).putShort(2, (short) 0x70).putInt(4, 0).putLong(8, 0).put(16, FILE_ID)
                .putInt(32, CHANNEL_RDMA_V1).putInt(36, bytes).putShort(40, (short) (64 + 48))
                .putShort(42, (short) 16);
        descriptor(b, 48, bytes, va, token);
        return b.array();
    }

    /** SMB_DIRECT_BUFFER_DESCRIPTOR_V1 ([MS-SMBD] §2.2.3.1): Offset, Token, Length. */
    private static void descriptor(ByteBuffer b, int at, int bytes, long va, long token) {
        b.putLong(at, va).putInt(at + 8, (int) token).putInt(at + 12, bytes);
    }

    private static byte[] fileId() {
        byte[] id = new byte[16];
        for (int i = 0; i < 16; i++) {
            id[i] = (byte) (0x10 + i);
        }
        return id;
    }
}
