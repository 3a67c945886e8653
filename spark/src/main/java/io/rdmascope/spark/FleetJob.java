package io.rdmascope.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.replay.ReplayLimits;
import io.rdmascope.rules.Severity;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FilterFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.apache.spark.sql.functions.col;

/**
 * The replay as a Spark job (issue 21; docs/fleet.md):
 * {@code spark-submit --class io.rdmascope.spark.FleetJob rdmascope-spark.jar INPUT OUTPUT [options]}.
 *
 * <ol>
 *   <li>List INPUT: capture files, each in a vantage (by default its first directory), ring files of a
 *       vantage in name order and taken as one capture.</li>
 *   <li>Scan every file (a task each): frame counts, so frames are numbered across a vantage's ring
 *       files, and timestamps, for the vantage's capture end.</li>
 *   <li>Read every file again into frames keyed by (vantage, unordered host pair) and replay each group in
 *       frame order ({@code flatMapSortedGroups}) through its own engine, streaming.</li>
 *   <li>Where a group saw something that reaches beyond its host pair, replay that vantage again as one
 *       group, so the answer is the single-machine one (docs/fleet.md).</li>
 *   <li>Number conversations per vantage, map frames to (ring file, frame), write the Parquet tables
 *       {@code messages}, {@code flows}, {@code findings} and {@code summary.json}.</li>
 * </ol>
 * Exit status as {@code check}: 0 pass, 1 a finding at or above {@code --fail-on}, 2 bad usage or input.
 */
public final class FleetJob {
    static final int EXIT_PASS = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_BAD_INPUT = 2;

    /** Names a capture file may have (ring files keep them): pcap, pcapng, ERF, each maybe gzip-compressed. */
    private static final Pattern CAPTURE_NAME = Pattern.compile("(?i).+\\.(pcap|pcapng|cap|ntar|erf)(\\.gz)?");

    private FleetJob() {
    }

    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(System.err, true);
        int status;
        FleetOptions options;
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            System.out.println(FleetOptions.USAGE.replaceFirst("^usage: FleetJob", "usage: rdmascope fleet")
                    + "\nSee docs/fleet.md: tables messages, flows, findings (Parquet) and summary.json go to OUTPUT;"
                    + " exit status 0 pass, 1 a finding at or above --fail-on, 2 bad input.");
            return;
        }
        try {
            options = FleetOptions.parse(Arrays.asList(args));
        } catch (FleetOptions.UsageError e) {
            err.println("rdmascope fleet: " + e.getMessage());
            System.exit(EXIT_BAD_INPUT);
            return;
        }
        SparkSession.Builder builder = SparkSession.builder().appName("rdmascope fleet");
        if (options.master() != null) {
            // Embedded (rdmascope fleet): no web UI, and shuffle partitions for this machine's cores rather
            // than Spark's 200, whose fixed cost per partition dominates a run on one machine.
            int cores = Runtime.getRuntime().availableProcessors();
            builder.master(options.master()).config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", String.valueOf(Math.max(2, 4 * cores)));
        }
        SparkSession spark = builder.getOrCreate();
        try {
            status = run(spark, options, err);
        } catch (FleetOptions.UsageError e) {
            err.println("rdmascope fleet: " + e.getMessage());
            status = EXIT_BAD_INPUT;
        } catch (IOException | RuntimeException e) {
            err.println("rdmascope fleet: " + Scanner.oneLine(rootCause(e)));
            if (System.getenv("RDMASCOPE_DEBUG") != null) {
                e.printStackTrace(err);
            }
            status = EXIT_BAD_INPUT;
        } finally {
            spark.stop();
        }
        System.exit(status);
    }

    /** Spark wraps a task's failure in its own exceptions: the innermost one says what went wrong. */
    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** Runs the job on {@code spark}; returns the exit status. */
    static int run(SparkSession spark, FleetOptions options, PrintWriter err) throws IOException {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        TaskMeter tasks = new TaskMeter();
        spark.sparkContext().addSparkListener(tasks);
        List<CaptureFile> listed = list(options, conf, err);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        // The executors reach the input as the driver does: with the driver's Hadoop configuration, where
        // spark-submit put the spark.hadoop.* settings (an object store's endpoint and credentials).
        Broadcast<SerializableConfiguration> hadoop = jsc.broadcast(new SerializableConfiguration(conf));

        long started = System.nanoTime();
        List<FileScan> scans = jsc.parallelize(listed, Math.max(1, listed.size())).map(new Scanner(hadoop)).collect();
        Map<String, Vantage> vantages = new TreeMap<>();
        List<String> readErrors = new ArrayList<>();
        List<CaptureFile> files = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            CaptureFile f = listed.get(i);
            FileScan s = scans.get(i);
            Vantage v = vantages.computeIfAbsent(f.getVantage(), Vantage::new);
            v.add(f, s);
            if (s.getError() != null) {
                readErrors.add(s.getError());
            }
            if (s.getFrames() > 0) {
                files.add(f);
            }
        }
        Map<String, Long> captureEnds = new HashMap<>();
        Set<String> whole = new TreeSet<>();
        vantages.forEach((name, v) -> {
            captureEnds.put(name, v.endNanos);
            if (!v.ordered) {
                whole.add(name); // held directions age across host pairs when time goes back (docs/fleet.md)
            }
        });

        long scanned = System.nanoTime();
        Dataset<ReplayRow> first = replay(spark, jsc, hadoop, files, whole, captureEnds);
        List<ReplayRow> small = first.filter(notFound()).collectAsList();
        // A vantage whose groups saw something that reaches beyond their host pair is replayed again as one group.
        Map<String, Set<String>> groupsOf = new HashMap<>();
        Map<String, Set<String>> crossPair = new HashMap<>();
        Map<String, Long> conversations = new HashMap<>();
        for (ReplayRow r : small) {
            groupsOf.computeIfAbsent(r.getVantage(), k -> new HashSet<>()).add(r.getGroup());
            if (r.getKind().equals(ReplayRow.CROSS_PAIR)) {
                for (var k : new ObjectMapper().readTree(r.getJson()).get("kinds")) {
                    crossPair.computeIfAbsent(r.getVantage(), x -> new TreeSet<>()).add(k.asText());
                }
            } else {
                conversations.merge(r.getVantage(), 1L, Long::sum);
            }
        }
        Set<String> again = new TreeSet<>();
        for (String v : groupsOf.keySet()) {
            boolean split = groupsOf.get(v).size() > 1;
            if (split && (crossPair.containsKey(v)
                    || conversations.getOrDefault(v, 0L) > ReplayLimits.defaults().conversations())) {
                again.add(v);
            }
        }
        Dataset<ReplayRow> all = first;
        Dataset<ReplayRow> second = null;
        if (!again.isEmpty()) {
            List<CaptureFile> againFiles = files.stream().filter(f -> again.contains(f.getVantage())).toList();
            second = replay(spark, jsc, hadoop, againFiles, again, captureEnds);
            Set<String> keep = new HashSet<>(again);
            all = first.filter((FilterFunction<ReplayRow>) r -> !keep.contains(r.getVantage())).union(second)
                    .persist(StorageLevel.DISK_ONLY());
            small = all.filter(notFound()).collectAsList();
            whole.addAll(again);
        }

        List<Numbering.Conversation> found = new ArrayList<>();
        for (ReplayRow r : small) {
            if (r.getKind().equals(ReplayRow.CONVERSATION)) {
                var c = new ObjectMapper().readTree(r.getJson());
                found.add(new Numbering.Conversation(r.getVantage(), r.getGroup(), c.get("id").asText(),
                        c.get("firstFrame").asLong()));
            }
        }
        long replayed = System.nanoTime();
        Numbering numbering = new Numbering(files, found);
        Broadcast<Numbering> shared = jsc.broadcast(numbering);

        String out = options.output();
        Map<String, Dataset<Row>> tables = new LinkedHashMap<>();
        for (String table : List.of(Tables.MESSAGES, Tables.FLOWS, Tables.FINDINGS)) {
            Dataset<String> json = all.filter((FilterFunction<ReplayRow>) r -> table.equals(Tables.tableOf(r.getKind())))
                    .mapPartitions((MapPartitionsFunction<ReplayRow, String>) rows -> {
                        ObjectMapper mapper = new ObjectMapper();
                        Numbering n = shared.value();
                        return new Iterator<>() {
                            @Override
                            public boolean hasNext() {
                                return rows.hasNext();
                            }

                            @Override
                            public String next() {
                                return Tables.finalJson(rows.next(), n, mapper);
                            }
                        };
                    }, Encoders.STRING());
            Dataset<Row> t = spark.read().schema(Tables.schema(table)).json(json);
            t.write().mode(SaveMode.Overwrite).parquet(child(out, table));
            tables.put(table, spark.read().parquet(child(out, table)));
        }

        Summary summary = new Summary(options.failOn(), options.rootCausesOnly());
        for (Row r : tables.get(Tables.FINDINGS).groupBy(col("vantage"), col("rule"), col("severity"), col("rootCause"))
                .count().collectAsList()) {
            summary.add(r.getString(0), r.getString(1), r.getString(2), r.getBoolean(3), r.getLong(4));
        }
        ObjectNode json = summary.json(vantages, numbering, whole, crossPair);
        writeSummary(conf, child(out, "summary.json"), json);
        // Everything persisted is let go: an embedded session (the tests') lives on after the job.
        if (second != null) {
            all.unpersist();
            second.unpersist();
        }
        first.unpersist();
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty(10_000); // task metrics arrive on the listener bus
        } catch (java.util.concurrent.TimeoutException e) {
            err.println("rdmascope fleet: Spark's listener bus lags; the shuffle size below may miss the last tasks");
        }
        spark.sparkContext().removeSparkListener(tasks);
        long frames = vantages.values().stream().mapToLong(v -> v.frames).sum();
        err.printf(Locale.ROOT, "rdmascope fleet: %d frames in %d vantage(s), %d replayed whole; shuffle wrote %d bytes"
                        + " (%.1f a frame); scan %.1f s, replay %.1f s, tables %.1f s; executors' CPU %.1f s%n", frames,
                vantages.size(), whole.size(), tasks.bytes(), frames == 0 ? 0.0 : (double) tasks.bytes() / frames,
                (scanned - started) / 1e9, (replayed - scanned) / 1e9, (System.nanoTime() - replayed) / 1e9,
                tasks.cpuSeconds());
        if (!readErrors.isEmpty()) {
            readErrors.forEach(e -> err.println("rdmascope fleet: " + e));
            return EXIT_BAD_INPUT; // as check: the report covers the frames before the damage, then status 2
        }
        return summary.passed() ? EXIT_PASS : EXIT_FAILED;
    }

    /** Rows that are not messages, findings or flows: what the driver collects (one per conversation, few others). */
    private static FilterFunction<ReplayRow> notFound() {
        return r -> r.getKind().equals(ReplayRow.CONVERSATION) || r.getKind().equals(ReplayRow.CROSS_PAIR);
    }

    /** Reads {@code files} into frames keyed by (vantage, host pair) and replays each group in frame order. */
    private static Dataset<ReplayRow> replay(SparkSession spark, JavaSparkContext jsc,
                                             Broadcast<SerializableConfiguration> hadoop, List<CaptureFile> files,
                                             Set<String> whole, Map<String, Long> captureEnds) {
        Dataset<CaptureFile> input = spark.createDataset(jsc.parallelize(files, Math.max(1, files.size())).rdd(),
                Encoders.bean(CaptureFile.class));
        return input.flatMap(new FrameReader(whole, hadoop), Encoders.bean(FrameRow.class))
                .groupByKey((MapFunction<FrameRow, String>) r -> GroupReplay.key(r.getVantage(), r.getPair()),
                        Encoders.STRING())
                .flatMapSortedGroups(new Column[] {col("frame")}, new GroupReplay(captureEnds),
                        Encoders.bean(ReplayRow.class))
                .persist(StorageLevel.DISK_ONLY());
    }

    /** Capture files under INPUT with their vantages, in vantage then name order. */
    private static List<CaptureFile> list(FleetOptions options, Configuration conf, PrintWriter err) throws IOException {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(options.input());
        FileSystem fs;
        boolean directory;
        try {
            fs = root.getFileSystem(conf);
            directory = fs.exists(root) && fs.getFileStatus(root).isDirectory();
        } catch (IOException e) {
            // The input's file system cannot be had (a scheme Hadoop does not know, a name node or store
            // that does not answer, credentials refused): Hadoop's message alone ("Connection refused")
            // would not say which input.
            throw new FleetOptions.UsageError(options.input() + ": " + Scanner.oneLine(rootCause(e)));
        }
        if (!directory) {
            throw new FleetOptions.UsageError(options.input() + ": no such directory");
        }
        URI base = fs.makeQualified(root).toUri();
        String prefix = base.getPath().endsWith("/") ? base.getPath() : base.getPath() + "/";
        List<CaptureFile> files = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
        while (it.hasNext()) {
            LocatedFileStatus s = it.next();
            URI u = s.getPath().toUri();
            String relative = u.getPath().startsWith(prefix) ? u.getPath().substring(prefix.length()) : u.getPath();
            String fileName = s.getPath().getName();
            if (fileName.startsWith(".") || fileName.startsWith("_") || !CAPTURE_NAME.matcher(fileName).matches()) {
                continue;
            }
            String vantage = options.vantageOf(relative);
            if (vantage == null) {
                leftOut.add(relative);
                continue;
            }
            files.add(new CaptureFile(vantage, u.toString(), relative, 0));
        }
        if (!leftOut.isEmpty()) {
            err.println("rdmascope fleet: " + leftOut.size() + " capture file(s) in no vantage left out (first: "
                    + leftOut.get(0) + "); by default each sub-directory of INPUT is a vantage (--vantage-pattern)");
        }
        if (files.isEmpty()) {
            throw new FleetOptions.UsageError(options.input() + ": no capture files (pcap, pcapng, erf, .gz) in vantage "
                    + "sub-directories");
        }
        files.sort(Comparator.comparing(CaptureFile::getVantage).thenComparing(CaptureFile::getName));
        return files;
    }

    private static String child(String dir, String name) {
        return dir.endsWith("/") ? dir + name : dir + "/" + name;
    }

    private static void writeSummary(Configuration conf, String path, ObjectNode json) throws IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
        try (OutputStream o = p.getFileSystem(conf).create(p, true)) {
            o.write(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(json)
                    .getBytes(StandardCharsets.UTF_8));
            o.write('\n');
        }
    }

    /** One vantage: its files in order, numbered on; its capture end; whether its time never goes back. */
    static final class Vantage {
        final String name;
        final List<String> files = new ArrayList<>();
        long frames;
        long endNanos = Long.MIN_VALUE;
        boolean ordered = true;
        private long lastNanos = Long.MIN_VALUE;

        Vantage(String name) {
            this.name = name;
        }

        void add(CaptureFile f, FileScan s) {
            files.add(f.getName());
            f.setFirstFrame(frames + 1);
            frames += s.getFrames();
            if (s.getFrames() == 0) {
                return;
            }
            endNanos = Math.max(endNanos, s.getMaxNanos());
            ordered &= s.isOrdered() && s.getFirstNanos() >= lastNanos;
            lastNanos = s.getLastNanos();
        }
    }

    /** Counts for summary.json, and the verdict, as {@code check --report json} has them. */
    static final class Summary {
        private final Severity failOn;
        private final boolean rootCausesOnly;
        private final Map<String, Map<Severity, Long>> byVantage = new TreeMap<>();
        private final Map<String, Map<String, Long>> rulesByVantage = new TreeMap<>();
        private final Map<String, Long> rules = new TreeMap<>();
        private final Map<String, Boolean> failed = new TreeMap<>();

        Summary(Severity failOn, boolean rootCausesOnly) {
            this.failOn = failOn;
            this.rootCausesOnly = rootCausesOnly;
        }

        void add(String vantage, String rule, String severity, boolean rootCause, long count) {
            Severity s = Severity.parse(severity);
            byVantage.computeIfAbsent(vantage, v -> new TreeMap<>()).merge(s, count, Long::sum);
            rulesByVantage.computeIfAbsent(vantage, v -> new TreeMap<>()).merge(rule, count, Long::sum);
            rules.merge(rule, count, Long::sum);
            // CaptureCheck.fails: at or above --fail-on, and a root cause when only those count.
            if (s.reaches(failOn) && (!rootCausesOnly || rootCause)) {
                failed.put(vantage, true);
            }
        }

        boolean passed() {
            return failed.isEmpty();
        }

        ObjectNode json(Map<String, Vantage> vantages, Numbering numbering, Set<String> whole,
                        Map<String, Set<String>> crossPair) {
            ObjectMapper m = new ObjectMapper();
            ObjectNode root = m.createObjectNode();
            ArrayNode list = root.putArray("vantages");
            Map<Severity, Long> totals = new TreeMap<>();
            for (Vantage v : vantages.values()) {
                ObjectNode o = list.addObject();
                o.put("vantage", v.name);
                v.files.forEach(o.putArray("files")::add);
                o.put("frames", v.frames);
                o.put("conversations", numbering.conversationCount(v.name));
                o.put("replayedWhole", whole.contains(v.name));
                ArrayNode why = o.putArray("acrossHostPairs");
                crossPair.getOrDefault(v.name, Set.of()).forEach(why::add);
                ObjectNode perRule = o.putObject("rules");
                rulesByVantage.getOrDefault(v.name, Map.of()).forEach(perRule::put);
                Map<Severity, Long> c = byVantage.getOrDefault(v.name, Map.of());
                o.set("counts", counts(m, c));
                o.put("verdict", failed.containsKey(v.name) ? "fail" : "pass");
                c.forEach((s, n) -> totals.merge(s, n, Long::sum));
            }
            ObjectNode perRule = root.putObject("rules");
            rules.forEach(perRule::put);
            root.set("counts", counts(m, totals));
            root.put("verdict", passed() ? "pass" : "fail");
            return root;
        }

        private static ObjectNode counts(ObjectMapper m, Map<Severity, Long> counts) {
            ObjectNode o = m.createObjectNode();
            for (Severity s : Severity.values()) {
                o.put(s.name().toLowerCase(Locale.ROOT), counts.getOrDefault(s, 0L));
            }
            return o;
        }
    }
}
