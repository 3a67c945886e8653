package io.rdmascope.rules;

import io.rdmascope.replay.ReplayResult;
import io.rdmascope.replay.TestReplays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Expectations over the rc_loss_nak scenario: 3 NAK-driven retransmissions plus 2 more, one duplicate. */
class ExpectationsTest {

    private static List<Expectations.Result> run(Path dir, String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        ReplayResult r = TestReplays.scenario("rc_loss_nak");
        return Expectations.read(f).evaluate(r, Rules.evaluate(r.observations(), RulesConfig.defaults()));
    }

    @Test
    void countsRatiosCompletionAndLatencyInYaml(@TempDir Path dir) throws IOException {
        List<Expectations.Result> results = run(dir, "e.yaml", """
                expectations:
                  - rule: IB-ICRC-001
                  - name: few retransmissions
                    observation: retransmission
                    max: 10
                  - observation: retransmission
                    maxRatio: 0.01
                  - messages: any
                    allCompleted: true
                  - messages: SEND
                    min: 3
                  - messages: WRITE
                    p99LatencyBelow: 1ms
                  - messages: WRITE
                    p99LatencyBelow: 10ns
                """);
        assertEquals(List.of(true, true, false, true, true, true, false),
                results.stream().map(Expectations.Result::passed).toList());
        assertEquals("few retransmissions", results.get(1).name());
        assertTrue(results.get(2).detail().contains("of "), results.get(2).detail());
        assertTrue(results.get(6).detail().contains("µs"), results.get(6).detail());
    }

    @Test
    void expectingEveryReadToCompleteFailsWhenThereIsNoRead(@TempDir Path dir) throws IOException {
        List<Expectations.Result> results = run(dir, "e.yaml", "expectations:\n  - messages: READ\n    allCompleted: true\n");
        assertEquals(false, results.get(0).passed());
        assertTrue(results.get(0).detail().contains("no READ messages"), results.get(0).detail());
    }

    @Test
    void scopesAndJson(@TempDir Path dir) throws IOException {
        List<Expectations.Result> results = run(dir, "e.json", """
                {"expectations": [
                  {"observation": "retransmission", "conversation": "1", "min": 5},
                  {"observation": "retransmission", "conversation": "2", "max": 0},
                  {"rule": "IB-RC-PSN-002", "max": 0}
                ]}""");
        assertEquals(List.of(true, true, false), results.stream().map(Expectations.Result::passed).toList());
    }

    @Test
    void mistakesAreOneLineErrors(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "expectations:\n  - rule: IB-NOPE-001\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Expectations.read(f)).getMessage()
                .contains("unknown rule"));
        Files.writeString(f, "expectations:\n  - messages: READ\n    p99LatencyBelow: soon\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Expectations.read(f)).getMessage()
                .contains("not a duration"));
        Files.writeString(f, "expectations:\n  - messages: READ\n    observation: cnp\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Expectations.read(f)).getMessage()
                .contains("exactly one"));
        Files.writeString(f, "expectations:\n  - observation: cnp\n    qp: eleven\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Expectations.read(f)).getMessage()
                .contains("qp must be a number"));
        Files.writeString(f, "expectations: [\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Expectations.read(f)).getMessage()
                .contains("line"));
    }
}
