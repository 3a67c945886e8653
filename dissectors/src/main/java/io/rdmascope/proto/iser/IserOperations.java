package io.rdmascope.proto.iser;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.ValueNames;

import java.util.ArrayList;
import java.util.List;

/**
 * iSER's part of the operation view: an initiator's iSCSI request PDU (SCSI Command, Task Management,
 * Login, Text, Logout, NOP-Out) is a command, identified by its initiator task tag; the target's
 * response PDU with the same tag ends it (RFC 7143 §11). A SCSI Command's Read and Write STags with
 * their base offsets (RFC 7145 §9.2) are the buffers its RDMA WRITEs and READs use, as long as the
 * expected data transfer length.
 */
final class IserOperations {
    /** RFC 7143 §11.2.1.8: a PDU that answers no task carries this tag (an unsolicited NOP-In, a Reject). */
    private static final long RESERVED_TAG = 0xFFFFFFFFL;
    private static final int TEXT = 0x04;
    private static final int LOGOUT = 0x06;
    private static final int TEXT_RESPONSE = 0x24;
    private static final int LOGOUT_RESPONSE = 0x26;

    private IserOperations() {
    }

    static void extract(Dissection d, OperationEvents out) {
        int control = d.find(Iser.CONTROL);
        if (control < 0 || control + 1 >= d.layerCount() || !d.rdma().isRdma()) {
            return;
        }
        int bhs = d.layerStart(control + 1);
        int opcode = d.u8(bhs) & 0x3F;
        long itt = d.u32(bhs + 16);
        boolean request = opcode == Iser.NOP_OUT || opcode == Iser.SCSI_COMMAND || opcode == Iser.TASK_MANAGEMENT
                || opcode == Iser.LOGIN || opcode == TEXT || opcode == LOGOUT;
        boolean response = opcode == Iser.NOP_IN || opcode == Iser.SCSI_RESPONSE
                || opcode == Iser.TASK_MANAGEMENT_RESPONSE || opcode == Iser.LOGIN_RESPONSE || opcode == TEXT_RESPONSE
                || opcode == LOGOUT_RESPONSE;
        if (itt == RESERVED_TAG || !(request || response)) {
            return;
        }
        IserSessions sessions = StreamState.peek(d, IserSessions.class);
        IserSessions.Connection c = sessions == null ? null : sessions.to(d.u24(d.rdma().bthStart + 5));
        if (c == null) {
            return;
        }
        OperationEvents.Queue queue = new OperationEvents.Queue(Iser.ISER_PROTOCOL.abbrev(), "", c.initiatorQpn,
                c.targetQpn);
        if (response) {
            Failure f = failure(d, opcode, bhs);
            out.response(new OperationEvents.Response(queue, itt, f == null ? null : f.name(),
                    f == null ? null : (long) f.code()));
            return;
        }
        String name;
        long size = 0;
        List<OperationEvents.Buffer> buffers = List.of();
        if (opcode == Iser.SCSI_COMMAND) {
            int cdbOpcode = d.u8(bhs + 32);
            String cdbName = Iser.SBC_OPCODE_NAMES.nameOf(cdbOpcode);
            name = cdbName != null ? cdbName : String.format("0x%02x", cdbOpcode);
            size = d.u32(bhs + 20); // Expected Data Transfer Length (RFC 7143 §11.3.4)
            int iser = d.layerStart(control);
            int flags = d.u8(iser);
            buffers = new ArrayList<>(2);
            if ((flags & Iser.RSV) != 0) {
                buffers.add(new OperationEvents.Buffer(d.u32(iser + 16), address(d, iser + 20), size));
            }
            if ((flags & Iser.WSV) != 0) {
                buffers.add(new OperationEvents.Buffer(d.u32(iser + 4), address(d, iser + 8), size));
            }
        } else {
            name = Iser.ISCSI_OPCODE_NAMES.nameOf(opcode);
        }
        out.command(new OperationEvents.Command(queue, itt, String.format("0x%08x", itt), name, size, buffers));
    }

    /** Why a response failed: the name tshark's value strings give the value, and the value. */
    private record Failure(String name, int code) {
    }

    /**
     * Null for success; otherwise a non-zero iSCSI response ({@code iscsi.scsiresponse.response}), else
     * the SCSI status ({@code scsi.status}: "Check Condition"; RFC 7143 §11.4.2: with a non-zero
     * response the status is not valid), the login status class and detail ({@code iscsi.login.status},
     * §11.13.5) or the TMF response ({@code iscsi.tmf.response}, §11.6.1).
     */
    private static Failure failure(Dissection d, int opcode, int bhs) {
        ValueNames names;
        int code;
        if (opcode == Iser.SCSI_RESPONSE) {
            int response = d.u8(bhs + 2);
            names = response != 0 ? Iser.RSP_RESPONSE.valueNames() : Iser.RSP_STATUS.valueNames();
            code = response != 0 ? response : d.u8(bhs + 3);
        } else if (opcode == Iser.LOGIN_RESPONSE) {
            names = Iser.LOGIN_STATUS_NAMES;
            code = d.u16(bhs + 36);
        } else if (opcode == Iser.TASK_MANAGEMENT_RESPONSE) {
            names = Iser.TMF_RESPONSE.valueNames();
            code = d.u8(bhs + 2);
        } else {
            return null;
        }
        return code == 0 ? null : new Failure(named(names, code), code);
    }

    private static String named(ValueNames names, int value) {
        String name = names == null ? null : names.nameOf(value);
        return name != null ? name : String.format("0x%02x", value);
    }

    private static long address(Dissection d, int at) {
        return d.u32(at) << 32 | d.u32(at + 4);
    }
}
