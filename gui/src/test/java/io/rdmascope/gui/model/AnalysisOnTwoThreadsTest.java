package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.ops.Operation;
import io.rdmascope.ops.OperationRules;
import io.rdmascope.ops.OperationTracker;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.rules.Diagnosis;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18, item 4: {@link AnalysisRunner} builds the per-frame analysis and the frame-to-conversation
 * map on a second thread while it judges findings and builds the accounts. What the panes get must be
 * what one thread builds, one step after the other, from a replay of its own: the same findings, the
 * same accounts, and for every frame the same conversation, message and analysis fields.
 */
class AnalysisOnTwoThreadsTest {

    static Stream<String> committedCases() throws IOException {
        try (Stream<Path> dirs = Files.list(Samples.root().resolve("sample-pcaps/cases"))) {
            return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList().stream();
        }
    }

    /** The analysis as one thread builds it, step after step, from a plain replay of {@code index}. */
    private record OneThread(List<Finding> findings, Diagnosis diagnosis, FrameAnalysis perFrame) {
        static OneThread of(FrameIndex index) {
            ReplayResult result = new ReplayResult();
            List<Operation> operations = new ArrayList<>();
            OperationRules operationRules = new OperationRules();
            OperationTracker tracker = operationRules.tracker(operations::add);
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            for (int f = 1; f <= index.count(); f++) {
                chain.dissect(index.frame(f), d);
                tracker.accept(d);
                result.accept(d);
            }
            tracker.finish();
            result.finish();
            result.addObservations(operationRules.observations(result));
            List<Finding> findings = Rules.evaluate(List.copyOf(result.observations()), RulesConfig.defaults());
            return new OneThread(findings, Diagnosis.of(result, findings),
                    FrameAnalysis.of(result).withOperations(operations));
        }
    }

    /**
     * The diagnosis as text, each flow's goodput series written out: the records' own equality compares
     * that array by identity, and the two replays' arrays are distinct.
     */
    private static String described(Diagnosis diagnosis) {
        StringBuilder out = new StringBuilder();
        for (Diagnosis.Account a : diagnosis.conversations()) {
            out.append(a.toString().replaceAll("\\[J@\\p{XDigit}+", "")).append('\n')
                    .append(Arrays.toString(a.flow().goodputOverTime().bytes())).append('\n');
        }
        return out.append(diagnosis.captureEndNanos()).toString();
    }

    @ParameterizedTest
    @MethodSource("committedCases")
    void theAnalysisBuiltOnTwoThreadsIsTheOneThreadOne(String scenario) throws IOException {
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(Samples.scenario(scenario), index, () -> false, (n, f) -> {
        });
        CaptureAnalysis shown = AnalysisRunner.run(index, DissectorChain.standard(), RulesConfig.defaults(),
                () -> false, n -> {
                });
        assertNotNull(shown);
        OneThread expected = OneThread.of(index);

        assertEquals(expected.findings(), shown.findings());
        assertEquals(described(expected.diagnosis()), described(shown.diagnosis()));
        assertEquals(expected.perFrame().operations(), shown.frames().operations());
        int placed = 0;
        for (int f = 1; f <= index.count(); f++) {
            String conversation = expected.perFrame().conversationOf(f);
            assertEquals(conversation, shown.conversationOf(f), "conversation of frame " + f);
            placed += conversation == null ? 0 : 1;
            assertEquals(expected.perFrame().messageOf(f), shown.frames().messageOf(f), "message of frame " + f);
            for (FrameAnalysis.Field field : FrameAnalysis.allFields()) {
                assertEquals(expected.perFrame().value(field, f), shown.frames().value(field, f),
                        field.name() + " of frame " + f);
            }
        }
        assertTrue(placed > 0 || shown.flows().isEmpty(), scenario + ": frames placed in its conversations");
    }
}
