package io.rdmascope.replay;

import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameAnalysisTest {

    private static List<Long> framesWhere(FrameAnalysis a, String field, int frames) {
        List<Long> out = new ArrayList<>();
        for (long f = 1; f <= frames; f++) {
            if (a.value(FrameAnalysis.field(field), f) != null) {
                out.add(f);
            }
        }
        return out;
    }

    @Test
    void flagsMarkTheFramesTheTruthNames() throws IOException {
        ReplayResult r = TestReplays.scenario("rc_loss_nak");
        Truth truth = Scenarios.readTruth(Replays.cases().resolve("rc_loss_nak").resolve(Scenarios.TRUTH_FILE));
        FrameAnalysis a = FrameAnalysis.of(r);
        for (String kind : List.of("retransmission", "duplicate", "nak_sequence_error", "packet_lost")) {
            List<Long> expected = truth.observations().stream().filter(o -> o.kind().equals(kind))
                    .map(o -> (long) o.frame()).distinct().sorted().toList();
            assertEquals(expected, framesWhere(a, "rdmascope.analysis." + kind, truth.frames()), kind);
        }
        assertEquals(framesWhere(a, "rdmascope.analysis.packet_lost", truth.frames()),
                framesWhere(a, "rdmascope.analysis.psn_gap", truth.frames()));
        assertEquals(framesWhere(a, "rdmascope.analysis.nak_sequence_error", truth.frames()),
                framesWhere(a, "rdmascope.analysis.nak", truth.frames()));
    }

    @Test
    void messageFieldsReachEveryFrameOfTheMessage() throws IOException {
        ReplayResult r = TestReplays.scenario("rc_read");
        FrameAnalysis a = FrameAnalysis.of(r);
        Message read = r.messages().stream().filter(m -> m.kind() == MessageKind.READ).findFirst().orElseThrow();
        for (int f : read.responseFrames()) {
            assertEquals("READ", a.value(FrameAnalysis.field("rdmascope.message.kind"), f));
            assertEquals(read.latencyNanos(), a.value(FrameAnalysis.field("rdmascope.message.latency"), f));
            assertEquals(read.conversation(), a.value(FrameAnalysis.field("rdmascope.conversation"), f));
        }
        assertNull(a.value(FrameAnalysis.field("rdmascope.message.kind"), 10_000));
        assertTrue(FrameAnalysis.allFields().size() > 30);
    }

    /**
     * Kinds past the 64th live in the second word of a frame's bits (issue 16): iwarp_shared_msn's
     * two kinds are the 65th and 66th, and their filter fields mark exactly the frame the truth names,
     * without lighting a kind of the first word at the same bit position.
     */
    @Test
    void kindsPastTheFirstWordFilterTheirOwnFrames() throws IOException {
        ReplayResult r = TestReplays.scenario("iwarp_shared_msn");
        Truth truth = Scenarios.readTruth(Replays.cases().resolve("iwarp_shared_msn").resolve(Scenarios.TRUTH_FILE));
        FrameAnalysis a = FrameAnalysis.of(r);
        for (String kind : List.of("ddp_msn_shared_counter", "rdmap_read_request_byte_order")) {
            List<Long> expected = truth.observations().stream().filter(o -> o.kind().equals(kind))
                    .map(o -> (long) o.frame()).toList();
            assertEquals(1, expected.size(), kind);
            assertEquals(expected, framesWhere(a, "rdmascope.analysis." + kind, truth.frames()), kind);
        }
        // bits 0 and 1 of the first word are packet_lost and missing_from_capture: none here
        assertEquals(List.of(), framesWhere(a, "rdmascope.analysis.psn_gap", truth.frames()));
        assertEquals(List.of(), framesWhere(a, "rdmascope.analysis.packet_lost", truth.frames()));
    }

    /** A new observation kind needs its analysis field: every kind any scenario produces has one. */
    @Test
    void everyObservationKindTheScenariosProduceIsFilterable() throws IOException {
        for (io.rdmascope.samples.ScenarioCatalog.Scenario s : io.rdmascope.samples.ScenarioCatalog.all()) {
            for (Observation o : TestReplays.scenario(s.name()).observations()) {
                assertTrue(FrameAnalysis.field("rdmascope.analysis." + o.kind()) != null, s.name() + ": " + o.kind());
            }
        }
    }
}
