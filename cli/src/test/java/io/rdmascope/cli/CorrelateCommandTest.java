package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.rdmascope.cli.CliHabitsTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 20: {@code correlate}'s command line and its JSON contract (docs/correlate.md). */
class CorrelateCommandTest {

    @Test
    void theJsonCarriesEveryFieldOfTheContract() throws Exception {
        String capture = sample("rc_read");
        Cli r = Cli.run("correlate", "--json", "host=" + capture, "mirror=" + capture);
        assertEquals(0, r.status(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(List.of("vantagePoints", "packets", "clockOffsets", "oneWayDelays", "lost", "messages", "thinkTimes"),
                iterable(j.fieldNames()));
        assertEquals("[\"host\",\"mirror\"]", j.get("vantagePoints").toString());
        assertEquals(18, j.get("packets").get("distinct").asLong());
        assertEquals(18, j.get("packets").get("multiSighted").asLong());
        JsonNode offset = j.get("clockOffsets").get(0);
        assertEquals(List.of("from", "to", "offsetNs", "boundNs", "driftPpm", "referenceNs", "samples", "note"),
                iterable(offset.fieldNames()));
        // The same capture twice: one clock, no delay, so the offset is exactly zero.
        assertEquals(0, offset.get("offsetNs").asLong());
        assertEquals(0, offset.get("boundNs").asLong());
        assertEquals(0.0, offset.get("driftPpm").asDouble());
        assertEquals(0, j.get("lost").size());
        assertTrue(j.get("oneWayDelays").size() == 2, j.toString());
        // Every message of the first point's replay, each with its first packet's hop: 0 ns here.
        JsonNode messages = j.get("messages");
        assertEquals(6, messages.size(), messages.toString());
        for (JsonNode m : messages) {
            assertEquals(List.of("conversation", "kind", "firstPsn", "frame", "delays", "turnaround", "thinkTime"),
                    iterable(m.fieldNames()));
            assertEquals(1, m.get("delays").size(), m.toString());
            assertEquals(0, m.get("delays").get(0).get("ns").asLong(), m.toString());
        }
    }

    @Test
    void textNamesThePointsByTheirFiles() {
        String capture = sample("rc_read");
        Cli r = Cli.run("correlate", capture, "copy=" + capture);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("Vantage points:\n  rc_read "), r.out());
        assertTrue(r.out().contains("rc_read → copy: 0.000 µs ± 0.000 µs"), r.out());
    }

    @Test
    void usageErrors() {
        String capture = sample("rc_read");
        assertEquals(2, Cli.run("correlate", capture).status());
        Cli twice = Cli.run("correlate", capture, capture);
        assertEquals(2, twice.status());
        assertTrue(twice.err().contains("NAME=FILE"), twice.err());
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
