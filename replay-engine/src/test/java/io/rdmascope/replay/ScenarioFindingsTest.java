package io.rdmascope.replay;

import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Issue 5: the findings of every scenario are exactly the truth's: rule, severity, frame, conversation. */
class ScenarioFindingsTest {

    @TestFactory
    Stream<DynamicTest> everyScenarioRaisesExactlyItsExpectedFindings() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s)));
    }

    private static void check(Scenario s) throws IOException {
        Path folder = Replays.cases().resolve(s.name());
        Truth truth = Scenarios.readTruth(folder.resolve(Scenarios.TRUTH_FILE));
        ReplayResult replay = Replays.of(folder.resolve(s.name() + "." + s.format().extension()));
        List<Finding> findings = Rules.evaluate(replay.observations(), RulesConfig.defaults());
        List<String> expected = truth.findings().stream().map(f -> f.rule() + " " + f.severity() + " frame "
                + (f.frame() == null ? "-" : f.frame()) + " conv " + f.conversation()).sorted().toList();
        List<String> actual = findings.stream().map(f -> f.rule() + " " + f.severity() + " frame "
                + (f.frames().isEmpty() ? "-" : f.frames().get(0)) + " conv " + f.conversation()).sorted().toList();
        assertEquals(String.join("\n", expected), String.join("\n", actual), s.name());
    }
}
