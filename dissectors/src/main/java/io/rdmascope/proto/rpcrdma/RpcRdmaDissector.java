package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.CmConnections;

import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.proto.ib.RcOpcodes.READ_REQUEST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_LAST;
import static io.rdmascope.proto.ib.RcOpcodes.READ_RESPONSE_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY_WITH_IMMEDIATE;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY_WITH_INVALIDATE;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.WRITE_ONLY_WITH_IMMEDIATE;

/**
 * Finds RPC-over-RDMA version 1 and decodes it. Two conditions, both required, because Wireshark's
 * heuristic (a version word of 1 and a procedure below 5) takes ordinary perftest SENDs for it:
 * the queue pair's connection was captured (a ConnectRequest whose RDMA-CM service ID names TCP
 * port 20049, the IANA port of NFS/RDMA (RFC 5666 §10), and the ConnectReply that answers it), and the SEND
 * starts with a well-formed transport header (RFC 8166 §4.2: version 1, credits that fit 16 bits, a
 * procedure 0-4, chunk lists that parse inside the payload) followed, for RDMA_MSG and RDMA_MSGP, by
 * an RPC message with the same XID (RFC 8166 §4.2.1: "the XID ... is the same as the RPC message's").
 * {@code --decode-as} ({@code infiniband,rpcordma}, tshark's form, or {@code
 * infiniband.bth.destqp==Q,rpcordma}) stands in for the first condition on the QPs it names; the
 * message's direction then says which side a QP is ({@link #isToServer}).
 */
final class RpcRdmaDissector {
    /** The BTH, after which an RDMA WRITE First/Only or READ Request has its RETH (IBTA 9.3.3). */
    private static final int BTH_SIZE = 12;
    /** Layers a message put together from chunks may add: the two of the reassembly, RPC, NFS and its operations. */
    private static final int LAYERS_OF_A_MESSAGE = 16;
    /** Credits are a 32-bit word, but no implementation grants more than a 16-bit count (Linux: 128). */
    private static final long MAX_CREDITS = 0xFFFF;
    /** opaque_auth's body is at most 400 bytes (RFC 5531 §8.2). */
    private static final int MAX_AUTH = 400;

    private RpcRdmaDissector() {
    }

    /** CM: a REQ for port 20049 starts a pending connection; the REP that answers it makes it one. */
    static void cm(DissectorChain chain, Dissection d, int cmLayer) {
        HeaderType message = d.layerType(cmLayer);
        int at = d.layerStart(cmLayer);
        if (message == Cm.REQ) {
            if (!Cm.isTcpPortRequest(d, at, RpcRdma.PORT)) {
                return;
            }
            RpcRdmaConnections c = connections(d, true);
            c.beginFrame(d.frame().number());
            c.request(d, at, 0);
        } else if (message == Cm.REP) {
            RpcRdmaConnections c = connections(d, false);
            if (c != null) {
                c.beginFrame(d.frame().number());
                c.reply(d, at);
            }
        }
    }

    /**
     * A SEND's payload {@code [offset, end)}: claimed only on a port-20049 connection, or a QP
     * {@code --decode-as} chose, and a valid header.
     */
    static boolean payload(DissectorChain chain, Dissection d, int offset, int end) {
        RdmaContext r = d.rdma();
        int destQpn = d.u24(r.bthStart + 5);
        boolean chosen = chain.isPayloadDecodedAs(destQpn, RpcRdma.PROTOCOL.abbrev());
        RpcRdmaConnections c = connections(d, chosen);
        if (c == null || (c.isEmpty() && !chosen)) {
            return false;
        }
        int opcode = r.opcode;
        if (opcode != SEND_ONLY && opcode != SEND_FIRST && opcode != SEND_ONLY_WITH_IMMEDIATE
                && opcode != SEND_ONLY_WITH_INVALIDATE) {
            return opcode >= WRITE_FIRST && opcode <= READ_RESPONSE_ONLY && !c.isEmpty()
                    && chunkTransfer(d, c, destQpn, offset, Math.min(end, d.capturedLength()));
        }
        c.beginFrame(d.frame().number());
        boolean known = c.carries(destQpn);
        if (!known && !chosen) {
            return false;
        }
        int limit = Math.min(end, d.capturedLength());
        int body = bodyEnd(d, offset, limit);
        if (body < 0) {
            return false;
        }
        int proc = (int) d.u32(offset + 12);
        boolean rpc = proc == RpcRdma.RDMA_MSG || proc == RpcRdma.RDMA_MSGP;
        if (rpc && !rpcFollows(d, d.u32(offset), body, limit)) {
            return false;
        }
        boolean toServer = isToServer(d, offset, body, proc);
        RpcRdmaConnections.Connection connection = known ? c.to(destQpn) : learn(c, destQpn, d.u32(offset), toServer);
        if (toServer && connection.requesterQpn() == CmConnections.UNKNOWN_QPN) {
            connection.calledWhileUnpaired(d.u32(offset));
        }
        d.add(RpcRdma.HEADER, offset, RpcRdma.HEADER_SIZE);
        int p = offset + RpcRdma.HEADER_SIZE;
        if (proc == RpcRdma.RDMA_ERROR) {
            d.add(RpcRdma.ERROR, p, body - p);
        } else if (proc != RpcRdma.RDMA_DONE) {
            if (proc == RpcRdma.RDMA_MSGP) {
                d.add(RpcRdma.MSGP, p, 8);
                p += 8;
            }
            p = addList(d, p, limit, ChunkLists.Kind.READ, RpcRdma.READ_LIST);
            p = addList(d, p, limit, ChunkLists.Kind.WRITE, RpcRdma.WRITE_LIST);
            addList(d, p, limit, ChunkLists.Kind.REPLY, RpcRdma.REPLY_LIST);
        }
        if (rpc) {
            RpcMessages.dissect(d, c, body, end);
        } else {
            Data.dissect(chain, d, body, end);
        }
        if (proc <= RpcRdma.RDMA_MSGP) {
            chunks(d, c, connection, toServer, offset, body, limit);
        }
        return true;
    }

    /**
     * What a SEND's chunk lists mean for reassembly (RFC 8166 §3.5.3-3.5.4): a call's read chunks and
     * reply chunk are awaited; a reply that came in its reply chunk (RDMA_NOMSG with a reply chunk) is
     * shown whole here, after the transport header, as tshark shows it.
     */
    private static void chunks(Dissection d, RpcRdmaConnections c, RpcRdmaConnections.Connection connection,
                               boolean toServer, int at, int body, int limit) {
        long xid = d.u32(at);
        int proc = (int) d.u32(at + 12);
        int p = at + RpcRdma.HEADER_SIZE + (proc == RpcRdma.RDMA_MSGP ? 8 : 0);
        List<Chunks.Segment> reads = new ArrayList<>(0);
        for (; d.u32(p) == 1; p += 8 + RpcRdma.SEGMENT_SIZE) {
            reads.add(segment(d, p + 8, d.u32(p + 4)));
        }
        p = ChunkLists.end(d, p + 4, limit, ChunkLists.Kind.WRITE); // past the read list's terminator
        List<Chunks.Segment> reply = new ArrayList<>(0);
        if (p > 0 && d.u32(p) == 1) {
            for (int i = 0; i < d.u32(p + 4); i++) {
                reply.add(segment(d, p + 8 + i * RpcRdma.SEGMENT_SIZE, -1));
            }
        }
        if (toServer) {
            if (!reads.isEmpty()) {
                byte[] inline = new byte[proc == RpcRdma.RDMA_NOMSG ? 0 : Math.max(0, limit - body)];
                d.buffer().get(d.base() + body, inline, 0, inline.length);
                connection.chunks.awaitReadChunks(xid, reads, inline, d.frame().number());
            }
            if (!reply.isEmpty()) {
                connection.chunks.awaitReplyChunk(xid, reply);
            }
            return;
        }
        Chunks.Awaited awaited = proc == RpcRdma.RDMA_NOMSG && !reply.isEmpty()
                ? connection.chunks.replyChunk(xid) : null;
        if (awaited != null) {
            long[] written = new long[reply.size()];
            for (int i = 0; i < written.length; i++) {
                written[i] = reply.get(i).length(); // the reply's reply chunk says what was written (§3.5.4)
            }
            showWhole(d, c, xid, awaited.frameList(), awaited.replyChunk(written));
        }
    }

    private static Chunks.Segment segment(Dissection d, int at, long position) {
        return new Chunks.Segment(d.u32(at), d.u32(at + 4), d.u32(at + 8) << 32 | d.u32(at + 12), position);
    }

    /**
     * An RDMA READ or WRITE on a connection carrying RPC-over-RDMA: the chunk data it moves is kept
     * (the frame stays data, as tshark shows it) until the READ response that completes a call's read
     * chunks, which shows the call whole and is claimed (true).
     */
    private static boolean chunkTransfer(Dissection d, RpcRdmaConnections c, int destQpn, int offset, int end) {
        c.beginFrame(d.frame().number());
        RdmaContext r = d.rdma();
        int opcode = r.opcode;
        int reth = r.bthStart + BTH_SIZE;
        if (opcode >= READ_RESPONSE_FIRST) {
            RpcRdmaConnections.Connection server = c.toResponder(destQpn);
            Chunks.Awaited call = server == null ? null : server.chunks.readResponse(d, offset, end - offset,
                    opcode == READ_RESPONSE_LAST || opcode == READ_RESPONSE_ONLY);
            if (call == null) {
                return false;
            }
            return showWhole(d, c, call.xid, call.frameList(), call.readCall());
        }
        RpcRdmaConnections.Connection client = c.toRequester(destQpn);
        if (client == null) {
            return false;
        }
        if (opcode == READ_REQUEST) {
            client.chunks.readRequest(d.u32(reth + 8), rethVa(d, reth), d.u32(reth + 12));
        } else {
            boolean first = opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_WITH_IMMEDIATE;
            client.chunks.write(d, first, first ? d.u32(reth + 8) : 0, first ? rethVa(d, reth) : 0, offset,
                    end - offset);
        }
        return false;
    }

    private static long rethVa(Dissection d, int reth) {
        return d.u32(reth) << 32 | d.u32(reth + 4);
    }

    /**
     * Shows an RPC message put together from chunks: its frames and bytes ({@link RpcRdma#REASSEMBLY}),
     * and the RPC message on them; false (nothing added) when the frame has no room left for its
     * layers or the bytes are no RPC message with the call's XID.
     */
    private static boolean showWhole(Dissection d, RpcRdmaConnections c, long xid, byte[] frames, byte[] whole) {
        if (frames.length == 0 || d.layerCount() + LAYERS_OF_A_MESSAGE > Dissection.MAX_LAYERS) {
            return false;
        }
        int at = d.addReassembled(whole, 0, whole.length);
        if (!rpcFollows(d, xid, at, at + whole.length)) {
            return false; // not the RPC message it should be: shown as nothing
        }
        RpcRdma.REASSEMBLY.showAt(d, frames, at, whole.length);
        RpcMessages.dissect(d, c, at, at + whole.length);
        return true;
    }

    /**
     * Whether the message whose transport header starts at {@code at} (its body at {@code body}) goes
     * to the server: an RPC call (RFC 5531 §9 msg_type) inline; with no inline RPC message, a read
     * list, which only a call carries (RFC 8166 §3.5.3: the read list of a reply is empty), or
     * RDMA_DONE (RFC 5666 §4.3, the client's); a reply moved in a reply chunk or an RDMA_ERROR is the server's.
     */
    private static boolean isToServer(Dissection d, int at, int body, int proc) {
        return switch (proc) {
            case RpcRdma.RDMA_MSG, RpcRdma.RDMA_MSGP -> d.u32(body + 4) == RpcRdma.CALL;
            case RpcRdma.RDMA_NOMSG -> d.u32(at + RpcRdma.HEADER_SIZE) == 1;
            case RpcRdma.RDMA_DONE -> true;
            default -> false;
        };
    }

    /**
     * The connection a QP {@code --decode-as} chose belongs to, with no CM exchange: the server's when
     * a call goes to it; when a reply does, the client's of the learnt connection whose call had its
     * XID (RFC 8166 §4.1: a reply's XID is its call's), else a connection of its own.
     */
    private static RpcRdmaConnections.Connection learn(RpcRdmaConnections c, int destQpn, long xid, boolean toServer) {
        if (toServer) {
            return c.learnResponder(destQpn, 0);
        }
        RpcRdmaConnections.Connection called = c.unpaired(x -> x.calledWith(xid));
        if (called == null) {
            return c.learnRequester(destQpn, 0);
        }
        called.requesterFound(destQpn);
        return called;
    }

    /** Where the transport header that starts at {@code at} ends, or -1 when it is not one (RFC 8166 §4.2). */
    static int bodyEnd(Dissection d, int at, int limit) {
        if (at + RpcRdma.HEADER_SIZE > limit || d.u32(at + 4) != RpcRdma.VERSION || d.u32(at + 8) > MAX_CREDITS) {
            return -1;
        }
        long proc = d.u32(at + 12);
        int p = at + RpcRdma.HEADER_SIZE;
        if (proc == RpcRdma.RDMA_DONE) {
            return p;
        }
        if (proc == RpcRdma.RDMA_ERROR) {
            if (p + 4 > limit) {
                return -1;
            }
            long code = d.u32(p);
            int size = code == RpcRdma.ERR_VERS ? 12 : 4;
            return code >= 1 && code <= 2 && p + size <= limit ? p + size : -1;
        }
        if (proc > RpcRdma.RDMA_ERROR) {
            return -1;
        }
        if (proc == RpcRdma.RDMA_MSGP) {
            p += 8;
        }
        p = ChunkLists.end(d, p, limit, ChunkLists.Kind.READ);
        p = p < 0 ? -1 : ChunkLists.end(d, p, limit, ChunkLists.Kind.WRITE);
        return p < 0 ? -1 : ChunkLists.end(d, p, limit, ChunkLists.Kind.REPLY);
    }

    /** An RPC call or reply with the transport header's XID (RFC 5531 §9) starts at {@code at}. */
    private static boolean rpcFollows(Dissection d, long xid, int at, int limit) {
        if (at + RpcRdma.REPLY_HEADER_SIZE > limit || d.u32(at) != xid) {
            return false;
        }
        long type = d.u32(at + 4);
        if (type == RpcRdma.REPLY) {
            return d.u32(at + 8) <= 1; // MSG_ACCEPTED or MSG_DENIED
        }
        return type == RpcRdma.CALL && at + RpcRdma.CALL_HEADER_SIZE + 16 <= limit
                && d.u32(at + 8) == RpcRdma.RPC_VERSION && d.u32(at + 28) <= MAX_AUTH;
    }

    private static int addList(Dissection d, int at, int limit, ChunkLists.Kind kind, HeaderType list) {
        int end = ChunkLists.end(d, at, limit, kind);
        d.add(list, at, end - at);
        int p = at;
        while (d.u32(p) == 1) {
            if (kind == ChunkLists.Kind.READ) {
                d.add(RpcRdma.READ_CHUNK, p + 4, 4);
                d.add(RpcRdma.SEGMENT, p + 8, RpcRdma.SEGMENT_SIZE);
                p += 8 + RpcRdma.SEGMENT_SIZE;
                continue;
            }
            int segments = (int) d.u32(p + 4);
            d.add(RpcRdma.WRITE_CHUNK, p + 4, 4);
            for (int i = 0; i < segments; i++) {
                d.add(RpcRdma.SEGMENT, p + 8 + i * RpcRdma.SEGMENT_SIZE, RpcRdma.SEGMENT_SIZE);
            }
            p += 8 + segments * RpcRdma.SEGMENT_SIZE;
            if (kind == ChunkLists.Kind.REPLY) {
                break;
            }
        }
        return end;
    }

    private static RpcRdmaConnections connections(Dissection d, boolean create) {
        if (create) {
            return StreamState.of(d).get(RpcRdmaConnections.class, RpcRdmaConnections::new);
        }
        return StreamState.peek(d, RpcRdmaConnections.class);
    }
}
