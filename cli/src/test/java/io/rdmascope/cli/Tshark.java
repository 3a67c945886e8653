package io.rdmascope.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the installed tshark for differential tests; tests skip, saying so, when it is absent. */
final class Tshark {
    private Tshark() {
    }

    static boolean installed() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static void assumeInstalled() {
        Assumptions.assumeTrue(installed(), "SKIPPED: tshark is not installed (.ci/run installs it)");
    }

    /** tshark's stdout for {@code args}; its stderr (the root warning) is discarded. */
    static String run(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("tshark");
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
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
}
