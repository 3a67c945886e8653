package io.rdmascope.replay;

import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 4 on real captures (../shared/captures, skipped when absent): each perftest message is
 * reassembled with the byte count the tool was run with, CM connections are recognised with their
 * QPNs, and these clean captures raise no loss, retransmission or violation observation at all.
 */
class RealCaptureReplayTest {

    private static ReplayResult replay(String name) throws IOException {
        return Replays.of(SharedFiles.capture(name));
    }

    /** "count x KIND bytes status frames/responses" for every message, grouped. */
    private static Map<String, Long> shape(ReplayResult r) {
        return r.messages().stream().collect(Collectors.groupingBy(m -> m.kind() + " " + m.bytes() + " " + m.status()
                + " " + m.frames().size() + "/" + m.responseFrames().size(), TreeMap::new, Collectors.counting()));
    }

    @Test
    void ibWriteBwSendsFiveWritesOf3000BytesInThreePackets() throws IOException {
        assertEquals(Map.of("WRITE 3000 completed 3/0", 5L), shape(replay("linlinw5_rdma_write_bw.pcap")));
    }

    @Test
    void ibReadBwReadsAreMatchedToFirstMiddleLastResponses() throws IOException {
        ReplayResult r = replay("linlinw5_rdma_read_bw.pcap");
        assertEquals(Map.of("READ 3000 completed 1/3", 5L), shape(r));
        assertEquals(1024, r.flows().get(0).pmtu(), "path MTU learned from the READ responses");
    }

    @Test
    void sendBwAtomicBwAndTheLatencyTests() throws IOException {
        assertEquals(Map.of("SEND 3000 completed 3/0", 5L), shape(replay("linlinw5_rdma_send_bw.pcap")));
        assertEquals(Map.of("FETCH_ADD 8 completed 1/1", 5L), shape(replay("linlinw5_rdma_atomic_bw.pcap")));
        assertEquals(Map.of("READ 64 completed 1/1", 5L), shape(replay("linlinw5_rdma_read_lat.pcap")));
        assertEquals(Map.of("WRITE 64 completed 1/0", 10L), shape(replay("linlinw5_rdma_write_lat.pcap")));
    }

    @Test
    void pingpongOverRcUcAndUd() throws IOException {
        assertEquals(Map.of("SEND 1024 completed 1/0", 10L), shape(replay("linlinw5_pingpong_rc.pcap")));
        assertEquals(Map.of("SEND 1024 completed 1/0", 10L), shape(replay("linlinw5_pingpong_uc.pcap")));
        ReplayResult ud = replay("linlinw5_pingpong_ud.pcap");
        assertEquals(Map.of("SEND 1024 completed 1/0", 10L), shape(ud));
        assertEquals(2, ud.flows().size(), "one UD conversation per direction (DETH source QP to destination QP)");
        assertTrue(ud.messages().stream().allMatch(m -> m.srcQp() != null), "UD source QPs come from the DETH");
    }

    @Test
    void rpingIsOneCmConnectionWithItsQpnsAndLifecycle() throws IOException {
        ReplayResult r = replay("linlinw5_rping.pcap");
        assertEquals(1, r.flows().size());
        Flow f = r.flows().get(0);
        assertEquals("cm", f.setup());
        assertEquals(0x2c, f.a().qpn());
        assertEquals(0x2b, f.b().qpn());
        assertEquals(List.of("req", "rep", "established", "disconnecting", "closed"),
                f.lifecycle().stream().map(Flow.Transition::state).toList());
        assertEquals(Map.of("READ 64 completed 1/1", 5L, "SEND 16 completed 1/0", 20L, "WRITE 64 completed 1/0", 5L),
                shape(r));
    }

    @Test
    void perftestOverRdmaCmHasTwoConnections() throws IOException {
        ReplayResult r = replay("linlinw5_rdma_cm.pcap");
        assertEquals(2, r.flows().size());
        assertTrue(r.flows().stream().allMatch(f -> "cm".equals(f.setup()) && "closed".equals(f.state())));
        assertEquals(5, r.messages().stream().filter(m -> m.kind() == MessageKind.WRITE && m.bytes() == 3000).count());
    }

    @Test
    void nativeInfinibandCmConnectionsAreKeyedByLid() throws IOException {
        ReplayResult r = replay("srinivaskoritala_infiniband.pcap");
        List<Flow> rc = r.flows().stream().filter(f -> f.transport() == Transport.RC).toList();
        assertEquals(3, rc.size());
        assertTrue(rc.stream().allMatch(f -> "cm".equals(f.setup()) && f.a().address().startsWith("LID: ")));
        Flow first = rc.get(0);
        assertEquals(0x870408, first.a().qpn());
        assertEquals(0xfc0407, first.b().qpn());
    }

    @Test
    void noRealCaptureRaisesALossRetransmissionOrViolationObservation() throws IOException {
        // A message sent in a capture's last moments may be unanswered only because the capture stopped
        // (srinivaskoritala's final SEND): a note, not a fault.
        Set<String> allowed = Set.of("qp_state", "unanswered_at_capture_end");
        StringBuilder unexpected = new StringBuilder();
        int messages = 0;
        for (Path capture : SharedFiles.allCaptures()) {
            ReplayResult r = Replays.of(capture);
            messages += r.messages().size();
            Set<Integer> cutShort = r.observations().stream()
                    .filter(o -> o.kind() == ObservationKind.UNANSWERED_AT_CAPTURE_END)
                    .map(o -> (int) o.frame()).collect(Collectors.toSet());
            for (Observation o : r.observations()) {
                // SoftUiWarp (a user-space iWARP stack) sends DDP version 0 where RFC 5041 §4.1 says 1:
                // a real deviation of that stack, reported as such (issue 8).
                boolean knownDeviation = o.kind().id().equals("ddp_version")
                        && capture.getFileName().toString().equals("kazikame_uiwarp_v1.pcap");
                if (!allowed.contains(o.kind().id()) && !knownDeviation) {
                    unexpected.append(capture.getFileName()).append(" frame ").append(o.frame()).append(' ')
                            .append(o.kind()).append(": ").append(o.detail()).append('\n');
                }
            }
            assertTrue(r.messages().stream().filter(m -> !cutShort.contains(m.frames().get(0)))
                            .allMatch(m -> Message.COMPLETED.equals(m.status())),
                    capture.getFileName() + ": every message of a clean capture completes");
        }
        assertEquals("", unexpected.toString());
        assertTrue(messages > 150, "expected the real captures' messages, saw " + messages);
    }
}
