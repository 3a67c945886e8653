package io.rdmascope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmascope fleet}: the replay as an Apache Spark job over a directory of captures (issue 21,
 * docs/fleet.md). Spark is not in this jar — a user who never runs fleet never downloads it — so the
 * {@code ./rdmascope} launcher takes this verb itself: it builds the spark module on first use and runs
 * the job embedded on this machine's cores. Run from the jar directly, the verb hands its arguments to
 * the launcher of the checkout the jar was built in.
 */
@Command(name = "fleet", sortOptions = false,
        description = {"Replay a directory of captures as an Apache Spark job on this machine's cores, "
                + "for directories too big for one replay: each sub-directory is a vantage (the host that "
                + "captured), its ring files taken in name order as one capture.",
                "Writes Parquet tables messages, flows and findings (the --json columns plus vantage and file) "
                        + "and summary.json (counts and verdict as check --report json). Exit status as check. "
                        + "The first fleet run builds the spark module, downloading Spark (about 275 MB); no other "
                        + "verb needs it. On a cluster: spark-submit (docs/fleet.md)."})
final class FleetCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT_DIR", description = "directory of vantage sub-directories of pcap, pcapng, ERF "
            + "or gzip-compressed captures")
    String input;

    @Option(names = "--out", paramLabel = "OUT_DIR", required = true,
            description = "where the tables and summary.json go")
    String out;

    @Option(names = "--vantage-pattern", paramLabel = "REGEX",
            description = "find each file's vantage in its path under INPUT_DIR: the group named 'vantage', else "
                    + "group 1 (default: '^([^/]+)/', the first directory)")
    String vantagePattern;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", description = "as check: error (default), warning or note")
    String failOn;

    @Option(names = "--root-causes", description = "as check: only root causes can fail the run")
    boolean rootCauses;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master (default local[*], this machine)")
    String master;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path launcher = launcher();
        if (launcher == null) {
            throw new DissectCommand.UsageError("fleet runs on Apache Spark, which this jar does not carry: run it "
                    + "with the ./rdmascope launcher of an rdmascope checkout, or with spark-submit (docs/fleet.md)");
        }
        List<String> command = new ArrayList<>(List.of(launcher.toString(), "fleet", input, "--out", out));
        if (vantagePattern != null) {
            command.addAll(List.of("--vantage-pattern", vantagePattern));
        }
        if (failOn != null) {
            command.addAll(List.of("--fail-on", failOn));
        }
        if (rootCauses) {
            command.add("--root-causes");
        }
        if (master != null) {
            command.addAll(List.of("--master", master));
        }
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }

    /** The launcher beside the checkout this jar was built in ({@code ROOT/cli/target/rdmascope.jar}), or null. */
    static Path launcher() {
        java.security.CodeSource source = FleetCommand.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return null;
        }
        Path jar;
        try {
            jar = Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
        Path target = jar.getParent();
        Path cli = target == null ? null : target.getParent();
        Path root = cli == null ? null : cli.getParent();
        if (root == null || !jar.getFileName().toString().endsWith(".jar")) {
            return null; // classes run from a folder (tests, an IDE): no launcher of ours to hand over to
        }
        Path launcher = root.resolve("rdmascope");
        return Files.isExecutable(launcher) && Files.isDirectory(root.resolve("spark")) ? launcher : null;
    }
}
