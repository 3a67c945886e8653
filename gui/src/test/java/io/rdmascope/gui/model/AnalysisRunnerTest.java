package io.rdmascope.gui.model;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.rules.RulesConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The background replay: what it finds, and where it places every frame. */
class AnalysisRunnerTest {

    private static FrameIndex loaded(Path file) throws IOException {
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(file, index, () -> false, (n, f) -> {
        });
        return index;
    }

    @Test
    void everyFrameOfTheMixedSampleBelongsToAConversation() throws IOException {
        FrameIndex index = loaded(Samples.mixed());
        CaptureAnalysis a = AnalysisRunner.run(index, DissectorChain.standard(), RulesConfig.defaults(), () -> false,
                n -> {
                });
        assertNotNull(a);
        int placed = 0;
        for (var flow : a.flows()) {
            placed += a.framesOf(flow.conversation()).length;
        }
        assertEquals(index.count(), placed);
        assertEquals(a.flows().get(0).conversation(), a.conversationOf(1));
    }

    /** Issue 19, item 7: the storage rules' findings reach the GUI's findings as the command line has them. */
    @Test
    void theStorageRulesFindingsAreAmongTheFindings() throws IOException {
        CaptureAnalysis a = AnalysisRunner.run(loaded(Samples.scenario("ulp_nvmeof")), DissectorChain.standard(), RulesConfig.defaults(),
                () -> false, n -> {
                });
        assertNotNull(a);
        assertEquals(java.util.List.of("ULP-ID-001 60 2", "ULP-DATA-001 72 2", "ULP-RSP-001 78 2", "ULP-UNANS-001 82 2",
                "ULP-CAP-001 84 1"), a.findings().stream().map(f -> f.rule() + " " + f.frames().get(0) + " "
                + f.conversation()).toList());
    }

    @Test
    void theReplayFollowsAnIndexThatIsStillFilling() throws Exception {
        FrameIndex whole = loaded(Samples.scenario("rc_loss_nak"));
        FrameIndex growing = new FrameIndex();
        Thread feeder = new Thread(() -> {
            for (int i = 1; i <= whole.count(); i++) {
                growing.append(whole.frame(i));
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
            growing.markComplete();
        });
        feeder.start();
        CaptureAnalysis a = AnalysisRunner.run(growing, DissectorChain.standard(), RulesConfig.defaults(),
                () -> false, n -> {
                });
        feeder.join();
        assertEquals(22, a.framesOf("1").length);
        assertEquals(4, a.messages().size());
    }

    @Test
    void aCancelledReplayGivesNothing() throws IOException {
        FrameIndex index = new FrameIndex(); // never completes
        assertNull(AnalysisRunner.run(index, DissectorChain.standard(), RulesConfig.defaults(), () -> true, n -> {
        }));
    }
}
