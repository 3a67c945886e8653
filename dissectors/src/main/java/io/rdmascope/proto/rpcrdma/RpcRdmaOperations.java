package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.ValueNames;

import java.util.ArrayList;
import java.util.List;

/**
 * RPC-over-RDMA's part of the operation view: a transport message towards the server (the CM
 * responder) is a call, one towards the client its reply, paired by XID (RFC 8166 §4.1, §5.1), whether
 * the RPC message is inline (RDMA_MSG, RDMA_MSGP) or moved by chunks (RDMA_NOMSG). The segments of the
 * call's read, write and reply chunks are the buffers the server's RDMA READs and WRITEs use; their
 * lengths add up to the size. A reply fails when the server sends RDMA_ERROR, denies the call, does not
 * accept it (RFC 5531 §9 accept_stat) or, for NFS, returns a non-zero status.
 */
final class RpcRdmaOperations {
    /** RFC 5531 §9. */
    private static final ValueNames ACCEPT_STAT = ValueNames.of(1, "PROG_UNAVAIL", 2, "PROG_MISMATCH",
            3, "PROC_UNAVAIL", 4, "GARBAGE_ARGS", 5, "SYSTEM_ERR");
    /** The common NFS status values, same numbers in NFSv3 (RFC 1813 §2.6) and NFSv4 (RFC 7530 §13.1). */
    private static final ValueNames NFS_STATUS = ValueNames.of(1, "PERM", 2, "NOENT", 5, "IO", 6, "NXIO",
            13, "ACCES", 17, "EXIST", 18, "XDEV", 19, "NODEV", 20, "NOTDIR", 21, "ISDIR", 22, "INVAL", 27, "FBIG",
            28, "NOSPC", 30, "ROFS", 63, "NAMETOOLONG", 66, "NOTEMPTY", 69, "DQUOT", 70, "STALE",
            10008, "DELAY");
    private static final int REPLY_DENIED = 1;
    private static final int SUCCESS = 0;
    /** Procedure 0 of every NFS version: NULL, whose result is void. */
    private static final long NULL_PROCEDURE = 0;

    private RpcRdmaOperations() {
    }

    static void extract(Dissection d, OperationEvents out) {
        int header = d.find(RpcRdma.HEADER);
        if (header < 0 || !d.rdma().isRdma()) {
            return;
        }
        RpcRdmaConnections connections = StreamState.peek(d, RpcRdmaConnections.class);
        int destQpn = d.u24(d.rdma().bthStart + 5);
        RpcRdmaConnections.Connection c = connections == null ? null : connections.to(destQpn);
        if (c == null) {
            return;
        }
        int at = d.layerStart(header);
        long xid = d.u32(at);
        int proc = (int) d.u32(at + 12);
        boolean toServer = c.responderQpn() == destQpn;
        OperationEvents.Queue queue = new OperationEvents.Queue(RpcRdma.PROTOCOL.abbrev(), "", c.requesterQpn(),
                c.responderQpn());
        if (!toServer) {
            // RFC 8166 §3.3.1: every message from the responder carries its current grant.
            out.requestCredits(new OperationEvents.RequestCredits(queue, d.u32(at + 8)));
            if (d.find(RpcRdma.RPC_CALL) >= 0) {
                return; // a backchannel call (RFC 8167), not a reply to one of the client's calls
            }
            if (proc == RpcRdma.RDMA_ERROR) {
                int error = d.find(RpcRdma.ERROR);
                long code = error < 0 ? -1 : d.u32(d.layerStart(error));
                String name = code < 0 ? null : RpcRdma.ERRCODE.valueNames().nameOf(code);
                out.response(new OperationEvents.Response(queue, xid, "RDMA_ERROR " + (name != null ? name : code),
                        code < 0 ? null : code));
            } else if (proc <= RpcRdma.RDMA_MSGP) {
                Failure f = replyFailure(d);
                out.response(new OperationEvents.Response(queue, xid, f == null ? null : f.name(),
                        f == null ? null : f.code()));
            }
            return;
        }
        if (proc > RpcRdma.RDMA_MSGP || d.find(RpcRdma.RPC_REPLY) >= 0) {
            return; // RDMA_DONE and RDMA_ERROR are no calls, nor is a backchannel reply (RFC 8167)
        }
        List<OperationEvents.Buffer> buffers = new ArrayList<>(2);
        long size = 0;
        for (int seg = d.find(RpcRdma.SEGMENT); seg >= 0; seg = d.findNext(RpcRdma.SEGMENT, seg)) {
            int p = d.layerStart(seg);
            long length = d.u32(p + 4);
            buffers.add(new OperationEvents.Buffer(d.u32(p), d.u32(p + 8) << 32 | d.u32(p + 12), length));
            size += length;
        }
        String info = RpcRdmaInfo.columns(d, header).info();
        // The Info without the direction: "V3 READ", "V4 SEQUENCE | PUTFH | READ", "V2 proc-5", "RDMA_NOMSG XID …".
        String description = info.replace(" Call", "");
        out.command(new OperationEvents.Command(queue, xid, String.format("0x%08x", xid), procedure(d, proc),
                description, size, List.copyOf(buffers)));
    }

    /**
     * The call's bare procedure name, as tshark's SRT table ({@code -z rpc,srt}) and its procedure fields
     * name it: NFSv3's from {@code nfs.procedure_v3} ("GETATTR"), NFSv4's NULL or COMPOUND (RFC 7530
     * §16), another program's "proc-N"; a call moved whole in a chunk (RDMA_NOMSG) shows no procedure.
     */
    private static String procedure(Dissection d, int proc) {
        int call = d.find(RpcRdma.RPC_CALL);
        if (call < 0) {
            return RpcRdma.PROC_NAMES.nameOf(proc);
        }
        int at = d.layerStart(call);
        long procedure = d.u32(at + 20);
        String name = null;
        if (d.find(RpcRdma.NFS_V3) >= 0) {
            name = RpcRdma.NFS3_PROCEDURE_NAMES.nameOf(procedure);
        } else if (d.u32(at + 12) == RpcRdma.NFS_PROGRAM && d.u32(at + 16) == 4) {
            name = procedure == 0 ? "NULL" : procedure == RpcRdma.NFS_V4_COMPOUND ? "COMPOUND" : null;
        }
        return name != null ? name : "proc-" + procedure;
    }

    /** Why a reply failed: the status's name as its RFC spells it, and its value. */
    private record Failure(String name, long code) {
    }

    /**
     * Null for success; why not otherwise. A reply moved in a reply chunk (no inline RPC) counts as
     * success. The NFS status is read only where the procedure's result has one: NULL returns void in
     * every NFS version (RFC 1813 §3.3.0, RFC 7530 §16.1), so its reply ends at accept_stat.
     */
    private static Failure replyFailure(Dissection d) {
        int reply = d.find(RpcRdma.RPC_REPLY);
        if (reply < 0) {
            return null;
        }
        int at = d.layerStart(reply);
        if (d.u32(at + 8) == REPLY_DENIED) {
            return new Failure("MSG_DENIED", d.u32(at + 12)); // reject_stat (RFC 5531 §9)
        }
        int verifierLength = (int) Math.min(d.u32(at + 16), 400); // RFC 5531 §8.2: at most 400 bytes
        int acceptStat = at + 20 + ((verifierLength + 3) & ~3);
        if (acceptStat + 4 > d.capturedLength()) {
            return null;
        }
        long stat = d.u32(acceptStat);
        if (stat != SUCCESS) {
            String name = ACCEPT_STAT.nameOf(stat);
            return new Failure(name != null ? name : "accept_stat " + stat, stat);
        }
        boolean nfs = d.find(RpcRdma.NFS_V3) >= 0 || d.find(RpcRdma.NFS_V4) >= 0;
        int call = d.find(RpcRdma.RPC_MATCHED_CALL);
        boolean voidResult = call < 0 || d.u32(d.layerStart(call) + 20) == NULL_PROCEDURE;
        if (!nfs || voidResult || acceptStat + 8 > d.capturedLength()) {
            return null;
        }
        long status = d.u32(acceptStat + 4);
        if (status == 0) {
            return null;
        }
        String name = NFS_STATUS.nameOf(status);
        String prefix = d.find(RpcRdma.NFS_V3) >= 0 ? "NFS3ERR_" : "NFS4ERR_";
        return new Failure(name != null ? prefix + name : "NFS status " + status, status);
    }
}
