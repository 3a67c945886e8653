package io.rdmascope.proto.iser;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * iSER and the iSCSI it carries (issue 19): a reader of CM messages (the REQ for port 3260 and its
 * REP mark the connection) and a protocol riding in RC payloads; the packet list words its PDUs as
 * Wireshark 4.0 does ("iSCSI", "SCSI: Read(10) LUN: 0x00 (LBA: 0x00001000, Len: 4)"). The RDMA
 * transfers of a task keep the transport's words, as Wireshark shows them, and name their task
 * through {@code iscsi.request_frame}.
 */
public final class IserModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return Iser.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.cmPrivateData(IserDissector::cm);
        r.rdmaPayload(IserDissector::payload);
        r.decodeAs(DecodeAs.DEST_QP, Iser.ISER_PROTOCOL.abbrev()); // one QP, without the CM exchange
        r.decodeAs(DecodeAs.INFINIBAND, Iser.ISER_PROTOCOL.abbrev()); // tshark's form: every RoCE/IB SEND
    }

    @Override
    public OperationExtractor operations() {
        return IserOperations::extract;
    }

    @Override
    public Columns upper(Dissection d, Columns below) {
        return d.rdma().isRdma() ? IserInfo.columns(d) : null;
    }
}
