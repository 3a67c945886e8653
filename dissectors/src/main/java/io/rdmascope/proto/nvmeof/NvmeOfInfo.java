package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.Dissection;

/**
 * The Info text of a capsule, in Wireshark 4.0's words (packet-nvme-rdma.c, packet-nvme.c): a
 * Fabrics command is "NVMeOF" and its type ("NVMeOF Property Get Controller Capabilities"), an admin
 * or I/O command "NVMe" and its opcode ("NVMe Identify Controller"), a response "… CQE for" the
 * command it answers.
 */
final class NvmeOfInfo {
    /** The Protocol column ("NVMe Fabrics RDMA", or "NVMe" for an admin or I/O capsule) and the Info text. */
    record Capsule(String column, String text) {
    }

    static final String FABRICS_COLUMN = "NVMe Fabrics RDMA";
    static final String NVME_COLUMN = "NVMe";

    static Capsule capsule(Dissection d, int contextLayer) {
        int ctx = d.layerStart(contextLayer);
        int flags = d.u8(ctx + NvmeOf.CTX_FLAGS);
        int code = d.u8(ctx + NvmeOf.CTX_CODE);
        int detail = d.u16le(ctx + NvmeOf.CTX_DETAIL);
        int qid = d.u16le(ctx + NvmeOf.CTX_QID);
        boolean fabrics = (flags & NvmeOf.FLAG_FABRICS) != 0;
        boolean matched = (flags & NvmeOf.FLAG_MATCHED) != 0;
        String name = !matched && (flags & NvmeOf.FLAG_RESPONSE | flags & NvmeOf.TRANSFER_FLAGS) != 0
                ? "a command not captured" : fabrics ? fabricsName(code, detail) : nvmeName(qid, code, detail);
        if ((flags & NvmeOf.TRANSFER_FLAGS) != 0) {
            if ((flags & NvmeOf.FLAG_READ_REQUEST) != 0) {
                return new Capsule(FABRICS_COLUMN, "NVMeOF Data Request for " + name);
            }
            // The data itself: Wireshark 4.0 names the column after the command's kind, "NVMe" for an admin
            // or I/O command's, and spells the Info "NVMeOF Data for" there and "NVMeoF Data for" for a
            // Fabrics command's (packet-nvme-rdma.c; checked on the generated ulp_nvmeof case).
            boolean nvmeData = matched && !fabrics;
            String text = (nvmeData ? "NVMeOF Data for " : "NVMeoF Data for ") + name + ", offset "
                    + d.u32le(ctx + NvmeOf.CTX_DATA_OFFSET);
            return new Capsule(nvmeData ? NVME_COLUMN : FABRICS_COLUMN, text);
        }
        String column = fabrics ? FABRICS_COLUMN : NVME_COLUMN;
        if ((flags & NvmeOf.FLAG_RESPONSE) == 0) {
            return new Capsule(column, (fabrics ? "NVMeOF " : "NVMe ") + name);
        }
        return new Capsule(column, (fabrics ? "NVMeOF CQE for " : "NVMe CQE for ") + name);
    }

    /**
     * The name of the command in a command capsule's context record, as its Info says it ("Connect",
     * "Identify Controller"): what {@code rdmascope ops} calls the operation.
     */
    static String commandName(Dissection d, int contextLayer) {
        int ctx = d.layerStart(contextLayer);
        int code = d.u8(ctx + NvmeOf.CTX_CODE);
        int detail = d.u16le(ctx + NvmeOf.CTX_DETAIL);
        return (d.u8(ctx + NvmeOf.CTX_FLAGS) & NvmeOf.FLAG_FABRICS) != 0 ? fabricsName(code, detail)
                : nvmeName(d.u16le(ctx + NvmeOf.CTX_QID), code, detail);
    }

    /**
     * The command's bare opcode name, as tshark's {@code nvme.fabrics.cmd.fctype} or {@code nvme.cmd.opc}
     * names it ("Property Get", "Identify", "Read"), without the property or CNS that
     * {@link #commandName} adds.
     */
    static String commandOpcode(Dissection d, int contextLayer) {
        int ctx = d.layerStart(contextLayer);
        int code = d.u8(ctx + NvmeOf.CTX_CODE);
        if ((d.u8(ctx + NvmeOf.CTX_FLAGS) & NvmeOf.FLAG_FABRICS) != 0) {
            String name = NvmeOf.FCTYPE_NAMES.nameOf(code);
            return name != null ? name : "Unknown Fabrics Command 0x" + Integer.toHexString(code);
        }
        int qid = d.u16le(ctx + NvmeOf.CTX_QID);
        String name = (qid == 0 ? NvmeOf.ADMIN_OPCODE_NAMES : NvmeOf.IO_OPCODE_NAMES).nameOf(code);
        return name != null ? name : "Unknown " + (qid == 0 ? "Admin" : "I/O") + " Command 0x" + Integer.toHexString(code);
    }

    /** The Fabrics command a response layer answers ("Connect"), or null. */
    static String answeredName(Dissection d, int responseLayer) {
        int ctxLayer = responseLayer - 1;
        if (ctxLayer < 0 || d.layerType(ctxLayer) != NvmeOf.CONTEXT) {
            return null;
        }
        int ctx = d.layerStart(ctxLayer);
        int flags = d.u8(ctx + NvmeOf.CTX_FLAGS);
        if ((flags & NvmeOf.FLAG_MATCHED) == 0) {
            return null;
        }
        return fabricsName(d.u8(ctx + NvmeOf.CTX_CODE), d.u16le(ctx + NvmeOf.CTX_DETAIL));
    }

    /** "Connect", "Property Get Controller Capabilities" (the property by offset, as Wireshark adds it). */
    private static String fabricsName(int fctype, int propertyOffset) {
        String name = NvmeOf.FCTYPE_NAMES.nameOf(fctype);
        if (name == null) {
            return "Unknown Fabrics Command 0x" + Integer.toHexString(fctype);
        }
        if (fctype == NvmeOf.FCTYPE_PROPERTY_GET || fctype == NvmeOf.FCTYPE_PROPERTY_SET) {
            String property = NvmeOf.PROPERTY_NAMES.nameOf(propertyOffset);
            return name + " " + (property != null ? property : "Unknown Property 0x" + Integer.toHexString(propertyOffset));
        }
        return name;
    }

    /** "Keep Alive", "Identify Controller" (Identify with its CNS, as Wireshark adds it), "Read". */
    private static String nvmeName(int qid, int opcode, int cns) {
        String name = (qid == 0 ? NvmeOf.ADMIN_OPCODE_NAMES : NvmeOf.IO_OPCODE_NAMES).nameOf(opcode);
        if (name == null) {
            return "Unknown " + (qid == 0 ? "Admin" : "I/O") + " Command 0x" + Integer.toHexString(opcode);
        }
        if (qid == 0 && opcode == NvmeOf.OPC_IDENTIFY) {
            String structure = NvmeOf.CNS_NAMES.nameOf(cns);
            return name + " " + (structure != null ? structure : "CNS 0x" + Integer.toHexString(cns));
        }
        return name;
    }
}
