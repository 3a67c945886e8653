package io.rdmascope.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.cli.Main;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.testsupport.SharedFiles;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job in local mode against the single-machine CLI (issue 21): a directory of vantages built from
 * committed cases, generated multi-host traffic and the real captures in ../shared (when present), some
 * split into ring files (one gzip-compressed); the job's messages, flows and findings must equal, row for
 * row, what {@code messages --json}, {@code flows --json} and {@code check --report json} give on the
 * original capture, after mapping its frame numbers to (ring file, frame). The gate must fail exactly
 * when {@code check} fails.
 */
class FleetJobTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Committed cases: CM, iWARP, native IB (ERF), UD/UC/XRC, the capture artifacts that cross host pairs, storage rules. */
    private static final List<String> CASES = List.of("rc_loss_nak", "cm_lifecycle", "iwarp_rdma_ops",
            "iwarp_tcp_recovery", "native_ib_erf", "uc_ud_xrc", "violation_bad_icrc", "capture_icrc_not_verifiable",
            "capture_frames_cut_silently", "violation_headers_cut", "rc_incomplete", "psn_wrap", "ulp_nvmeof",
            "ulp_rpcrdma");

    private static SparkSession spark;
    private static Path work;
    private static Path input;
    /** Per vantage: the capture it was made from and its ring files. */
    private static final Map<String, Path> ORIGINAL = new LinkedHashMap<>();
    private static final Map<String, List<RingFiles.Ring>> RINGS = new HashMap<>();
    private static boolean realCaptures;
    private static int status;
    private static String stderr;
    private static Path output;

    @BeforeAll
    static void runJob() throws Exception {
        long started = System.nanoTime();
        work = Files.createTempDirectory("fleet-test");
        input = work.resolve("in");
        Path generated = work.resolve("generated");
        // Two vantages of many host pairs each, in ring files: generated traffic of 64 QPs over 8 hosts.
        for (int seed = 1; seed <= 2; seed++) {
            Path dir = generated.resolve("seed" + seed);
            cli("generate", "--scenario", "mixed_large", "--frames", "10000", "--seed", String.valueOf(seed),
                    "--out", dir.toString());
            add("host-" + (char) ('a' + seed - 1), dir.resolve("mixed_large.pcap"), seed == 1 ? 3 : 2, seed == 2);
        }
        // One vantage where something crosses host pairs: a sender whose ICRCs never verify towards one
        // peer (the ICRC case moved to 10.0.0.1 <-> 10.0.0.9) but verify towards others (the generated
        // traffic), on one interface. Per host pair that is an unverifiable interface (one note); over the
        // capture it is a sender with bad ICRCs (errors). The job must replay this vantage whole.
        Path cases = SharedFiles.sampleCases();
        Path mixedIcrc = generated.resolve("mixed_icrc.pcap");
        RingFiles.concatenate(generated.resolve("seed1").resolve("mixed_large.pcap"),
                caseFile(cases, "capture_icrc_not_verifiable"), Map.of(1, 9, 2, 1), mixedIcrc);
        add("host-c", mixedIcrc, 2, false);
        for (int i = 0; i < CASES.size(); i++) {
            Path file = caseFile(cases, CASES.get(i));
            add(CASES.get(i), file, file.toString().endsWith(".erf") ? 1 : 1 + i % 3, false);
        }
        // The real captures, and the hard ones (iWARP with markers, NVMe-oF, a DC mix) where present.
        for (String folder : List.of("captures", "captures-hard")) {
            Path shared = SharedFiles.root().resolve(folder);
            if (!Files.isDirectory(shared)) {
                System.out.println("SKIPPED (part of FleetJobTest): real captures not found at " + shared
                        + "; comparing without them");
                continue;
            }
            realCaptures = true;
            try (Stream<Path> files = Files.list(shared)) {
                List<Path> all = files.filter(p -> p.toString().matches(".*\\.pcap(ng)?$")).sorted().toList();
                for (int i = 0; i < all.size(); i++) {
                    String name = all.get(i).getFileName().toString().replaceAll("\\..*", "");
                    add("real-" + name, all.get(i), 1 + i % 3, false);
                }
            }
        }

        long built = System.nanoTime();
        spark = LocalSpark.start("FleetJobTest", Map.of());
        output = work.resolve("out");
        StringWriter err = new StringWriter();
        status = FleetJob.run(spark, FleetOptions.parse(List.of(input.toString(), output.toString())),
                new PrintWriter(err, true));
        stderr = err.toString();
        System.out.printf("FleetJobTest: input built in %.1f s, Spark started and the job ran in %.1f s%n",
                (built - started) / 1e9, (System.nanoTime() - built) / 1e9);
    }

    @AfterAll
    static void stop() throws IOException {
        LocalSpark.stop(spark, work);
    }

    private static Path caseFile(Path cases, String name) throws IOException {
        try (Stream<Path> files = Files.list(cases.resolve(name))) {
            return files.filter(p -> p.toString().matches(".*\\.(pcap|pcapng|erf)$")).findFirst().orElseThrow();
        }
    }

    private static void add(String vantage, Path capture, int rings, boolean gzipLast) throws IOException {
        ORIGINAL.put(vantage, capture);
        RINGS.put(vantage, rings == 1 && !gzipLast ? RingFiles.asIs(capture, input, vantage)
                : RingFiles.split(capture, input, vantage, rings, gzipLast));
    }

    /** Runs the CLI in this JVM; returns its standard output (the exit status goes to {@link #lastStatus}). */
    private static String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        lastStatus = Main.run(args, out, new PrintWriter(err, true));
        assertTrue(lastStatus <= 1, () -> String.join(" ", args) + ": " + err);
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int lastStatus;

    @Test
    void messagesFlowsAndFindingsEqualTheSingleMachineReplay() throws IOException {
        assertTrue(status <= 1, stderr);
        Map<String, List<String>> messages = byVantage(Tables.MESSAGES);
        Map<String, List<String>> flows = byVantage(Tables.FLOWS);
        Map<String, List<String>> findings = byVantage(Tables.FINDINGS);
        int rows = 0;
        for (String vantage : ORIGINAL.keySet()) {
            String file = ORIGINAL.get(vantage).toString();
            Map<String, Long> firstFrames = firstFrames(ORIGINAL.get(vantage));
            List<String> m = expected(vantage, JSON.readTree(cli("messages", "--json", file)), "message", firstFrames);
            List<String> f = expected(vantage, JSON.readTree(cli("flows", "--json", file)), "flow", firstFrames);
            List<String> x = expected(vantage, JSON.readTree(cli("check", "--report", "json", file)).get("findings"),
                    "finding", firstFrames);
            assertEquals(m, messages.getOrDefault(vantage, List.of()), vantage + ": messages");
            assertEquals(f, flows.getOrDefault(vantage, List.of()), vantage + ": flows");
            assertEquals(x, findings.getOrDefault(vantage, List.of()), vantage + ": findings");
            rows += m.size() + f.size() + x.size();
        }
        assertTrue(rows > 5_000, "the comparison covers many rows: " + rows);
    }

    @Test
    void aVantageWithDependenciesAcrossHostPairsIsReplayedWholeTheOthersSplit() throws IOException {
        JsonNode summary = JSON.readTree(output.resolve("summary.json").toFile());
        Map<String, JsonNode> vantages = new HashMap<>();
        summary.get("vantages").forEach(v -> vantages.put(v.get("vantage").asText(), v));
        JsonNode c = vantages.get("host-c");
        assertTrue(c.get("replayedWhole").asBoolean(), c::toString);
        assertTrue(c.get("acrossHostPairs").toString().contains("icrc"), c::toString);
        assertFalse(vantages.get("host-b").get("replayedWhole").asBoolean(), "host-b is replayed per host pair");
        assertEquals(RINGS.get("host-a").stream().map(RingFiles.Ring::name).toList(),
                JSON.convertValue(vantages.get("host-a").get("files"), List.class), "ring files in name order");
    }

    @Test
    void realCapturesTakePart() {
        Assumptions.assumeTrue(realCaptures, "SKIPPED: real captures not found under " + SharedFiles.root());
        assertTrue(ORIGINAL.keySet().stream().anyMatch(v -> v.startsWith("real-")));
    }

    @Test
    void theGateFailsExactlyWhenCheckFails() throws IOException {
        List<String> all = new ArrayList<>(List.of("check", "--report", "json"));
        ORIGINAL.values().forEach(p -> all.add(p.toString()));
        JsonNode check = JSON.readTree(cli(all.toArray(String[]::new)));
        int checkStatus = lastStatus;
        JsonNode summary = JSON.readTree(output.resolve("summary.json").toFile());
        assertEquals(check.get("counts"), summary.get("counts"));
        assertEquals(check.get("verdict"), summary.get("verdict"));
        assertEquals(checkStatus, status, stderr);
        assertEquals(1, status, "these captures have errors");

        // A clean vantage passes both; with --fail-on note it fails both.
        Path clean = caseFile(SharedFiles.sampleCases(), "rc_send");
        Path in = work.resolve("clean-in");
        RingFiles.split(clean, in, "h", 2, false);
        for (String failOn : List.of("error", "note")) {
            cli("check", "--fail-on", failOn, clean.toString());
            int expected = lastStatus;
            StringWriter err = new StringWriter();
            int got = FleetJob.run(spark, FleetOptions.parse(List.of(in.toString(), work.resolve("clean-out-" + failOn)
                    .toString(), "--fail-on", failOn)), new PrintWriter(err, true));
            assertEquals(expected, got, "--fail-on " + failOn + ": " + err);
        }
    }

    @Test
    void badUsageIsOneLine() {
        for (List<String> args : List.of(List.<String>of(), List.of("in"), List.of("in", "out", "--fail-on", "fatal"),
                List.of("in", "out", "--vantage-pattern", "("), List.of("in", "out", "--vantage-pattern", "x"),
                List.of("in", "out", "--bogus"))) {
            FleetOptions.UsageError e = org.junit.jupiter.api.Assertions.assertThrows(FleetOptions.UsageError.class,
                    () -> FleetOptions.parse(args));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        FleetOptions o = FleetOptions.parse(List.of("in", "out", "--vantage-pattern", "^racks/(?<vantage>[^/]+)/"));
        assertEquals("h7", o.vantageOf("racks/h7/a_00001.pcapng"));
        assertEquals(null, o.vantageOf("other/a.pcap"));
        assertEquals("h1", FleetOptions.parse(List.of("in", "out")).vantageOf("h1/x.pcap"));
        assertEquals(null, FleetOptions.parse(List.of("in", "out")).vantageOf("x.pcap"));
    }

    @Test
    void aMissingInputIsOneLineAndStatusTwo() {
        StringWriter err = new StringWriter();
        FleetOptions.UsageError e = org.junit.jupiter.api.Assertions.assertThrows(FleetOptions.UsageError.class,
                () -> FleetJob.run(spark, FleetOptions.parse(List.of(work.resolve("nowhere").toString(),
                        work.resolve("o").toString())), new PrintWriter(err, true)));
        assertTrue(e.getMessage().endsWith("no such directory"), e.getMessage());
    }

    /** A table's rows per vantage, each as canonical JSON, sorted. */
    private static Map<String, List<String>> byVantage(String table) throws IOException {
        Map<String, List<String>> out = new HashMap<>();
        for (String row : spark.read().parquet(output.resolve(table).toString()).toJSON().collectAsList()) {
            JsonNode n = JSON.readTree(row);
            out.computeIfAbsent(n.get("vantage").asText(), v -> new ArrayList<>()).add(canonical(n));
        }
        out.values().forEach(l -> l.sort(null));
        return out;
    }

    /** The CLI's rows for one vantage as the job must write them, canonical and sorted. */
    private static List<String> expected(String vantage, JsonNode array, String kind, Map<String, Long> firstFrames) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : array) {
            ObjectNode row = JSON.createObjectNode();
            row.put("vantage", vantage);
            row.putNull("file");
            Long first = null;
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String name = e.getKey();
                JsonNode v = e.getValue();
                switch (kind + "." + name) {
                    case "message.frames", "message.responseFrames", "finding.frames" -> {
                        ArrayNode a = row.putArray(name);
                        v.forEach(f -> a.add(ref(vantage, f.asLong())));
                        if (!name.equals("responseFrames") && !v.isEmpty()) {
                            first = v.get(0).asLong();
                        }
                    }
                    case "message.completionFrame", "finding.causedBy" ->
                            row.set(name, v.isNull() ? v : ref(vantage, v.asLong()));
                    case "flow.lifecycle" -> {
                        ArrayNode a = row.putArray(name);
                        for (JsonNode t : v) {
                            ObjectNode copy = t.deepCopy();
                            copy.set("frame", ref(vantage, t.get("frame").asLong()));
                            a.add(copy);
                        }
                    }
                    default -> row.set(name, v);
                }
            }
            if (kind.equals("flow")) {
                first = firstFrames.get(n.get("conversation").asText());
            }
            if (first != null) {
                row.put("file", ref(vantage, first).get("file").asText());
            }
            out.add(canonical(row));
        }
        out.sort(null);
        return out;
    }

    private static ObjectNode ref(String vantage, long frame) {
        List<RingFiles.Ring> rings = RINGS.get(vantage);
        RingFiles.Ring ring = rings.get(0);
        for (RingFiles.Ring r : rings) {
            if (r.firstFrame() <= frame) {
                ring = r;
            }
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("file", ring.name());
        o.put("frame", frame - ring.firstFrame() + 1);
        return o;
    }

    /** Nulls dropped (Parquet's JSON leaves them out), numbers re-read, members sorted: equal rows, equal text. */
    private static String canonical(JsonNode n) {
        try {
            JsonNode tree = JSON.readTree(JSON.writeValueAsString(strip(n)));
            return JSON.copy().configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                    .writeValueAsString(JSON.treeToValue(tree, Object.class));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode strip(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = JSON.createObjectNode();
            n.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    o.set(e.getKey(), strip(e.getValue()));
                }
            });
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = JSON.createArrayNode();
            n.forEach(x -> a.add(strip(x)));
            return a;
        }
        return n;
    }

    /** Each conversation's first frame in the single-machine replay (a flow's {@code file} is that frame's). */
    private static Map<String, Long> firstFrames(Path capture) throws IOException {
        ReplayResult result = new ReplayResult();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        long frames = 0;
        try (PacketSource in = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = in.next()) != null) {
                chain.dissect(f, d);
                result.accept(d);
                frames++;
            }
        }
        result.finish();
        Map<String, Long> first = new HashMap<>();
        for (long i = frames; i >= 1; i--) {
            String c = result.conversationOf(i);
            if (c != null) {
                first.put(c, i);
            }
        }
        return first;
    }
}
