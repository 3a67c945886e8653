package io.rdmascope.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.rdmascope.cli.Main;
import io.rdmascope.testsupport.SharedFiles;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the job reads from (issue 21): the input as a Hadoop file system path — a plain path, a
 * {@code file://} URI (Hadoop's checksummed local file system), and a scheme of its own backed by Hadoop's
 * raw local file system and known only through {@code spark.hadoop.fs.*}, as {@code s3a://} is on a
 * cluster — and a flat directory whose vantages a {@code --vantage-pattern} finds in the file names. Every
 * way gives the same tables and summary, a gzip-compressed {@code .pcap.gz} ring file among the input.
 */
class FleetInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The flat layout's vantage pattern, the one docs/fleet.md shows. */
    private static final String FLAT_PATTERN = "host-(?<vantage>[^_]+)_\\d+\\.pcap";

    private static SparkSession spark;
    private static Path work;
    private static Path input;
    private static Path flat;
    private static final Map<String, Path> ORIGINAL = new TreeMap<>();

    @BeforeAll
    static void buildInput() throws IOException {
        work = Files.createTempDirectory("fleet-input-test");
        input = work.resolve("in");
        flat = Files.createDirectories(work.resolve("flat"));
        // host-a: generated multi-host traffic in three pcap ring files, the last gzip-compressed
        // (ring_00003.pcap.gz); host-b: a CM exchange in two pcapng ring files.
        Path generated = work.resolve("generated");
        cli("generate", "--scenario", "mixed_large", "--frames", "3000", "--seed", "3", "--out", generated.toString());
        ORIGINAL.put("host-a", generated.resolve("mixed_large.pcap"));
        ORIGINAL.put("host-b", caseFile("cm_lifecycle"));
        List<RingFiles.Ring> rings = new ArrayList<>(RingFiles.split(ORIGINAL.get("host-a"), input, "host-a", 3, true));
        rings.addAll(RingFiles.split(ORIGINAL.get("host-b"), input, "host-b", 2, false));
        assertTrue(rings.stream().anyMatch(r -> r.name().equals("host-a/ring_00003.pcap.gz")), rings::toString);
        // The same ring files in one flat directory, the vantage in each name (host-a_00003.pcap.gz), and
        // a capture no vantage claims.
        for (RingFiles.Ring r : rings) {
            Files.copy(input.resolve(r.name()), flat.resolve(flatName(r.name())));
        }
        Files.copy(ORIGINAL.get("host-b"), flat.resolve("stray.pcapng"));

        String fs = "spark.hadoop.fs." + LocalStoreFileSystem.SCHEME;
        spark = LocalSpark.start("FleetInputTest", Map.of(
                // As a user passes an object store's settings: --conf spark.hadoop.fs.s3a.* (docs/fleet.md).
                fs + ".impl", LocalStoreFileSystem.class.getName(),
                // Uncached: in local mode the driver's instance would otherwise serve a task that asked
                // with a configuration lacking the setting, and hide that the task's is not the job's.
                fs + ".impl.disable.cache", "true"));
    }

    /** {@code host-a/ring_00003.pcap.gz} is {@code host-a_00003.pcap.gz} in the flat layout. */
    private static String flatName(String ring) {
        return ring.replace("/ring", "");
    }

    @AfterAll
    static void stop() throws IOException {
        LocalSpark.stop(spark, work);
    }

    @Test
    void aPlainPathAFileUriAndAnotherHadoopFileSystemGiveTheSingleMachineAnswer() throws IOException {
        Run plain = byDirectory();
        // The gate and the counts are check's over the original captures, every frame read (gzip included).
        List<String> check = new ArrayList<>(List.of("check", "--report", "json"));
        ORIGINAL.values().forEach(p -> check.add(p.toString()));
        JsonNode expected = JSON.readTree(cli(check.toArray(String[]::new)));
        assertEquals(expected.get("counts"), plain.summary.get("counts"));
        assertEquals(expected.get("verdict"), plain.summary.get("verdict"));
        for (JsonNode v : plain.summary.get("vantages")) {
            String vantage = v.get("vantage").asText();
            JsonNode messages = JSON.readTree(cli("messages", "--json", ORIGINAL.get(vantage).toString()));
            assertEquals(frames(ORIGINAL.get(vantage)), v.get("frames").asLong(), vantage + ": frames");
            assertEquals(messages.size(), plain.tables.get(Tables.MESSAGES).stream()
                    .filter(r -> r.contains("\"vantage\":\"" + vantage + "\"")).count(), vantage + ": messages");
        }
        assertTrue(plain.summary.get("vantages").get(0).get("files").toString().contains("ring_00003.pcap.gz"),
                plain.summary::toString);
        assertTrue(plain.tables.get(Tables.MESSAGES).size() > 100, "the comparison has rows");

        Run fileUri = run("file-uri", input.toUri().toString());
        assertTrue(fileUri.uri.startsWith("file:///"), fileUri.uri);
        Run store = run("store", LocalStoreFileSystem.SCHEME + "://" + input.toAbsolutePath());
        for (Run other : List.of(fileUri, store)) {
            assertEquals(plain.tables, other.tables, other.uri);
            assertEquals(plain.summary, other.summary, other.uri);
            assertEquals(plain.status, other.status, other.uri);
        }
    }

    @Test
    void aVantagePatternFindsTheVantageInFlatFileNames() throws IOException {
        Run byDirectory = byDirectory();
        Run byName = run("by-name", LocalStoreFileSystem.SCHEME + "://" + flat.toAbsolutePath(),
                "--vantage-pattern", FLAT_PATTERN);
        assertTrue(byName.stderr.contains("1 capture file(s) in no vantage left out (first: stray.pcapng)"),
                byName.stderr);
        // The same rows once vantage "a" is "host-a" and file "host-a_00001.pcap" is "host-a/ring_00001.pcap".
        UnaryOperator<String> rename = s -> s.matches("[ab]") ? "host-" + s
                : s.replaceFirst("^(host-[ab])_", "$1/ring_");
        for (String table : List.of(Tables.MESSAGES, Tables.FLOWS, Tables.FINDINGS)) {
            List<String> renamed = byName.tables.get(table).stream().map(r -> rewrite(r, rename)).sorted().toList();
            assertEquals(byDirectory.tables.get(table), renamed, table);
        }
        assertEquals(byDirectory.summary.get("counts"), byName.summary.get("counts"));
        List<String> files = new ArrayList<>();
        byName.summary.get("vantages").forEach(v -> v.get("files").forEach(f -> files.add(f.asText())));
        assertEquals(List.of("host-a_00001.pcap", "host-a_00002.pcap", "host-a_00003.pcap.gz", "host-b_00001.pcapng",
                "host-b_00002.pcapng"), files, "ring files in name order, per vantage");
    }

    @Test
    void aFileSystemHadoopDoesNotKnowIsOneLine() {
        StringWriter err = new StringWriter();
        FleetOptions.UsageError e = assertThrows(FleetOptions.UsageError.class, () -> FleetJob.run(spark,
                FleetOptions.parse(List.of("nosuchstore://bucket/prefix/", work.resolve("o").toString())),
                new PrintWriter(err, true)));
        assertTrue(e.getMessage().startsWith("nosuchstore://bucket/prefix/: ") && !e.getMessage().contains("\n"),
                e.getMessage());
    }

    private static Run byDirectory;

    /** The job on the directory as a plain path: what every other way of reading it must give. */
    private static Run byDirectory() throws IOException {
        if (byDirectory == null) {
            byDirectory = run("plain", input.toString());
        }
        return byDirectory;
    }

    /** One run of the job: its status, stderr, summary, and each table's rows as sorted canonical JSON. */
    private record Run(String uri, int status, String stderr, JsonNode summary, Map<String, List<String>> tables) {
    }

    private static Run run(String name, String uri, String... options) throws IOException {
        Path out = work.resolve("out-" + name);
        List<String> args = new ArrayList<>(List.of(uri, out.toString()));
        args.addAll(List.of(options));
        StringWriter err = new StringWriter();
        int status = FleetJob.run(spark, FleetOptions.parse(args), new PrintWriter(err, true));
        assertTrue(status <= 1, err::toString);
        Map<String, List<String>> tables = new TreeMap<>();
        for (String table : List.of(Tables.MESSAGES, Tables.FLOWS, Tables.FINDINGS)) {
            tables.put(table, spark.read().parquet(out.resolve(table).toString()).toJSON().collectAsList().stream()
                    .map(r -> rewrite(r, UnaryOperator.identity())).sorted().toList());
        }
        return new Run(uri, status, err.toString(), JSON.readTree(out.resolve("summary.json").toFile()), tables);
    }

    /** A row with every {@code vantage} and {@code file} value renamed, members in key order. */
    private static String rewrite(String row, UnaryOperator<String> rename) {
        try {
            JsonNode n = JSON.readTree(row);
            renameIn(n, rename);
            return JSON.copy().configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                    .writeValueAsString(JSON.treeToValue(n, Object.class));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void renameIn(JsonNode n, UnaryOperator<String> rename) {
        if (n instanceof ObjectNode o) {
            for (String key : List.of("vantage", "file")) {
                if (o.get(key) instanceof TextNode t) {
                    o.put(key, rename.apply(t.asText()));
                }
            }
        }
        n.forEach(child -> renameIn(child, rename));
    }

    private static long frames(Path capture) throws IOException {
        try (var in = io.rdmascope.capture.CaptureFiles.open(capture)) {
            long n = 0;
            while (in.next() != null) {
                n++;
            }
            return n;
        }
    }

    private static Path caseFile(String name) throws IOException {
        try (Stream<Path> files = Files.list(SharedFiles.sampleCases().resolve(name))) {
            return files.filter(p -> p.toString().matches(".*\\.(pcap|pcapng)$")).findFirst().orElseThrow();
        }
    }

    private static String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int status = Main.run(args, out, new PrintWriter(err, true));
        assertTrue(status <= 1, () -> String.join(" ", args) + ": " + err);
        return out.toString(StandardCharsets.UTF_8);
    }
}
