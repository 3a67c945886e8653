package io.rdmascope.rules;

import io.rdmascope.replay.Observation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RulesConfigTest {
    private static final List<Observation> OBSERVATIONS = List.of(
            new Observation.Retransmission(9, "1", 5, Observation.Trigger.TIMEOUT),
            new Observation.Retransmission(4, "1", 4, Observation.Trigger.NAK),
            new Observation.CeMark(2, "1", 3),
            new Observation.StateChange(1, "1", "req"));

    private static RulesConfig config(Path dir, String json) throws IOException {
        Path f = dir.resolve("rules.json");
        Files.writeString(f, json);
        return RulesConfig.read(f);
    }

    @Test
    void byDefaultEveryObservationWithARuleIsAFindingInFrameOrder() {
        List<Finding> f = Rules.evaluate(OBSERVATIONS, RulesConfig.defaults());
        assertEquals(List.of("IB-CC-001", "IB-RC-PSN-003", "IB-RC-PSN-003"), f.stream().map(Finding::rule).toList());
        assertEquals(List.of(2L, 4L, 9L), f.stream().map(Finding::firstFrame).toList());
        assertEquals(2, Rules.counts(f).get(Severity.WARNING));
    }

    @Test
    void aRulesFileDisablesRulesChangesSeveritiesAndSetsThresholds(@TempDir Path dir) throws IOException {
        RulesConfig off = config(dir, "{\"rules\": {\"IB-CC-001\": {\"enabled\": false},"
                + " \"IB-RC-PSN-003\": {\"severity\": \"note\"}}}");
        List<Finding> f = Rules.evaluate(OBSERVATIONS, off);
        assertEquals(List.of("note", "note"), f.stream().map(Finding::severity).toList());
        RulesConfig quiet = config(dir, "{\"rules\": {\"IB-RC-PSN-003\": {\"threshold\": 2}}}");
        assertEquals(List.of("IB-CC-001"), Rules.evaluate(OBSERVATIONS, quiet).stream().map(Finding::rule).toList());
        RulesConfig loud = config(dir, "{\"rules\": {\"IB-RC-PSN-003\": {\"threshold\": 1}}}");
        assertEquals(3, Rules.evaluate(OBSERVATIONS, loud).size());
    }

    @Test
    void mistakesInARulesFileAreErrorsNotSilence(@TempDir Path dir) {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> config(dir, "{\"rules\": {\"IB-NOPE-001\": {}}}"))
                .getMessage().contains("unknown rule 'IB-NOPE-001'"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> config(dir, "{\"rules\": {\"IB-CC-001\": {\"severty\": \"note\"}}}"))
                .getMessage().contains("unknown setting 'severty'"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> config(dir, "{\"rules\": {\"IB-CC-001\": {\"severity\": \"fatal\"}}}"))
                .getMessage().contains("error, warning or note"));
        assertThrows(IllegalArgumentException.class, () -> config(dir, "{\"rulez\": {}}"));
    }
}
