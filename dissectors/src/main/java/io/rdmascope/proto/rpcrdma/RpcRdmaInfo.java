package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule.Columns;

/**
 * Protocol and Info columns in Wireshark 4.0's words (packet-rpcrdma.c, packet-rpc.c,
 * packet-nfs.c): a transport header alone is "RPCoRDMA" / "RDMA_MSG XID 0x0000abcd"; an RPC message
 * on it replaces both, "RPC" / "V2 proc-5 Call", or for NFS "NFS" / "V3 READ Call" and
 * "V4 Call SEQUENCE | PUTFH". tshark appends the NFS arguments' summary (file handle, offset, the
 * frame of the call); we stop at the names (docs/tshark-parity.md).
 */
final class RpcRdmaInfo {
    private RpcRdmaInfo() {
    }

    /** The columns of a frame with a transport header at layer {@code header}, or (-1) a message put together from chunks. */
    static Columns columns(Dissection d, int header) {
        int call = d.find(RpcRdma.RPC_CALL);
        int reply = d.find(RpcRdma.RPC_REPLY);
        if (call < 0 && reply < 0) {
            int at = d.layerStart(header);
            String proc = RpcRdma.PROC_NAMES.nameOf(d.u32(at + 12));
            return new Columns("RPCoRDMA", proc + String.format(" XID 0x%08x", d.u32(at)));
        }
        String direction = call >= 0 ? "Call" : "Reply";
        int callLayer = call >= 0 ? call : d.find(RpcRdma.RPC_MATCHED_CALL);
        if (callLayer < 0) {
            return new Columns("RPC", direction + String.format(" XID 0x%08x", d.u32(d.layerStart(reply))));
        }
        int c = d.layerStart(callLayer);
        long version = d.u32(c + 16);
        long procedure = d.u32(c + 20);
        if (d.find(RpcRdma.NFS_V3) >= 0) {
            String name = RpcRdma.NFS3_PROCEDURE_NAMES.nameOf(procedure);
            return new Columns("NFS", "V3 " + (name != null ? name : "proc-" + procedure) + " " + direction);
        }
        if (d.find(RpcRdma.NFS_V4) >= 0) {
            StringBuilder info = new StringBuilder("V4 ").append(direction);
            String separator = " ";
            for (int op = d.find(RpcRdma.NFS4_OP); op >= 0; op = d.findNext(RpcRdma.NFS4_OP, op)) {
                long code = d.u32(d.layerStart(op));
                String name = RpcRdma.NFS4_OP_NAMES.nameOf(code);
                info.append(separator).append(name != null ? name : "Unknown " + code);
                separator = " | ";
            }
            return new Columns("NFS", info.toString());
        }
        return new Columns("RPC", "V" + version + " proc-" + procedure + " " + direction);
    }
}
