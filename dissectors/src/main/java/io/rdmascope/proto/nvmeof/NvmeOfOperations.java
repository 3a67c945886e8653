package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * NVMe-oF's part of the operation view: a command capsule is a command (its CID the id, its keyed SGL
 * the buffer the controller's RDMA READs and WRITEs use, NVMe-oF 1.1 §7.3.3), a response capsule the
 * completion of the CID it names. Read from the layers and the context record the dissector added,
 * plus the queue pair the CM exchange set up.
 */
final class NvmeOfOperations {
    /** SGL Descriptor 1 in the SQE (NVMe Base 2.0 §4.1.2): address, 3-byte length, key, type. */
    private static final int SGL_ADDRESS = 24;
    private static final int SGL_LENGTH = 32;
    private static final int SGL_KEY = 35;
    private static final int SGL_TYPE = 39;
    /** CQE (NVMe Base 2.0 §4.2.3): CID, then the status field whose bit 0 a fabric leaves reserved. */
    private static final int CQE_CID = 12;
    private static final int CQE_STATUS = 14;
    private static final int SCT_GENERIC = 0;
    /**
     * Admin opcode of the Asynchronous Event Request (NVMe Base 2.0 §5.2): the controller completes it
     * only when an event occurs, so it is normally outstanding for the queue's whole life.
     */
    private static final int ASYNC_EVENT_REQUEST = 0x0C;
    /**
     * Generic Command Status values (NVMe Base 2.0, Figure 102). Wireshark 4.0 names only the status
     * code type, not the code; the operation view names the common generic codes (docs/cli.md).
     */
    private static final ValueNames GENERIC_STATUS = ValueNames.of(0x01, "Invalid Command Opcode",
            0x02, "Invalid Field in Command", 0x03, "Command ID Conflict", 0x04, "Data Transfer Error",
            0x05, "Commands Aborted due to Power Loss Notification", 0x06, "Internal Error",
            0x07, "Command Abort Requested", 0x08, "Command Aborted due to SQ Deletion",
            0x09, "Command Aborted due to Failed Fused Command", 0x0A, "Command Aborted due to Missing Fused Command",
            0x0B, "Invalid Namespace or Format", 0x0C, "Command Sequence Error", 0x0D, "Invalid SGL Segment Descriptor",
            0x0E, "Invalid Number of SGL Descriptors", 0x0F, "Data SGL Length Invalid",
            0x10, "Metadata SGL Length Invalid", 0x11, "SGL Descriptor Type Invalid", 0x80, "LBA Out of Range",
            0x81, "Capacity Exceeded", 0x82, "Namespace Not Ready");

    private NvmeOfOperations() {
    }

    static void extract(Dissection d, OperationEvents out) {
        int ctxLayer = d.find(NvmeOf.CONTEXT);
        if (ctxLayer < 0) {
            return;
        }
        int ctx = d.layerStart(ctxLayer);
        int flags = d.u8(ctx + NvmeOf.CTX_FLAGS);
        if ((flags & NvmeOf.TRANSFER_FLAGS) != 0) {
            return; // data transfers are matched by the tracker, by R_Key and address
        }
        OperationEvents.Queue queue = queue(d, d.u16le(ctx + NvmeOf.CTX_QID));
        if (queue == null) {
            return;
        }
        if ((flags & NvmeOf.FLAG_RESPONSE) != 0) {
            int cqe = layer(d, NvmeOf.FABRICS_RESPONSE, NvmeOf.RESPONSE);
            if (cqe >= 0) {
                int at = d.layerStart(cqe);
                int status = d.u16le(at + CQE_STATUS);
                String failure = failure(status);
                out.response(new OperationEvents.Response(queue, d.u16le(at + CQE_CID), failure,
                        failure == null ? null : (long) (status >> 1) & 0x7FF));
            }
            return;
        }
        int sqe = layer(d, NvmeOf.FABRICS_COMMAND, NvmeOf.ADMIN_COMMAND, NvmeOf.IO_COMMAND);
        if (sqe < 0) {
            return;
        }
        int at = d.layerStart(sqe);
        int cid = d.u16le(at + 2);
        long length = d.u16le(at + SGL_LENGTH) | (long) d.u8(at + SGL_LENGTH + 2) << 16;
        List<OperationEvents.Buffer> buffers = List.of();
        if (d.u8(at + SGL_TYPE) >> 4 == NvmeOf.SGL_KEYED_DATA_BLOCK && length > 0) {
            long address = d.u32le(at + SGL_ADDRESS) | d.u32le(at + SGL_ADDRESS + 4) << 32;
            buffers = List.of(new OperationEvents.Buffer(d.u32le(at + SGL_KEY), address, length));
        }
        OperationEvents.Command command = new OperationEvents.Command(queue, cid, String.format("0x%04x", cid),
                NvmeOfInfo.commandOpcode(d, ctxLayer), NvmeOfInfo.commandName(d, ctxLayer), length, buffers);
        boolean event = d.layerType(sqe) == NvmeOf.ADMIN_COMMAND && d.u8(at) == ASYNC_EVENT_REQUEST;
        out.command(event ? command.awaitingEvent() : command);
    }

    /**
     * Null for success; else the status as NVMe Base 2.0 names it (Figure 102: "LBA Out of Range"), or,
     * for a code we do not name, its status code type and code ("Command Specific Status 0x02"). The
     * numbers go in the operation's statusCode (SCT &lt;&lt; 8 | SC, §4.2.3 Figure 93).
     */
    static String failure(int status) {
        int sc = (status >> 1) & 0xFF;
        int sct = (status >> 9) & 0x7;
        if (sc == 0 && sct == 0) {
            return null;
        }
        String code = sct == SCT_GENERIC ? GENERIC_STATUS.nameOf(sc) : null;
        if (code != null) {
            return code;
        }
        String type = NvmeOf.SCT_NAMES.nameOf(sct);
        return (type != null ? type : "Status Code Type " + sct) + String.format(" 0x%02x", sc);
    }

    /** The queue the frame travels on, from the CM exchange the dissector kept. */
    private static OperationEvents.Queue queue(Dissection d, int qid) {
        NvmeOfQueues queues = StreamState.peek(d, NvmeOfQueues.class);
        if (queues == null || !d.rdma().isRdma()) {
            return null;
        }
        NvmeOfQueues.Queue q = queues.to(d.u24(d.rdma().bthStart + 5));
        return q == null ? null : new OperationEvents.Queue(NvmeOf.RDMA_PROTOCOL.abbrev(), "qid " + qid, q.hostQpn,
                q.controllerQpn);
    }

    private static int layer(Dissection d, io.rdmascope.field.HeaderType... types) {
        for (io.rdmascope.field.HeaderType t : types) {
            int l = d.find(t);
            if (l >= 0) {
                return l;
            }
        }
        return -1;
    }
}
