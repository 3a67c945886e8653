package io.rdmascope.gui.charts;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real captures of {@code ../shared/captures} (read in place, never copied), located as the
 * dissectors' test support does it (surefire's {@code rdmascope.shared}); the GUI module does not
 * depend on that test-jar, and one lookup does not justify the dependency. Skips the calling test,
 * saying why, when the folder is absent.
 */
final class SharedCaptures {
    private SharedCaptures() {
    }

    static List<Path> all() throws IOException {
        String configured = System.getProperty("rdmascope.shared");
        Path folder = (configured != null ? Path.of(configured) : Path.of("..", "..", "shared")).resolve("captures")
                .toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isDirectory(folder), "SKIPPED: real captures not found at " + folder
                + " (../shared beside the repository, or -Drdmascope.shared)");
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                    .toList();
        }
    }
}
