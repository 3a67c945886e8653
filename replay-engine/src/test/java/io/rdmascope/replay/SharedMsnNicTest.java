package io.rdmascope.replay;

import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16, point 2: the iWARP NIC of the Wireshark wiki's iwarp_rdma sample captures (2008). Where
 * the real capture and the RFCs disagree:
 * <ul>
 * <li>RFC 5041 §5.1 and §5.3 number each untagged queue's messages from 1; the NIC numbers all of a
 * direction's untagged messages with one counter (Send on queue 0 MSN 1, Read Request on queue 1
 * MSN 2, Send on queue 0 MSN 3: frames 7, 12, 15);</li>
 * <li>RFC 5040 §4.4 puts a Read Request's Data Sink STag, tagged offset and size in network byte
 * order; the NIC wrote them little-endian (sink STag 0x01000000, TO 0x00c0050800000000, size 262144)
 * and the peer's Read Response fills STag 0x00000001 at TO 0x805c000 with 1024 bytes (frame 14).</li>
 * </ul>
 * Each deviation is one warning; the Read matches its response.
 */
class SharedMsnNicTest {
    private static final String CAPTURE = "ajbanjara_Wireshark_iwarp_rdma__read.pcap";

    @Test
    void theRealNicsSharedMsnCounterIsOneWarningAndItsReadIsAnswered() throws IOException {
        ReplayResult r = Replays.of(Replays.hard(CAPTURE));
        List<Finding> findings = Rules.evaluate(r.observations(), RulesConfig.defaults());
        assertEquals(List.of("IW-DDP-005 warning [12]", "IW-RDMAP-005 warning [12]"), findings.stream()
                .map(f -> f.rule() + " " + f.severity() + " " + f.frames()).toList(),
                "one finding per deviation, nothing cascading: " + findings);
        assertTrue(findings.get(0).detail().contains("one counter across queues"), findings.get(0).detail());
        Message read = r.messages().stream().filter(m -> m.kind() == MessageKind.READ).findFirst().orElseThrow();
        assertEquals(Message.COMPLETED, read.status());
        assertEquals(List.of(12), read.frames());
        assertEquals(List.of(14), read.responseFrames());
        assertEquals(1024, read.bytes());
        assertEquals(2, read.firstPsn(), "the Read Request's MSN");
        assertEquals(List.of(1L, 1L, 0L, 2L, 3L), r.messages().stream().map(m -> (long) m.firstPsn()).toList());
        assertTrue(r.messages().stream().allMatch(m -> m.status().equals(Message.COMPLETED)), r.messages().toString());
    }

    @Test
    void theGeneratedCaseOfThatNicHasTheSameTwoWarningsAndEveryMessageCompletes() throws IOException {
        ReplayResult r = TestReplays.scenario("iwarp_shared_msn");
        List<Finding> findings = Rules.evaluate(r.observations(), RulesConfig.defaults());
        assertEquals(List.of("IW-DDP-005", "IW-RDMAP-005"), findings.stream().map(Finding::rule).toList());
        assertEquals(List.of(MessageKind.SEND, MessageKind.WRITE, MessageKind.READ, MessageKind.SEND, MessageKind.READ,
                MessageKind.SEND), r.messages().stream().map(Message::kind).toList());
        assertTrue(r.messages().stream().allMatch(m -> m.status().equals(Message.COMPLETED)), r.messages().toString());
    }
}
