package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The messages and flows verbs over the committed scenarios: the JSON contract, filtering, tables, errors. */
class ReplayCommandsTest {

    private static Path capture(String name) {
        Scenario s = ScenarioCatalog.byName(name);
        return GoldenOutputTest.cases().resolve(name).resolve(name + "." + s.format().extension());
    }

    private static Truth truth(String name) throws IOException {
        return Scenarios.readTruth(GoldenOutputTest.cases().resolve(name).resolve(Scenarios.TRUTH_FILE));
    }

    /** The truth's messages written the way messages --json writes (same shape, same printer). */
    private static String json(List<Truth.Message> messages) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReplayJson.writeArray(out, messages);
        return out.toString(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> messagesJsonIsTheTruthsMessagesArray() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Cli r = Cli.run("messages", "--json", capture(s.name()).toString());
            assertEquals(0, r.status(), r.err());
            assertEquals("", r.err());
            assertEquals(json(truth(s.name()).messages()), r.out(), s.name());
        }));
    }

    @Test
    void messagesJsonKeysAreTheContractInOrderWithNullsPrinted() throws IOException {
        JsonNode array = new ObjectMapper().readTree(Cli.run("messages", "--json",
                capture("uc_ud_xrc").toString()).out());
        List<String> contract = List.of("conversation", "src", "dst", "srcQp", "destQp", "kind", "transport",
                "firstPsn", "lastPsn", "bytes", "frames", "responseFrames", "completionFrame", "latencyNanos",
                "status");
        boolean sawNullQp = false;
        boolean sawImmediate = false;
        for (JsonNode m : array) {
            List<String> keys = new ArrayList<>();
            m.fieldNames().forEachRemaining(keys::add);
            assertEquals(contract, keys.subList(0, contract.size()), m.toString());
            assertTrue(keys.size() == contract.size() || keys.subList(contract.size(), keys.size()).stream()
                    .allMatch(k -> k.equals("immediate") || k.equals("invalidatedRkey")), keys.toString());
            sawNullQp |= m.get("srcQp").isNull();
            sawImmediate |= m.has("immediate");
        }
        assertTrue(sawNullQp, "UC without CM has srcQp null");
        assertTrue(sawImmediate, "the UD SEND with immediate carries it");
    }

    @Test
    void qpFilterKeepsMessagesFromOrToThatQpInDecimalOrHex() throws IOException {
        String file = capture("uc_ud_xrc").toString();
        Truth truth = truth("uc_ud_xrc");
        for (Truth.Conversation c : truth.conversations()) {
            for (int qp : new int[] {c.requester().qpn(), c.responder().qpn()}) {
                List<Truth.Message> expected = truth.messages().stream()
                        .filter(m -> Integer.valueOf(qp).equals(m.srcQp()) || m.destQp() == qp).toList();
                Cli decimal = Cli.run("messages", file, "--json", "--qp", Integer.toString(qp));
                Cli hex = Cli.run("messages", "--qp", String.format("0x%06X", qp), "--json", file);
                assertEquals(0, decimal.status(), decimal.err());
                assertEquals(json(expected), decimal.out(), "--qp " + qp);
                assertEquals(decimal.out(), hex.out());
            }
        }
        Cli none = Cli.run("messages", file, "--json", "--qp", "0xffffff");
        assertEquals(0, none.status(), none.err());
        assertEquals("[]\n", none.out());
        Cli text = Cli.run("messages", file, "--qp", "0xffffff");
        assertEquals(1, text.out().split("\n").length, text.out());
    }

    @Test
    void aBadQpIsAOneLineUsageError() {
        for (String bad : new String[] {"zz", "0x", "-1", "0x1000000", "12abc"}) {
            Cli r = Cli.run("messages", capture("rc_send").toString(), "--qp", bad);
            assertEquals(2, r.status(), bad);
            assertEquals("", r.out());
            assertTrue(r.err().startsWith("rdmascope: --qp takes a QP number"), r.err());
            assertEquals(1, r.err().strip().split("\n").length, r.err());
        }
    }

    @Test
    void messagesTextHasAHeaderAndOneAlignedRowPerMessage() throws IOException {
        Truth truth = truth("rc_loss_nak");
        Cli r = Cli.run("messages", capture("rc_loss_nak").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().endsWith("\n"));
        String[] lines = r.out().split("\n");
        assertEquals(1 + truth.messages().size(), lines.length, r.out());
        String header = lines[0];
        assertTrue(header.matches("Conv\\s+Transport\\s+Kind\\s+Source\\s+QP\\s+Destination\\s+QP\\s+PSN\\s+Bytes"
                + "\\s+Frames\\s+First\\s+Completion\\s+Latency\\(µs\\)\\s+Status"), header);
        int statusColumn = header.indexOf("Status");
        int bytesEnd = header.indexOf("Bytes") + "Bytes".length();
        for (int i = 0; i < truth.messages().size(); i++) {
            Truth.Message m = truth.messages().get(i);
            String row = lines[i + 1];
            assertEquals(m.status(), row.substring(statusColumn), row);
            assertTrue(row.contains(String.format(" %s  0x%06x  \u2192  %s", m.src(), m.srcQp(), m.dst())), row);
            assertTrue(row.contains(String.format("0x%06x", m.destQp())), row);
            assertTrue(row.substring(0, bytesEnd).endsWith(" " + m.bytes()), row);
            assertFalse(row.endsWith(" "), row);
            String latency = m.latencyNanos() == null ? "-"
                    : String.format("%d.%03d", m.latencyNanos() / 1000, m.latencyNanos() % 1000);
            assertTrue(row.contains(" " + latency + "  " + m.status()), row);
        }
    }

    @Test
    void flowsShowCmSetupAndTheLifecycleState() throws IOException {
        Cli r = Cli.run("flows", capture("cm_lifecycle").toString());
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals(3, lines.length, r.out());
        assertTrue(lines[0].startsWith("Conv  Transport  Address A"), lines[0]);
        assertTrue(lines[0].contains("Setup") && lines[0].contains("State") && lines[0].contains("Goodput")
                && lines[0].contains("CNPs"), lines[0]);
        assertTrue(lines[1].matches("\\s*1\\s+RC\\s+10\\.0\\.0\\.1\\s+0x009833\\s.*\\scm\\s+closed\\s.*"), lines[1]);
        assertTrue(lines[2].matches("\\s*2\\s+RC\\s.*\\scm\\s+rejected\\s.*"), lines[2]);

        Truth truth = truth("cm_lifecycle");
        JsonNode flows = new ObjectMapper().readTree(Cli.run("flows", "--json",
                capture("cm_lifecycle").toString()).out());
        assertEquals(truth.conversations().size(), flows.size());
        for (int i = 0; i < flows.size(); i++) {
            JsonNode f = flows.get(i);
            Truth.Conversation c = truth.conversations().get(i);
            assertEquals(c.id(), f.get("conversation").asText());
            assertEquals("cm", f.get("setup").asText());
            assertEquals(c.requester().qpn(), f.get("a").get("qpn").asInt());
            assertEquals(c.lifecycle().get(c.lifecycle().size() - 1).state(), f.get("state").asText());
            assertEquals(c.lifecycle().size(), f.get("lifecycle").size());
        }
    }

    /**
     * A flow's messages and their bytes are its completed messages only (the help says so): a message
     * that failed, or was still open when the capture ended, is in {@code messages} but not counted
     * here (e.g. the bundled roce_v2_mixed: 25 messages in conversation 1, 24 in its flow).
     */
    @TestFactory
    Stream<DynamicTest> flowsCountCompletedMessagesOnly() {
        assertTrue(Cli.run("flows", "--help").out().contains("completed messages and their bytes"));
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Map<String, long[]> completed = new HashMap<>();
            for (Truth.Message m : truth(s.name()).messages()) {
                long[] countAndBytes = completed.computeIfAbsent(m.conversation(), k -> new long[2]);
                if (m.status().equals("completed")) {
                    countAndBytes[0]++;
                    countAndBytes[1] += m.bytes();
                }
            }
            JsonNode flows = new ObjectMapper().readTree(Cli.run("flows", "--json",
                    capture(s.name()).toString()).out());
            for (JsonNode f : flows) {
                long[] expected = completed.getOrDefault(f.get("conversation").asText(), new long[2]);
                String side = s.name() + " conversation " + f.get("conversation").asText();
                assertEquals(expected[0], f.get("a").get("messages").asLong() + f.get("b").get("messages").asLong(),
                        side);
                assertEquals(expected[1], f.get("a").get("messageBytes").asLong()
                        + f.get("b").get("messageBytes").asLong(), side);
            }
        }));
    }

    /** The two counts differ where they should: rc_incomplete's open messages, rc_fatal_naks' failed ones. */
    @Test
    void incompleteAndFailedMessagesAreMessagesButNotFlowsMessages() throws IOException {
        for (String name : new String[] {"rc_incomplete", "rc_fatal_naks"}) {
            long messages = new ObjectMapper().readTree(Cli.run("messages", "--json",
                    capture(name).toString()).out()).size();
            long counted = 0;
            for (JsonNode f : new ObjectMapper().readTree(Cli.run("flows", "--json", capture(name).toString()).out())) {
                counted += f.get("a").get("messages").asLong() + f.get("b").get("messages").asLong();
            }
            assertEquals(messages - 3, counted, name); // three open (rc_incomplete), three failed (rc_fatal_naks)
        }
    }

    @Test
    void flowsCountRetransmissionsAndNaks() {
        Cli r = Cli.run("flows", capture("rc_loss_nak").toString());
        assertEquals(0, r.status(), r.err());
        String[] lines = r.out().split("\n");
        String[] header = lines[0].split("\\s{2,}");
        String[] row = lines[1].trim().split("\\s{2,}");
        assertEquals(header.length, row.length, lines[1]);
        List<String> names = Arrays.asList(header);
        assertEquals("none", row[names.indexOf("Setup")]);
        assertTrue(Long.parseLong(row[names.indexOf("Retrans")]) > 0, lines[1]);
        assertTrue(Long.parseLong(row[names.indexOf("NAKs")]) > 0, lines[1]);
    }

    /**
     * A capture cut inside its last record: every verb reports what it replayed from the complete
     * frames (exactly what a clean file of those frames gives), then one error line, exit 2. The
     * capture ends with the ACK that completes the scenario's last message, so the cut shows.
     */
    @Test
    void aTruncatedCaptureGivesThePartialReplayThenOneErrorAndStatusTwo(@TempDir Path dir) throws IOException {
        List<Truth.Message> messages = truth("rc_loss_nak").messages();
        int completion = messages.get(messages.size() - 1).completionFrame();
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(capture("rc_loss_nak"))) {
            Frame f;
            while (frames.size() < completion && (f = source.next()) != null) {
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

        for (String[] verb : new String[][] {{"messages"}, {"messages", "--json"}, {"flows"}, {"flows", "--json"}}) {
            Cli full = run(verb, whole);
            Cli expected = run(verb, clean);
            Cli damaged = run(verb, cut);
            assertEquals(0, expected.status(), expected.err());
            assertEquals(2, damaged.status(), String.join(" ", verb));
            assertEquals(expected.out(), damaged.out(), String.join(" ", verb));
            assertFalse(full.out().equals(damaged.out()), "the last frame matters to " + String.join(" ", verb));
            assertTrue(damaged.err().startsWith("rdmascope: ") && damaged.err().contains("cut.pcap")
                    && damaged.err().contains("frame " + frames.size()), damaged.err());
            assertEquals(1, damaged.err().strip().split("\n").length, damaged.err());
        }
        new ObjectMapper().readTree(run(new String[] {"messages", "--json"}, cut).out()); // still valid JSON
    }

    private static Cli run(String[] verb, Path file) {
        String[] args = Arrays.copyOf(verb, verb.length + 1);
        args[verb.length] = file.toString();
        return Cli.run(args);
    }

    private static void write(Path file, List<Frame> frames) throws IOException {
        try (PcapWriter w = PcapWriter.create(file, frames.get(0).linkType(), PcapWriter.DEFAULT_SNAPLEN, true)) {
            for (Frame f : frames) {
                w.write(f);
            }
        }
    }

    @Test
    void unknownFilesAndMissingArgumentsAreOneLineErrorsWithStatusTwo() {
        for (String verb : new String[] {"messages", "flows"}) {
            Cli missing = Cli.run(verb, "/no/such/file.pcap");
            assertEquals(2, missing.status(), verb);
            assertEquals("", missing.out(), verb);
            assertEquals("rdmascope: no such file: /no/such/file.pcap", missing.err().strip(), verb);

            Cli noFile = Cli.run(verb);
            assertEquals(2, noFile.status(), verb);
            assertTrue(noFile.err().startsWith("rdmascope: Missing required parameter: '[NAME=]FILE'"), noFile.err());
        }
    }

    @Test
    void extraRocePortsAreAccepted() {
        Cli r = Cli.run("messages", capture("rc_send").toString(), "--roce-port", "4792", "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(Cli.run("messages", capture("rc_send").toString(), "--json").out(), r.out());
    }
}
