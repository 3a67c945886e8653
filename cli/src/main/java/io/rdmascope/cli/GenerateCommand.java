package io.rdmascope.cli;

import io.rdmascope.samples.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code rdmascope generate}: write a synthetic scenario capture built by the packet builder. */
@Command(name = "generate", description = "Write a generated scenario capture (so far: mixed_large).")
final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--scenario", required = true, paramLabel = "NAME", description = "scenario: mixed_large")
    String scenario;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "output folder")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "random seed (default 1)")
    long seed = 1;

    @Option(names = "--frames", paramLabel = "N", description = "frames to write (default 1000000)")
    long frames = 1_000_000;

    @Option(names = "--qps", paramLabel = "K", description = "queue pairs (default 64)")
    int qps = 64;

    @Option(names = "--pcapng", description = "write pcapng instead of pcap")
    boolean pcapng;

    @Override
    public Integer call() throws IOException {
        if (frames < 0 || qps < 1 || qps > 4096) {
            throw new DissectCommand.UsageError("--frames must be >= 0 and --qps 1..4096");
        }
        if (!Scenarios.NAMES.contains(scenario)) {
            throw new DissectCommand.UsageError("unknown scenario '" + scenario + "' (known: "
                    + String.join(", ", Scenarios.NAMES) + ")");
        }
        Path file = Scenarios.write(scenario, out, seed, frames, qps, pcapng);
        spec.commandLine().getOut().println("wrote " + file + " (" + frames + " frames)");
        return Main.EXIT_OK;
    }
}
