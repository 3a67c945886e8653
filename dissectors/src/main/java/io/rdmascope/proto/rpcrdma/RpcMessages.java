package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;

/**
 * The ONC RPC message after an RDMA_MSG/RDMA_MSGP header (RFC 5531 §9) and the NFS names on top:
 * NFSv3's procedure (RFC 1813), and NFSv4 COMPOUND's operations (RFC 8881 §16.2) as far as their
 * arguments have a size we can step over. A reply repeats its call's program, version and procedure
 * (Wireshark's generated items) from the call with the same XID seen earlier on the capture.
 */
final class RpcMessages {
    /** Operations NFSv4 lists after the one we cannot size are not named (docs/tshark-parity.md). */
    private static final int UNKNOWN = -1;
    private static final int MAX_OPS = 64;

    private RpcMessages() {
    }

    static void dissect(Dissection d, RpcRdmaConnections c, int at, int end) {
        // A message put together from chunks lies past the frame (Dissection.addReassembled), whole.
        int limit = at >= d.capturedLength() ? end : Math.min(end, d.capturedLength());
        long xid = d.u32(at);
        if (d.u32(at + 4) == RpcRdma.CALL) {
            byte[] header = new byte[RpcRdma.CALL_HEADER_SIZE];
            for (int i = 0; i < header.length; i++) {
                header[i] = (byte) d.u8(at + i);
            }
            c.call(xid, header);
            d.add(RpcRdma.RPC_CALL, at, RpcRdma.CALL_HEADER_SIZE);
            int args = skipAuth(d, skipAuth(d, at + RpcRdma.CALL_HEADER_SIZE, limit), limit);
            nfs(d, at, args, limit, true);
            return;
        }
        d.add(RpcRdma.RPC_REPLY, at, RpcRdma.REPLY_HEADER_SIZE);
        byte[] call = c.callOf(xid);
        if (call == null) {
            return;
        }
        int copy = d.addReassembled(call, 0, call.length);
        d.add(RpcRdma.RPC_MATCHED_CALL, copy, call.length);
        int results = -1;
        if (d.u32(at + 8) == 0) { // MSG_ACCEPTED: verifier, then accept_stat SUCCESS before the results
            int stat = skipAuth(d, at + RpcRdma.REPLY_HEADER_SIZE, limit);
            results = stat >= 0 && stat + 4 <= limit && d.u32(stat) == 0 ? stat + 4 : -1;
        }
        nfs(d, copy, results, limit, false);
    }

    /**
     * NFS on top of a call or reply whose call header is at {@code callAt}; {@code body} is where the
     * procedure's arguments or results start (-1: not reachable).
     */
    private static void nfs(Dissection d, int callAt, int body, int limit, boolean call) {
        if (d.u32(callAt + 12) != RpcRdma.NFS_PROGRAM) {
            return;
        }
        long version = d.u32(callAt + 16);
        if (version == 3) {
            d.add(RpcRdma.NFS_V3, callAt, RpcRdma.CALL_HEADER_SIZE);
        } else if (version == 4 && d.u32(callAt + 20) == RpcRdma.NFS_V4_COMPOUND && body >= 0) {
            d.add(RpcRdma.NFS_V4, body, 0);
            compound(d, body, limit, call);
        }
    }

    /** COMPOUND4args (tag, minorversion, ops) or COMPOUND4res (status, tag, results), RFC 8881 §16.2. */
    private static void compound(Dissection d, int at, int limit, boolean call) {
        int p = call ? skipOpaque(d, at, limit) : skipOpaque(d, at + 4, limit);
        if (p < 0 || p + (call ? 8 : 4) > limit) {
            return;
        }
        if (call) {
            p += 4; // minorversion
        }
        long ops = d.u32(p);
        p += 4;
        for (int i = 0; i < ops && i < MAX_OPS && p >= 0 && p + 4 <= limit; i++) {
            int op = (int) d.u32(p);
            d.add(RpcRdma.NFS4_OP, p, 4);
            // A reply's results vary with its status; only its first operation is named.
            p = call ? skipArguments(d, op, p + 4, limit) : UNKNOWN;
        }
    }

    /** Where operation {@code op}'s arguments starting at {@code at} end, or -1 when we cannot size them. */
    private static int skipArguments(Dissection d, int op, int at, int limit) {
        int end = switch (op) {
            case 10, 16, 24, 27, 31, 32 -> at; // GETFH, LOOKUPP, PUTROOTFH, READLINK, RESTOREFH, SAVEFH: void
            case 3, 52, 58 -> at + 4; // ACCESS, SECINFO_NO_NAME, RECLAIM_COMPLETE
            case 30, 57 -> at + 8; // RENEW, DESTROY_CLIENTID
            case 5 -> at + 12; // COMMIT: offset, count
            case 44, 45 -> at + 16; // DESTROY_SESSION, FREE_STATEID
            case 25 -> at + 28; // READ: stateid, offset, count
            case 53 -> at + 32; // SEQUENCE: session, sequence, slot, highest slot, cache this
            case 15, 22 -> skipOpaque(d, at, limit); // LOOKUP's name, PUTFH's handle
            case 9 -> at + 4 <= limit && d.u32(at) <= 8 ? at + 4 + 4 * (int) d.u32(at) : UNKNOWN; // GETATTR bitmap
            default -> UNKNOWN;
        };
        return end <= limit ? end : UNKNOWN;
    }

    /** Past an opaque_auth (flavor, body<400>) at {@code at}, or -1. */
    private static int skipAuth(Dissection d, int at, int limit) {
        return at < 0 || at + 4 > limit ? UNKNOWN : skipOpaque(d, at + 4, limit);
    }

    /** Past an XDR variable-length opaque (length, bytes padded to 4), or -1. */
    private static int skipOpaque(Dissection d, int at, int limit) {
        if (at < 0 || at + 4 > limit) {
            return UNKNOWN;
        }
        long length = d.u32(at);
        long next = at + 4 + ((length + 3) & ~3L);
        return next <= limit ? (int) next : UNKNOWN;
    }
}
