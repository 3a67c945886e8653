package io.rdmascope.proto.rpcrdma;

import io.rdmascope.build.CmMad;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.testsupport.Tshark;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.PcapFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.proto.rpcrdma.RpcRdmaDecodingTest.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RPC messages moved in chunks, put back together (RFC 8166 §3.5.3-3.5.4) as tshark 4.0's
 * packet-rpcrdma.c does: a "long call" whose whole RPC message is in a read chunk at position 0
 * (RDMA_NOMSG), fetched by the server's RDMA READ and shown whole at the READ response that completes
 * it; its reply RDMA WRITten into the call's reply chunk and shown whole at the RDMA_NOMSG SEND that
 * follows. tshark parity on every rpcordma/rpc/nfs field both tools name, and the bound on a chunk.
 */
class RpcRdmaChunksTest {
    private static final long XID = 0x7c000001L;
    private static final long CALL_HANDLE = 0x31;
    private static final long CALL_OFFSET = 0x6000_0000L;
    private static final long REPLY_HANDLE = 0x32;
    private static final long REPLY_OFFSET = 0x7000_0000L;
    private static final int READ_REQUEST = 0x0C;
    private static final int READ_RESPONSE_FIRST = 0x0D;
    private static final int READ_RESPONSE_MIDDLE = 0x0E;
    private static final int READ_RESPONSE_LAST = 0x0F;
    private static final int READ_RESPONSE_ONLY = 0x10;
    private static final int MTU = 4096;
    private static final int WRITE_ONLY = 0x0A;
    private static final int SEND_ONLY = 0x04;
    /** Frame numbers (1-based, as tshark's). */
    private static final int FRAME_CALL_SEND = 3;
    private static final int FRAME_READ_RESPONSE = 5;
    private static final int FRAME_REPLY_WRITE = 6;
    private static final int FRAME_REPLY_SEND = 7;

    /** An NFSv3 GETATTR call (procedure 1) and its reply: the messages the chunks carry. */
    private static byte[] getattrCall() {
        return RpcRdmaScenario.call(new RpcRdmaScenario.Xdr(), XID, 3, 1).opaque(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})
                .bytes();
    }

    private static byte[] getattrReply() {
        RpcRdmaScenario.Xdr x = RpcRdmaScenario.reply(new RpcRdmaScenario.Xdr(), XID).word(0); // accept_stat SUCCESS
        x.word(0); // NFS3_OK
        for (int i = 0; i < 21; i++) {
            x.word(i == 0 ? 1 : 0); // fattr3: a regular file, the rest zero
        }
        return x.bytes();
    }

    /** The conversation; {@code callBytes} is what the client's memory behind the read chunk holds. */
    private static List<byte[]> frames(byte[] callBytes) {
        List<byte[]> out = new ArrayList<>();
        out.add(RpcRdmaScenario.client().gsiMad(CmMad.req(new CmMad.Request(0x2001, 0x7ec0c56d,
                RpcRdmaScenario.CLIENT_QPN, 0x3da6, CmMad.mtuCode(4096), 16, 16, 17, 7, 7,
                RpcRdmaScenario.gid(RpcRdmaScenario.IP_CLIENT), RpcRdmaScenario.gid(RpcRdmaScenario.IP_SERVER),
                RpcRdma.PORT, RpcRdmaScenario.IP_CLIENT, RpcRdmaScenario.IP_SERVER, 0x025056fffea77d03L))).build());
        out.add(RpcRdmaScenario.server().gsiMad(CmMad.rep(0x2001, 0x1234, 0x7ec0c56d, RpcRdmaScenario.SERVER_QPN,
                0x55, 16, 16, 7, 0x025056fffea7129fL)).build());
        // RDMA_NOMSG: the call is read from the client at position 0; the reply goes to a 1024-byte reply chunk.
        RpcRdmaScenario.Xdr nomsg = RpcRdmaScenario.transport(XID, 32, RpcRdma.RDMA_NOMSG)
                .word(1).word(0).segment(CALL_HANDLE, callBytes.length, CALL_OFFSET).word(0)
                .word(0)
                .word(1).word(1).segment(REPLY_HANDLE, 1024, REPLY_OFFSET);
        out.add(RpcRdmaScenario.client().opcode(SEND_ONLY).destQp(RpcRdmaScenario.SERVER_QPN).psn(1)
                .payload(nomsg.bytes()).build());
        out.add(RpcRdmaScenario.server().opcode(READ_REQUEST).destQp(RpcRdmaScenario.CLIENT_QPN).psn(1)
                .set(InfiniBand.RETH_VA, CALL_OFFSET).set(InfiniBand.RETH_R_KEY, CALL_HANDLE)
                .set(InfiniBand.RETH_DMALEN, callBytes.length).build());
        // READ responses of at most one 4096-byte MTU each (IBTA 9.7.4.1.3): Only, or First, Middle…, Last.
        int packets = (callBytes.length + MTU - 1) / MTU;
        for (int i = 0; i < packets; i++) {
            int opcode = packets == 1 ? READ_RESPONSE_ONLY
                    : i == 0 ? READ_RESPONSE_FIRST : i == packets - 1 ? READ_RESPONSE_LAST : READ_RESPONSE_MIDDLE;
            out.add(RpcRdmaScenario.client().opcode(opcode).destQp(RpcRdmaScenario.SERVER_QPN).psn(1 + i)
                    .payload(java.util.Arrays.copyOfRange(callBytes, i * MTU, Math.min(callBytes.length, (i + 1) * MTU)))
                    .build());
        }
        byte[] reply = getattrReply();
        out.add(RpcRdmaScenario.server().opcode(WRITE_ONLY).destQp(RpcRdmaScenario.CLIENT_QPN).psn(2)
                .set(InfiniBand.RETH_VA, REPLY_OFFSET).set(InfiniBand.RETH_R_KEY, REPLY_HANDLE)
                .set(InfiniBand.RETH_DMALEN, reply.length).payload(reply).build());
        // The reply's reply chunk says how much was written (RFC 8166 §3.5.4).
        RpcRdmaScenario.Xdr replyHeader = RpcRdmaScenario.transport(XID, 32, RpcRdma.RDMA_NOMSG)
                .word(0).word(0).word(1).word(1).segment(REPLY_HANDLE, reply.length, REPLY_OFFSET);
        out.add(RpcRdmaScenario.server().opcode(SEND_ONLY).destQp(RpcRdmaScenario.CLIENT_QPN).psn(3)
                .payload(replyHeader.bytes()).build());
        return out;
    }

    @Test
    @DisplayName("a long call is shown whole at the READ response that brings it, its reply at the SEND after the reply chunk's WRITE")
    void longCallAndReplyChunkAreShownWhole() {
        byte[] call = getattrCall();
        List<Dissection> ours = RpcRdmaScenario.dissect(frames(call));
        Dissection read = ours.get(FRAME_READ_RESPONSE - 1);
        assertEquals(String.valueOf(FRAME_READ_RESPONSE), value(read, "rpcordma.fragment"),
                "the call came in the READ response alone");
        assertEquals(String.valueOf(call.length), value(read, "rpcordma.reassembled.length"));
        assertEquals("0x7c000001", value(read, "rpc.xid"));
        assertEquals("0", value(read, "rpc.msgtyp"));
        assertEquals("1", value(read, "nfs.procedure_v3"));
        assertEquals("NFS", PacketSummary.of(read).protocol());
        assertEquals("V3 GETATTR Call", PacketSummary.of(read).info());
        Dissection reply = ours.get(FRAME_REPLY_SEND - 1);
        assertEquals(String.valueOf(FRAME_REPLY_WRITE), value(reply, "rpcordma.fragment"));
        assertEquals(String.valueOf(getattrReply().length), value(reply, "rpcordma.reassembled.length"));
        assertEquals("1", value(reply, "rpc.msgtyp"));
        assertEquals("V3 GETATTR Reply", PacketSummary.of(reply).info());
        assertEquals("", value(ours.get(FRAME_CALL_SEND - 1), "rpc.xid"), "nothing of the call is inline");
        assertEquals("", value(ours.get(FRAME_REPLY_WRITE - 1), "rpc.xid"), "the WRITE itself stays data");
    }

    @Test
    @DisplayName("tshark 4.0 shows the same reassembly: every rpcordma/rpc/nfs field both tools name equal on every frame")
    void tsharkParity(@TempDir Path dir) throws Exception {
        Tshark.assumeInstalled();
        List<byte[]> frames = frames(getattrCall());
        Path file = dir.resolve("long-call.pcap");
        PcapFixtures.writePcap(file, RpcRdmaScenario.LINK_TYPE_ETHERNET, frames);
        List<String> names = RpcRdmaTsharkParityTest.sharedNames();
        assertTrue(names.contains("rpcordma.fragment") && names.contains("rpcordma.reassembled.length"), names.toString());
        RpcRdmaTsharkParityTest.Comparison c = RpcRdmaTsharkParityTest.compare(file, RpcRdmaScenario.dissect(frames),
                names);
        assertEquals(List.of(), c.problems());
        int compared = c.compared();
        assertTrue(compared >= 30, "non-empty values compared: " + compared);
    }

    @Test
    @DisplayName("a read chunk longer than the bound is not kept: counted, and the call is not shown whole")
    void aChunkPastTheBoundIsCounted() {
        byte[] huge = new byte[Chunks.MAX_CHUNK_BYTES + 1];
        System.arraycopy(getattrCall(), 0, huge, 0, getattrCall().length);
        List<Dissection> ours = RpcRdmaScenario.dissect(frames(huge));
        int lastResponse = ours.size() - 2; // the WRITE and the reply SEND follow it
        assertEquals("", value(ours.get(lastResponse - 1), "rpcordma.fragment"));
        assertEquals("", value(ours.get(lastResponse - 1), "rpc.xid"));
        RpcRdmaConnections connections = StreamState.peek(ours.get(ours.size() - 1), RpcRdmaConnections.class);
        assertEquals(1, connections.to(RpcRdmaScenario.SERVER_QPN).chunks.overflowed());
        assertEquals("1", value(ours.get(ours.size() - 1), "rpc.msgtyp"), "the reply chunk is still shown whole");
    }
}
