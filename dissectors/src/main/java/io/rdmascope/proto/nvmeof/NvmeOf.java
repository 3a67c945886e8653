package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * NVMe over Fabrics on RDMA: the field declarations. Three sources, all little-endian as NVMe is:
 * the RDMA transport binding's CM private data (NVMe-oF 1.1 §7.3.2, RDMA_CM_REQUEST and
 * RDMA_CM_ACCEPT), command capsules (a 64-byte submission queue entry, NVMe Base 2.0 §4.2, with
 * Fabrics commands per NVMe-oF §3.3 and SGL descriptors per NVMe Base §4.1.2) and response capsules
 * (a 16-byte completion queue entry, NVMe Base §4.2.2). Abbreviations are Wireshark 4.0's
 * ({@code nvme-rdma.*}, {@code nvme.*}); as Wireshark does, Fabrics commands use
 * {@code nvme.fabrics.cmd.*} and admin and I/O commands {@code nvme.cmd.*}.
 *
 * <p>What the dissector learns from earlier frames (the queue ID from the CM request, the command a
 * response answers) is written as a small record of bytes past the frame ({@link #CONTEXT}, through
 * {@link Dissection#addReassembled}), so that every later reader (text, filters, the GUI) reads it as
 * fields, without the state that produced it.
 */
public final class NvmeOf {
    public static final Protocol RDMA_PROTOCOL = new Protocol("nvme-rdma", "NVM Express Fabrics RDMA");
    public static final Protocol NVME_PROTOCOL = new Protocol("nvme", "NVM Express");

    /** IANA port of NVMe-oF (NVMe-oF 1.1 §7.3.1.2): the service ID an RDMA-CM connection asks for. */
    public static final int PORT = 4420;
    /** The Fabrics command opcode (NVMe-oF §3.3). */
    public static final int OPC_FABRICS = 0x7F;
    public static final int SQE_SIZE = 64;
    public static final int CQE_SIZE = 16;

    // ---- Fabrics command types (NVMe-oF 1.1 figure 14; Wireshark's names) ----
    public static final int FCTYPE_PROPERTY_SET = 0x00;
    public static final int FCTYPE_CONNECT = 0x01;
    public static final int FCTYPE_PROPERTY_GET = 0x04;
    public static final int FCTYPE_AUTH_SEND = 0x05;
    public static final int FCTYPE_AUTH_RECV = 0x06;
    public static final int FCTYPE_DISCONNECT = 0x08;
    public static final ValueNames FCTYPE_NAMES = ValueNames.of(FCTYPE_PROPERTY_SET, "Property Set",
            FCTYPE_CONNECT, "Connect", FCTYPE_PROPERTY_GET, "Property Get", FCTYPE_AUTH_SEND, "Authentication Send",
            FCTYPE_AUTH_RECV, "Authentication Recv", FCTYPE_DISCONNECT, "Disconnect");

    /** Admin opcodes (NVMe Base 2.0 figure 28), in Wireshark 4.0's words. */
    public static final int OPC_IDENTIFY = 0x06;
    public static final int OPC_SET_FEATURES = 0x09;
    public static final int OPC_IO_WRITE = 0x01;
    public static final int OPC_IO_READ = 0x02;
    public static final ValueNames ADMIN_OPCODE_NAMES = ValueNames.of(0x00, "Delete SQ", 0x01, "Create SQ",
            0x02, "Get Log Page", 0x04, "Delete CQ", 0x05, "Create CQ", OPC_IDENTIFY, "Identify", 0x08, "Abort",
            0x09, "Set Features", 0x0A, "Get Features", 0x0C, "Async Event Request", 0x0D, "Namespace Management",
            0x10, "Firmware Commit", 0x11, "Firmware Image Download", 0x15, "Namespace attach", 0x18, "Keep Alive");
    /** NVM command set I/O opcodes (NVM Command Set 1.0 figure 17). */
    public static final ValueNames IO_OPCODE_NAMES = ValueNames.of(0x00, "Flush", 0x01, "Write", 0x02, "Read",
            0x04, "Write Uncorrectable", 0x05, "Compare", 0x08, "Write Zeroes", 0x09, "Dataset Management",
            0x0D, "Reservation Register", 0x0E, "Reservation Report", 0x11, "Reservation Acquire",
            0x15, "Reservation Release");
    /** Identify's Controller or Namespace Structure (NVMe Base 2.0 figure 273). */
    public static final ValueNames CNS_NAMES = ValueNames.of(0x00, "Namespace", 0x01, "Controller",
            0x02, "Active Namespace List", 0x03, "Namespace Identification Descriptor", 0x04, "NVM Set List",
            0x10, "Allocated Namespace ID List", 0x11, "Namespace Data Structure",
            0x12, "Controller List Attached to NSID", 0x13, "Existing Controllers List",
            0x14, "Primary Controller Capabilities", 0x15, "Secondary Controller List",
            0x16, "Namespace Granularity List", 0x17, "UUID List");
    /** Controller properties by offset (NVMe-oF 1.1 figure 9, NVMe Base §3.1), as Wireshark's Info names them. */
    public static final ValueNames PROPERTY_NAMES = ValueNames.of(0x00, "Controller Capabilities", 0x08, "Version",
            0x0C, "Interrupt Vector Mask Set", 0x10, "Interrupt Vector Mask Clear",
            0x14, "Controller Configuration", 0x1C, "Controller Status", 0x20, "NVM Subsystem Reset");
    private static final ValueNames PRIORITY_CLASS_NAMES = ValueNames.of(0, "Urgent", 1, "High", 2, "Medium",
            3, "Low");
    private static final ValueNames SGL_TYPE_NAMES = ValueNames.of(0, "Data Block", 1, "Bit Bucket", 2, "Segment",
            3, "Last Segment", 4, "Keyed Data Block", 15, "Vendor Specific");
    static final ValueNames SCT_NAMES = ValueNames.of(0, "Generic Command Status",
            1, "Command Specific Status", 2, "Media and Data Integrity Errors", 3, "Path Related Status",
            7, "Vendor Specific");
    /** SGL descriptor type 4 (NVMe Base §4.1.2.1): VA, 3-byte length, R_Key. */
    public static final int SGL_KEYED_DATA_BLOCK = 4;

    // ---- CM private data (NVMe-oF 1.1 §7.3.2: figures 54 and 55) ----
    public static final Field CM_REQ_RECFMT = le16("nvme-rdma.cm.req.recfmt", "Record Format", 0);
    public static final Field CM_REQ_QID = le16("nvme-rdma.cm.req.qid", "Queue Id", 2);
    public static final Field CM_REQ_HRQSIZE = le16("nvme-rdma.cm.req.hrqsize", "RDMA QP Host Receive Queue Size", 4);
    public static final Field CM_REQ_HSQSIZE = le16("nvme-rdma.cm.req.hsqsize", "RDMA QP Host Send Queue Size", 6);
    public static final Field CM_REQ_CNTLID = le16("nvme-rdma.cm.req.cntlid", "Controller ID", 8).hex();
    public static final Field CM_REQ_RESERVED = Field.bytes("nvme-rdma.cm.req.reserved", "Reserved", 10, 22);
    /** The private data an NVMe-oF host puts after the IP CM header of its ConnectRequest. */
    public static final HeaderType CM_REQUEST = new HeaderType("nvme-rdma", RDMA_PROTOCOL.name(), RDMA_PROTOCOL,
            FieldType.PROTOCOL, List.of(CM_REQ_RECFMT, CM_REQ_QID, CM_REQ_HRQSIZE, CM_REQ_HSQSIZE, CM_REQ_CNTLID,
            CM_REQ_RESERVED));
    public static final int CM_REQUEST_SIZE = 32;

    public static final Field CM_REP_RECFMT = le16("nvme-rdma.cm.rsp.recfmt", "Record Format", 0);
    public static final Field CM_REP_CRQSIZE = le16("nvme-rdma.cm.rsp.crqsize", "RDMA QP Controller Receive Queue Size",
            2);
    public static final Field CM_REP_RESERVED = Field.bytes("nvme-rdma.cm.rsp.reserved", "Reserved", 4, 28);
    /** The private data of the controller's ConnectReply (RDMA_CM_ACCEPT). */
    public static final HeaderType CM_REPLY = new HeaderType("nvme-rdma", RDMA_PROTOCOL.name(), RDMA_PROTOCOL,
            FieldType.PROTOCOL, List.of(CM_REP_RECFMT, CM_REP_CRQSIZE, CM_REP_RESERVED));
    public static final int CM_REPLY_SIZE = 32;

    // ---- What earlier frames told (bytes past the frame; see the class comment) ----
    /** Offsets inside the context record. */
    static final int CTX_QID = 0;
    static final int CTX_FLAGS = 2;
    static final int CTX_CODE = 3;
    static final int CTX_DETAIL = 4;
    static final int CTX_COMMAND_FRAME = 8;
    static final int CTX_DATA_OFFSET = 12;
    static final int CTX_DATA_REQUEST_FRAME = 16;
    static final int CTX_SIZE = 20;
    /**
     * Flag bits: a response capsule; the command it (or a data transfer) serves was seen; a Fabrics
     * command; an RDMA READ Request for a command's data; a READ response carrying it; an RDMA WRITE.
     */
    static final int FLAG_RESPONSE = 1;
    static final int FLAG_MATCHED = 2;
    static final int FLAG_FABRICS = 4;
    static final int FLAG_READ_REQUEST = 8;
    static final int FLAG_READ_RESPONSE = 16;
    static final int FLAG_WRITE = 32;
    static final int TRANSFER_FLAGS = FLAG_READ_REQUEST | FLAG_READ_RESPONSE | FLAG_WRITE;

    /** The queue ID, from the ConnectRequest that set the queue pair up (Wireshark's generated item). */
    public static final Field CMD_QID = le16("nvme-rdma.cmd.qid", "Cmd Qid", CTX_QID).hex();
    public static final HeaderType CONTEXT = new HeaderType("nvme-rdma", RDMA_PROTOCOL.name(), RDMA_PROTOCOL,
            FieldType.PROTOCOL, List.of(CMD_QID));

    // ---- Data transfers: RDMA READs of the host's memory, RDMA WRITEs into it (NVMe-oF §7.3.3) ----
    /** The controller reading a command's data from the host (Wireshark's marker item). */
    public static final HeaderType READ_REQUEST = HeaderType.group(RDMA_PROTOCOL, "nvme-rdma.read_to_host_req",
            "RDMA Read Request Sent to Host");
    /** The host's data for a command, in an RDMA READ response. */
    public static final HeaderType READ_RESPONSE_DATA = HeaderType.subHeader(RDMA_PROTOCOL,
            "nvme-rdma.read_from_host_resp", "RDMA Read Transfer Sent from Host");
    /** The controller writing a command's data into the host's memory. */
    public static final HeaderType WRITE_REQUEST = HeaderType.group(RDMA_PROTOCOL, "nvme-rdma.write_to_host_req",
            "RDMA Write Request Sent to Host");

    // ---- Which command a response or a data transfer serves, as frame links (Wireshark's generated items) ----
    /** "Fabric Cmd in": the frame of the Fabrics command a response or a data transfer serves. */
    public static final Field FABRICS_CMD_PKT = commandLink("nvme.fabrics.cmd_pkt", "Fabric Cmd in",
            NvmeOf.CTX_COMMAND_FRAME, true);
    /** "Cmd in": likewise for an admin or I/O command. */
    public static final Field CMD_PKT = commandLink("nvme.cmd_pkt", "Cmd in", NvmeOf.CTX_COMMAND_FRAME, false);
    /** "DATA Transfer Request": the RDMA READ Request an RDMA READ response answers. */
    public static final Field FABRICS_DATA_REQ = commandLink("nvme.fabrics.data_req", "DATA Transfer Request",
            NvmeOf.CTX_DATA_REQUEST_FRAME, true);
    public static final Field DATA_REQ = commandLink("nvme.data_req", "DATA Transfer Request",
            NvmeOf.CTX_DATA_REQUEST_FRAME, false);
    /**
     * What Wireshark shows inside its transfer items ("[Fabric Cmd in: 4]"), as a node of the
     * {@code nvme} protocol, whose names these fields carry.
     */
    public static final HeaderType TRANSFER = HeaderType.group(NVME_PROTOCOL, "nvme.transfer", "Data Transfer",
            FABRICS_CMD_PKT, CMD_PKT, FABRICS_DATA_REQ, DATA_REQ);

    // ---- SGL descriptor 1, at SQE bytes 24-39 (NVMe Base §4.1.2), shared by both command layouts ----
    private static final Field.Presence SGL_SHOWN = (d, l) -> d.layerType(l) != NvmeOf.FABRICS_COMMAND
            || fctype(d, l) == FCTYPE_CONNECT;
    private static final Field.Presence KEYED = (d, l) -> SGL_SHOWN.test(d, l)
            && (d.u8(d.layerStart(l) + 39) >> 4) == SGL_KEYED_DATA_BLOCK;
    public static final Field SGL_TYPE = Field.uint8("nvme.cmd.sgl.type", "Descriptor Type", 39).mask(0xF0).hex()
            .names(SGL_TYPE_NAMES).presentWhen(SGL_SHOWN);
    public static final Field SGL_SUBTYPE = Field.uint8("nvme.cmd.sgl.subtype", "Descriptor Sub Type", 39)
            .mask(0x0F).hex().presentWhen(SGL_SHOWN);
    public static final Field SGL_ADDR = le64("nvme.cmd.sgl1.addr", "Address", 24).hex().presentWhen(SGL_SHOWN);
    /** Three bytes in a keyed descriptor; the low three of four otherwise (in-capsule data is far smaller). */
    public static final Field SGL_LEN = Field.uint24("nvme.cmd.sgl1.len", "Length", 32).littleEndian()
            .printedAs(FieldType.UINT32).presentWhen(SGL_SHOWN);
    public static final Field SGL_KEY = le32("nvme.cmd.sgl1.key", "Key", 35).hex().presentWhen(KEYED);

    // ---- Fabrics command capsule (NVMe-oF 1.1 §3.3, figures 10-21) ----
    private static final Field.Presence CONNECT = (d, l) -> fctype(d, l) == FCTYPE_CONNECT;
    private static final Field.Presence PROPERTY = (d, l) -> fctype(d, l) == FCTYPE_PROPERTY_GET
            || fctype(d, l) == FCTYPE_PROPERTY_SET;
    public static final Field FAB_OPC = Field.bytes("nvme.fabrics.cmd.opc", "Opcode", 0, 1);
    /** Wireshark names the flags byte of a Fabrics command "Reserved". */
    public static final Field FAB_RSVD = Field.uint8("nvme.fabrics.cmd.rsvd", "Reserved", 1).hex();
    public static final Field FAB_CID = le16("nvme.fabrics.cmd.cid", "Command Identifier", 2).hex();
    public static final Field FAB_FCTYPE = Field.uint8("nvme.fabrics.cmd.fctype", "Fabric Command Type", 4).hex()
            .names(FCTYPE_NAMES);
    public static final Field CONNECT_RSVD1 = Field.bytes("nvme.fabrics.cmd.connect.rsvd1", "Reserved", 5, 19)
            .presentWhen(CONNECT);
    public static final Field CONNECT_SGL1 = Field.node("nvme.fabrics.cmd.connect.sgl1", "SGL1", CONNECT);
    public static final Field CONNECT_RECFMT = le16("nvme.fabrics.cmd.connect.recfmt", "Record Format", 40)
            .presentWhen(CONNECT);
    public static final Field CONNECT_QID = le16("nvme.fabrics.cmd.connect.qid", "Queue ID", 42).presentWhen(CONNECT);
    /** Zero-based, as on the wire (Wireshark's tree adds one; its -T fields prints the raw value). */
    public static final Field CONNECT_SQSIZE = le16("nvme.fabrics.cmd.connect.sqsize", "Submission Queue Size", 44)
            .presentWhen(CONNECT);
    public static final Field CONNECT_CATTR = Field.uint8("nvme.fabrics.cmd.connect.cattr", "Connect Attributes", 46)
            .hex().presentWhen(CONNECT);
    public static final Field CONNECT_CATTR_PC = Field.uint8("nvme.fabrics.cmd.connect.cattr.pc", "Priority Class",
            46).mask(0x03).hex().names(PRIORITY_CLASS_NAMES).presentWhen(CONNECT);
    public static final Field CONNECT_CATTR_DFC = Field.uint8("nvme.fabrics.cmd.connect.cattr.dfc",
            "Disable SQ Flow Control", 46).mask(0x04).hex().presentWhen(CONNECT);
    public static final Field CONNECT_CATTR_DIOQ = Field.uint8("nvme.fabrics.cmd.connect.cattr.dioq",
            "Support Deletion of IO Queues", 46).mask(0x08).hex().presentWhen(CONNECT);
    public static final Field CONNECT_CATTR_RSVD = Field.uint8("nvme.fabrics.cmd.connect.cattr.rsvd", "Reserved", 46)
            .mask(0xF0).hex().presentWhen(CONNECT);
    public static final Field CONNECT_RSVD2 = Field.bytes("nvme.fabrics.cmd.connect.rsvd2", "Reserved", 47, 1)
            .presentWhen(CONNECT);
    public static final Field CONNECT_KATO = le32("nvme.fabrics.cmd.connect.kato", "Keep Alive Timeout", 48)
            .presentWhen(CONNECT);
    public static final Field CONNECT_RSVD3 = Field.bytes("nvme.fabrics.cmd.connect.rsvd3", "Reserved", 52, 12)
            .presentWhen(CONNECT);
    public static final Field PROP_RSVD0 = Field.bytes("nvme.fabrics.cmd.prop_get_set.rsvd0", "Reserved", 5, 35)
            .presentWhen(PROPERTY);
    public static final Field PROP_ATTRIB = Field.uint8("nvme.fabrics.cmd.prop_get_set.attrib", "Attributes", 40)
            .mask(0x07).hex().presentWhen(PROPERTY);
    public static final Field PROP_ATTRIB_SIZE = Field.uint8("nvme.fabrics.cmd.prop_get_set.attrib.size",
            "Property Size", 40).mask(0x07).hex().presentWhen(PROPERTY);
    public static final Field PROP_ATTRIB_RSVD = Field.uint8("nvme.fabrics.cmd.prop_get_set.attrib.rsvd", "Reserved",
            40).mask(0xF8).hex().presentWhen(PROPERTY);
    public static final Field PROP_RSVD1 = Field.bytes("nvme.fabrics.cmd.prop_get_set.rsvd1", "Reserved", 41, 3)
            .presentWhen(PROPERTY);
    public static final Field PROP_OFFSET = le32("nvme.fabrics.cmd.prop_get_set.offset", "Offset", 44).hex()
            .names(PROPERTY_NAMES).presentWhen(PROPERTY);
    public static final Field PROP_GET_RSVD2 = Field.bytes("nvme.fabrics.cmd.prop_get.rsvd2", "Reserved", 48, 16)
            .presentWhen((d, l) -> fctype(d, l) == FCTYPE_PROPERTY_GET);
    public static final Field PROP_SET_RSVD = Field.bytes("nvme.fabrics.cmd.prop_set.rsvd", "Reserved", 56, 8)
            .presentWhen((d, l) -> fctype(d, l) == FCTYPE_PROPERTY_SET);
    /** Wireshark's "Cmd" subtree of a Fabrics command capsule. */
    public static final HeaderType FABRICS_COMMAND = HeaderType.group(NVME_PROTOCOL, "nvme.fabrics.cmd", "Cmd",
            FAB_OPC, FAB_RSVD, FAB_CID, FAB_FCTYPE, CONNECT_RSVD1, PROP_RSVD0, CONNECT_SGL1, SGL_TYPE, SGL_SUBTYPE,
            SGL_ADDR, SGL_LEN, SGL_KEY, CONNECT_RECFMT, CONNECT_QID, CONNECT_SQSIZE, CONNECT_CATTR, CONNECT_CATTR_PC,
            CONNECT_CATTR_DFC, CONNECT_CATTR_DIOQ, CONNECT_CATTR_RSVD, CONNECT_RSVD2, CONNECT_KATO, CONNECT_RSVD3,
            PROP_ATTRIB, PROP_ATTRIB_SIZE, PROP_ATTRIB_RSVD, PROP_RSVD1, PROP_OFFSET, PROP_GET_RSVD2, PROP_SET_RSVD);

    /**
     * A property's 8-byte value: in a Property Set command (SQE bytes 48-55) or the completion of a
     * Property Get (CQE bytes 0-7). A header of its own, since one field name has one offset here.
     */
    public static final HeaderType PROPERTY_VALUE = HeaderType.subHeader(NVME_PROTOCOL,
            "nvme.fabrics.prop_get_set.data", "Property Data");

    // ---- Admin and I/O command capsule (NVMe Base 2.0 figure 88) ----
    private static final Field.Presence IDENTIFY = (d, l) -> d.layerType(l) == NvmeOf.ADMIN_COMMAND
            && d.u8(d.layerStart(l)) == OPC_IDENTIFY;
    private static final Field.Presence NOT_IDENTIFY = (d, l) -> !IDENTIFY.test(d, l);
    /**
     * The I/O Read and Write commands, whose DWORD10-15 Wireshark decodes under their own names
     * (nvme.cmd.slba, nvme.cmd.nlb, …), so it shows none of the generic DWORD fields for them.
     */
    private static final Field.Presence READ_OR_WRITE = (d, l) -> d.layerType(l) == NvmeOf.IO_COMMAND
            && (d.u8(d.layerStart(l)) == OPC_IO_WRITE || d.u8(d.layerStart(l)) == OPC_IO_READ);
    /** Set Features, whose DWORD10, 11 and 14 Wireshark decodes as nvme.cmd.set_features.*. */
    private static final Field.Presence SET_FEATURES = (d, l) -> d.layerType(l) == NvmeOf.ADMIN_COMMAND
            && d.u8(d.layerStart(l)) == OPC_SET_FEATURES;
    /** Where a generic DWORD10, 11 or 14 shows: not Identify, Set Features, Read or Write. */
    private static final Field.Presence GENERIC_10_11_14 = (d, l) -> !IDENTIFY.test(d, l) && !SET_FEATURES.test(d, l)
            && !READ_OR_WRITE.test(d, l);
    private static final Field.Presence NOT_READ_OR_WRITE = (d, l) -> !READ_OR_WRITE.test(d, l);
    public static final Field ADMIN_OPC = Field.uint8("nvme.cmd.opc", "Opcode", 0).hex().names(ADMIN_OPCODE_NAMES);
    public static final Field IO_OPC = Field.uint8("nvme.cmd.opc", "Opcode", 0).hex().names(IO_OPCODE_NAMES);
    public static final Field FUSE_OP = Field.uint8("nvme.cmd.fuse_op", "Fuse Operation", 1).mask(0x03).hex();
    public static final Field CMD_RSVD = Field.uint8("nvme.cmd.rsvd", "Reserved", 1).mask(0x3C).hex();
    public static final Field PSDT = Field.uint8("nvme.cmd.psdt", "PRP Or SGL", 1).mask(0xC0).hex();
    public static final Field CID = le16("nvme.cmd.cid", "Command ID", 2).hex();
    public static final Field NSID = le32("nvme.cmd.nsid", "Namespace Id", 4).hex();
    public static final Field CMD_RSVD1 = Field.bytes("nvme.cmd.rsvd1", "Reserved", 8, 8);
    public static final Field MPTR = le64("nvme.cmd.mptr", "Metadata Pointer", 16).hex();
    public static final Field SGL1 = Field.node("nvme.cmd.sgl1", "SGL1", null);
    public static final Field DWORD10 = le32("nvme.cmd.dword10", "DWORD10", 40).hex().presentWhen(GENERIC_10_11_14);
    public static final Field DWORD11 = le32("nvme.cmd.dword11", "DWORD11", 44).hex().presentWhen(GENERIC_10_11_14);
    public static final Field DWORD12 = le32("nvme.cmd.dword12", "DWORD12", 48).hex().presentWhen(NOT_READ_OR_WRITE);
    public static final Field DWORD13 = le32("nvme.cmd.dword13", "DWORD13", 52).hex().presentWhen(NOT_READ_OR_WRITE);
    public static final Field DWORD14 = le32("nvme.cmd.dword14", "DWORD14", 56).hex().presentWhen(GENERIC_10_11_14);
    public static final Field DWORD15 = le32("nvme.cmd.dword15", "DWORD15", 60).hex().presentWhen(NOT_READ_OR_WRITE);
    /** Identify's own names for DWORD10, 11 and 14 (NVMe Base 2.0 figures 272-274), Wireshark's spelling kept. */
    public static final Field IDENTIFY_DW10 = le32("nvme.cmd.identify.dword10", "DWORD10", 40).hex()
            .presentWhen(IDENTIFY);
    public static final Field IDENTIFY_CNS = le32("nvme.cmd.identify.dword10.cns",
            "Controller or Namespace Structure (CNS)", 40).mask(0xFF).hex().names(CNS_NAMES).presentWhen(IDENTIFY);
    public static final Field IDENTIFY_DW10_RSVD = le32("nvme.cmd.identify.dword10.rsvd", "Reserved", 40)
            .mask(0xFF00).hex().presentWhen(IDENTIFY);
    public static final Field IDENTIFY_CNTID = le32("nvme.cmd.identify.dword10.cntid", "Controller Identifier (CNTID)",
            40).mask(0xFFFF0000L).hex().presentWhen(IDENTIFY);
    public static final Field IDENTIFY_DW11 = le32("nvme.cmd.identify.dword11", "DWORD11", 44).hex()
            .presentWhen(IDENTIFY);
    public static final Field IDENTIFY_NVMSETID = le32("nvme.cmd.identify.dwrod11.nvmesetid",
            "NVM Set Identifier (NVMSETID)", 44).mask(0xFFFF).hex().presentWhen(IDENTIFY);
    public static final Field IDENTIFY_DW11_RSVD = le32("nvme.cmd.identify.dword11.rsvd", "Reserved", 44)
            .mask(0xFFFF0000L).hex().presentWhen(IDENTIFY);
    public static final Field IDENTIFY_DW14 = le32("nvme.cmd.identify.dword14", "DWORD14", 56).hex()
            .presentWhen(IDENTIFY);
    public static final Field IDENTIFY_UUID_INDEX = le32("nvme.cmd.identify.dword14.uuid_index", "UUID Index", 56)
            .mask(0x7F).hex().presentWhen(IDENTIFY);
    public static final Field IDENTIFY_DW14_RSVD = le32("nvme.cmd.identify.dword14.rsvd", "Reserved", 56)
            .mask(0xFFFFFF80L).hex().presentWhen(IDENTIFY);

    public static final HeaderType ADMIN_COMMAND = command(ADMIN_OPC);
    public static final HeaderType IO_COMMAND = command(IO_OPC);

    // ---- Completion queue entry (NVMe Base 2.0 figures 89-92) ----
    private static final Field.Presence FABRICS_CQE = (d, l) -> d.layerType(l) == NvmeOf.FABRICS_RESPONSE;
    private static final Field.Presence NVME_CQE = (d, l) -> d.layerType(l) == NvmeOf.RESPONSE;
    /** Wireshark decodes a Set Features completion's DWORD0 as nvme.cqe.dword0.set_features.*, not generically. */
    public static final Field CQE_DWORD0 = le32("nvme.cqe.dword0", "DWORD0", 0).hex()
            .presentWhen((d, l) -> NVME_CQE.test(d, l) && !answersAdmin(d, l, OPC_SET_FEATURES));
    public static final Field CQE_DWORD1 = le32("nvme.cqe.dword1", "DWORD1", 4).hex().presentWhen(NVME_CQE);
    public static final Field CONNECT_CNTLID = le16("nvme.fabrics.cqe.connect.cntrlid", "Controller ID", 0).hex()
            .presentWhen((d, l) -> answered(d, l) == FCTYPE_CONNECT);
    public static final Field CONNECT_AUTHREQ = le16("nvme.fabrics.cqe.connect.authreq", "Authentication Required", 2)
            .hex().presentWhen((d, l) -> answered(d, l) == FCTYPE_CONNECT);
    public static final Field CONNECT_CQE_RSVD = Field.bytes("nvme.fabrics.cqe.connect.rsvd", "Reserved", 4, 4)
            .presentWhen((d, l) -> answered(d, l) == FCTYPE_CONNECT);
    public static final Field PROP_SET_CQE_RSVD = Field.bytes("nvme.fabrics.cqe.prop_set.rsvd", "Reserved", 0, 8)
            .presentWhen((d, l) -> answered(d, l) == FCTYPE_PROPERTY_SET);
    public static final Field SQHD = le16("nvme.cqe.sqhd", "SQ Head Pointer", 8).hex();
    public static final Field SQID = le16("nvme.cqe.sqid", "SQ Identifier", 10).hex();
    public static final Field CQE_CID = le16("nvme.cqe.cid", "Command Identifier", 12).hex();
    public static final Field STATUS = le16("nvme.cqe.status", "Status Field", 14).hex();
    /**
     * Bit 0 is the phase tag on PCIe; a fabric has no phase. Wireshark 4.0 shows it reserved in a
     * Fabrics command's completion and as the phase tag in an admin or I/O command's.
     */
    public static final Field STATUS_RSVD = le16("nvme.cqe.status.rsvd", "Reserved", 14).mask(0x0001).hex()
            .presentWhen(FABRICS_CQE);
    public static final Field STATUS_P = le16("nvme.cqe.status.p", "Phase Tag", 14).mask(0x0001).hex()
            .presentWhen(NVME_CQE);
    public static final Field STATUS_SC = le16("nvme.cqe.status.sc", "Status Code", 14).mask(0x01FE).hex();
    public static final Field STATUS_SCT = le16("nvme.cqe.status.sct", "Status Code Type", 14).mask(0x0E00).hex()
            .names(SCT_NAMES);
    public static final Field STATUS_CRD = le16("nvme.cqe.status.crd", "Command Retry Delay", 14).mask(0x3000).hex();
    public static final Field STATUS_M = Field.bool("nvme.cqe.status.m", "More Information in Log Page", 14, 2,
            0x4000).littleEndian();
    public static final Field STATUS_DNR = Field.bool("nvme.cqe.status.dnr", "Do not Retry", 14, 2, 0x8000)
            .littleEndian();
    /** Wireshark's "Cqe" subtree of a Fabrics command's response capsule. */
    public static final HeaderType FABRICS_RESPONSE = HeaderType.group(NVME_PROTOCOL, "nvme.fabrics.cqe", "Cqe",
            FABRICS_CMD_PKT, CMD_PKT, CONNECT_CNTLID, CONNECT_AUTHREQ, CONNECT_CQE_RSVD, PROP_SET_CQE_RSVD, SQHD, SQID, CQE_CID, STATUS,
            STATUS_RSVD, STATUS_P, STATUS_SC, STATUS_SCT, STATUS_CRD, STATUS_M, STATUS_DNR, CQE_DWORD0, CQE_DWORD1);
    /** The response capsule of an admin or I/O command, or of a command the capture did not show. */
    public static final HeaderType RESPONSE = new HeaderType("nvme", "NVM Express (Cqe)", NVME_PROTOCOL,
            FieldType.PROTOCOL, FABRICS_RESPONSE.fields());

    /** Every header type, for the field registry. */
    public static final List<HeaderType> HEADERS = List.of(CM_REQUEST, CM_REPLY, CONTEXT, READ_REQUEST,
            READ_RESPONSE_DATA, WRITE_REQUEST, TRANSFER, FABRICS_COMMAND,
            PROPERTY_VALUE, ADMIN_COMMAND, IO_COMMAND, FABRICS_RESPONSE, RESPONSE);

    private NvmeOf() {
    }

    private static HeaderType command(Field opcode) {
        return new HeaderType("nvme", "NVM Express (Cmd)", NVME_PROTOCOL, FieldType.PROTOCOL, List.of(opcode,
                FUSE_OP, CMD_RSVD, PSDT, CID, NSID, CMD_RSVD1, MPTR, SGL1, SGL_TYPE, SGL_SUBTYPE, SGL_ADDR, SGL_LEN,
                SGL_KEY, DWORD10, IDENTIFY_DW10, IDENTIFY_CNS, IDENTIFY_DW10_RSVD, IDENTIFY_CNTID, DWORD11,
                IDENTIFY_DW11, IDENTIFY_NVMSETID, IDENTIFY_DW11_RSVD, DWORD12, DWORD13, DWORD14, IDENTIFY_DW14,
                IDENTIFY_UUID_INDEX, IDENTIFY_DW14_RSVD, DWORD15));
    }

    static int fctype(Dissection d, int layer) {
        return d.u8(d.layerStart(layer) + 4);
    }

    /**
     * The Fabrics command type a response capsule in {@code layer} answers, from the context record
     * just before it; -1 when the command was not seen or was no Fabrics command.
     */
    static int answered(Dissection d, int layer) {
        if (layer == 0 || d.layerType(layer - 1) != CONTEXT) {
            return -1;
        }
        int ctx = d.layerStart(layer - 1);
        int flags = d.u8(ctx + CTX_FLAGS);
        return (flags & (FLAG_MATCHED | FLAG_FABRICS)) == (FLAG_MATCHED | FLAG_FABRICS) ? d.u8(ctx + CTX_CODE) : -1;
    }

    /** Whether the response capsule in {@code layer} answers admin command {@code opcode} (queue 0). */
    static boolean answersAdmin(Dissection d, int layer, int opcode) {
        if (layer == 0 || d.layerType(layer - 1) != CONTEXT) {
            return false;
        }
        int ctx = d.layerStart(layer - 1);
        int flags = d.u8(ctx + CTX_FLAGS);
        return (flags & (FLAG_MATCHED | FLAG_FABRICS)) == FLAG_MATCHED && d.u16le(ctx + CTX_QID) == 0
                && d.u8(ctx + CTX_CODE) == opcode;
    }

    /**
     * A frame number read from the context record (the layer of type {@link #CONTEXT} in the frame),
     * present when that frame is known and the command is (or is not) a Fabrics command.
     */
    private static Field commandLink(String abbrev, String name, int recordOffset, boolean fabrics) {
        return Field.computed(abbrev, name, FieldType.FRAMENUM, Base.DEC, new Field.Computation() {
            @Override
            public long value(Dissection d, int layer) {
                int ctx = d.find(CONTEXT);
                return ctx < 0 ? 0 : d.u32le(d.layerStart(ctx) + recordOffset);
            }

            @Override
            public boolean isPresent(Dissection d, int layer) {
                int ctx = d.find(CONTEXT);
                if (ctx < 0) {
                    return false;
                }
                int flags = d.u8(d.layerStart(ctx) + CTX_FLAGS);
                boolean matched = (flags & FLAG_MATCHED) != 0;
                // Wireshark's data-transfer items (packet-nvme-rdma.c) always carry the nvme.fabrics.*
                // links, whatever the command; a response capsule's follow the command's kind.
                boolean fabricsNames = (flags & (FLAG_FABRICS | TRANSFER_FLAGS)) != 0;
                return matched && fabricsNames == fabrics && value(d, layer) != 0;
            }
        });
    }

    private static Field le16(String abbrev, String name, int offset) {
        return Field.uint16(abbrev, name, offset).littleEndian();
    }

    private static Field le32(String abbrev, String name, int offset) {
        return Field.uint32(abbrev, name, offset).littleEndian();
    }

    private static Field le64(String abbrev, String name, int offset) {
        return Field.uint64(abbrev, name, offset).littleEndian();
    }

}
