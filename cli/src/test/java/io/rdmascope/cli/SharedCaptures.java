package io.rdmascope.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The real public captures in ../shared/captures, which tests read in place and never copy. */
final class SharedCaptures {
    private SharedCaptures() {
    }

    static Path folder() {
        String configured = System.getProperty("rdmascope.shared");
        Path shared = configured != null ? Path.of(configured) : Path.of("..", "..", "shared");
        return shared.resolve("captures");
    }

    /** Every capture file, or a skipped test (with the reason) when the folder is absent. */
    static List<Path> all() throws IOException {
        Path dir = folder();
        Assumptions.assumeTrue(Files.isDirectory(dir),
                "SKIPPED: real captures not found at " + dir.toAbsolutePath() + " (../shared beside the repository)");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                    .toList();
        }
    }

    static Path referenceFile(String name) {
        return folder().getParent().resolve("reference").resolve(name);
    }
}
