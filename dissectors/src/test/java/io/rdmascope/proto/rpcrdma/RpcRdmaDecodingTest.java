package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.text.PacketSummary;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.rdmascope.proto.rpcrdma.RpcRdmaScenario.FRAME_COMPOUND_CALL;
import static io.rdmascope.proto.rpcrdma.RpcRdmaScenario.FRAME_COMPOUND_REPLY;
import static io.rdmascope.proto.rpcrdma.RpcRdmaScenario.FRAME_NOMSG;
import static io.rdmascope.proto.rpcrdma.RpcRdmaScenario.FRAME_NOT_A_HEADER;
import static io.rdmascope.proto.rpcrdma.RpcRdmaScenario.FRAME_READ_CALL;
import static io.rdmascope.proto.rpcrdma.RpcRdmaScenario.FRAME_READ_REPLY;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The built NFS/RDMA conversation ({@link RpcRdmaScenario}) decoded field by field. */
class RpcRdmaDecodingTest {
    private static final List<Dissection> DS = RpcRdmaScenario.dissect(RpcRdmaScenario.frames(RpcRdma.PORT));

    @Test
    @DisplayName("the transport header and the write list of an NFSv3 READ call, and the RPC call on it")
    void readCall() {
        Dissection d = frame(FRAME_READ_CALL);
        assertEquals("0x5e1d0001", value(d, "rpcordma.xid"));
        assertEquals("1", value(d, "rpcordma.version"));
        assertEquals("128", value(d, "rpcordma.flow_control"));
        assertEquals("0", value(d, "rpcordma.msg_type"));
        assertEquals("0", value(d, "rpcordma.reads_count"));
        assertEquals("1", value(d, "rpcordma.writes_count"));
        assertEquals("0", value(d, "rpcordma.reply_count"));
        assertEquals("2", value(d, "rpcordma.segment_count"));
        assertEquals("0x00000011,0x00000012", value(d, "rpcordma.rdma_handle"));
        assertEquals("1024,3072", value(d, "rpcordma.rdma_length"));
        assertEquals("0x0000000000002000,0x0000000000003000", value(d, "rpcordma.rdma_offset"));
        assertEquals("0x5e1d0001", value(d, "rpc.xid"));
        assertEquals("0", value(d, "rpc.msgtyp"));
        assertEquals("2", value(d, "rpc.version"));
        assertEquals("100003", value(d, "rpc.program"));
        assertEquals("3", value(d, "rpc.programversion"));
        assertEquals("6", value(d, "rpc.procedure"));
        assertEquals("6", value(d, "nfs.procedure_v3"));
        assertEquals("", value(d, "rpc.replystat"));
        assertEquals(List.of("NFS", "V3 READ Call"), columns(d));
    }

    @Test
    @DisplayName("a reply names its call's program, version and procedure, found by XID")
    void readReply() {
        Dissection d = frame(FRAME_READ_REPLY);
        assertEquals("1", value(d, "rpc.msgtyp"));
        assertEquals("0", value(d, "rpc.replystat"));
        assertEquals("100003", value(d, "rpc.program"));
        assertEquals("3", value(d, "rpc.programversion"));
        assertEquals("6", value(d, "nfs.procedure_v3"));
        assertEquals("", value(d, "rpc.version")); // a reply carries no RPC version
        assertEquals(List.of("NFS", "V3 READ Reply"), columns(d));
    }

    @Test
    @DisplayName("NFSv4 COMPOUND: every operation of the call, the first of the reply")
    void compound() {
        Dissection call = frame(FRAME_COMPOUND_CALL);
        assertEquals("53,22,9", value(call, "nfs.opcode"));
        assertEquals("4", value(call, "rpc.programversion"));
        assertEquals("1", value(call, "rpc.procedure"));
        assertEquals(List.of("NFS", "V4 Call SEQUENCE | PUTFH | GETATTR"), columns(call));
        Dissection reply = frame(FRAME_COMPOUND_REPLY);
        assertEquals("53", value(reply, "nfs.opcode"));
        assertEquals(List.of("NFS", "V4 Reply SEQUENCE"), columns(reply));
    }

    @Test
    @DisplayName("RDMA_NOMSG: a read chunk with its position and a reply chunk, no RPC in the SEND")
    void nomsgWithReadAndReplyChunks() {
        Dissection d = frame(FRAME_NOMSG);
        assertEquals("1", value(d, "rpcordma.msg_type"));
        assertEquals("1", value(d, "rpcordma.reads_count"));
        assertEquals("0", value(d, "rpcordma.position"));
        assertEquals("0", value(d, "rpcordma.writes_count"));
        assertEquals("1", value(d, "rpcordma.reply_count"));
        assertEquals("1", value(d, "rpcordma.segment_count"));
        assertEquals("0x00000021,0x00000022", value(d, "rpcordma.rdma_handle"));
        assertEquals("220,1024", value(d, "rpcordma.rdma_length"));
        assertEquals("", value(d, "rpc.xid"));
        assertEquals(List.of("RPCoRDMA", "RDMA_NOMSG XID 0x5e1d0003"), columns(d));
    }

    @Test
    @DisplayName("a SEND on the connection whose version word is 2 is left as RDMA data")
    void versionTwoIsNotAHeader() {
        Dissection d = frame(FRAME_NOT_A_HEADER);
        assertEquals("", value(d, "rpcordma.xid"));
        assertEquals("RRoCE", columns(d).get(0));
    }

    private static Dissection frame(int number) {
        return DS.get(number - 1);
    }

    /** Protocol and Info: an RPC-over-RDMA frame's Info is the message's alone, as tshark's. */
    private static List<String> columns(Dissection d) {
        PacketSummary.Columns c = PacketSummary.of(d);
        return List.of(c.protocol(), c.info());
    }

    static String value(Dissection d, String name) {
        AsciiSink s = new AsciiSink(64);
        FieldText.appendOccurrences(s, FieldRegistry.standard().lookup(name), d, ',', FieldText.Occurrence.ALL);
        return s.toString();
    }
}
