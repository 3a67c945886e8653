package io.rdmascope.gui;

import java.nio.file.Files;
import java.nio.file.Path;

/** The committed sample captures the GUI tests open. */
public final class Samples {
    private Samples() {
    }

    /** The repository root (surefire sets rdmascope.root; a run from gui/ falls back to ..). */
    public static Path root() {
        String r = System.getProperty("rdmascope.root");
        Path p = r != null ? Path.of(r) : Path.of("..");
        if (!Files.isDirectory(p.resolve("sample-pcaps"))) {
            p = Path.of("").toAbsolutePath();
            while (p != null && !Files.isDirectory(p.resolve("sample-pcaps"))) {
                p = p.getParent();
            }
        }
        return p;
    }

    /** A committed scenario's capture, e.g. {@code case("rc_loss_nak")}. */
    public static Path scenario(String name) {
        Path dir = root().resolve("sample-pcaps/cases").resolve(name);
        try (var files = Files.list(dir)) {
            return files.filter(f -> {
                String n = f.getFileName().toString();
                return n.endsWith(".pcapng") || n.endsWith(".pcap") || n.endsWith(".erf") || n.endsWith(".gz");
            }).findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A committed multi-vantage case's captures as {@code NAME=FILE} arguments in the order the case's
     * correlate output names them, e.g. {@code vantage("vantage_rc", "requester", "switch", "responder")}.
     */
    public static java.util.List<String> vantage(String caseName, String... points) {
        Path dir = root().resolve("sample-pcaps/cases").resolve(caseName);
        return java.util.Arrays.stream(points).map(p -> p + "=" + dir.resolve(p + ".pcapng")).toList();
    }

    /** The bundled mixed RoCEv2 capture. */
    public static Path mixed() {
        return root().resolve("sample-pcaps/captures/roce_v2_mixed.pcapng");
    }
}
