package io.rdmascope.testsupport;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the installed tshark, the reference the differential tests compare with. Tests that need it
 * skip, saying so, when it is absent ({@code .ci/run} installs it).
 */
public final class Tshark {
    private Tshark() {
    }

    public static boolean installed() {
        return runs("tshark", "--version");
    }

    /** Whether {@code command} (a Wireshark tool asked for its version) runs and succeeds. */
    public static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public static void assumeInstalled() {
        Assumptions.assumeTrue(installed(), "SKIPPED: tshark is not installed (.ci/run installs it)");
    }

    /** tshark's stdout for {@code args}; its stderr (the running-as-root warning) is discarded. */
    public static String run(List<String> args) throws IOException, InterruptedException {
        assumeInstalled();
        List<String> command = new ArrayList<>();
        command.add("tshark");
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("tshark timed out: " + command);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@code tshark -r file -T fields -e …}: one tab-separated line per frame. */
    public static List<String> fields(Path file, String... fields) throws IOException, InterruptedException {
        return fields(file, List.of(), fields);
    }

    /** As {@link #fields(Path, String...)}, with {@code options} before the fields ({@code -d …}, {@code -o …}). */
    public static List<String> fields(Path file, List<String> options, String... fields)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("-r", file.toString()));
        args.addAll(options);
        args.addAll(List.of("-T", "fields"));
        for (String field : fields) {
            args.add("-e");
            args.add(field);
        }
        String out = run(args);
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    /** Nanoseconds since the epoch as tshark prints {@code frame.time_epoch}: seconds, nine decimals. */
    public static String epoch(long timeNanos) {
        return String.format("%d.%09d", Math.floorDiv(timeNanos, 1_000_000_000L),
                Math.floorMod(timeNanos, 1_000_000_000L));
    }
}
