package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;

import java.util.List;
import java.util.Map;

/**
 * NVMe over Fabrics on RDMA (issue 19): registered as a reader of CM private data and a protocol
 * that may ride in SEND payloads; words the packet list as Wireshark 4.0 does ("NVMe Fabrics RDMA",
 * "… | NVMeOF Connect", "… | NVMeOF CQE for Connect", "NVMe" and "… | NVMe Identify Controller").
 */
public final class NvmeOfModule implements ProtocolModule {
    private static final Map<Field, List<Field>> SUBTREES = Map.of(
            NvmeOf.CONNECT_SGL1, List.of(NvmeOf.SGL_TYPE, NvmeOf.SGL_SUBTYPE, NvmeOf.SGL_ADDR, NvmeOf.SGL_LEN,
                    NvmeOf.SGL_KEY),
            NvmeOf.SGL1, List.of(NvmeOf.SGL_TYPE, NvmeOf.SGL_SUBTYPE, NvmeOf.SGL_ADDR, NvmeOf.SGL_LEN,
                    NvmeOf.SGL_KEY));

    @Override
    public List<HeaderType> headers() {
        return NvmeOf.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.cmPrivateData(NvmeOfDissector::cm);
        r.rdmaPayload(NvmeOfDissector::payload);
        // Not in tshark 4.0, whose nvme-rdma needs the CM exchange (docs/cli.md): one QP, or every one.
        r.decodeAs(DecodeAs.DEST_QP, NvmeOf.RDMA_PROTOCOL.abbrev());
        r.decodeAs(DecodeAs.INFINIBAND, NvmeOf.RDMA_PROTOCOL.abbrev());
    }

    @Override
    public OperationExtractor operations() {
        return NvmeOfOperations::extract;
    }

    @Override
    public Columns upper(Dissection d, Columns below) {
        if (!d.rdma().isRdma()) {
            return null;
        }
        int ctx = d.find(NvmeOf.CONTEXT);
        if (ctx < 0) {
            boolean cm = d.find(NvmeOf.CM_REQUEST) >= 0 || d.find(NvmeOf.CM_REPLY) >= 0;
            return cm ? new Columns(NvmeOfInfo.FABRICS_COLUMN, below.info()) : null;
        }
        NvmeOfInfo.Capsule c = NvmeOfInfo.capsule(d, ctx);
        return new Columns(c.column(), below.info() + " | " + c.text());
    }

    @Override
    public String headerLabel(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        if (h == NvmeOf.FABRICS_RESPONSE) {
            String command = NvmeOfInfo.answeredName(d, layer);
            return command == null ? "Cqe" : "Cqe (For Cmd: " + command + ")";
        }
        return null;
    }

    @Override
    public List<Field> subtreeMembers(Field f) {
        return SUBTREES.get(f);
    }
}
