package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.field.HeaderType;

import java.util.List;

/**
 * SMB Direct on InfiniBand, RoCE and iWARP (issue 19): registered as a reader of CM messages, a
 * protocol that may ride in SEND payloads and in iWARP Send messages, and what --decode-as may
 * choose; words the packet list as Wireshark 4.0 does.
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
        r.iwarpPayload(SmbDirectDissector::iwarpPayload);
        String name = SmbDirect.PROTOCOL.abbrev();
        r.decodeAs(DecodeAs.TCP_PORT, name); // the iWARP connections on a port other than 5445
        r.decodeAs(DecodeAs.DEST_QP, name); // RoCE/IB SENDs to one queue pair, without the CM exchange
        r.decodeAs(DecodeAs.INFINIBAND, name); // tshark's form: every RoCE/IB SEND
    }

    @Override
    public OperationExtractor operations() {
        return SmbDirectOperations::extract;
    }

    @Override
    public Columns upper(Dissection d, Columns below) {
        String text = SmbDirectInfo.text(d);
        // packet-smb-direct.c clears Info before writing its own: tshark shows no transport text here.
        return text == null ? null : new Columns(SmbDirectInfo.column(d), text);
    }
}
