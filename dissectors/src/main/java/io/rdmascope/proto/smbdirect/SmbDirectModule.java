package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * SMB Direct on InfiniBand and RoCE (issue 19): registered as a reader of CM messages and a protocol
 * that may ride in SEND payloads; words the packet list as Wireshark 4.0 does.
 */
public final class SmbDirectModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return SmbDirect.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.cmPrivateData(SmbDirectDissector::cm);
        r.rdmaPayload(SmbDirectDissector::payload);
    }

    @Override
    public OperationExtractor operations() {
        return SmbDirectOperations::extract;
    }

    @Override
    public Columns upper(Dissection d, Columns below) {
        if (!d.rdma().isRdma()) {
            return null;
        }
        String text = SmbDirectInfo.text(d);
        // packet-smb-direct.c clears Info before writing its own: tshark shows no transport text here.
        return text == null ? null : new Columns(SmbDirectInfo.column(d), text);
    }
}
