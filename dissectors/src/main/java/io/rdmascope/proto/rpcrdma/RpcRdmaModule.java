package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * RPC-over-RDMA version 1 with RPC and NFS names on top (issue 19): a reader of CM messages (which
 * connections ask for port 20049) and a protocol that may ride in SEND payloads on them. Words the
 * packet list as Wireshark 4.0 does: "RPCoRDMA" and "RDMA_MSG XID 0x…" for a header alone, "RPC" or
 * "NFS" and the call's words when a message follows.
 */
public final class RpcRdmaModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return RpcRdma.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.cmPrivateData(RpcRdmaDissector::cm);
        r.rdmaPayload(RpcRdmaDissector::payload);
        r.decodeAs(DecodeAs.DEST_QP, RpcRdma.PROTOCOL.abbrev()); // one QP, without the CM exchange
        r.decodeAs(DecodeAs.INFINIBAND, RpcRdma.PROTOCOL.abbrev()); // tshark's form: every RoCE/IB SEND
    }

    @Override
    public OperationExtractor operations() {
        return RpcRdmaOperations::extract;
    }

    @Override
    public Columns upper(Dissection d, Columns below) {
        int header = d.find(RpcRdma.HEADER);
        if (header < 0 && d.find(RpcRdma.REASSEMBLY.reassembled()) < 0) {
            return null;
        }
        // A READ response that completed a call's read chunks shows the call (no transport header).
        return RpcRdmaInfo.columns(d, header);
    }
}
