package io.rdmascope.replay;

import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 4's acceptance: for every committed scenario, the replayed messages equal the truth's
 * message for message (every contract field), and the observations equal the truth's — kind,
 * frame, conversation and PSN — with nothing missing and nothing extra.
 */
class ScenarioTruthTest {

    @TestFactory
    Stream<DynamicTest> everyScenarioReplaysToItsTruth() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s)));
    }

    private static void check(Scenario s) throws IOException {
        Path folder = Replays.cases().resolve(s.name());
        Truth truth = Scenarios.readTruth(folder.resolve(Scenarios.TRUTH_FILE));
        ReplayResult replay = Replays.of(folder.resolve(s.name() + "." + s.format().extension()));

        List<String> expectedMessages = truth.messages().stream().map(ScenarioTruthTest::line).toList();
        List<String> actualMessages = replay.messages().stream().map(ScenarioTruthTest::line).toList();
        assertEquals(String.join("\n", expectedMessages), String.join("\n", actualMessages),
                s.name() + ": messages differ from the truth");

        List<String> expected = new ArrayList<>(truth.observations().stream().map(ScenarioTruthTest::line).sorted()
                .toList());
        List<String> actual = new ArrayList<>(replay.observations().stream().map(ScenarioTruthTest::line).sorted()
                .toList());
        assertEquals(String.join("\n", expected), String.join("\n", actual),
                s.name() + ": observations differ from the truth");
    }

    static String line(Truth.Message m) {
        return String.join(" ", m.conversation(), m.src(), m.dst(), String.valueOf(m.srcQp()),
                String.valueOf(m.destQp()), m.kind(), m.transport(), String.valueOf(m.firstPsn()),
                String.valueOf(m.lastPsn()), String.valueOf(m.bytes()), String.valueOf(m.frames()),
                String.valueOf(m.responseFrames()), String.valueOf(m.completionFrame()),
                String.valueOf(m.latencyNanos()), m.status(), String.valueOf(m.immediate()),
                String.valueOf(m.invalidatedRkey()));
    }

    static String line(Message m) {
        return String.join(" ", m.conversation(), m.src(), m.dst(), String.valueOf(m.srcQp()),
                String.valueOf(m.destQp()), m.kind().name(), m.transport().name(), String.valueOf(m.firstPsn()),
                String.valueOf(m.lastPsn()), String.valueOf(m.bytes()), String.valueOf(m.frames()),
                String.valueOf(m.responseFrames()), String.valueOf(m.completionFrame()),
                String.valueOf(m.latencyNanos()), m.status(), String.valueOf(m.immediate()),
                String.valueOf(m.invalidatedRkey()));
    }

    static String line(Truth.Observation o) {
        return String.format("frame %5d conv %s %s psn %d", o.frame() == null ? 0 : o.frame(), o.conversation(),
                o.kind(), o.psn() == null ? -1 : o.psn());
    }

    static String line(Observation o) {
        return String.format("frame %5d conv %s %s psn %d", o.frame(), o.conversation(), o.kind(), o.psn());
    }
}
