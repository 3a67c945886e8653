package io.rdmascope.proto.iser;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.mad.Cm;

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
 * Finds iSER on RDMA and decodes it. A queue pair carries iSER when its connection was captured: a
 * ConnectRequest whose RDMA-CM service ID names TCP port 3260 (RFC 7145 §5.1; the IP CM service ID
 * of IBTA Annex A11) and the ConnectReply answering it. From then on a SEND to the target's QP
 * carries an initiator's iSCSI PDU and a SEND to the initiator's QP a target's, each behind the
 * 28-byte iSER header (RFC 7145 §9.2), and checked strictly: an iSER opcode and flags RFC 7145
 * allows, reserved bytes zero, an iSCSI opcode of the sending side (RFC 7143 §11.2.1.2). The data of
 * a SCSI Read moves by RDMA WRITEs into the buffer the command's Read STag names, that of a SCSI
 * Write by RDMA READs of the Write STag's (RFC 7145 §7.3.5-7.3.6); each is matched to its task by
 * that STag. Nothing is guessed without the CM exchange, unless {@code --decode-as} names the QP
 * ({@code infiniband.bth.destqp==Q,iser}) or every one ({@code infiniband,iser}, tshark's form): then
 * the content says whose QP it is ({@link #sentByInitiator}) and evidence pairs the two
 * ({@link #learnInitiator}, {@link #pairByTransfer}).
 */
final class IserDissector {
    /** The RETH's virtual address (IBTA 9.3.3), right after the BTH. */
    private static long rethVa(Dissection d, RdmaContext r) {
        return u64(d, r.bthStart + 12);
    }

    private static long u64(Dissection d, int at) {
        return d.u32(at) << 32 | d.u32(at + 4);
    }

    /** RETH's R_Key, right after the BTH (IBTA 9.3.3). */
    private static final int RETH_R_KEY = 12 + 8;
    /**
     * Wireshark 4.0 looks at a SEND only when it holds an iSER header and a whole BHS
     * (packet-iser.c, ISER_ISCSI_HDR_SZ); so do we, Hello messages included.
     */
    private static final int SMALLEST_PDU = Iser.HEADER_SIZE + Iser.BHS_SIZE;
    /** The Hello messages' version byte: MaxVer and MinVer 10 (RFC 5046 §9.4), as Wireshark requires. */
    private static final int HELLO_VERSION = 0xAA;
    /** iSCSI opcodes at or above this are the target's (RFC 7143 §11.2.1.2). */
    private static final int TARGET_OPCODES = 0x20;

    private IserDissector() {
    }

    /** CM: a REQ for port 3260 is pending; the REP answering it makes the QP pair an iSER connection. */
    static void cm(DissectorChain chain, Dissection d, int cmLayer) {
        HeaderType message = d.layerType(cmLayer);
        int at = d.layerStart(cmLayer);
        if (message == Cm.REQ) {
            if (!Cm.isTcpPortRequest(d, at, Iser.PORT)) {
                return;
            }
            IserSessions sessions = sessions(d, true);
            sessions.beginFrame(d.frame().number());
            sessions.request(d, at, 0);
        } else if (message == Cm.REP) {
            IserSessions sessions = sessions(d, false);
            if (sessions != null) {
                sessions.beginFrame(d.frame().number());
                sessions.reply(d, at);
            }
        }
    }

    /**
     * An RC payload {@code [offset, end)} on a known iSER connection, or to a QP {@code --decode-as}
     * chose; two lookups and no allocation otherwise.
     */
    static boolean payload(DissectorChain chain, Dissection d, int offset, int end) {
        RdmaContext r = d.rdma();
        int destQpn = d.u24(r.bthStart + 5);
        boolean chosen = chain.isPayloadDecodedAs(destQpn, Iser.ISER_PROTOCOL.abbrev());
        IserSessions sessions = sessions(d, chosen);
        if (sessions == null || (sessions.isEmpty() && !chosen)) {
            return false;
        }
        int opcode = r.opcode;
        if (opcode > READ_RESPONSE_ONLY && opcode != SEND_ONLY_WITH_INVALIDATE) {
            return false;
        }
        sessions.beginFrame(d.frame().number());
        IserSessions.Connection toTarget = sessions.toResponder(destQpn);
        IserSessions.Connection toInitiator = toTarget == null ? sessions.toRequester(destQpn) : null;
        if (toTarget == null && toInitiator == null) {
            if (!chosen) {
                return false;
            }
            if (isSend(opcode)) {
                if (end - offset < SMALLEST_PDU || offset + SMALLEST_PDU > d.capturedLength()) {
                    return false;
                }
                if (sentByInitiator(d, offset)) {
                    toTarget = sessions.learnResponder(destQpn, 0);
                } else {
                    toInitiator = learnInitiator(sessions, destQpn, d.u32(offset + Iser.HEADER_SIZE + 16));
                }
            } else {
                toInitiator = pairByTransfer(d, sessions, destQpn);
                if (toInitiator == null) {
                    return false;
                }
            }
        }
        if (isSend(opcode)) {
            return end - offset >= SMALLEST_PDU && offset + SMALLEST_PDU <= d.capturedLength()
                    && message(chain, d, toTarget != null ? toTarget : toInitiator, toTarget != null, offset, end);
        }
        if (toInitiator != null && opcode >= WRITE_FIRST && opcode <= WRITE_ONLY_WITH_IMMEDIATE) {
            IserSessions.Connection c = toInitiator;
            if (opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_WITH_IMMEDIATE) {
                c.writeSlot = c.findReadStag(d.u32(r.bthStart + RETH_R_KEY), rethVa(d, r));
            }
            transfer(d, c, c.writeSlot);
            Data.dissect(chain, d, offset, end);
            return true;
        }
        if (toInitiator != null && opcode == READ_REQUEST) {
            IserSessions.Connection c = toInitiator;
            c.readSlot = c.findWriteStag(d.u32(r.bthStart + RETH_R_KEY), rethVa(d, r));
            transfer(d, c, c.readSlot);
            return true;
        }
        if (toTarget != null && opcode >= READ_RESPONSE_FIRST && opcode <= READ_RESPONSE_ONLY) {
            IserSessions.Connection c = toTarget;
            transfer(d, c, c.readSlot);
            Data.dissect(chain, d, offset, end);
            return true;
        }
        return false;
    }

    private static boolean isSend(int opcode) {
        return opcode == SEND_ONLY || opcode == SEND_FIRST || opcode == SEND_ONLY_WITH_IMMEDIATE
                || opcode == SEND_ONLY_WITH_INVALIDATE;
    }

    /**
     * Whether the iSER message at {@code at} is one an initiator sends: a Hello (RFC 5046 §9.4), or an
     * iSCSI PDU whose opcode is an initiator's (RFC 7143 §11.2.1.2: the target's are 0x20 and above).
     * What {@code --decode-as} needs, with no CM exchange, to tell the target's QP from the initiator's.
     */
    private static boolean sentByInitiator(Dissection d, int at) {
        int iserOpcode = d.u8(at) >> 4;
        if (iserOpcode == Iser.OPCODE_HELLO || iserOpcode == Iser.OPCODE_HELLO_REPLY) {
            return iserOpcode == Iser.OPCODE_HELLO;
        }
        return (d.u8(at + Iser.HEADER_SIZE) & 0x3F) < TARGET_OPCODES;
    }

    /**
     * The connection a target's PDU to {@code destQpn} (a QP {@code --decode-as} chose) travels on:
     * the learnt connection whose initiator sent a task or PDU with its task tag, now knowing its
     * initiator's QP; else one of its own.
     */
    private static IserSessions.Connection learnInitiator(IserSessions sessions, int destQpn, long itt) {
        IserSessions.Connection c = sessions.unpaired(x -> x.findTask(itt) >= 0 || x.lastInitiatorTaskTag == itt);
        if (c == null) {
            return sessions.learnRequester(destQpn, 0);
        }
        c.requesterFound(destQpn);
        return c;
    }

    /**
     * An RDMA WRITE or READ Request to {@code destQpn}, a QP {@code --decode-as} chose: only a target
     * sends them, into or out of the buffer a task's Read or Write STag named (RFC 7145 §7.3.5-7.3.6),
     * so the learnt connection holding that task is the initiator's; null when none holds it.
     */
    private static IserSessions.Connection pairByTransfer(Dissection d, IserSessions sessions, int destQpn) {
        RdmaContext r = d.rdma();
        int opcode = r.opcode;
        long stag = d.u32(r.bthStart + RETH_R_KEY);
        long va = rethVa(d, r);
        IserSessions.Connection c;
        if (opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_WITH_IMMEDIATE) {
            c = sessions.unpaired(x -> x.findReadStag(stag, va) >= 0);
        } else if (opcode == READ_REQUEST) {
            c = sessions.unpaired(x -> x.findWriteStag(stag, va) >= 0);
        } else {
            return null;
        }
        if (c != null) {
            c.requesterFound(destQpn);
        }
        return c;
    }

    /** A SEND's iSER message; false (nothing added) when its bytes are not one RFC 7145 allows. */
    private static boolean message(DissectorChain chain, Dissection d, IserSessions.Connection c, boolean toTarget,
                                   int offset, int end) {
        int flags = d.u8(offset);
        int iserOpcode = flags >> 4;
        if (iserOpcode == Iser.OPCODE_HELLO || iserOpcode == Iser.OPCODE_HELLO_REPLY) {
            // Hello from the initiator, HelloReply from the target (RFC 5046 §9.4); REJ only in a reply.
            boolean fromInitiator = toTarget;
            if (d.u8(offset + 1) != HELLO_VERSION || (iserOpcode == Iser.OPCODE_HELLO) != fromInitiator
                    || (flags & (iserOpcode == Iser.OPCODE_HELLO ? 0x0F : 0x0E)) != 0) {
                return false;
            }
            d.add(iserOpcode == Iser.OPCODE_HELLO ? Iser.HELLO : Iser.HELLO_REPLY, offset, 4);
            return true;
        }
        int bhs = offset + Iser.HEADER_SIZE;
        int iscsiOpcode = d.u8(bhs) & 0x3F;
        if (iserOpcode != Iser.OPCODE_ISCSI_CONTROL || (flags & 0x03) != 0
                || d.u8(offset + 1) != 0 || d.u16(offset + 2) != 0
                || (iscsiOpcode >= TARGET_OPCODES) == toTarget) {
            return false;
        }
        d.add(Iser.CONTROL, offset, Iser.HEADER_SIZE);
        long frame = d.frame().number();
        long itt = d.u32(bhs + 16);
        if (toTarget) {
            c.lastInitiatorTaskTag = itt;
        }
        switch (iscsiOpcode) {
            case Iser.SCSI_COMMAND -> {
                int cdb = bhs + 32;
                int cdbOpcode = d.u8(cdb);
                long readStag = (flags & Iser.RSV) != 0 ? d.u32(offset + 16) : -1;
                long writeStag = (flags & Iser.WSV) != 0 ? d.u32(offset + 4) : -1;
                // The iSER header's base offsets (RFC 7145 §9.2) and the expected data transfer length.
                c.task(itt, frame, cdbOpcode, d.u16(bhs + 8), readStag, u64(d, offset + 20), writeStag,
                        u64(d, offset + 8), d.u32(bhs + 20));
                d.add(Iser.COMMAND, bhs, Iser.BHS_SIZE);
                cdb(d, cdb, cdbOpcode);
            }
            case Iser.SCSI_RESPONSE -> {
                d.add(Iser.RESPONSE, bhs, Iser.BHS_SIZE);
                int slot = c.findTask(itt);
                if (slot >= 0) {
                    context(d, Iser.FLAG_MATCHED, c.cdbOpcode(slot), c.lun(slot), c.frame(slot));
                }
                if (IserInfo.showsScsiStatus(d, bhs)) {
                    d.add(Iser.SCSI_STATUS_LAYER, bhs + 3, 1);
                }
            }
            case Iser.LOGIN -> d.add(Iser.LOGIN_REQUEST, bhs, Iser.BHS_SIZE);
            case Iser.LOGIN_RESPONSE -> d.add(Iser.LOGIN_RESPONSE_PDU, bhs, Iser.BHS_SIZE);
            case Iser.NOP_OUT -> d.add(Iser.NOP_OUT_PDU, bhs, Iser.BHS_SIZE);
            case Iser.NOP_IN -> d.add(Iser.NOP_IN_PDU, bhs, Iser.BHS_SIZE);
            case Iser.TASK_MANAGEMENT -> d.add(Iser.TASK_REQUEST, bhs, Iser.BHS_SIZE);
            case Iser.TASK_MANAGEMENT_RESPONSE -> d.add(Iser.TASK_RESPONSE, bhs, Iser.BHS_SIZE);
            default -> d.add(Iser.OTHER_PDU, bhs, Iser.BHS_SIZE);
        }
        return true;
    }

    /** The CDB's SBC fields: READ/WRITE(10) and (16) in full, any other command by its opcode. */
    private static void cdb(Dissection d, int cdb, int cdbOpcode) {
        if (cdbOpcode == Iser.READ_10 || cdbOpcode == Iser.WRITE_10) {
            d.add(Iser.CDB_RW10, cdb, 10);
            d.add(Iser.SBC_GROUP, cdb + Iser.RW10_GROUP_AT, 1);
            d.add(Iser.CDB_CONTROL, cdb + Iser.RW10_CONTROL_AT, 1);
        } else if (cdbOpcode == Iser.READ_16 || cdbOpcode == Iser.WRITE_16) {
            d.add(Iser.CDB_RW16, cdb, 16);
            d.add(Iser.SBC_GROUP, cdb + Iser.RW16_GROUP_AT, 1);
            d.add(Iser.CDB_CONTROL, cdb + Iser.RW16_CONTROL_AT, 1);
        } else {
            d.add(Iser.CDB_OTHER, cdb, 16);
        }
    }

    /** The task an RDMA transfer serves ({@code slot} -1: no command seen with its STag). */
    private static void transfer(Dissection d, IserSessions.Connection c, int slot) {
        if (slot < 0) {
            context(d, 0, 0, 0, 0);
        } else {
            context(d, Iser.FLAG_MATCHED, c.cdbOpcode(slot), c.lun(slot), c.frame(slot));
        }
    }

    /** Writes the context record ({@link Iser#CONTEXT}) past the frame and adds its layer. */
    private static void context(Dissection d, int flags, int cdbOpcode, int lun, long requestFrame) {
        byte[] record = d.rdma().scratch();
        record[Iser.CTX_FLAGS] = (byte) flags;
        record[Iser.CTX_CDB_OPCODE] = (byte) cdbOpcode;
        record[Iser.CTX_LUN] = (byte) (lun >> 8);
        record[Iser.CTX_LUN + 1] = (byte) lun;
        for (int i = 0; i < 4; i++) {
            record[Iser.CTX_REQUEST_FRAME + i] = (byte) (requestFrame >> (24 - 8 * i));
        }
        int at = d.addReassembled(record, 0, Iser.CTX_SIZE);
        d.add(Iser.CONTEXT, at, Iser.CTX_SIZE);
    }

    private static IserSessions sessions(Dissection d, boolean create) {
        if (create) {
            return StreamState.of(d).get(IserSessions.class, IserSessions::new);
        }
        return StreamState.peek(d, IserSessions.class);
    }
}
