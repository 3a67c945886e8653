package io.rdmascope.samples;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * NFSv3 on RPC-over-RDMA version 1 on RoCEv2 (issue 19): a client's RC connection to a server by
 * RDMA-CM for port 20049 (RFC 8267 §3), the NULL ping, GETATTR, a READ whose data the server RDMA
 * WRITEs into the client's write chunk, a WRITE whose data the server pulls from the client's read
 * chunk with RDMA READ, a READDIRPLUS answered through a reply chunk (RDMA WRITE, then RDMA_NOMSG), a
 * LOOKUP failing with NFS3ERR_NOENT, and the errors issue 19's rules must find, credit overrun
 * included. Transport headers (RFC 8166 §4), RPC messages (RFC 5531 §9) and NFSv3 arguments
 * (RFC 1813) are written here as XDR from the specifications, not through the dissector's declarations.
 */
final class RpcRdmaScenario {
    private static final int PORT = 20049;
    // RPC-over-RDMA procedures (RFC 8166 §4.2.4) and the credits this server grants in every message.
    private static final int RDMA_MSG = 0;
    private static final int RDMA_NOMSG = 1;
    private static final int SERVER_CREDITS = 2;
    // NFSv3 procedures (RFC 1813 §3.3) and the status of a failed LOOKUP.
    private static final int NULL = 0;
    private static final int GETATTR = 1;
    private static final int LOOKUP = 3;
    private static final int READ = 6;
    private static final int WRITE = 7;
    private static final int READDIRPLUS = 17;
    private static final int NFS3ERR_NOENT = 2;
    private static final byte[] ROOT_FH = fileHandle(0x01);
    private static final byte[] FILE_FH = fileHandle(0x02);

    private RpcRdmaScenario() {
    }

    static void script(Fabric f) {
        Connection c = f.rc(f.host(1), f.host(2), 4096).establish(PORT, null, null);
        Ulp link = new Ulp(f, Ulp.RPCRDMA, c);
        f.idle();
        // Before the first reply a client holds one credit (RFC 8166 §3.3.1): one call at a time.
        simple(link, "NULL", 0x1000, NULL, new byte[0], new byte[0]);
        simple(link, "GETATTR", 0x1001, GETATTR, opaque(ROOT_FH), Ulp.concat(word(0), attributes()));
        // READ of 8 KiB into the client's write chunk: the server RDMA WRITEs it, then replies.
        long readVa = 0x0000_7F3A_8000_0000L;
        int readFrame = link.hostSends(Ulp.concat(header(0x1002, RDMA_MSG, noChunk(),
                        writeList(segment(0x5001, 8192, readVa)), noChunk()),
                call(0x1002, READ, Ulp.concat(opaque(FILE_FH), quad(0), word(8192)))));
        TruthLog.OperationRecord read = link.command("READ", 0x1002, readFrame);
        read.data(link.targetWrites(8192, readVa, 0x5001));
        // The reply's write list says how much went into the chunk (RFC 8166 §3.4.6); READ3resok keeps the
        // opaque's length and loses its bytes to the chunk, as Linux's nfsd and svcrdma send it.
        read.completed(link.targetSends(Ulp.concat(header(0x1002, RDMA_MSG, noChunk(),
                writeList(segment(0x5001, 8192, readVa)), noChunk()),
                reply(0x1002, Ulp.concat(word(0), word(0), word(8192), word(1), word(8192))))));
        // WRITE of 8 KiB from the client's read chunk at the data's position in the call (RFC 8267 §4.2).
        long writeVa = 0x0000_7F3A_9000_0000L;
        byte[] writeArgs = Ulp.concat(opaque(FILE_FH), quad(0), word(8192), word(2), word(8192));
        byte[] writeCall = call(0x1003, WRITE, writeArgs);
        int position = writeCall.length;
        int writeFrame = link.hostSends(Ulp.concat(header(0x1003, RDMA_MSG,
                readList(position, segment(0x5002, 8192, writeVa)), noChunk(), noChunk()), writeCall));
        TruthLog.OperationRecord write = link.command("WRITE", 0x1003, writeFrame);
        write.data(link.targetReads(8192, writeVa, 0x5002));
        write.completed(link.targetSends(Ulp.concat(header(0x1003, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                reply(0x1003, Ulp.concat(word(0), word(0), word(0), word(8192), word(2), quad(0x0123_4567_89AB_CDEFL))))));
        // READDIRPLUS with a reply chunk: the server writes the whole reply there and SENDs RDMA_NOMSG.
        long replyVa = 0x0000_7F3A_A000_0000L;
        int rdpFrame = link.hostSends(Ulp.concat(header(0x1004, RDMA_MSG, noChunk(), noChunk(),
                        replyChunk(segment(0x5003, 4096, replyVa))),
                call(0x1004, READDIRPLUS, Ulp.concat(opaque(ROOT_FH), quad(0), quad(0), word(4096), word(8192)))));
        TruthLog.OperationRecord rdp = link.command("READDIRPLUS", 0x1004, rdpFrame);
        // READDIRPLUS3resok (RFC 1813 §3.3.17): no directory attributes, a cookie verifier, no entries, EOF.
        byte[] rdpReply = reply(0x1004, Ulp.concat(word(0), word(0), quad(0x0A0B_0C0D_0E0F_1011L), word(0), word(1)));
        rdp.data(link.targetWrites(rdpReply, replyVa, 0x5003));
        rdp.completed(link.targetSends(header(0x1004, RDMA_NOMSG, noChunk(), noChunk(),
                replyChunk(segment(0x5003, rdpReply.length, replyVa)))));
        // LOOKUP of a name that is not there: an accepted RPC whose NFS status is NFS3ERR_NOENT.
        int lookupFrame = link.hostSends(Ulp.concat(header(0x1005, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                call(0x1005, LOOKUP, Ulp.concat(opaque(ROOT_FH), opaque("missing".getBytes())))));
        TruthLog.OperationRecord lookup = link.command("LOOKUP", 0x1005, lookupFrame);
        lookup.failed(link.targetSends(Ulp.concat(header(0x1005, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                reply(0x1005, Ulp.concat(word(NFS3ERR_NOENT), word(0))))), "NFS3ERR_NOENT");
        f.idle();

        // Three GETATTRs back to back while the server granted two credits: the third overruns.
        int[] frames = new int[3];
        for (int i = 0; i < 3; i++) {
            frames[i] = link.hostSendsUnacknowledged(getattr(0x1010 + i));
        }
        link.targetAcknowledges();
        link.planted(UlpError.CREDIT_OVERRUN, 0x1012L, frames[2],
                "third call outstanding with " + SERVER_CREDITS + " credits granted");
        for (int i = 0; i < 3; i++) {
            link.command("GETATTR", 0x1010 + i, frames[i]).completed(link.targetSends(getattrReply(0x1010 + i)));
        }
        f.idle();

        // XID 0x1020 reused while its call is outstanding; the server answers both in order.
        int aFrame = link.hostSends(getattr(0x1020));
        TruthLog.OperationRecord a = link.command("GETATTR", 0x1020, aFrame);
        int bFrame = link.hostSends(Ulp.concat(header(0x1020, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                call(0x1020, LOOKUP, Ulp.concat(opaque(ROOT_FH), opaque("file".getBytes())))));
        TruthLog.OperationRecord b = link.command("LOOKUP", 0x1020, bFrame);
        link.planted(UlpError.ID_REUSED_WHILE_OUTSTANDING, 0x1020L, bFrame,
                "LOOKUP reuses XID 0x1020 of the GETATTR in frame " + aFrame + ", still outstanding");
        a.completed(link.targetSends(getattrReply(0x1020)));
        b.completed(link.targetSends(Ulp.concat(header(0x1020, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                reply(0x1020, Ulp.concat(word(0), opaque(FILE_FH), word(0), word(0))))));
        f.idle();

        // A READ whose data the server writes 4 KiB past the client's write chunk (same handle).
        long cVa = 0x0000_7F3A_B000_0000L;
        int cFrame = link.hostSends(Ulp.concat(header(0x1021, RDMA_MSG, noChunk(),
                        writeList(segment(0x5004, 4096, cVa)), noChunk()),
                call(0x1021, READ, Ulp.concat(opaque(FILE_FH), quad(8192), word(4096)))));
        TruthLog.OperationRecord cOp = link.command("READ", 0x1021, cFrame);
        List<Integer> stray = link.targetWrites(4096, cVa + 4096, 0x5004);
        link.planted(UlpError.TRANSFER_OUTSIDE_BUFFERS, null, stray.get(0), "RDMA WRITE at 0x"
                + Long.toHexString(cVa + 4096) + " under handle 0x5004, past the 4096-byte write chunk of the READ in frame "
                + cFrame);
        cOp.data(link.targetWrites(4096, cVa, 0x5004));
        cOp.completed(link.targetSends(Ulp.concat(header(0x1021, RDMA_MSG, noChunk(),
                writeList(segment(0x5004, 4096, cVa)), noChunk()),
                reply(0x1021, Ulp.concat(word(0), word(0), word(4096), word(0), word(4096))))));
        f.idle();

        // A reply for XID 0x0BAD, which no call carried.
        int orphan = link.targetSends(getattrReply(0x0BAD));
        link.planted(UlpError.RESPONSE_WITHOUT_COMMAND, 0x0BADL, orphan, "reply for XID 0x00000bad, never called");
        f.idle();

        // A GETATTR never answered: the client disconnects with it outstanding.
        int dFrame = link.hostSends(getattr(0x1022));
        link.command("GETATTR", 0x1022, dFrame).unanswered("teardown");
        f.pause(2_000_000L);
        int dreq = c.disconnect();
        link.planted(UlpError.COMMAND_UNANSWERED, 0x1022L, dreq, "GETATTR of frame " + dFrame
                + " outstanding when the connection was torn down");
    }

    /** A call with inline arguments and its inline reply. */
    private static void simple(Ulp link, String name, long xid, int procedure, byte[] args, byte[] results) {
        int frame = link.hostSends(Ulp.concat(header(xid, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                call(xid, procedure, args)));
        TruthLog.OperationRecord op = link.command(name, xid, frame);
        link.idle();
        op.completed(link.targetSends(Ulp.concat(header(xid, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                reply(xid, results))));
    }

    private static byte[] getattr(long xid) {
        return Ulp.concat(header(xid, RDMA_MSG, noChunk(), noChunk(), noChunk()), call(xid, GETATTR, opaque(FILE_FH)));
    }

    private static byte[] getattrReply(long xid) {
        return Ulp.concat(header(xid, RDMA_MSG, noChunk(), noChunk(), noChunk()),
                reply(xid, Ulp.concat(word(0), attributes())));
    }

    /**
     * The transport header (RFC 8166 §4.2): XID, version 1, credits, procedure, then the read list,
     * the write list and the reply chunk, each already encoded.
     */
    private static byte[] header(long xid, int procedure, byte[] readList, byte[] writeList, byte[] replyChunk) {
        return Ulp.concat(word(xid), word(1), word(SERVER_CREDITS), word(procedure), readList, writeList, replyChunk);
    }

    /** An empty list or absent reply chunk: the XDR optional's "no" (RFC 8166 §4.3). */
    private static byte[] noChunk() {
        return word(0);
    }

    /** A read list of one read segment: present, position, the segment, end of list. */
    private static byte[] readList(int position, byte[] segment) {
        return Ulp.concat(word(1), word(position), segment, word(0));
    }

    /** A write list of one write chunk of one segment: present, count 1, the segment, end of list. */
    private static byte[] writeList(byte[] segment) {
        return Ulp.concat(word(1), word(1), segment, word(0));
    }

    /** A reply chunk of one segment: present, count 1, the segment. */
    private static byte[] replyChunk(byte[] segment) {
        return Ulp.concat(word(1), word(1), segment);
    }

    /** An RDMA segment (RFC 8166 §4.1.1): handle, length, 64-bit offset. */
    private static byte[] segment(long handle, int length, long offset) {
        return Ulp.concat(word(handle), word(length), quad(offset));
    }

    /** An NFSv3 call (RFC 5531 §9, RFC 1813): program 100003 version 3, AUTH_NONE credential and verifier. */
    private static byte[] call(long xid, int procedure, byte[] args) {
        return Ulp.concat(word(xid), word(0), word(2), word(100003), word(3), word(procedure), word(0), word(0),
                word(0), word(0), args);
    }

    /** An accepted, successful RPC reply (RFC 5531 §9) with an AUTH_NONE verifier. */
    private static byte[] reply(long xid, byte[] results) {
        return Ulp.concat(word(xid), word(1), word(0), word(0), word(0), word(0), results);
    }

    /** fattr3 (RFC 1813 §2.6): a regular file, mode 0644, one link, 8 KiB. */
    private static byte[] attributes() {
        ByteBuffer b = Ulp.be(84);
        b.putInt(0, 1).putInt(4, 0644).putInt(8, 1).putLong(20, 8192).putLong(28, 8192).putLong(52, 0x42);
        return b.array();
    }

    private static byte[] fileHandle(int id) {
        byte[] fh = new byte[32];
        fh[0] = 0x01;
        fh[31] = (byte) id;
        return fh;
    }

    private static byte[] word(long value) {
        return Ulp.be(4).putInt(0, (int) value).array();
    }

    private static byte[] quad(long value) {
        return Ulp.be(8).putLong(0, value).array();
    }

    /** A variable-length opaque (RFC 4506 §4.10): length, bytes, zero padding to 4. */
    private static byte[] opaque(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(word(bytes.length));
        out.writeBytes(bytes);
        out.writeBytes(new byte[(4 - bytes.length % 4) % 4]);
        return out.toByteArray();
    }
}
