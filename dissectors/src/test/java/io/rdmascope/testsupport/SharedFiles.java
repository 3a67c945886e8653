package io.rdmascope.testsupport;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code ../shared} folder beside the repository: real public captures (read in place, never
 * copied) and reference facts. Surefire passes its location as {@code rdmascope.shared}; a run
 * started in a module folder finds it two levels up. Every accessor skips the calling test, saying
 * why, when the folder or file is absent. Shared by every module's tests through the dissectors
 * test-jar.
 */
public final class SharedFiles {
    private SharedFiles() {
    }

    /** The project's own root (the surefire property rdmascope.root, else the module's parent). */
    public static Path projectRoot() {
        String configured = System.getProperty("rdmascope.root");
        return configured != null ? Path.of(configured) : Path.of("").toAbsolutePath().getParent();
    }

    /** The committed scenario cases, sample-pcaps/cases. */
    public static Path sampleCases() {
        return projectRoot().resolve("sample-pcaps").resolve("cases");
    }

    public static Path root() {
        String configured = System.getProperty("rdmascope.shared");
        return (configured != null ? Path.of(configured) : Path.of("..", "..", "shared")).toAbsolutePath()
                .normalize();
    }

    /** The real-captures folder; checked per call so that each skipped test carries the reason. */
    public static Path capturesFolder() {
        Path captures = root().resolve("captures");
        Assumptions.assumeTrue(Files.isDirectory(captures),
                "SKIPPED: real captures not found at " + captures + " (../shared beside the repository, "
                        + "or -Drdmascope.shared)");
        return captures;
    }

    /** One real capture by file name. */
    public static Path capture(String name) {
        Path file = capturesFolder().resolve(name);
        Assumptions.assumeTrue(Files.isReadable(file), "SKIPPED: shared capture not present: " + file);
        return file;
    }

    /**
     * One capture of {@code ../shared/captures-hard} (real captures that are hard cases: NVMe-oF,
     * offloaded sniffers, DC), by file name; skips the caller, saying why, when it is absent.
     */
    public static Path hardCapture(String name) {
        Path file = root().resolve("captures-hard").resolve(name);
        Assumptions.assumeTrue(Files.isReadable(file), "SKIPPED: shared hard-case capture not present: " + file);
        return file;
    }

    /** Every pcap and pcapng file among the real captures, sorted by name. */
    public static List<Path> allCaptures() throws IOException {
        try (Stream<Path> files = Files.list(capturesFolder())) {
            return files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                    .toList();
        }
    }

    /** Every committed case's capture under {@link #sampleCases()} (pcap, pcapng, ERF, gzipped), sorted by path. */
    public static List<Path> committedCaptures() throws IOException {
        try (Stream<Path> files = Files.walk(sampleCases())) {
            return files.filter(SharedFiles::isCapture).sorted().toList();
        }
    }

    /**
     * Every capture of {@code ../shared/captures} and {@code captures-hard}, sorted by name within each;
     * empty when {@code ../shared} is absent (the caller skips, saying so).
     */
    public static List<Path> realCaptures() throws IOException {
        List<Path> out = new java.util.ArrayList<>();
        for (String folder : List.of("captures", "captures-hard")) {
            Path dir = root().resolve(folder);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    files.filter(SharedFiles::isCapture).sorted().forEach(out::add);
                }
            }
        }
        return out;
    }

    private static boolean isCapture(Path p) {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && (n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".erf")
                || n.endsWith(".pcap.gz") || n.endsWith(".pcapng.gz"));
    }

    /** A file of {@code ../shared/reference}. */
    public static Path reference(String name) {
        Path file = root().resolve("reference").resolve(name);
        Assumptions.assumeTrue(Files.isRegularFile(file), "SKIPPED: " + file + " not found (../shared absent)");
        return file;
    }
}
