package io.rdmascope.proto.iser;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule.Columns;
import io.rdmascope.field.HeaderType;

/**
 * The Protocol and Info text of an iSER message, in Wireshark 4.0's words (packet-iser.c,
 * packet-iscsi.c, packet-scsi.c, packet-scsi-sbc.c): "iSCSI" and the PDU ("NOP Out", "Login Response
 * (Success)", "Task Management Function (Abort Task)"), a SCSI Command as "SCSI: Read(10) LUN: 0x00
 * (LBA: 0x00001000, Len: 4)", its response as "SCSI: Response LUN: 0x00 (Read(10)) (Good)"; "iSER"
 * and "iSER Hello" / "iSER HelloRply" for the Hello messages.
 */
final class IserInfo {
    static final String ISCSI_COLUMN = "iSCSI";
    static final String ISER_COLUMN = "iSER";
    /** SAM-5 status CHECK CONDITION: Wireshark words its response apart when no sense data follows. */
    private static final int CHECK_CONDITION = 0x02;

    private IserInfo() {
    }

    /**
     * Whether Wireshark's SCSI layer shows this response's status: not for a CHECK CONDITION without
     * sense data, which packet-iscsi.c words as a bare "SCSI Response (Check Condition)".
     */
    static boolean showsScsiStatus(Dissection d, int bhs) {
        return d.u8(bhs + 3) != CHECK_CONDITION || d.u24(bhs + 5) != 0;
    }

    /** Protocol column and Info for the frame's iSER layers, or null when it has none that speak. */
    static Columns columns(Dissection d) {
        if (d.find(Iser.HELLO) >= 0) {
            return new Columns(ISER_COLUMN, "iSER Hello");
        }
        if (d.find(Iser.HELLO_REPLY) >= 0) {
            return new Columns(ISER_COLUMN, "iSER HelloRply");
        }
        int pdu = pduLayer(d);
        if (pdu < 0) {
            return null;
        }
        int bhs = d.layerStart(pdu);
        HeaderType type = d.layerType(pdu);
        String opcode = Iser.ISCSI_OPCODE_NAMES.nameOf(d.u8(bhs) & 0x3F);
        String text;
        if (type == Iser.COMMAND) {
            text = command(d, bhs);
        } else if (type == Iser.RESPONSE) {
            text = response(d, bhs);
        } else if (type == Iser.LOGIN_RESPONSE_PDU) {
            int status = d.u16(bhs + 36);
            text = opcode + " (" + named(Iser.LOGIN_STATUS_NAMES.nameOf(status), status) + ")";
        } else if (type == Iser.TASK_REQUEST) {
            int function = d.u8(bhs + 1) & 0x7F;
            text = opcode + " (" + named(Iser.TMF_FUNCTION.valueNames().nameOf(function), function) + ")";
        } else if (type == Iser.TASK_RESPONSE) {
            int response = d.u8(bhs + 2);
            text = opcode + " (" + named(Iser.TMF_RESPONSE.valueNames().nameOf(response), response) + ")";
        } else {
            text = opcode != null ? opcode : "0x" + Integer.toHexString(d.u8(bhs) & 0x3F);
        }
        return new Columns(ISCSI_COLUMN, text);
    }

    /** "SCSI: Read(10) LUN: 0x00 (LBA: 0x00001000, Len: 4)": the LBA in hex for (10), decimal for (16). */
    private static String command(Dissection d, int bhs) {
        int cdb = bhs + 32;
        int cdbOpcode = d.u8(cdb);
        StringBuilder sb = new StringBuilder("SCSI: ").append(cdbName(cdbOpcode)).append(" LUN: ")
                .append(hex2(d.u8(bhs + 9))).append(' ');
        if (cdbOpcode == Iser.READ_10 || cdbOpcode == Iser.WRITE_10) {
            sb.append(String.format("(LBA: 0x%08x, Len: %d)", d.u32(cdb + 2), d.u16(cdb + 7)));
        } else if (cdbOpcode == Iser.READ_16 || cdbOpcode == Iser.WRITE_16) {
            sb.append("(LBA: ").append(Long.toUnsignedString(d.u32(cdb + 2) << 32 | d.u32(cdb + 6))).append(", Len: ")
                    .append(d.u32(cdb + 10)).append(')');
        }
        return sb.toString().stripTrailing();
    }

    /**
     * "SCSI: Response LUN: 0x00 (Read(10)) (Good)" when the command was seen; Wireshark's
     * "LUN: 0xffff (CDB:0xffff)" when it was not; "SCSI Response (Check Condition)" without sense data.
     */
    private static String response(Dissection d, int bhs) {
        int status = d.u8(bhs + 3);
        String statusName = named(Iser.RSP_STATUS.valueNames().nameOf(status), status);
        if (!showsScsiStatus(d, bhs)) {
            return "SCSI Response (" + statusName + ")";
        }
        int ctx = d.find(Iser.CONTEXT);
        boolean matched = ctx >= 0 && (d.u8(d.layerStart(ctx) + Iser.CTX_FLAGS) & Iser.FLAG_MATCHED) != 0;
        if (!matched) {
            return "SCSI: Response LUN: 0xffff (CDB:0xffff) (" + statusName + ")";
        }
        int at = d.layerStart(ctx);
        return "SCSI: Response LUN: " + hex2(d.u8(at + Iser.CTX_LUN + 1)) + " ("
                + cdbName(d.u8(at + Iser.CTX_CDB_OPCODE)) + ") (" + statusName + ")";
    }

    private static String cdbName(int opcode) {
        String name = Iser.SBC_OPCODE_NAMES.nameOf(opcode);
        return name != null ? name : String.format("0x%02x", opcode);
    }

    private static String named(String name, int value) {
        return name != null ? name : "0x" + Integer.toHexString(value);
    }

    private static String hex2(int value) {
        return String.format("0x%02x", value);
    }

    /** The frame's iSCSI PDU layer, or -1. */
    private static int pduLayer(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            HeaderType h = d.layerType(i);
            if (h.protocol() == Iser.ISCSI_PROTOCOL && h.isProtocolHeader()) {
                return i;
            }
        }
        return -1;
    }
}
