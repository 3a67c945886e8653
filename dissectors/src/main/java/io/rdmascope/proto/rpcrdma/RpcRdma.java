package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.ReassemblyFields;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * RPC-over-RDMA version 1 (RFC 8166) with the ONC RPC message it carries (RFC 5531) and the NFS
 * procedure names on top: the field declarations, under Wireshark 4.0's names ({@code rpcordma.*},
 * {@code rpc.*}, {@code nfs.*}). Everything is XDR, so big-endian 32-bit words.
 *
 * <p>The transport header's chunk lists have any number of items, and a field sits at one offset of
 * its header type; so each list, each chunk and each segment is a layer of its own, and a read
 * chunk is two (its position, then its segment), which keeps {@code rpcordma.rdma_handle} at offset 0
 * of one segment type as RFC 8166 §4.2.1 lays the segment out.
 */
public final class RpcRdma {
    public static final Protocol PROTOCOL = new Protocol("rpcordma", "RPC over RDMA");
    public static final Protocol RPC_PROTOCOL = new Protocol("rpc", "Remote Procedure Call");
    public static final Protocol NFS_PROTOCOL = new Protocol("nfs", "Network File System");

    /** The IANA port of NFS/RDMA (RFC 5666 §10, kept by RFC 8267): the RDMA-CM service ID asked for. */
    public static final int PORT = 20049;
    /** RPC-over-RDMA version 1 (RFC 8166 §4.2). */
    public static final int VERSION = 1;
    /** rdma_proc (RFC 8166 §4.2.4). */
    public static final int RDMA_MSG = 0;
    public static final int RDMA_NOMSG = 1;
    public static final int RDMA_MSGP = 2;
    public static final int RDMA_DONE = 3;
    public static final int RDMA_ERROR = 4;
    static final ValueNames PROC_NAMES = ValueNames.of(RDMA_MSG, "RDMA_MSG", RDMA_NOMSG, "RDMA_NOMSG",
            RDMA_MSGP, "RDMA_MSGP", RDMA_DONE, "RDMA_DONE", RDMA_ERROR, "RDMA_ERROR");
    /** rpc_msg's msg_type (RFC 5531 §9). */
    public static final int CALL = 0;
    public static final int REPLY = 1;
    public static final int RPC_VERSION = 2;
    public static final int NFS_PROGRAM = 100003;
    public static final int NFS_V4_COMPOUND = 1;

    public static final int HEADER_SIZE = 16;
    public static final int SEGMENT_SIZE = 16;
    public static final int CALL_HEADER_SIZE = 24;
    public static final int REPLY_HEADER_SIZE = 12;

    // ---- The fixed transport header (RFC 8166 §4.2) ----
    public static final Field XID = Field.uint32("rpcordma.xid", "XID", 0).hex();
    public static final Field VERS = Field.uint32("rpcordma.version", "Version", 4);
    public static final Field CREDITS = Field.uint32("rpcordma.flow_control", "Flow Control", 8);
    public static final Field PROC = Field.uint32("rpcordma.msg_type", "Message Type", 12).names(PROC_NAMES);
    public static final HeaderType HEADER = HeaderType.protocolHeader(PROTOCOL, XID, VERS, CREDITS, PROC);

    // ---- Chunk lists (RFC 8166 §4.2.1): a list layer spans the list; its count walks it ----
    public static final Field READS_COUNT = count("rpcordma.reads_count", "Read list", ChunkLists.Kind.READ);
    public static final Field WRITES_COUNT = count("rpcordma.writes_count", "Write list", ChunkLists.Kind.WRITE);
    public static final Field REPLY_COUNT = count("rpcordma.reply_count", "Reply chunk", ChunkLists.Kind.REPLY);
    public static final HeaderType READ_LIST = HeaderType.group(PROTOCOL, "rpcordma.read_list", "Read list",
            READS_COUNT);
    public static final HeaderType WRITE_LIST = HeaderType.group(PROTOCOL, "rpcordma.write_list", "Write list",
            WRITES_COUNT);
    public static final HeaderType REPLY_LIST = HeaderType.group(PROTOCOL, "rpcordma.reply_list", "Reply chunk",
            REPLY_COUNT);

    /** A read chunk's XDR position (the segment that follows is its layer of {@link #SEGMENT}). */
    public static final Field POSITION = Field.uint32("rpcordma.position", "Position in XDR", 0);
    public static final HeaderType READ_CHUNK = HeaderType.group(PROTOCOL, "rpcordma.read_chunk", "Read chunk",
            POSITION);
    /** A write or reply chunk: its segment count, then that many segments. */
    public static final Field SEGMENT_COUNT = Field.uint32("rpcordma.segment_count", "Write chunk segment count", 0);
    public static final HeaderType WRITE_CHUNK = HeaderType.group(PROTOCOL, "rpcordma.write_chunk", "Write chunk",
            SEGMENT_COUNT);
    /** An RDMA segment (RFC 8166 §4.1.1, xdr_rdma_segment): handle (R_Key), length, offset (address). */
    public static final Field HANDLE = Field.uint32("rpcordma.rdma_handle", "RDMA handle", 0).hex();
    public static final Field LENGTH = Field.uint32("rpcordma.rdma_length", "RDMA length", 4);
    public static final Field OFFSET = Field.uint64("rpcordma.rdma_offset", "RDMA offset", 8).hex();
    public static final HeaderType SEGMENT = HeaderType.group(PROTOCOL, "rpcordma.segment", "RDMA segment",
            HANDLE, LENGTH, OFFSET);

    // ---- RDMA_MSGP's padding hints (RFC 5666 §4.3; RFC 8166 §4.2.4 keeps the procedure) ----
    public static final Field ALIGN = Field.uint32("rpcordma.rdma_align", "RDMA align", 0);
    public static final Field THRESH = Field.uint32("rpcordma.rdma_thresh", "RDMA threshold", 4);
    public static final HeaderType MSGP = HeaderType.group(PROTOCOL, "rpcordma.msgp", "Padding", ALIGN, THRESH);

    // ---- RDMA_ERROR (RFC 8166 §4.2.5: ERR_VERS carries the versions the responder supports) ----
    public static final int ERR_VERS = 1;
    public static final Field ERRCODE = Field.uint32("rpcordma.errcode", "Error code", 0)
            .names(ValueNames.of(ERR_VERS, "ERR_VERS", 2, "ERR_CHUNK"));
    public static final Field VERS_LOW = Field.uint32("rpcordma.vers_low", "Version low", 4)
            .presentWhen((d, l) -> d.u32(d.layerStart(l)) == ERR_VERS);
    public static final Field VERS_HIGH = Field.uint32("rpcordma.vers_high", "Version high", 8)
            .presentWhen((d, l) -> d.u32(d.layerStart(l)) == ERR_VERS);
    public static final HeaderType ERROR = HeaderType.group(PROTOCOL, "rpcordma.error", "Error", ERRCODE,
            VERS_LOW, VERS_HIGH);

    // ---- ONC RPC (RFC 5531 §9): a call's first six words, a reply's first three ----
    public static final Field RPC_XID = Field.uint32("rpc.xid", "XID", 0).base(Base.HEX_DEC);
    public static final Field RPC_MSGTYP = Field.uint32("rpc.msgtyp", "Message Type", 4)
            .names(ValueNames.of(CALL, "Call", REPLY, "Reply"));
    public static final Field RPC_VERSION_FIELD = Field.uint32("rpc.version", "RPC Version", 8)
            .presentWhen((d, l) -> d.layerType(l) == RpcRdma.RPC_CALL);
    public static final Field RPC_REPLYSTAT = Field.uint32("rpc.replystat", "Reply State", 8)
            .names(ValueNames.of(0, "accepted", 1, "denied"))
            .presentWhen((d, l) -> d.layerType(l) == RpcRdma.RPC_REPLY);
    public static final Field RPC_PROGRAM = Field.uint32("rpc.program", "Program", 12)
            .names(ValueNames.of(NFS_PROGRAM, "NFS", 100005, "MOUNT", 100021, "NLM", 100227, "NFS_ACL"));
    public static final Field RPC_PROGRAM_VERSION = Field.uint32("rpc.programversion", "Program Version", 16);
    public static final Field RPC_PROCEDURE = Field.uint32("rpc.procedure", "Procedure", 20);
    public static final HeaderType RPC_CALL = new HeaderType("rpc", RPC_PROTOCOL.name(), RPC_PROTOCOL,
            FieldType.PROTOCOL, List.of(RPC_XID, RPC_MSGTYP, RPC_VERSION_FIELD, RPC_PROGRAM, RPC_PROGRAM_VERSION,
            RPC_PROCEDURE));
    public static final HeaderType RPC_REPLY = new HeaderType("rpc", RPC_PROTOCOL.name(), RPC_PROTOCOL,
            FieldType.PROTOCOL, List.of(RPC_XID, RPC_MSGTYP, RPC_REPLYSTAT));
    /**
     * What a reply's call said (program, version, procedure), as Wireshark's generated items: a copy
     * of the call's first six words past the frame, so the fields sit at the call's offsets.
     */
    public static final HeaderType RPC_MATCHED_CALL = HeaderType.group(RPC_PROTOCOL, "rpc.call", "Call",
            RPC_PROGRAM, RPC_PROGRAM_VERSION, RPC_PROCEDURE);

    // ---- NFS names (RFC 1813 §3.3 procedures; RFC 8881 §18 / RFC 7530 §16 operations) ----
    public static final ValueNames NFS3_PROCEDURE_NAMES = ValueNames.of(0, "NULL", 1, "GETATTR", 2, "SETATTR",
            3, "LOOKUP", 4, "ACCESS", 5, "READLINK", 6, "READ", 7, "WRITE", 8, "CREATE", 9, "MKDIR", 10, "SYMLINK",
            11, "MKNOD", 12, "REMOVE", 13, "RMDIR", 14, "RENAME", 15, "LINK", 16, "READDIR", 17, "READDIRPLUS",
            18, "FSSTAT", 19, "FSINFO", 20, "PATHCONF", 21, "COMMIT");
    public static final ValueNames NFS4_OP_NAMES = ValueNames.of(3, "ACCESS", 4, "CLOSE", 5, "COMMIT",
            6, "CREATE", 7, "DELEGPURGE", 8, "DELEGRETURN", 9, "GETATTR", 10, "GETFH", 11, "LINK", 12, "LOCK",
            13, "LOCKT", 14, "LOCKU", 15, "LOOKUP", 16, "LOOKUPP", 17, "NVERIFY", 18, "OPEN", 19, "OPENATTR",
            20, "OPEN_CONFIRM", 21, "OPEN_DOWNGRADE", 22, "PUTFH", 23, "PUTPUBFH", 24, "PUTROOTFH", 25, "READ",
            26, "READDIR", 27, "READLINK", 28, "REMOVE", 29, "RENAME", 30, "RENEW", 31, "RESTOREFH", 32, "SAVEFH",
            33, "SECINFO", 34, "SETATTR", 35, "SETCLIENTID", 36, "SETCLIENTID_CONFIRM", 37, "VERIFY", 38, "WRITE",
            39, "RELEASE_LOCKOWNER", 40, "BACKCHANNEL_CTL", 41, "BIND_CONN_TO_SESSION", 42, "EXCHANGE_ID",
            43, "CREATE_SESSION", 44, "DESTROY_SESSION", 45, "FREE_STATEID", 46, "GET_DIR_DELEGATION",
            47, "GETDEVINFO", 48, "GETDEVLIST", 49, "LAYOUTCOMMIT", 50, "LAYOUTGET", 51, "LAYOUTRETURN",
            52, "SECINFO_NO_NAME", 53, "SEQUENCE", 54, "SET_SSV", 55, "TEST_STATEID", 56, "WANT_DELEGATION",
            57, "DESTROY_CLIENTID", 58, "RECLAIM_COMPLETE");
    /** NFSv3's procedure, read from the call's procedure word (a layer over the call, or its copy). */
    public static final Field NFS3_PROCEDURE = Field.uint32("nfs.procedure_v3", "V3 Procedure", 20)
            .names(NFS3_PROCEDURE_NAMES);
    public static final HeaderType NFS_V3 = new HeaderType("nfs", NFS_PROTOCOL.name(), NFS_PROTOCOL,
            FieldType.PROTOCOL, List.of(NFS3_PROCEDURE));
    /**
     * One NFSv4 COMPOUND operation's number. (Wireshark's {@code nfs.main_opcode} is one operation it
     * picks as the COMPOUND's purpose; we do not pick one: docs/tshark-parity.md.)
     */
    public static final Field NFS4_OPCODE = Field.uint32("nfs.opcode", "Opcode", 0).names(NFS4_OP_NAMES);
    public static final HeaderType NFS_V4 = new HeaderType("nfs", NFS_PROTOCOL.name(), NFS_PROTOCOL,
            FieldType.PROTOCOL, List.of());
    public static final HeaderType NFS4_OP = HeaderType.group(NFS_PROTOCOL, "nfs.op", "Operation", NFS4_OPCODE);

    /**
     * An RPC message put together from chunks (RFC 8166 §3.5.3-3.5.4): the frames it came in and its
     * bytes, tshark's {@code rpcordma.fragment*} and {@code rpcordma.reassembled.*} (packet-rpcrdma.c).
     */
    static final ReassemblyFields REASSEMBLY = ReassemblyFields.of(PROTOCOL, "rpcordma", Chunks.MAX_FRAGMENTS,
            new ReassemblyFields.Labels("RPCoRDMA fragment", "Reassembled RPCoRDMA fragments",
                    "Reassembled RPCoRDMA length", "Reassembled RPCoRDMA data", "Reassembled RPCoRDMA"));

    public static final List<HeaderType> HEADERS = List.of(HEADER, READ_LIST, READ_CHUNK, WRITE_LIST, WRITE_CHUNK,
            REPLY_LIST, SEGMENT, MSGP, ERROR, REASSEMBLY.fragments(), REASSEMBLY.reassembled(), RPC_CALL, RPC_REPLY,
            RPC_MATCHED_CALL, NFS_V3, NFS_V4, NFS4_OP);

    private RpcRdma() {
    }

    private static Field count(String abbrev, String name, ChunkLists.Kind kind) {
        return Field.computed(abbrev, name, FieldType.UINT32, Base.DEC, new Field.Computation() {
            @Override
            public long value(Dissection d, int layer) {
                return ChunkLists.items(d, d.layerStart(layer), d.layerStart(layer) + d.layerLength(layer), kind);
            }
        });
    }
}
