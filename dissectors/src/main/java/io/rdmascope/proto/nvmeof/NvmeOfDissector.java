package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.mad.Cm;

import java.util.Set;

import static io.rdmascope.proto.ib.RcOpcodes.READ_REQUEST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY_WITH_IMMEDIATE;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY_WITH_INVALIDATE;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_ONLY_WITH_IMMEDIATE;

/**
 * Finds NVMe-oF on RDMA and decodes it. A queue pair is NVMe-oF when its connection was captured: a
 * ConnectRequest whose RDMA-CM service ID names TCP port 4420 (NVMe-oF 1.1 §7.3.1.2; the IP CM
 * service ID of the RDMA IP CM Service annex, IBTA A11) and the ConnectReply that answers it. From
 * then on a SEND to the controller's QP carries a command capsule and a SEND to the host's QP a
 * response capsule (NVMe-oF §7.3.3); an RDMA READ of the host's memory or an RDMA WRITE into it
 * moves the data of the command whose keyed SGL carried the same R_Key. Nothing is guessed from payload
 * bytes: without the CM exchange the SENDs stay data, so no other traffic can be taken for NVMe-oF,
 * unless {@code --decode-as} names the QP ({@code infiniband.bth.destqp==Q,nvme-rdma}) or every one
 * ({@code infiniband,nvme-rdma}); then which side a QP is comes from what is sent to it (see
 * {@link #learnController} and {@link #learnHost}).
 */
final class NvmeOfDissector {
    /** The NVMe-oF private data after the 36-byte IP CM header of a REQ's private data (IBTA A11.6). */
    private static final int REQ_NVME_PRIVATE = Cm.REQ_PRIVATE_DATA + 36;
    /** A REP's private data (IBTA 12.6.8). */
    private static final int REP_PRIVATE = 36;
    /** RETH (IBTA 9.3.3): VA, R_Key, DMA length, right after the BTH. */
    private static final int RETH_VA = 12;
    private static final int RETH_R_KEY = 12 + 8;

    /** Admin opcodes no I/O command shares (NVMe 1.4 §5 against the NVM command set of §6): their queue is the admin queue. */
    private static final Set<Integer> ADMIN_ONLY_OPCODES = Set.of(NvmeOf.OPC_IDENTIFY, 0x0A, 0x0C, 0x18);

    private NvmeOfDissector() {
    }

    /** CM private data: a REQ for port 4420 starts a pending queue; the REP that answers it makes it one. */
    static void cm(DissectorChain chain, Dissection d, int cmLayer) {
        HeaderType message = d.layerType(cmLayer);
        int at = d.layerStart(cmLayer);
        long frame = d.frame().number();
        if (message == Cm.REQ) {
            if (!Cm.isTcpPortRequest(d, at, NvmeOf.PORT)) {
                return;
            }
            NvmeOfQueues queues = queues(d, true);
            queues.beginFrame(frame);
            int qid = d.u16le(at + REQ_NVME_PRIVATE + 2);
            queues.request(d, at, qid);
            d.add(NvmeOf.CM_REQUEST, at + REQ_NVME_PRIVATE, NvmeOf.CM_REQUEST_SIZE);
        } else if (message == Cm.REP) {
            NvmeOfQueues queues = queues(d, false);
            if (queues == null) {
                return;
            }
            queues.beginFrame(frame);
            if (queues.reply(d, at) != null) {
                d.add(NvmeOf.CM_REPLY, at + REP_PRIVATE, NvmeOf.CM_REPLY_SIZE);
            }
        }
    }

    /**
     * A SEND's payload {@code [offset, end)}: a capsule when its QP is a known NVMe-oF queue's, or one
     * {@code --decode-as} chose. Costs two lookups and no allocation on a capture without NVMe-oF.
     */
    static boolean payload(DissectorChain chain, Dissection d, int offset, int end) {
        RdmaContext r = d.rdma();
        int destQpn = d.u24(r.bthStart + 5);
        boolean chosen = chain.isPayloadDecodedAs(destQpn, NvmeOf.RDMA_PROTOCOL.abbrev());
        NvmeOfQueues queues = queues(d, chosen);
        if (queues == null || (queues.isEmpty() && !chosen)) {
            return false;
        }
        int opcode = r.opcode;
        if (opcode > READ_RESPONSE_ONLY && opcode != SEND_ONLY_WITH_INVALIDATE) {
            return false; // not RC, or nothing NVMe-oF sends (ACKs, atomics)
        }
        queues.beginFrame(d.frame().number());
        NvmeOfQueues.Queue toController = queues.toResponder(destQpn);
        NvmeOfQueues.Queue toHost = toController == null ? queues.toRequester(destQpn) : null;
        if (toController == null && toHost == null) {
            if (!chosen) {
                return false;
            }
            toController = learnController(d, queues, destQpn, offset, end);
            toHost = toController == null ? learnHost(d, queues, destQpn, offset, end) : null;
            if (toController == null && toHost == null) {
                return false;
            }
        }
        boolean send = isSend(opcode);
        if (send && toController != null && end - offset >= NvmeOf.SQE_SIZE
                && offset + NvmeOf.SQE_SIZE <= d.capturedLength()) {
            command(chain, d, toController, offset, end);
            return true;
        }
        if (send && toHost != null && end - offset >= NvmeOf.CQE_SIZE
                && offset + NvmeOf.CQE_SIZE <= d.capturedLength()) {
            response(chain, d, toHost, offset, end);
            return true;
        }
        if (opcode == READ_REQUEST && toHost != null) {
            toHost.readSlot = toHost.findKey(d.u32(r.bthStart + RETH_R_KEY), rethVa(d, r));
            toHost.readOffset = 0;
            toHost.readRequestFrame = d.frame().number();
            transfer(d, toHost, toHost.readSlot, NvmeOf.FLAG_READ_REQUEST, 0, 0);
            d.add(NvmeOf.READ_REQUEST, offset, 0);
            d.add(NvmeOf.TRANSFER, offset, 0);
            return true;
        }
        if (opcode >= READ_RESPONSE_FIRST && opcode <= READ_RESPONSE_ONLY && toController != null) {
            transfer(d, toController, toController.readSlot, NvmeOf.FLAG_READ_RESPONSE, toController.readOffset,
                    toController.readRequestFrame);
            toController.readOffset += end - offset;
            d.add(NvmeOf.READ_RESPONSE_DATA, offset, Math.min(end, d.capturedLength()) - offset);
            d.add(NvmeOf.TRANSFER, offset, 0);
            return true;
        }
        if (opcode >= WRITE_FIRST && opcode <= WRITE_ONLY_WITH_IMMEDIATE && toHost != null) {
            if (opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_WITH_IMMEDIATE) {
                toHost.writeSlot = toHost.findKey(d.u32(r.bthStart + RETH_R_KEY), rethVa(d, r));
                toHost.writeOffset = 0;
            }
            transfer(d, toHost, toHost.writeSlot, NvmeOf.FLAG_WRITE, toHost.writeOffset, 0);
            toHost.writeOffset += end - offset;
            d.add(NvmeOf.WRITE_REQUEST, offset, 0);
            d.add(NvmeOf.TRANSFER, offset, 0);
            Data.dissect(chain, d, offset, end);
            return true;
        }
        return false;
    }

    /**
     * A QP {@code --decode-as} chose, with no CM exchange to say whose it is: the controller's when
     * this SEND is a command capsule (NVMe-oF 1.1 §7.3.3: a 64-byte SQE, in-capsule data after it)
     * whose SQE is one a host sends (below), else null. The queue's id comes from the first command:
     * a Connect names it (NVMe-oF 1.1 §3.3, SQE bytes 42-43), any other Fabrics command and the
     * admin-only opcodes (Identify, Get Features, Asynchronous Event Request, Keep Alive) are the
     * admin queue's, anything else leaves it {@link NvmeOfQueues#UNKNOWN_QID}.
     */
    private static NvmeOfQueues.Queue learnController(Dissection d, NvmeOfQueues queues, int destQpn, int offset,
                                                      int end) {
        if (!isSend(d.rdma().opcode) || end - offset < NvmeOf.SQE_SIZE
                || offset + NvmeOf.SQE_SIZE > d.capturedLength() || !isCommand(d, offset)) {
            return null;
        }
        int opc = d.u8(offset);
        int qid;
        if (opc == NvmeOf.OPC_FABRICS) {
            qid = d.u8(offset + 4) == NvmeOf.FCTYPE_CONNECT ? d.u16le(offset + 42) : 0;
        } else {
            qid = ADMIN_ONLY_OPCODES.contains(opc) ? 0 : NvmeOfQueues.UNKNOWN_QID;
        }
        return queues.learnResponder(destQpn, qid);
    }

    /**
     * A QP {@code --decode-as} chose that is the host's: a SEND of exactly one CQE (a response capsule
     * on RDMA carries nothing else, NVMe-oF 1.1 §7.3.3), or an RDMA READ Request or WRITE, which only a
     * controller sends. It is paired with the learnt queue whose command the CQE answers (by CID) or
     * whose keyed SGL holds the transfer's R_Key and address; a response with no such command gets a
     * queue of its own, a transfer none (null).
     */
    private static NvmeOfQueues.Queue learnHost(Dissection d, NvmeOfQueues queues, int destQpn, int offset, int end) {
        RdmaContext r = d.rdma();
        int opcode = r.opcode;
        if (isSend(opcode) && end - offset == NvmeOf.CQE_SIZE && offset + NvmeOf.CQE_SIZE <= d.capturedLength()) {
            int cid = d.u16le(offset + 12);
            NvmeOfQueues.Queue q = queues.unpaired(c -> c.find(cid) >= 0);
            if (q == null) {
                return queues.learnRequester(destQpn, d.u16le(offset + 10)); // the CQE's SQ identifier
            }
            q.requesterFound(destQpn);
            return q;
        }
        if (opcode != READ_REQUEST && opcode != WRITE_FIRST && opcode != WRITE_ONLY
                && opcode != WRITE_ONLY_WITH_IMMEDIATE) {
            return null;
        }
        long key = d.u32(r.bthStart + RETH_R_KEY);
        long va = rethVa(d, r);
        NvmeOfQueues.Queue q = queues.unpaired(c -> c.findKey(key, va) >= 0);
        if (q != null) {
            q.requesterFound(destQpn);
        }
        return q;
    }

    /**
     * Whether the 64 bytes at {@code at} are an SQE a host sends on RDMA: a Fabrics command of a type
     * NVMe-oF 1.1 §3.3 defines, or a command that describes its data by SGL (PSDT not 00b: a fabric
     * carries no PRPs) whose first descriptor is of a type NVMe 1.4 §4.4 defines.
     */
    private static boolean isCommand(Dissection d, int at) {
        if (d.u8(at) == NvmeOf.OPC_FABRICS) {
            return NvmeOf.FCTYPE_NAMES.nameOf(d.u8(at + 4)) != null;
        }
        int sglType = d.u8(at + 39) >> 4;
        return d.u8(at + 1) >> 6 != 0 && (sglType == 0 || (sglType >= 2 && sglType <= 5));
    }

    private static boolean isSend(int opcode) {
        return opcode == SEND_ONLY || opcode == SEND_FIRST || opcode == SEND_ONLY_WITH_IMMEDIATE
                || opcode == SEND_ONLY_WITH_INVALIDATE;
    }

    /** The RETH's 64-bit virtual address (big-endian, IBTA 9.3.3). */
    private static long rethVa(Dissection d, RdmaContext r) {
        return d.u32(r.bthStart + RETH_VA) << 32 | d.u32(r.bthStart + RETH_VA + 4);
    }

    /** The context of a data transfer for the command in {@code slot} (-1: none seen with its key). */
    private static void transfer(Dissection d, NvmeOfQueues.Queue q, int slot, int kind, long dataOffset,
                                 long readRequestFrame) {
        if (slot < 0) {
            context(d, q.qid, kind, 0, 0, 0, dataOffset, readRequestFrame);
            return;
        }
        int flags = kind | NvmeOf.FLAG_MATCHED | (q.fabrics(slot) ? NvmeOf.FLAG_FABRICS : 0);
        context(d, q.qid, flags, q.code(slot), q.detail(slot), q.frame(slot), dataOffset, readRequestFrame);
    }

    private static void command(DissectorChain chain, Dissection d, NvmeOfQueues.Queue q, int offset, int end) {
        int opc = d.u8(offset);
        int cid = d.u16le(offset + 2);
        boolean fabrics = opc == NvmeOf.OPC_FABRICS;
        int code = fabrics ? d.u8(offset + 4) : opc;
        int detail = 0;
        if (fabrics && (code == NvmeOf.FCTYPE_PROPERTY_GET || code == NvmeOf.FCTYPE_PROPERTY_SET)) {
            detail = d.u16le(offset + 44); // the property's offset (low 16 bits: every property lies below 0x1000)
        } else if (!fabrics && q.qid == 0 && opc == NvmeOf.OPC_IDENTIFY) {
            detail = d.u8(offset + 40); // CNS
        }
        boolean keyed = d.u8(offset + 39) >> 4 == NvmeOf.SGL_KEYED_DATA_BLOCK;
        long key = keyed ? d.u32le(offset + 35) : -1;
        long address = keyed ? d.u32le(offset + 24) | d.u32le(offset + 28) << 32 : 0;
        long length = keyed ? d.u8(offset + 32) | d.u8(offset + 33) << 8 | d.u8(offset + 34) << 16 : 0;
        q.command(cid, d.frame().number(), fabrics, code, detail, key, address, length);
        context(d, q.qid, fabrics ? NvmeOf.FLAG_FABRICS : 0, code, detail, 0, 0, 0);
        if (fabrics) {
            d.add(NvmeOf.FABRICS_COMMAND, offset, NvmeOf.SQE_SIZE);
            if (code == NvmeOf.FCTYPE_PROPERTY_SET) {
                d.add(NvmeOf.PROPERTY_VALUE, offset + 48, 8);
            }
        } else {
            d.add(q.qid == 0 ? NvmeOf.ADMIN_COMMAND : NvmeOf.IO_COMMAND, offset, NvmeOf.SQE_SIZE);
        }
        // In-capsule data (an SGL data block with offset, NVMe-oF §7.3.3) follows the SQE.
        Data.dissect(chain, d, offset + NvmeOf.SQE_SIZE, end);
    }

    private static void response(DissectorChain chain, Dissection d, NvmeOfQueues.Queue q, int offset, int end) {
        int cid = d.u16le(offset + 12);
        int slot = q.find(cid);
        int flags = NvmeOf.FLAG_RESPONSE;
        int code = 0;
        int detail = 0;
        long commandFrame = 0;
        if (slot >= 0) {
            flags |= NvmeOf.FLAG_MATCHED | (q.fabrics(slot) ? NvmeOf.FLAG_FABRICS : 0);
            code = q.code(slot);
            detail = q.detail(slot);
            commandFrame = q.frame(slot);
        }
        context(d, q.qid, flags, code, detail, commandFrame, 0, 0);
        boolean fabrics = (flags & NvmeOf.FLAG_FABRICS) != 0;
        d.add(fabrics ? NvmeOf.FABRICS_RESPONSE : NvmeOf.RESPONSE, offset, NvmeOf.CQE_SIZE);
        if (fabrics && code == NvmeOf.FCTYPE_PROPERTY_GET) {
            d.add(NvmeOf.PROPERTY_VALUE, offset, 8);
        }
        Data.dissect(chain, d, offset + NvmeOf.CQE_SIZE, end);
    }

    /** Writes the context record (see {@link NvmeOf#CONTEXT}) past the frame and adds its layer. */
    private static void context(Dissection d, int qid, int flags, int code, int detail, long commandFrame,
                                long dataOffset, long readRequestFrame) {
        byte[] record = d.rdma().scratch();
        record[NvmeOf.CTX_QID] = (byte) qid;
        record[NvmeOf.CTX_QID + 1] = (byte) (qid >> 8);
        record[NvmeOf.CTX_FLAGS] = (byte) flags;
        record[NvmeOf.CTX_CODE] = (byte) code;
        record[NvmeOf.CTX_DETAIL] = (byte) detail;
        record[NvmeOf.CTX_DETAIL + 1] = (byte) (detail >> 8);
        record[NvmeOf.CTX_DETAIL + 2] = 0;
        record[NvmeOf.CTX_DETAIL + 3] = 0;
        for (int i = 0; i < 4; i++) {
            record[NvmeOf.CTX_COMMAND_FRAME + i] = (byte) (commandFrame >> (8 * i));
            record[NvmeOf.CTX_DATA_OFFSET + i] = (byte) (dataOffset >> (8 * i));
            record[NvmeOf.CTX_DATA_REQUEST_FRAME + i] = (byte) (readRequestFrame >> (8 * i));
        }
        int at = d.addReassembled(record, 0, NvmeOf.CTX_SIZE);
        d.add(NvmeOf.CONTEXT, at, NvmeOf.CTX_SIZE);
    }

    private static NvmeOfQueues queues(Dissection d, boolean create) {
        if (create) {
            return StreamState.of(d).get(NvmeOfQueues.class, NvmeOfQueues::new);
        }
        return StreamState.peek(d, NvmeOfQueues.class);
    }
}
