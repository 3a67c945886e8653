package io.rdmascope.proto.iser;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * iSER (iSCSI Extensions for RDMA, RFC 7145, and its predecessor RFC 5046 as Wireshark 4.0 decodes
 * both) and the iSCSI PDUs it carries (RFC 7143), with the SCSI command descriptor block of a SCSI
 * Command (SPC-4, SBC-3): the field declarations, with Wireshark 4.0's names ({@code iser.*},
 * {@code iscsi.*}, {@code scsi.*}, {@code scsi_sbc.*}). Everything is big-endian, as iSCSI is.
 *
 * <p>Every iSCSI opcode has a header type of its own (the basic header segment laid out for it),
 * so a field name sits at one offset in every header that declares it. What the dissector learns
 * from earlier frames (the command a response or a data transfer serves) is written as a small
 * record past the frame ({@link #CONTEXT}), as NVMe-oF does.
 */
public final class Iser {
    public static final Protocol ISER_PROTOCOL = new Protocol("iser", "iSCSI Extensions for RDMA");
    public static final Protocol ISCSI_PROTOCOL = new Protocol("iscsi", "iSCSI");
    public static final Protocol SCSI_PROTOCOL = new Protocol("scsi", "SCSI");
    /** Wireshark files the block commands' fields under {@code scsi_sbc} inside its SCSI tree. */
    public static final Protocol SBC_PROTOCOL = new Protocol("scsi_sbc", "SCSI SBC");

    /** IANA iSCSI port (RFC 7143 §13.6); iSER asks RDMA-CM for the same (RFC 7145 §5.1). */
    public static final int PORT = 3260;
    /** iSER header (RFC 7145 §9.2): flags byte, 3 reserved, write STag and VA, read STag and VA. */
    public static final int HEADER_SIZE = 28;
    /** The iSCSI basic header segment (RFC 7143 §11.2). */
    public static final int BHS_SIZE = 48;

    // ---- iSER header (RFC 7145 §9.2, §9.3; RFC 5046 §9.2 for the Hello messages) ----
    public static final int OPCODE_ISCSI_CONTROL = 0x1;
    public static final int OPCODE_HELLO = 0x2;
    public static final int OPCODE_HELLO_REPLY = 0x3;
    public static final int WSV = 0x08;
    public static final int RSV = 0x04;
    private static final ValueNames ISER_OPCODE_NAMES = ValueNames.of(OPCODE_ISCSI_CONTROL, "iSCSI Control-Type PDU",
            OPCODE_HELLO, "iSER Hello Message", OPCODE_HELLO_REPLY, "iSER HelloReply Message");
    public static final Field FLAGS = Field.uint8("iser.flags", "Flags", 0).hex();
    public static final Field OPCODE = Field.uint8("iser.flags.opcode", "Opcode", 0).mask(0xF0).hex()
            .names(ISER_OPCODE_NAMES);
    public static final Field FLAG_WSV = Field.bool("iser.flags.wsv", "WSV", 0, 1, WSV);
    public static final Field FLAG_RSV = Field.bool("iser.flags.rsv", "RSV", 0, 1, RSV);
    public static final Field FLAG_REJ = Field.bool("iser.flags.rej", "REJ", 0, 1, 0x01);
    public static final Field WRITE_STAG = Field.uint32("iser.write_stag", "Write STag", 4).hex();
    public static final Field WRITE_VA = Field.uint64("iser.write_base_offset", "Write Base Offset", 8).hex();
    public static final Field READ_STAG = Field.uint32("iser.read_stag", "Read STag", 16).hex();
    public static final Field READ_VA = Field.uint64("iser.read_base_offset", "Read Base Offset", 20).hex();
    public static final Field IRD = Field.uint16("iser.ird", "iSER-IRD", 2).hex();
    public static final Field ORD = Field.uint16("iser.ord", "iSER-ORD", 2).hex();
    /** An iSCSI control-type PDU's iSER header. */
    public static final HeaderType CONTROL = new HeaderType("iser", ISER_PROTOCOL.name(), ISER_PROTOCOL,
            FieldType.PROTOCOL, List.of(FLAGS, OPCODE, FLAG_WSV, FLAG_RSV, WRITE_STAG, WRITE_VA, READ_STAG, READ_VA));
    /** The Hello and HelloReply of RFC 5046 §9.2 (iWARP's connection set-up; Wireshark decodes them anywhere). */
    public static final HeaderType HELLO = new HeaderType("iser", ISER_PROTOCOL.name(), ISER_PROTOCOL,
            FieldType.PROTOCOL, List.of(FLAGS, OPCODE, IRD));
    public static final HeaderType HELLO_REPLY = new HeaderType("iser", ISER_PROTOCOL.name(), ISER_PROTOCOL,
            FieldType.PROTOCOL, List.of(FLAGS, OPCODE, FLAG_REJ, ORD));

    // ---- iSCSI basic header segment (RFC 7143 §11) ----
    public static final int NOP_OUT = 0x00;
    public static final int SCSI_COMMAND = 0x01;
    public static final int TASK_MANAGEMENT = 0x02;
    public static final int LOGIN = 0x03;
    public static final int NOP_IN = 0x20;
    public static final int SCSI_RESPONSE = 0x21;
    public static final int TASK_MANAGEMENT_RESPONSE = 0x22;
    public static final int LOGIN_RESPONSE = 0x23;
    /** Opcode names as Wireshark 4.0's Info column prints them. */
    public static final ValueNames ISCSI_OPCODE_NAMES = ValueNames.of(NOP_OUT, "NOP Out", SCSI_COMMAND, "SCSI Command",
            TASK_MANAGEMENT, "Task Management Function", LOGIN, "Login Command", 0x04, "Text Command",
            0x05, "SCSI Data Out", 0x06, "Logout Command", 0x10, "SNACK Request", NOP_IN, "NOP In",
            SCSI_RESPONSE, "SCSI Response", TASK_MANAGEMENT_RESPONSE, "Task Management Function Response",
            LOGIN_RESPONSE, "Login Response", 0x24, "Text Response", 0x25, "SCSI Data In", 0x26, "Logout Response",
            0x31, "Ready To Transfer", 0x32, "Asynchronous Message", 0x3F, "Reject");
    private static final ValueNames TMF_FUNCTION_NAMES = ValueNames.of(1, "Abort Task", 2, "Abort Task Set",
            3, "Clear ACA", 4, "Clear Task Set", 5, "Logical Unit Reset", 6, "Target Warm Reset",
            7, "Target Cold Reset", 8, "Target Reassign");
    private static final ValueNames TMF_RESPONSE_NAMES = ValueNames.of(0, "Function complete",
            1, "Task not in task set", 2, "LUN does not exist", 3, "Task still allegiant",
            4, "Task failover not supported", 5, "Task management function not supported",
            6, "Authorisation failed", 255, "Function rejected");
    private static final ValueNames SCSI_STATUS_NAMES = ValueNames.of(0x00, "Good", 0x02, "Check Condition",
            0x04, "Condition Met", 0x08, "Busy", 0x10, "Intermediate", 0x14, "Intermediate Condition Met",
            0x18, "Reservation Conflict", 0x22, "Command Terminated", 0x28, "Task Set Full", 0x30, "ACA Active",
            0x40, "Task Aborted");
    private static final ValueNames SCSI_RESPONSE_NAMES = ValueNames.of(0, "Command completed at target",
            1, "Response does not follow");
    private static final ValueNames LOGIN_STAGE_NAMES = ValueNames.of(0, "Security negotiation",
            1, "Operational negotiation", 3, "Full feature phase");
    static final ValueNames LOGIN_STATUS_NAMES = ValueNames.of(0x0000, "Success", 0x0101, "Target moved temporarily",
            0x0102, "Target moved permanently", 0x0200, "Initiator error", 0x0201, "Authentication failed",
            0x0202, "Authorisation failure", 0x0203, "Target not found", 0x0204, "Target removed",
            0x0205, "Unsupported version", 0x0206, "Too many connections", 0x0207, "Missing parameter",
            0x0208, "Can't include in session", 0x0209, "Session type not supported",
            0x020a, "Session does not exist", 0x020b, "Invalid request during login", 0x0300, "Target error",
            0x0301, "Service unavailable", 0x0302, "Out of resources");

    public static final Field ISCSI_OPCODE = Field.uint8("iscsi.opcode", "Opcode", 0).mask(0x3F).hex()
            .names(ISCSI_OPCODE_NAMES);
    public static final Field ISCSI_I = Field.bool("iscsi.I", "I", 0, 1, 0x40);
    public static final Field ISCSI_FLAGS = Field.uint8("iscsi.flags", "Flags", 1).hex();
    public static final Field TOTAL_AHS_LENGTH = Field.uint8("iscsi.totalahslength", "TotalAHSLength", 4)
            .base(Base.DEC_HEX);
    public static final Field DATA_SEGMENT_LENGTH = Field.uint24("iscsi.datasegmentlength", "DataSegmentLength", 5)
            .printedAs(FieldType.UINT32).base(Base.DEC_HEX);
    public static final Field ITT = Field.uint32("iscsi.initiatortasktag", "InitiatorTaskTag", 16).hex();
    public static final Field TTT = Field.uint32("iscsi.targettransfertag", "TargetTransferTag", 20).hex();
    public static final Field CMDSN = Field.uint32("iscsi.cmdsn", "CmdSN", 24).base(Base.DEC_HEX);
    public static final Field EXPSTATSN = Field.uint32("iscsi.expstatsn", "ExpStatSN", 28).base(Base.DEC_HEX);
    public static final Field STATSN = Field.uint32("iscsi.statsn", "StatSN", 24).base(Base.DEC_HEX);
    public static final Field EXPCMDSN = Field.uint32("iscsi.expcmdsn", "ExpCmdSN", 28).base(Base.DEC_HEX);
    public static final Field MAXCMDSN = Field.uint32("iscsi.maxcmdsn", "MaxCmdSN", 32).base(Base.DEC_HEX);

    // SCSI Command (RFC 7143 §11.3)
    public static final Field CMD_F = Field.bool("iscsi.scsicommand.F", "F", 1, 1, 0x80);
    public static final Field CMD_R = Field.bool("iscsi.scsicommand.R", "R", 1, 1, 0x40);
    public static final Field CMD_W = Field.bool("iscsi.scsicommand.W", "W", 1, 1, 0x20);
    public static final Field CMD_ATTR = Field.uint8("iscsi.scsicommand.attr", "Attr", 1).mask(0x07).hex()
            .names(ValueNames.of(0, "Untagged", 1, "Simple", 2, "Ordered", 3, "Head of Queue", 4, "ACA"));
    public static final Field EXPECTED_LENGTH = Field.uint32("iscsi.scsicommand.expecteddatatransferlength",
            "ExpectedDataTransferLength", 20).base(Base.DEC_HEX);
    public static final HeaderType COMMAND = pdu("SCSI Command", ISCSI_OPCODE, ISCSI_I, ISCSI_FLAGS, CMD_F, CMD_R, CMD_W,
            CMD_ATTR, TOTAL_AHS_LENGTH, DATA_SEGMENT_LENGTH, ITT, EXPECTED_LENGTH, CMDSN, EXPSTATSN);

    // SCSI Response (RFC 7143 §11.4)
    public static final Field RSP_o = Field.bool("iscsi.scsiresponse.o", "o", 1, 1, 0x10);
    public static final Field RSP_u = Field.bool("iscsi.scsiresponse.u", "u", 1, 1, 0x08);
    public static final Field RSP_O = Field.bool("iscsi.scsiresponse.O", "O", 1, 1, 0x04);
    public static final Field RSP_U = Field.bool("iscsi.scsiresponse.U", "U", 1, 1, 0x02);
    public static final Field RSP_RESPONSE = Field.uint8("iscsi.scsiresponse.response", "Response", 2).hex()
            .names(SCSI_RESPONSE_NAMES);
    public static final Field RSP_STATUS = Field.uint8("iscsi.scsiresponse.status", "Status", 3).hex()
            .names(SCSI_STATUS_NAMES);
    public static final Field EXPDATASN = Field.uint32("iscsi.expdatasn", "ExpDataSN", 36).hex();
    public static final Field BIDI_RESIDUAL = Field.uint32("iscsi.scsiresponse.bidireadresidualcount",
            "BidiReadResidualCount", 40).base(Base.DEC_HEX);
    public static final Field RESIDUAL = Field.uint32("iscsi.scsiresponse.residualcount", "ResidualCount", 44)
            .base(Base.DEC_HEX);
    public static final HeaderType RESPONSE = pdu("SCSI Response", ISCSI_OPCODE, ISCSI_FLAGS, RSP_o, RSP_u, RSP_O,
            RSP_U, RSP_RESPONSE, RSP_STATUS, TOTAL_AHS_LENGTH, DATA_SEGMENT_LENGTH, ITT, STATSN, EXPCMDSN, MAXCMDSN,
            EXPDATASN, BIDI_RESIDUAL, RESIDUAL);

    // Task Management Function Request and Response (RFC 7143 §11.5, §11.6)
    public static final Field TMF_FUNCTION = Field.uint8("iscsi.taskmanfun.function", "Function", 1).mask(0x7F).hex()
            .names(TMF_FUNCTION_NAMES);
    public static final Field TMF_REFERENCED_TASK = Field.uint32("iscsi.taskmanfun.referencedtasktag",
            "ReferencedTaskTag", 20).hex();
    public static final Field REFCMDSN = Field.uint32("iscsi.refcmdsn", "RefCmdSN", 32).base(Base.DEC_HEX);
    public static final Field TMF_RESPONSE = Field.uint8("iscsi.taskmanfun.response", "Response", 2).hex()
            .names(TMF_RESPONSE_NAMES);
    public static final HeaderType TASK_REQUEST = pdu("Task Management Function", ISCSI_OPCODE, ISCSI_I, TMF_FUNCTION,
            TOTAL_AHS_LENGTH, DATA_SEGMENT_LENGTH, ITT, TMF_REFERENCED_TASK, CMDSN, EXPSTATSN, REFCMDSN);
    /** Wireshark 4.0 shows neither length of a Task Management Function Response. */
    public static final HeaderType TASK_RESPONSE = pdu("Task Management Function Response", ISCSI_OPCODE,
            TMF_RESPONSE, ITT, STATSN, EXPCMDSN, MAXCMDSN);

    // NOP-Out and NOP-In (RFC 7143 §11.18, §11.19)
    /** Wireshark shows no flags item for a NOP-Out, a NOP-In or a Task Management request. */
    public static final HeaderType NOP_OUT_PDU = pdu("NOP Out", ISCSI_OPCODE, ISCSI_I, TOTAL_AHS_LENGTH,
            DATA_SEGMENT_LENGTH, ITT, TTT, CMDSN, EXPSTATSN);
    public static final HeaderType NOP_IN_PDU = pdu("NOP In", ISCSI_OPCODE, TOTAL_AHS_LENGTH,
            DATA_SEGMENT_LENGTH, ITT, TTT, STATSN, EXPCMDSN, MAXCMDSN);

    // Login Request and Response (RFC 7143 §11.12, §11.13)
    public static final Field LOGIN_T = Field.bool("iscsi.login.T", "T", 1, 1, 0x80);
    public static final Field LOGIN_C = Field.bool("iscsi.login.C", "C", 1, 1, 0x40);
    public static final Field LOGIN_CSG = Field.uint8("iscsi.login.csg", "CSG", 1).mask(0x0C).hex()
            .names(LOGIN_STAGE_NAMES);
    public static final Field LOGIN_NSG = Field.uint8("iscsi.login.nsg", "NSG", 1).mask(0x03).hex()
            .names(LOGIN_STAGE_NAMES);
    public static final Field VERSION_MAX = Field.uint8("iscsi.versionmax", "VersionMax", 2).hex();
    public static final Field VERSION_MIN = Field.uint8("iscsi.versionmin", "VersionMin", 3).hex();
    public static final Field VERSION_ACTIVE = Field.uint8("iscsi.versionactive", "VersionActive", 3).hex();
    public static final Field TSIH = Field.uint16("iscsi.tsih", "TSIH", 14).hex();
    public static final Field CID = Field.uint16("iscsi.cid", "CID", 20).hex();
    public static final Field LOGIN_STATUS = Field.uint16("iscsi.login.status", "Status", 36).hex()
            .names(LOGIN_STATUS_NAMES);
    /** The ISID (RFC 7143 §11.12.5) and its parts for the type-01 (random) layout Wireshark splits it into. */
    public static final Field ISID = Field.bytes("iscsi.isid", "ISID", 8, 6);
    public static final Field ISID_T = Field.uint8("iscsi.isid.t", "ISID_t", 8).mask(0xC0).hex();
    public static final Field ISID_A = Field.uint8("iscsi.isid.a", "ISID_a", 8).mask(0x3F).hex();
    public static final Field ISID_B = Field.uint16("iscsi.isid.b", "ISID_b", 9).hex();
    public static final Field ISID_C = Field.uint8("iscsi.isid.c", "ISID_c", 11).hex();
    public static final Field ISID_D = Field.uint16("iscsi.isid.d", "ISID_d", 12).hex();
    /**
     * Wireshark shows a login PDU's flags byte only as its T, C, CSG and NSG items, not as iscsi.flags,
     * and no I bit on a Login Command (always immediate, RFC 7143 §11.12).
     */
    public static final HeaderType LOGIN_REQUEST = pdu("Login Command", ISCSI_OPCODE, LOGIN_T,
            LOGIN_C, LOGIN_CSG, LOGIN_NSG, VERSION_MAX, VERSION_MIN, TOTAL_AHS_LENGTH, DATA_SEGMENT_LENGTH, ISID,
            ISID_T, ISID_A, ISID_B, ISID_C, ISID_D, TSIH, ITT, CID, CMDSN, EXPSTATSN);
    public static final HeaderType LOGIN_RESPONSE_PDU = pdu("Login Response", ISCSI_OPCODE, LOGIN_T,
            LOGIN_C, LOGIN_CSG, LOGIN_NSG, VERSION_MAX, VERSION_ACTIVE, TOTAL_AHS_LENGTH, DATA_SEGMENT_LENGTH, ISID,
            ISID_T, ISID_A, ISID_B, ISID_C, ISID_D, TSIH, ITT, STATSN, EXPCMDSN, MAXCMDSN, LOGIN_STATUS);

    /** Any other opcode: what every PDU has. */
    public static final HeaderType OTHER_PDU = pdu("PDU", ISCSI_OPCODE, ISCSI_FLAGS, TOTAL_AHS_LENGTH,
            DATA_SEGMENT_LENGTH, ITT);

    // ---- SCSI command descriptor block (SPC-4 §4.2; SBC-3 §5.11, §5.13, §5.31, §5.33) ----
    public static final int READ_10 = 0x28;
    public static final int WRITE_10 = 0x2A;
    public static final int READ_16 = 0x88;
    public static final int WRITE_16 = 0x8A;
    /** Block command names as Wireshark's Info prints them ("Read(10)"). */
    public static final ValueNames SBC_OPCODE_NAMES = ValueNames.of(0x00, "Test Unit Ready", 0x03, "Request Sense",
            0x08, "Read(6)", 0x0A, "Write(6)", 0x12, "Inquiry", 0x1A, "Mode Sense(6)", 0x25, "Read Capacity(10)",
            READ_10, "Read(10)", WRITE_10, "Write(10)", 0x35, "Synchronize Cache(10)", 0xA0, "Report LUNs",
            READ_16, "Read(16)", WRITE_16, "Write(16)", 0x9E, "Service Action In(16)");
    public static final Field SBC_OPCODE = Field.uint8("scsi_sbc.opcode", "SBC Opcode", 0).hex()
            .names(SBC_OPCODE_NAMES);
    private static final Field.Presence READS = (d, l) -> {
        int opcode = d.u8(d.layerStart(l));
        return opcode == READ_10 || opcode == READ_16;
    };
    /** Wireshark names byte 1 "read flags" for WRITE too; only its protect field changes. */
    public static final Field RW_FLAGS = Field.uint8("scsi_sbc.read.flags", "Flags", 1).hex();
    public static final Field RDPROTECT = Field.uint8("scsi_sbc.rdprotect", "RDPROTECT", 1).mask(0xE0).hex()
            .presentWhen(READS);
    public static final Field WRPROTECT = Field.uint8("scsi_sbc.wrprotect", "WRPROTECT", 1).mask(0xE0).hex()
            .presentWhen((d, l) -> !READS.test(d, l));
    public static final Field RW_DPO = Field.bool("scsi_sbc.dpo", "DPO", 1, 1, 0x10);
    public static final Field RW_FUA = Field.bool("scsi_sbc.fua", "FUA", 1, 1, 0x08);
    public static final Field RW_FUA_NV = Field.bool("scsi_sbc.fua_nv", "FUA_NV", 1, 1, 0x02);
    public static final Field RW10_LBA = Field.uint32("scsi_sbc.rdwr10.lba", "Logical Block Address (LBA)", 2);
    public static final Field RW10_LENGTH = Field.uint16("scsi_sbc.rdwr10.xferlen", "Transfer Length", 7);
    /** Wireshark shows READ(16)'s LBA as bytes and its length under the READ(12) name. */
    public static final Field RW16_LBA = Field.bytes("scsi_sbc.rdwr16.lba", "Logical Block Address (LBA)", 2, 8);
    public static final Field RW16_LENGTH = Field.uint32("scsi_sbc.rdwr12.xferlen", "Transfer Length", 10);
    /**
     * The group number and the control byte sit at different CDB offsets in READ(10) and READ(16);
     * one name has one offset here, so each is a small header of its own, placed where it lies.
     */
    public static final Field GROUP = Field.uint8("scsi_sbc.group", "Group", 0).mask(0x1F).hex();
    public static final Field CDB_CONTROL_BYTE = Field.uint8("scsi.cdb.control", "Control", 0).hex();
    public static final int RW10_GROUP_AT = 6;
    public static final int RW10_CONTROL_AT = 9;
    public static final int RW16_GROUP_AT = 14;
    public static final int RW16_CONTROL_AT = 15;
    /** The SBC fields of READ(10) and WRITE(10). */
    public static final HeaderType CDB_RW10 = HeaderType.group(SBC_PROTOCOL, "scsi_sbc.rdwr10", "Read/Write(10)",
            SBC_OPCODE, RW_FLAGS, RDPROTECT, WRPROTECT, RW_DPO, RW_FUA, RW_FUA_NV, RW10_LBA, RW10_LENGTH);
    public static final HeaderType CDB_RW16 = HeaderType.group(SBC_PROTOCOL, "scsi_sbc.rdwr16", "Read/Write(16)",
            SBC_OPCODE, RW_FLAGS, RDPROTECT, WRPROTECT, RW_DPO, RW_FUA, RW_FUA_NV, RW16_LBA, RW16_LENGTH);
    /** Any other CDB: its opcode only. */
    public static final HeaderType CDB_OTHER = HeaderType.group(SBC_PROTOCOL, "scsi_sbc.cdb", "CDB", SBC_OPCODE);
    public static final HeaderType SBC_GROUP = HeaderType.group(SBC_PROTOCOL, "scsi_sbc.grouping", "Group", GROUP);
    /** The control byte's parts (SAM-5 §5.2). */
    public static final Field CONTROL_VENDOR = Field.uint8("scsi.cdb.control.vendorspecific", "Vendor specific", 0)
            .mask(0xC0).hex();
    public static final Field CONTROL_RESERVED = Field.uint8("scsi.cdb.control.reserved", "Reserved", 0).mask(0x38)
            .hex();
    public static final Field CONTROL_NACA = Field.bool("scsi.cdb.control.naca", "NACA", 0, 1, 0x04);
    public static final Field CONTROL_OBS1 = Field.uint8("scsi.cdb.control.obs1", "Obsolete", 0).mask(0x02).hex();
    public static final Field CONTROL_OBS2 = Field.uint8("scsi.cdb.control.obs2", "Obsolete", 0).mask(0x01).hex();
    public static final HeaderType CDB_CONTROL = HeaderType.group(SCSI_PROTOCOL, "scsi.cdb", "Control",
            CDB_CONTROL_BYTE, CONTROL_VENDOR, CONTROL_RESERVED, CONTROL_NACA, CONTROL_OBS1, CONTROL_OBS2);
    public static final Field SCSI_STATUS = Field.uint8("scsi.status", "Status", 0).hex().names(SCSI_STATUS_NAMES);
    /** The SCSI status of a SCSI Response (the BHS's status byte, as Wireshark's SCSI layer repeats it). */
    public static final HeaderType SCSI_STATUS_LAYER = HeaderType.group(SCSI_PROTOCOL, "scsi.response", "SCSI Response",
            SCSI_STATUS);

    // ---- What earlier frames told (bytes past the frame) ----
    static final int CTX_FLAGS = 0;
    static final int CTX_CDB_OPCODE = 1;
    static final int CTX_LUN = 2;
    static final int CTX_REQUEST_FRAME = 4;
    static final int CTX_SIZE = 8;
    /** Flag bit: the SCSI Command a response or transfer serves was seen. */
    static final int FLAG_MATCHED = 1;

    /** "Request in": the SCSI Command a response or a data transfer serves (Wireshark's generated link). */
    public static final Field REQUEST_FRAME = Field.computed("iscsi.request_frame", "Request in", FieldType.FRAMENUM,
            Base.DEC, new Field.Computation() {
                @Override
                public long value(Dissection d, int layer) {
                    return d.u32(d.layerStart(layer) + CTX_REQUEST_FRAME);
                }

                @Override
                public boolean isPresent(Dissection d, int layer) {
                    return (d.u8(d.layerStart(layer) + CTX_FLAGS) & FLAG_MATCHED) != 0 && value(d, layer) != 0;
                }
            });
    /** What an earlier frame told this one: which task it serves. */
    public static final HeaderType CONTEXT = HeaderType.group(ISCSI_PROTOCOL, "iscsi.task", "Task", REQUEST_FRAME);

    public static final List<HeaderType> HEADERS = List.of(CONTROL, HELLO, HELLO_REPLY, COMMAND, RESPONSE,
            TASK_REQUEST, TASK_RESPONSE, NOP_OUT_PDU, NOP_IN_PDU, LOGIN_REQUEST, LOGIN_RESPONSE_PDU, OTHER_PDU,
            CDB_RW10, CDB_RW16, CDB_OTHER, SBC_GROUP, CDB_CONTROL, SCSI_STATUS_LAYER, CONTEXT);

    private Iser() {
    }

    private static HeaderType pdu(String name, Field... fields) {
        return new HeaderType("iscsi", "iSCSI (" + name + ")", ISCSI_PROTOCOL, FieldType.PROTOCOL, List.of(fields));
    }
}
