package io.rdmascope.cli;

import io.rdmascope.samples.RandomScenario;
import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.IwarpTsoScenario;
import io.rdmascope.samples.VantageScenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rdmascope generate}: write scenario captures built by the packet builder, with their truth. */
@Command(name = "generate", description = {
        "Write generated scenario captures with their truth files.",
        "Each scenario goes to DIR/NAME/ as NAME.pcap|pcapng|erf plus truth.json; 'all' writes every committed",
        "scenario; mixed_large (benchmarks) goes to DIR/mixed_large.pcap without a truth file; 'random' writes",
        "the random family's seed N to DIR/random-N/ (--frames, --loss, --vantage shape it); the vantage_*",
        "scenarios write one run as three captures (requester, switch, responder) to DIR/NAME/, vantage_iwarp_tso",
        "as two (host, switch)."})
final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--list", description = "list the scenario names with what each shows, and exit")
    boolean list;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "a scenario name, 'all', or mixed_large; --list shows them")
    String scenario;

    @Option(names = "--out", paramLabel = "DIR", description = "output folder")
    Path out;

    @Option(names = "--seed", paramLabel = "N",
            description = "random seed (default: each scenario's committed seed; 1 for mixed_large)")
    Long seed;

    @Option(names = "--frames", paramLabel = "N",
            description = "mixed_large and random: frames to write (default 1000000; random: about 2000)")
    Long frames;

    @Option(names = "--loss", paramLabel = "P",
            description = "random only: mean packet loss rate, 0..0.5 (default 0.02; each seed draws 0..2P)")
    Double loss;

    @Option(names = "--vantage", paramLabel = "POINT",
            description = "random only: capture point requester, switch or responder (default: the seed picks)")
    String vantage;

    @Option(names = "--qps", paramLabel = "K", description = "mixed_large only: queue pairs (default 64)")
    Integer qps;

    @Option(names = "--pcapng", description = "mixed_large only: write pcapng instead of pcap")
    boolean pcapng;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        if (list) {
            // Not picocli's required options: --list needs neither --scenario nor --out.
            for (ScenarioCatalog.Scenario s : ScenarioCatalog.all()) {
                stdout.println(s.name() + "\t" + s.description());
            }
            for (VantageScenario.Variant v : VantageScenario.VARIANTS) {
                stdout.println(v.name() + "\t" + v.description());
            }
            stdout.println(IwarpTsoScenario.NAME + "\t" + IwarpTsoScenario.DESCRIPTION);
            stdout.println(Scenarios.MIXED_LARGE + "\tlarge mixed traffic for the benchmarks (--frames, --qps, --pcapng)");
            stdout.println(RandomScenario.NAME + "\tthe random family, one capture per --seed (--frames, --loss, --vantage)");
            stdout.println(Scenarios.ALL + "\tevery scenario above except mixed_large and random");
            stdout.flush();
            return Main.EXIT_OK;
        }
        if (scenario == null || out == null) {
            throw new DissectCommand.UsageError("generate needs --scenario NAME and --out DIR (--list shows the names)");
        }
        if (Scenarios.MIXED_LARGE.equals(scenario)) {
            long n = frames == null ? 1_000_000 : frames;
            int k = qps == null ? 64 : qps;
            if (n < 0 || k < 1 || k > 4096) {
                throw new DissectCommand.UsageError("--frames must be >= 0 and --qps 1..4096");
            }
            Path file = Scenarios.writeMixedLarge(out, seed == null ? 1 : seed, n, k, pcapng);
            stdout.println("wrote " + file + " (" + n + " frames)");
            return Main.EXIT_OK;
        }
        if (RandomScenario.NAME.equals(scenario)) {
            if (qps != null || pcapng) {
                throw new DissectCommand.UsageError("--qps and --pcapng apply to mixed_large only");
            }
            if (seed == null) {
                throw new DissectCommand.UsageError("--scenario random needs --seed N");
            }
            RandomScenario.Options defaults = RandomScenario.Options.defaults();
            RandomScenario.Options options;
            try {
                options = new RandomScenario.Options(frames == null ? defaults.frames()
                        : (int) Math.min(Integer.MAX_VALUE, frames), loss == null ? defaults.loss() : loss, vantage);
            } catch (IllegalArgumentException e) {
                throw new DissectCommand.UsageError(e.getMessage());
            }
            Path file = RandomScenario.write(out, seed, options);
            stdout.println("wrote " + file);
            return Main.EXIT_OK;
        }
        if (loss != null || vantage != null) {
            throw new DissectCommand.UsageError("--loss and --vantage apply to --scenario random only");
        }
        if (frames != null || qps != null || pcapng) {
            throw new DissectCommand.UsageError("--frames, --qps and --pcapng apply to mixed_large only: the other "
                    + "scenarios are scripted");
        }
        List<ScenarioCatalog.Scenario> chosen;
        List<VantageScenario.Variant> vantage = List.of();
        boolean iwarpTso = Scenarios.ALL.equals(scenario) || IwarpTsoScenario.NAME.equals(scenario);
        if (Scenarios.ALL.equals(scenario)) {
            chosen = ScenarioCatalog.all();
            vantage = VantageScenario.VARIANTS;
        } else if (IwarpTsoScenario.NAME.equals(scenario)) {
            chosen = List.of();
        } else if (VantageScenario.byName(scenario) != null) {
            chosen = List.of();
            vantage = List.of(VantageScenario.byName(scenario));
        } else {
            ScenarioCatalog.Scenario s = ScenarioCatalog.byName(scenario);
            if (s == null) {
                throw new DissectCommand.UsageError("unknown scenario '" + scenario + "' (known: "
                        + String.join(", ", Scenarios.names()) + ")");
            }
            chosen = List.of(s);
        }
        for (ScenarioCatalog.Scenario s : chosen) {
            Path file = Scenarios.write(s, out, seed == null ? s.seed() : seed);
            stdout.println("wrote " + file);
        }
        for (VantageScenario.Variant v : vantage) {
            Path folder = VantageScenario.write(v, out, seed == null ? v.seed() : seed);
            stdout.println("wrote " + folder);
        }
        if (iwarpTso) {
            stdout.println("wrote " + IwarpTsoScenario.write(out, seed == null ? IwarpTsoScenario.SEED : seed));
        }
        return Main.EXIT_OK;
    }
}
