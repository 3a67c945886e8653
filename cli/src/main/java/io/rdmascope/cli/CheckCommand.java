package io.rdmascope.cli;

import io.rdmascope.cli.reports.CaptureCheck;
import io.rdmascope.cli.reports.CheckRun;
import io.rdmascope.cli.reports.JsonReport;
import io.rdmascope.cli.reports.JunitReport;
import io.rdmascope.cli.reports.Report;
import io.rdmascope.cli.reports.SarifReport;
import io.rdmascope.cli.reports.TextReport;
import io.rdmascope.replay.VantageInput;
import io.rdmascope.rules.Expectations;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import io.rdmascope.rules.Severity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rdmascope check}: replays captures, applies the conformance rules (and the user's
 * expectations), writes one report and says by its exit status whether CI should fail. See
 * docs/ci.md for the formats and their shapes.
 *
 * <p>Exit status: 0 when no finding reaches {@code --fail-on} and every expectation holds; 1
 * otherwise; 2 for bad usage, an unreadable rules or expectations file, or a capture that cannot be
 * read — a capture damaged part-way is reported from the frames before the damage, then the error
 * follows on stderr and the status is 2, as {@code messages} and {@code flows} do.
 */
@Command(name = "check", sortOptions = false,
        description = {"Check captures against the conformance rules (rdmascope rules) and optional expectations, "
                + "for CI.",
                "Exit status: 0 pass, 1 a finding at or above --fail-on or an expectation not met, 2 bad input "
                        + "or usage. Reports: text (default), json (a stable contract), junit (JUnit XML), sarif "
                        + "(SARIF 2.1.0 for GitHub code scanning). See docs/ci.md."})
final class CheckCommand implements Callable<Integer> {
    static final int EXIT_FAILED = 1;

    @ParentCommand
    Main parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*",
            description = "pcap, pcapng, ERF or gzip-compressed captures; reports name each as given")
    List<String> files;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            description = "fail on findings of this severity or worse: error (default), warning or note")
    String failOn;

    @Option(names = "--root-causes",
            description = "only root causes can fail the run: findings that follow from an earlier one in the "
                    + "same conversation (a retransmission after a NAK, a stall after a PSN reuse) are reported "
                    + "but never reach --fail-on")
    boolean rootCausesOnly;

    @Option(names = "--rules", paramLabel = "FILE",
            description = "rules file (JSON, or YAML when named .yaml/.yml): switch rules off, change their "
                    + "severity, set thresholds")
    String rulesFile;

    @Option(names = "--expect", paramLabel = "FILE",
            description = "expectations file (JSON or YAML): bounds on findings, observations, messages, latency")
    String expectFile;

    @Option(names = "--report", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json, junit or sarif")
    String report;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the report to FILE, not stdout")
    String output;

    @Mixin
    ReplayOptions replayOptions;

    @Option(names = "--union",
            description = "the captures are vantage points of the same traffic ([NAME=]FILE): replay their union "
                    + "once and report one set of findings, each naming the points and frames that saw it, with "
                    + "the rules where the points disagree (docs/correlate.md); without it each capture is "
                    + "checked on its own")
    boolean union;

    @Option(names = "--rules-doc-uri", paramLabel = "URI",
            description = "absolute http(s) address of a published docs/rules.md: SARIF rules get helpUri URI#rule-id")
    String rulesDocUri;

    @Override
    public Integer call() throws IOException {
        Severity threshold = severity(failOn);
        io.rdmascope.replay.IcrcCheck icrcCheck = replayOptions.icrc.check();
        Report.Format format = Report.Format.parse(report);
        if (format == null) {
            throw new DissectCommand.UsageError("--report takes text, json, junit or sarif (got '" + report + "')");
        }
        if (rulesDocUri != null) {
            checkRulesDocUri(rulesDocUri);
        }
        Path out = output == null ? null : outputFile(output);
        List<Path> captures = new ArrayList<>();
        List<VantageInput> points = union ? Vantage.parse(files) : List.of();
        if (union && points.size() < 2) {
            throw new DissectCommand.UsageError("--union takes two captures or more, one per vantage point");
        }
        for (String f : union ? points.stream().map(p -> p.file().toString()).toList() : files) {
            captures.add(existing(f));
        }
        RulesConfig config = rulesFile == null ? RulesConfig.defaults() : rules(existing(rulesFile));
        Expectations expectations = expectFile == null ? null : expectations(existing(expectFile));

        List<CaptureCheck> checks = new ArrayList<>();
        IOException firstFailure = null;
        for (int i = 0; i < (union ? 1 : captures.size()); i++) {
            // Messages are kept only when an expectation may ask about them.
            Replay replay = union
                    ? Replay.ofUnion(Vantage.index(points, replayOptions), replayOptions.chain(), icrcCheck,
                            replayOptions.threads())
                    : Replay.of(captures.get(i), replayOptions.chain(), replayOptions.select(captures.get(i)),
                            expectations != null, icrcCheck, replayOptions.threads());
            List<Finding> findings = Rules.evaluate(replay.observations(), config);
            List<Expectations.Result> results = List.of();
            if (expectations != null) {
                try {
                    results = expectations.evaluate(replay.result(), findings);
                } catch (IllegalArgumentException e) {
                    // Values Expectations.read does not check (a "qp" that is not a number, say).
                    throw new DissectCommand.UsageError(expectFile + ": " + Main.oneLine(e));
                }
            }
            // A union is named by its inputs as given, so that the text report's `rdmascope explain NAME`
            // hint replays the same union.
            checks.add(new CaptureCheck(union ? String.join(" ", files) : files.get(i), findings, results,
                    replay.failure() == null ? null : Main.oneLine(replay.failure()), rootCausesOnly,
                    replay.vantage() == null ? null : replay.vantage().union()::sightings, pointFiles(points)));
            if (firstFailure == null) {
                firstFailure = replay.failure();
            }
        }
        List<CheckRun.EnabledRule> enabled = RuleCatalog.all().stream().filter(config::enabled)
                .map(r -> new CheckRun.EnabledRule(r, config.severity(r), config.threshold(r))).toList();
        CheckRun run = new CheckRun(checks, threshold, enabled, version());

        Report writer = switch (format) {
            case TEXT -> new TextReport();
            case JSON -> new JsonReport();
            case JUNIT -> new JunitReport();
            case SARIF -> new SarifReport(rulesDocUri);
        };
        if (out != null) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
            writer.write(run, bytes);
            Files.write(out, bytes.toByteArray());
        } else {
            OutputStream stdout = new BufferedOutputStream(parent.stdout(), 1 << 16);
            writer.write(run, stdout);
            stdout.flush();
        }
        if (firstFailure != null) {
            throw firstFailure;
        }
        return run.passed() ? Main.EXIT_OK : EXIT_FAILED;
    }

    /** Each vantage point's name and its capture's path as given, in the order named (none without --union). */
    private static Map<String, String> pointFiles(List<VantageInput> points) {
        Map<String, String> out = new LinkedHashMap<>();
        points.forEach(p -> out.put(p.name(), p.file().toString()));
        return out;
    }

    private static Severity severity(String text) {
        try {
            return Severity.parse(text.strip());
        } catch (IllegalArgumentException e) {
            throw new DissectCommand.UsageError("--fail-on takes error, warning or note (got '" + text + "')");
        }
    }

    /** A file that must exist: the same one-line error as a missing capture. */
    private static Path existing(String name) throws NoSuchFileException {
        Path p = Path.of(name);
        if (!Files.exists(p)) {
            throw new NoSuchFileException(name);
        }
        return p;
    }

    /** -o's folder must exist before minutes of replay, not after. */
    private static Path outputFile(String name) {
        Path p = Path.of(name);
        Path folder = p.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new DissectCommand.UsageError("-o: no such folder for " + name);
        }
        if (Files.isDirectory(p)) {
            throw new DissectCommand.UsageError("-o: " + name + " is a folder");
        }
        return p;
    }

    private static void checkRulesDocUri(String text) {
        try {
            URI uri = new URI(text);
            if (uri.isAbsolute() && ("https".equalsIgnoreCase(uri.getScheme())
                    || "http".equalsIgnoreCase(uri.getScheme())) && uri.getFragment() == null) {
                return;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new DissectCommand.UsageError("--rules-doc-uri takes an absolute http(s) address without #fragment "
                + "(got '" + text + "')");
    }

    private static RulesConfig rules(Path file) throws IOException {
        try {
            return RulesConfig.read(file);
        } catch (IllegalArgumentException e) {
            throw new DissectCommand.UsageError(located(file, e));
        }
    }

    private static Expectations expectations(Path file) throws IOException {
        try {
            return Expectations.read(file);
        } catch (IllegalArgumentException e) {
            throw new DissectCommand.UsageError(located(file, e));
        }
    }

    /** The engine's message, prefixed with the file when it does not name it already. */
    private static String located(Path file, IllegalArgumentException e) {
        String message = Main.oneLine(e);
        return message.startsWith(file.toString()) ? message : file + ": " + message;
    }

    /** "0.1.0" from the root command's "rdmascope 0.1.0". */
    private String version() {
        String[] v = spec.root().version();
        String text = v.length == 0 ? "" : v[0];
        return text.startsWith("rdmascope ") ? text.substring("rdmascope ".length()) : text;
    }
}
