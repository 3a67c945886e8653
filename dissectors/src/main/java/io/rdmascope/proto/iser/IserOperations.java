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
        StreamState s = StreamState.peek(d);
        IserSessions sessions = s == null ? null : s.peek(IserSessions.class);
        IserSessions.Connection c = sessions == null ? null : sessions.to(d.u24(d.rdma().bthStart + 5));
        if (c == null) {
            return;
        }
        OperationEvents.Queue queue = new OperationEvents.Queue(Iser.ISER_PROTOCOL.abbrev(), "", c.initiatorQpn,
                c.targetQpn);
        if (response) {
            out.response(new OperationEvents.Response(queue, itt, failure(d, opcode, bhs)));
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

    /** Null for success; the iSCSI response, SCSI status, login status or TMF response otherwise, in tshark's words. */
    private static String failure(Dissection d, int opcode, int bhs) {
        if (opcode == Iser.SCSI_RESPONSE) {
            int response = d.u8(bhs + 2);
            int status = d.u8(bhs + 3);
            if (response != 0) {
                return "iSCSI response " + named(Iser.RSP_RESPONSE.valueNames(), response);
            }
            return status == 0 ? null : "SCSI status " + named(Iser.RSP_STATUS.valueNames(), status);
        }
        if (opcode == Iser.LOGIN_RESPONSE) {
            int status = d.u16(bhs + 36);
            return status == 0 ? null : "Login status " + named(Iser.LOGIN_STATUS_NAMES, status);
        }
        if (opcode == Iser.TASK_MANAGEMENT_RESPONSE) {
            int response = d.u8(bhs + 2);
            return response == 0 ? null : "TMF response " + named(Iser.TMF_RESPONSE.valueNames(), response);
        }
        return null;
    }

    private static String named(ValueNames names, int value) {
        String name = names == null ? null : names.nameOf(value);
        return name != null ? name + String.format(" (0x%02x)", value) : String.format("0x%02x", value);
    }

    private static long address(Dissection d, int at) {
        return d.u32(at) << 32 | d.u32(at + 4);
    }
}
