package io.rdmascope.samples;

import io.rdmascope.capture.PcapWriter;
import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.LinkTypes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The scenarios {@code rdmascope generate} can write, and where they go. */
public final class Scenarios {
    /** Capture start of every generated scenario: fixed, so output is byte-identical per seed. */
    public static final long START_NANOS = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

    public static final List<String> NAMES = List.of("mixed_large");

    private Scenarios() {
    }

    /**
     * Writes scenario {@code name} into {@code dir} as {@code NAME.pcap} (or {@code .pcapng}) and
     * returns the file.
     */
    public static Path write(String name, Path dir, long seed, long frames, int qps, boolean pcapng)
            throws IOException {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown scenario '" + name + "' (known: " + String.join(", ", NAMES)
                    + ")");
        }
        Files.createDirectories(dir);
        Path out = dir.resolve(name + (pcapng ? ".pcapng" : ".pcap"));
        MixedTraffic traffic = new MixedTraffic(seed, qps, START_NANOS);
        if (pcapng) {
            try (PcapngWriter w = PcapngWriter.create(out, null, null, "rdmascope generate")) {
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
