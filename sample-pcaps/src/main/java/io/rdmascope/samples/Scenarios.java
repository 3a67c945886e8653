package io.rdmascope.samples;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.rdmascope.capture.ErfWriter;
import io.rdmascope.capture.PcapWriter;
import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.samples.ScenarioCatalog.Format;
import io.rdmascope.samples.ScenarioCatalog.Scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenarios {@code rdmascope generate} can write, and where they go: each committed scenario
 * into {@code DIR/NAME/} as {@code NAME.pcap|pcapng|erf} plus {@code truth.json}; the benchmark
 * scenario {@code mixed_large} as {@code DIR/mixed_large.pcap} (no truth file: it is for speed).
 */
public final class Scenarios {
    /** Capture start of every generated scenario: fixed, so output is byte-identical per seed. */
    public static final long START_NANOS = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

    public static final String MIXED_LARGE = "mixed_large";
    public static final String ALL = "all";
    public static final String TRUTH_FILE = "truth.json";

    private static final String APPLICATION = "rdmascope generate";

    private Scenarios() {
    }

    /** Every name {@code generate --scenario} accepts. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(ALL);
        for (Scenario s : ScenarioCatalog.all()) {
            names.add(s.name());
        }
        for (VantageScenario.Variant v : VantageScenario.VARIANTS) {
            names.add(v.name());
        }
        names.add(IwarpTsoScenario.NAME);
        names.add(MIXED_LARGE);
        names.add(RandomScenario.NAME);
        return names;
    }

    /**
     * Plays committed scenario {@code s} with {@code seed} and writes its capture and truth into
     * {@code dir/NAME/}; returns the capture.
     */
    public static Path write(Scenario s, Path dir, long seed) throws IOException {
        Fabric fabric = new Fabric(seed, s.wire(), START_NANOS);
        s.script().accept(fabric);
        List<Trace.CapturedFrame> frames = fabric.trace.frames();
        Path caseDir = dir.resolve(s.name());
        Files.createDirectories(caseDir);
        String fileName = s.name() + "." + s.format().extension;
        Path capture = caseDir.resolve(fileName);
        writeCapture(capture, s.format(), frames);
        Truth truth = fabric.truth.freeze(s.name(), s.description(), seed, fileName, s.format().extension, frames.size());
        Files.writeString(caseDir.resolve(TRUTH_FILE), toJson(truth), StandardCharsets.UTF_8);
        Files.writeString(caseDir.resolve("README.md"), s.name() + ": " + s.description() + "\n",
                StandardCharsets.UTF_8);
        return capture;
    }

    /** The truth of scenario {@code s} for {@code seed}, without writing anything. */
    public static Truth truth(Scenario s, long seed) {
        Fabric fabric = new Fabric(seed, s.wire(), START_NANOS);
        s.script().accept(fabric);
        Format f = s.format();
        return fabric.truth.freeze(s.name(), s.description(), seed, s.name() + "." + f.extension, f.extension,
                fabric.trace.size());
    }

    /** Truth as the committed files hold it: camelCase keys (as messages --json), two-space indent, LF. */
    public static String toJson(Truth truth) throws IOException {
        return json(truth);
    }

    /** Any truth record as {@link #toJson} writes a truth file. */
    static String json(Object truth) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        DefaultIndenter lf = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("").withArrayEmptySeparator("");
        ObjectWriter writer = mapper.writer(new DefaultPrettyPrinter(separators).withObjectIndenter(lf)
                .withArrayIndenter(lf));
        return writer.writeValueAsString(truth) + "\n";
    }

    /** Reads a truth file back (tests of the replay engine compare against it). */
    public static Truth readTruth(Path file) throws IOException {
        return new ObjectMapper().readValue(file.toFile(), Truth.class);
    }

    static void writeCapture(Path out, Format format, List<Trace.CapturedFrame> frames) throws IOException {
        switch (format) {
            case PCAP -> {
                int linkType = frames.isEmpty() ? LinkTypes.ETHERNET : frames.get(0).linkType();
                try (PcapWriter w = PcapWriter.create(out, linkType, PcapWriter.DEFAULT_SNAPLEN, true)) {
                    for (Trace.CapturedFrame f : frames) {
                        if (f.linkType() != linkType) {
                            throw new IllegalStateException("a pcap file holds one link type; use pcapng");
                        }
                        w.write(f.timeNanos(), f.bytes(), f.wireLength());
                    }
                }
            }
            case PCAPNG -> {
                try (PcapngWriter w = PcapngWriter.create(out, null, null, APPLICATION)) {
                    Map<Integer, Integer> interfaces = new LinkedHashMap<>();
                    for (Trace.CapturedFrame f : frames) {
                        Integer iface = interfaces.get(f.linkType());
                        if (iface == null) {
                            iface = w.addInterface(f.linkType(), 0, "generated-" + LinkTypes.name(f.linkType()),
                                    null, null);
                            interfaces.put(f.linkType(), iface);
                        }
                        w.write(iface, f.timeNanos(), f.bytes(), f.wireLength());
                    }
                }
            }
            case ERF -> {
                try (ErfWriter w = ErfWriter.create(out)) {
                    for (Trace.CapturedFrame f : frames) {
                        int type = switch (f.linkType()) {
                            case LinkTypes.INFINIBAND -> Erf.TYPE_INFINIBAND;
                            case LinkTypes.ETHERNET -> Erf.TYPE_ETH;
                            default -> throw new IllegalStateException("no ERF record type for link type "
                                    + f.linkType());
                        };
                        w.write(f.timeNanos(), type, f.bytes(), f.wireLength());
                    }
                }
            }
            default -> throw new IllegalStateException(String.valueOf(format));
        }
    }

    /**
     * Writes {@code mixed_large} into {@code dir} as {@code mixed_large.pcap} (or {@code .pcapng})
     * and returns the file.
     */
    public static Path writeMixedLarge(Path dir, long seed, long frames, int qps, boolean pcapng) throws IOException {
        Files.createDirectories(dir);
        Path out = dir.resolve(MIXED_LARGE + (pcapng ? ".pcapng" : ".pcap"));
        MixedTraffic traffic = new MixedTraffic(seed, qps, START_NANOS);
        if (pcapng) {
            try (PcapngWriter w = PcapngWriter.create(out, null, null, APPLICATION)) {
                int iface = w.addInterface(LinkTypes.ETHERNET, 65535, "generated", null, null);
                IoSink sink = new IoSink();
                traffic.generate(frames, (bytes, t) -> sink.run(() -> w.write(iface, t, bytes, bytes.length)));
                sink.rethrow();
            }
        } else {
            try (PcapWriter w = PcapWriter.create(out, LinkTypes.ETHERNET, 65535, true)) {
                IoSink sink = new IoSink();
                traffic.generate(frames, (bytes, t) -> sink.run(() -> w.write(t, bytes, bytes.length)));
                sink.rethrow();
            }
        }
        return out;
    }

    /** Carries the first IOException out of a lambda that cannot throw it. */
    private static final class IoSink {
        private IOException failure;

        interface IoAction {
            void run() throws IOException;
        }

        void run(IoAction action) {
            if (failure == null) {
                try {
                    action.run();
                } catch (IOException e) {
                    failure = e;
                }
            }
        }

        void rethrow() throws IOException {
            if (failure != null) {
                throw failure;
            }
        }
    }
}
