package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapWriter;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmascope summary}: text and JSON agree, fit 100 columns, match the other verbs, and bad input. */
class SummaryCommandTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Path capture(Scenario s) {
        return GoldenOutputTest.cases().resolve(s.name()).resolve(s.name() + "." + s.format().extension());
    }

    private static Path capture(String name) {
        return capture(ScenarioCatalog.byName(name));
    }

    /** Every scenario: text within 100 columns, and the JSON's content visible in the text, exactly. */
    @TestFactory
    Stream<DynamicTest> textFitsOneHundredColumnsAndShowsWhatTheJsonHolds() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Cli text = Cli.run("summary", capture(s).toString());
            Cli json = Cli.run("summary", "--json", capture(s).toString());
            assertEquals(0, text.status(), text.err());
            assertEquals(0, json.status(), json.err());
            assertEquals("", text.err());
            assertTextMatchesJson(text.out(), MAPPER.readTree(json.out()));
        }));
    }

    static void assertTextMatchesJson(String text, JsonNode json) {
        for (String line : text.split("\n")) {
            assertTrue(line.codePointCount(0, line.length()) <= 100, "over 100 columns: " + line);
            assertFalse(line.endsWith(" "), "trailing space: '" + line + "'");
        }
        JsonNode c = json.get("capture");
        assertTrue(text.startsWith("File:          " + c.get("file").asText() + "\n"), text);
        assertTrue(text.contains("\nFrames:        " + c.get("frames").asLong() + "\n"), text);
        assertTrue(text.contains("\nBytes:         " + c.get("wireBytes").asLong() + " on the wire, "
                + c.get("capturedBytes").asLong() + " captured\n"), text);
        if (c.get("frames").asLong() > 0) {
            assertTrue(text.contains("\nFirst frame:   " + c.get("firstTime").asText() + "\n"), text);
            assertTrue(text.contains("\nLast frame:    " + c.get("lastTime").asText() + "\n"), text);
        }
        StringBuilder tree = new StringBuilder();
        phs(tree, json.get("protocols"), 0);
        assertTrue(text.contains("\n" + tree), "hierarchy:\n" + tree + "\nin:\n" + text);
        for (JsonNode o : json.get("opcodes")) {
            assertTrue(text.matches("(?s).*\n" + java.util.regex.Pattern.quote(o.get("name").asText()) + " +"
                    + String.format("0x%02x", o.get("opcode").asInt()) + " +" + o.get("frames").asLong() + " .*"),
                    o.toString());
        }
        for (JsonNode conv : json.get("conversations")) {
            if (json.get("conversations").size() <= SummaryText.MAX_CONVERSATIONS) {
                assertTrue(text.matches("(?s).*\n *" + conv.get("conversation").asText() + "  "
                        + Text.qp(conv.get("a").get("qpn").isNull() ? null : conv.get("a").get("qpn").asInt())
                        + "  .*"), conv.toString());
            }
        }
        JsonNode f = json.get("findings");
        String counts = f.get("bySeverity").get("error").asInt() + " error";
        assertTrue(text.contains("Findings (default rules): " + counts), text);
        for (int i = 0; i < Math.min(SummaryText.MAX_RULES, f.get("rules").size()); i++) {
            JsonNode r = f.get("rules").get(i);
            assertTrue(text.matches("(?s).*\n" + r.get("severity").asText() + " +" + r.get("rule").asText() + " +"
                    + r.get("findings").asInt() + "  " + java.util.regex.Pattern.quote(r.get("summary").asText())
                    + "\n.*"), r.toString());
        }
    }

    private static void phs(StringBuilder out, JsonNode nodes, int depth) {
        for (JsonNode n : nodes) {
            String name = "  ".repeat(depth) + n.get("protocol").asText();
            out.append(String.format("%-40s frames:%d bytes:%d\n", name, n.get("frames").asLong(),
                    n.get("bytes").asLong()));
            phs(out, n.get("children"), depth + 1);
        }
    }

    /** The numbers agree with what dissect, flows and the scenario's truth say. */
    @TestFactory
    Stream<DynamicTest> countsAgreeWithDissectFlowsAndTheTruth() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Path file = capture(s);
            JsonNode json = MAPPER.readTree(Cli.run("summary", "--json", file.toString()).out());
            Truth truth = Scenarios.readTruth(file.resolveSibling(Scenarios.TRUTH_FILE));
            JsonNode c = json.get("capture");
            assertEquals(truth.frames(), c.get("frames").asInt());
            assertEquals(Files.size(file), c.get("fileBytes").asLong());

            // Opcodes: the same counts as the opcode column of dissect -T fields.
            Map<Integer, Long> opcodes = new TreeMap<>();
            for (String line : Cli.run("dissect", "-r", file.toString(), "-T", "fields", "-e",
                    "infiniband.bth.opcode").out().split("\n")) {
                if (!line.isBlank()) {
                    opcodes.merge(Integer.parseInt(line.strip()), 1L, Long::sum);
                }
            }
            Map<Integer, Long> ours = new TreeMap<>();
            json.get("opcodes").forEach(o -> ours.put(o.get("opcode").asInt(), o.get("frames").asLong()));
            assertEquals(opcodes, ours);

            // Frame times and lengths: the extremes and sums of dissect's columns.
            long wire = 0;
            for (String line : Cli.run("dissect", "-r", file.toString(), "-T", "fields", "-e", "frame.len")
                    .out().split("\n")) {
                wire += line.isBlank() ? 0 : Long.parseLong(line.strip());
            }
            assertEquals(wire, c.get("wireBytes").asLong());
            assertEquals(wire, json.get("protocols").get(0).get("bytes").asLong());

            // Conversations: those of flows --json, side by side.
            JsonNode flows = MAPPER.readTree(Cli.run("flows", "--json", file.toString()).out());
            JsonNode conversations = json.get("conversations");
            assertEquals(flows.size(), conversations.size());
            for (int i = 0; i < flows.size(); i++) {
                JsonNode fl = flows.get(i);
                JsonNode cv = conversations.get(i);
                assertEquals(fl.get("conversation"), cv.get("conversation"));
                for (String side : new String[] {"a", "b"}) {
                    assertEquals(fl.get(side).path("qpn").asText("null"), cv.get(side).get("qpn").asText("null"));
                    assertEquals(fl.get(side).get("messages"), cv.get(side).get("messages"));
                    assertEquals(fl.get(side).get("messageBytes"), cv.get(side).get("bytes"));
                }
                assertEquals(fl.get("a").get("naks").asLong() + fl.get("b").get("naks").asLong(),
                        cv.get("naks").asLong());
            }

            // Findings: the truth's, counted per severity and per rule.
            Map<String, Integer> bySeverity = new LinkedHashMap<>(Map.of("error", 0, "warning", 0, "note", 0));
            Map<String, Integer> byRule = new TreeMap<>();
            for (Truth.Finding finding : truth.findings()) {
                bySeverity.merge(finding.severity(), 1, Integer::sum);
                byRule.merge(finding.rule(), 1, Integer::sum);
            }
            JsonNode findings = json.get("findings");
            for (Map.Entry<String, Integer> e : bySeverity.entrySet()) {
                assertEquals(e.getValue(), findings.get("bySeverity").get(e.getKey()).asInt(), e.getKey());
            }
            Map<String, Integer> ourRules = new TreeMap<>();
            findings.get("rules").forEach(r -> ourRules.put(r.get("rule").asText(), r.get("findings").asInt()));
            assertEquals(byRule, ourRules);
        }));
    }

    @Test
    void jsonKeysAreInTheirDocumentedOrder() throws IOException {
        String raw = Cli.run("summary", "--json", capture("rc_loss_nak").toString()).out();
        JsonNode json = MAPPER.readTree(raw);
        assertEquals(List.of("capture", "protocols", "opcodes", "conversations", "findings"), keys(json));
        assertEquals(List.of("file", "format", "compressed", "fileBytes", "linkTypes", "frames", "capturedBytes",
                "wireBytes", "firstTime", "lastTime", "durationNanos", "framesPerSecond", "wireBitsPerSecond"),
                keys(json.get("capture")));
        assertEquals(List.of("conversation", "transport", "a", "b", "goodputBitsPerSecond", "retransmissions",
                "naks", "rnrNaks", "latencyP50Nanos", "latencyP99Nanos"), keys(json.get("conversations").get(0)));
        assertEquals(List.of("error", "warning", "note"), keys(json.get("findings").get("bySeverity")));
        assertTrue(raw.matches("(?s).*\n    \"wireBitsPerSecond\": \\d{10}\\.\\d{3}\n.*"),
                "plain decimal with three places, never 1.2E9: " + raw);
        assertTrue(raw.startsWith("{\n  \"capture\": {\n    \"file\": \"rc_loss_nak.pcapng\",\n"), raw);
        assertTrue(raw.endsWith("\n}\n"), raw);
        assertTrue(json.get("capture").get("firstTime").asText()
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"));
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** Many conversations: the table keeps to the 20 with the most bytes and says so; still 100 columns. */
    @Test
    void aLargeCaptureShowsTheBusiestConversationsWithinOneHundredColumns(@TempDir Path dir) throws IOException {
        Cli gen = Cli.run("generate", "--scenario", "mixed_large", "--frames", "30000", "--qps", "64", "--out",
                dir.toString());
        assertEquals(0, gen.status(), gen.err());
        Path file = dir.resolve("mixed_large.pcap");
        Cli text = Cli.run("summary", file.toString());
        Cli json = Cli.run("summary", "--json", file.toString());
        assertEquals(0, text.status(), text.err());
        JsonNode tree = MAPPER.readTree(json.out());
        assertTextMatchesJson(text.out(), tree);
        int conversations = tree.get("conversations").size();
        assertTrue(conversations > SummaryText.MAX_CONVERSATIONS, "conversations: " + conversations);
        assertTrue(text.out().contains("(the 20 of " + conversations + " conversations with the most bytes"),
                text.out());
        assertEquals(30000, tree.get("capture").get("frames").asInt());
        assertEquals(text.out(), Cli.run("summary", file.toString()).out(), "deterministic");
        assertEquals(json.out(), Cli.run("summary", "--json", file.toString()).out(), "deterministic");
    }

    /**
     * A capture cut inside its last record: the summary of the complete frames (what a clean file of
     * them gives, but for the file's own name and size), then one error line and exit status 2; the same
     * whether the counting and the replay run on the reading thread or on the replay thread (issue 18:
     * the counts are made there, and what was handed over before the damage is still counted).
     */
    @TestFactory
    Stream<DynamicTest> aTruncatedCaptureGivesThePartialSummaryThenOneErrorAndStatusTwo(@TempDir Path dir) {
        return Stream.of("rc_loss_nak", "iwarp_tcp_recovery", "ulp_nvmeof").flatMap(name -> Stream.of("1", "2")
                .map(threads -> DynamicTest.dynamicTest(name + ", --threads " + threads, () ->
                        assertTruncatedSummary(dir.resolve(name + "-" + threads), name, threads))));
    }

    private static void assertTruncatedSummary(Path dir, String name, String threads) throws IOException {
        Files.createDirectories(dir);
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(capture(name))) {
            Frame f;
            while ((f = source.next()) != null) {
                frames.add(f);
            }
        }
        Path whole = dir.resolve("whole.pcap");
        Path clean = dir.resolve("clean.pcap");
        write(whole, frames);
        write(clean, frames.subList(0, frames.size() - 1));
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 10));

        Cli expected = Cli.run("summary", "--json", "--threads", "1", clean.toString());
        Cli damaged = Cli.run("summary", "--json", "--threads", threads, cut.toString());
        assertEquals(0, expected.status(), expected.err());
        assertEquals(2, damaged.status());
        assertEquals(withoutFileFacts(expected.out()), withoutFileFacts(damaged.out()));
        assertNotEquals(withoutFileFacts(Cli.run("summary", "--json", whole.toString()).out()),
                withoutFileFacts(damaged.out()), "the last frame shows");
        assertTrue(damaged.err().startsWith("rdmascope: ") && damaged.err().contains("cut.pcap")
                && damaged.err().contains("frame " + frames.size()), damaged.err());
        assertEquals(1, damaged.err().strip().split("\n").length, damaged.err());

        Cli text = Cli.run("summary", "--threads", threads, cut.toString());
        assertEquals(2, text.status());
        assertTrue(text.out().contains("\nFrames:        " + (frames.size() - 1) + "\n"), text.out());
        assertEquals(damaged.err(), text.err());
    }

    private static String withoutFileFacts(String json) throws IOException {
        ObjectNode tree = (ObjectNode) MAPPER.readTree(json);
        ((ObjectNode) tree.get("capture")).remove(List.of("file", "fileBytes"));
        return tree.toPrettyString();
    }

    private static void write(Path file, List<Frame> frames) throws IOException {
        try (PcapWriter w = PcapWriter.create(file, frames.get(0).linkType(), PcapWriter.DEFAULT_SNAPLEN, true)) {
            for (Frame f : frames) {
                w.write(f);
            }
        }
    }

    @Test
    void anEmptyCaptureHasAnEmptySummary(@TempDir Path dir) throws IOException {
        Path empty = dir.resolve("empty.pcap");
        try (PcapWriter w = PcapWriter.create(empty, 1, PcapWriter.DEFAULT_SNAPLEN, true)) {
            assertTrue(w != null);
        }
        Cli text = Cli.run("summary", empty.toString());
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().contains("\nFrames:        0\n"), text.out());
        assertTrue(text.out().contains("\nFirst frame:   -\n"), text.out());
        JsonNode json = MAPPER.readTree(Cli.run("summary", "--json", empty.toString()).out());
        assertTrue(json.get("capture").get("firstTime").isNull());
        assertEquals(0, json.get("protocols").size());
        assertTextMatchesJson(text.out(), json);
    }

    @Test
    void unknownFilesAndMissingArgumentsAreOneLineErrorsWithStatusTwo() {
        Cli missing = Cli.run("summary", "/no/such/file.pcap");
        assertEquals(2, missing.status());
        assertEquals("", missing.out());
        assertEquals("rdmascope: no such file: /no/such/file.pcap", missing.err().strip());
        Cli noFile = Cli.run("summary");
        assertEquals(2, noFile.status());
        assertTrue(noFile.err().startsWith("rdmascope: Missing required parameter: '[NAME=]FILE'"), noFile.err());
    }

    @Test
    void extraRocePortsAreAccepted() {
        String file = capture("rc_send").toString();
        Cli r = Cli.run("summary", file, "--roce-port", "4792", "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(Cli.run("summary", "--json", file).out(), r.out());
    }

    @Test
    void scaledUnitsKeepThreeSignificantDigits() {
        assertEquals("0 B", SummaryText.bytes(0));
        assertEquals("999 B", SummaryText.bytes(999));
        assertEquals("1.00 kB", SummaryText.bytes(1000));
        assertEquals("9.11 kB", SummaryText.bytes(9106));
        assertEquals("100 kB", SummaryText.bytes(99_960));
        assertEquals("1.00 MB", SummaryText.bytes(999_600));
        assertEquals("232 MB", SummaryText.bytes(232_355_248));
        assertEquals("1.37 Gbit/s", SummaryText.scaled(1_373_000_000.0, "bit/s"));
        assertEquals("500 bit/s", SummaryText.scaled(500, "bit/s"));
    }
}
