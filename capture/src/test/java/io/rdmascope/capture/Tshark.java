package io.rdmascope.capture;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Wireshark's tshark, the reference reader, when it is installed; tests skip otherwise. */
final class Tshark {

    private Tshark() {
    }

    /** {@code tshark -r file -T fields -e ...}: one tab-separated line per frame. */
    static List<String> fields(Path file, String... fields) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tshark", "-r", file.toString(), "-T", "fields"));
        for (String field : fields) {
            command.add("-e");
            command.add(field);
        }
        Process process;
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("tshark is not installed: " + e.getMessage());
            throw e;
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("tshark did not finish on " + file);
        }
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    /** Nanoseconds since the epoch as tshark prints {@code frame.time_epoch}: seconds, 9 decimals. */
    static String epoch(long timeNanos) {
        return String.format("%d.%09d", Math.floorDiv(timeNanos, 1_000_000_000L), Math.floorMod(timeNanos, 1_000_000_000L));
    }
}
