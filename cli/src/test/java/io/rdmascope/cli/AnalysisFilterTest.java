package io.rdmascope.cli;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** dissect -Y on the replay engine's verdicts: a first pass replays, the second filters (like tshark -2). */
class AnalysisFilterTest {
    private static final String CASE = GoldenOutputTest.cases().resolve("rc_loss_nak/rc_loss_nak.pcapng").toString();

    private static List<Integer> frames(String filter) {
        return frames(filter, CASE);
    }

    private static List<Integer> frames(String filter, String capture) {
        Cli run = Cli.run("dissect", "-Y", filter, "-T", "fields", "-e", "frame.number", capture);
        assertEquals(0, run.status(), run.err());
        return Arrays.stream(run.out().split("\n")).filter(s -> !s.isBlank()).map(Integer::parseInt).toList();
    }

    @Test
    void retransmissionsDuplicatesAndNaksAreFilterable() {
        assertEquals(List.of(8, 9, 10, 16, 17), frames("rdmascope.analysis.retransmission"));
        assertEquals(List.of(21), frames("rdmascope.analysis.duplicate"));
        assertEquals(List.of(7, 15), frames("rdmascope.analysis.nak"));
        assertEquals(List.of(5, 13), frames("rdmascope.analysis.psn_gap"));
        assertEquals(List.of(8, 9, 10), frames("rdmascope.analysis.retransmission && infiniband.bth.opcode != 2"
                + " && rdmascope.message.kind == \"WRITE\""));
    }

    @Test
    void everyFrameOfAConversationCarriesItsIdCmAckOnlyAndCnpIncluded() {
        // Issue 14: the engine places every frame it reads; ACK-only, CNP and CM frames too.
        String cm = GoldenOutputTest.cases().resolve("cm_lifecycle/cm_lifecycle.pcapng").toString();
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), frames("rdmascope.conversation == \"1\"", cm));
        assertEquals(List.of(14, 15), frames("rdmascope.conversation == \"2\"", cm));
        assertEquals(List.of(5, 9), frames("rdmascope.role == \"ack\"", cm));
        assertEquals(List.of(1, 2, 3, 12, 13, 14, 15), frames("rdmascope.role == \"cm\"", cm));
        String ecn = GoldenOutputTest.cases().resolve("congestion_ecn/congestion_ecn.pcapng").toString();
        List<Integer> cnps = frames("infiniband.bth.opcode == 0x81", ecn);
        assertTrue(!cnps.isEmpty());
        assertEquals(cnps, frames("rdmascope.role == \"cnp\" && rdmascope.conversation == \"1\"", ecn));
        assertEquals(frames("infiniband", ecn), frames("rdmascope.conversation", ecn));
    }

    @Test
    void aMisspeltAnalysisFieldIsAUsageErrorWithASuggestion() {
        Cli run = Cli.run("dissect", "-Y", "rdmascope.analysis.retransmision", CASE);
        assertEquals(2, run.status());
        assertTrue(run.err().contains("did you mean 'rdmascope.analysis.retransmission'"), run.err());
    }
}
