package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * SMB Direct's part of the operation view: an SMB2 request is a command, identified by its message id,
 * and the SMB2 response with the same id ends it ([MS-SMB2] §3.2.5.1). An interim response
 * (STATUS_PENDING, §3.3.4.2) does not: the final one follows. A response fails when its status has
 * error severity ([MS-ERREF] §2.3: the top two bits set), except STATUS_MORE_PROCESSING_REQUIRED, the
 * normal middle step of a Session Setup. The size of a Read or Write is its Length field; the RDMA
 * channel's buffer descriptors are not decoded yet, so SMB Direct's RDMA transfers are not matched.
 */
final class SmbDirectOperations {
    private static final long STATUS_PENDING = 0x00000103L;
    private static final long STATUS_MORE_PROCESSING_REQUIRED = 0xC0000016L;
    private static final long SEVERITY_ERROR = 0xC0000000L;
    private static final int READ = 0x08;
    private static final int WRITE = 0x09;
    /** [MS-ERREF] §2.3.1 names of the statuses most seen as failures. */
    private static final ValueNames STATUS_NAMES = ValueNames.of(0xC000000DL, "STATUS_INVALID_PARAMETER",
            0xC0000011L, "STATUS_END_OF_FILE", 0xC0000022L, "STATUS_ACCESS_DENIED",
            0xC0000034L, "STATUS_OBJECT_NAME_NOT_FOUND", 0xC0000035L, "STATUS_OBJECT_NAME_COLLISION",
            0xC000003AL, "STATUS_OBJECT_PATH_NOT_FOUND", 0xC0000043L, "STATUS_SHARING_VIOLATION",
            0xC000006DL, "STATUS_LOGON_FAILURE", 0xC00000BBL, "STATUS_NOT_SUPPORTED",
            0xC00000CCL, "STATUS_BAD_NETWORK_NAME", 0xC0000120L, "STATUS_CANCELLED",
            0xC0000128L, "STATUS_FILE_CLOSED", 0xC000009AL, "STATUS_INSUFFICIENT_RESOURCES");

    private SmbDirectOperations() {
    }

    static void extract(Dissection d, OperationEvents out) {
        int smb2 = d.find(SmbDirect.SMB2_HEADER);
        if (smb2 < 0 || !d.rdma().isRdma()) {
            return;
        }
        StreamState s = StreamState.peek(d);
        SmbDirectConnections connections = s == null ? null : s.peek(SmbDirectConnections.class);
        SmbDirectConnections.Connection c = connections == null ? null
                : connections.to(d.u24(d.rdma().bthStart + 5));
        if (c == null) {
            return;
        }
        int at = d.layerStart(smb2);
        long messageId = d.u32le(at + 24) | d.u32le(at + 28) << 32;
        OperationEvents.Queue queue = new OperationEvents.Queue(SmbDirect.PROTOCOL.abbrev(), "", c.clientQpn,
                c.serverQpn);
        if ((d.u32le(at + 16) & SmbDirect.SMB2_FLAG_RESPONSE) != 0) {
            long status = d.u32le(at + 8);
            if (status == STATUS_PENDING) {
                return;
            }
            boolean failed = (status & SEVERITY_ERROR) == SEVERITY_ERROR && status != STATUS_MORE_PROCESSING_REQUIRED;
            String name = STATUS_NAMES.nameOf(status);
            out.response(new OperationEvents.Response(queue, messageId,
                    failed ? (name != null ? name : String.format("NT status 0x%08x", status)) : null));
            return;
        }
        int command = d.u16le(at + 12);
        String name = SmbDirect.SMB2_COMMAND_NAMES.nameOf(command);
        long size = 0;
        int length = at + SmbDirect.SMB2_HEADER_SIZE + 4; // Read and Write requests: Length at body byte 4
        if ((command == READ || command == WRITE) && length + 4 <= d.capturedLength()) {
            size = d.u32le(length);
        }
        out.command(new OperationEvents.Command(queue, messageId, Long.toUnsignedString(messageId),
                name != null ? name : String.format("0x%04x", command), size, List.of()));
    }
}
