package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.PcapFixtures;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When RPC-over-RDMA is claimed: only on a connection whose CM exchange asked for port 20049, never on
 * other traffic. Wireshark 4.0 takes the perftest SENDs of {@code linlinw5_rdma_cm.pcap} for
 * RPC-over-RDMA; no capture in {@code ../shared/captures} and no sample case may be claimed here.
 */
class RpcRdmaDetectionTest {
    @Test
    @DisplayName("no capture in ../shared/captures and no sample case is taken for RPC-over-RDMA")
    void noFalsePositives() throws Exception {
        List<Path> files = new ArrayList<>(SharedFiles.allCaptures());
        assertTrue(files.stream().anyMatch(p -> p.getFileName().toString().equals("linlinw5_rdma_cm.pcap")),
                "the capture tshark misreads is among them: " + files);
        files.addAll(ProtocolFixtures.sampleCaptures("ulp_rpcrdma")); // the case built to carry it
        int frames = 0;
        List<String> claimed = new ArrayList<>();
        for (Path file : files) {
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            for (Frame f : PcapFixtures.read(file)) {
                chain.dissect(f, d);
                frames++;
                if (claims(d)) {
                    claimed.add(file.getFileName() + " frame " + f.number());
                }
            }
        }
        assertTrue(frames > 1000, "frames dissected: " + frames);
        assertEquals(List.of(), claimed.stream().limit(10).toList());
    }

    @Test
    @DisplayName("the built conversation asking for port 20050 is not RPC-over-RDMA: detection needs the CM service ID")
    void anotherPortIsNotRpcRdma() {
        List<Dissection> ds = RpcRdmaScenario.dissect(RpcRdmaScenario.frames(RpcRdma.PORT + 1));
        assertEquals(0, ds.stream().filter(RpcRdmaDetectionTest::claims).count());
        List<Dissection> right = RpcRdmaScenario.dissect(RpcRdmaScenario.frames(RpcRdma.PORT));
        assertEquals(5, right.stream().filter(RpcRdmaDetectionTest::claims).count()); // the same bytes, port 20049
    }

    @Test
    @DisplayName("frames that go backwards forget the connection: the READ call again is plain RDMA")
    void framesGoingBackwardsForget() {
        List<byte[]> frames = RpcRdmaScenario.frames(RpcRdma.PORT);
        List<byte[]> replayed = new ArrayList<>(frames);
        replayed.add(frames.get(RpcRdmaScenario.FRAME_READ_CALL - 1));
        List<Dissection> ds = RpcRdmaScenario.dissect(replayed);
        assertTrue(claims(ds.get(RpcRdmaScenario.FRAME_READ_CALL - 1)));
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        d.continueFrom(ds.get(ds.size() - 1));
        byte[] again = frames.get(RpcRdmaScenario.FRAME_READ_CALL - 1);
        chain.dissect(new Frame(1, 0, again.length, again.length, RpcRdmaScenario.LINK_TYPE_ETHERNET, 0,
                java.nio.ByteBuffer.wrap(again), 0), d);
        assertEquals(false, claims(d));
    }

    private static boolean claims(Dissection d) {
        for (int i = 0; i < d.layerCount(); i++) {
            String p = d.layerType(i).protocol().abbrev();
            if (p.equals("rpcordma") || p.equals("rpc") || p.equals("nfs")) {
                return true;
            }
        }
        return false;
    }
}
