package io.rdmascope.proto.rpcrdma;

import io.rdmascope.testsupport.RecordedOperations;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** RPC-over-RDMA's calls and replies as the operation view sees them, on the built session. */
class RpcRdmaOperationsTest {
    @Test
    void callsCarryTheirXidNameAndChunkSegmentsAndRepliesEndThem() {
        String queue = "Queue[protocol=rpcordma, name=, requesterQpn=" + RpcRdmaScenario.CLIENT_QPN + ", responderQpn="
                + RpcRdmaScenario.SERVER_QPN + "]";
        assertEquals(List.of(
                "frame 3 command " + queue + " 0x5e1d0001 READ (V3 READ) size 4096 buffers [Buffer[key=17, address=8192, "
                        + "length=1024], Buffer[key=18, address=12288, length=3072]]",
                "frame 4 response " + queue + " 5e1d0001 failure null",
                "frame 5 command " + queue + " 0x5e1d0002 COMPOUND (V4 SEQUENCE | PUTFH | GETATTR) size 0 buffers []",
                "frame 6 response " + queue + " 5e1d0002 failure null",
                "frame 7 command " + queue + " 0x5e1d0003 RDMA_NOMSG (RDMA_NOMSG XID 0x5e1d0003) size 1244 buffers "
                        + "[Buffer[key=33, address=16384, length=220], Buffer[key=34, address=20480, length=1024]]"),
                RecordedOperations.of(new RpcRdmaModule(),
                        RpcRdmaScenario.dissect(RpcRdmaScenario.frames(RpcRdma.PORT))));
    }

    /** RFC 8166 §3.3.1: every message from the server carries its credit grant; calls grant nothing. */
    @Test
    void repliesReportTheServersGrant() {
        assertEquals(List.of("frame 4 grant 128", "frame 6 grant 128"),
                RecordedOperations.credits(new RpcRdmaModule(), RpcRdmaScenario.dissect(RpcRdmaScenario.frames(RpcRdma.PORT))));
    }

    @Test
    void nothingWithoutTheCmExchangeForItsPort() {
        assertEquals(List.of(), RecordedOperations.of(new RpcRdmaModule(),
                RpcRdmaScenario.dissect(RpcRdmaScenario.frames(RpcRdma.PORT + 1))));
    }
}
