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
        Cli run = Cli.run("dissect", "-Y", filter, "-T", "fields", "-e", "frame.number", CASE);
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
    void aMisspeltAnalysisFieldIsAUsageErrorWithASuggestion() {
        Cli run = Cli.run("dissect", "-Y", "rdmascope.analysis.retransmision", CASE);
        assertEquals(2, run.status());
        assertTrue(run.err().contains("did you mean 'rdmascope.analysis.retransmission'"), run.err());
    }
}
