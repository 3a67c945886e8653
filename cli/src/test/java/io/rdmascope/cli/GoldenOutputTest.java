package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;

import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.IwarpTsoScenario;
import io.rdmascope.samples.VantageScenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden outputs: {@code dissect -V}, {@code dissect -T json}, {@code messages --json},
 * {@code flows} and {@code summary} of every committed scenario capture are exactly the committed
 * text. Any change to decoding, replay or formatting shows here as a diff; when it is deliberate,
 * {@code sample-pcaps/update-goldens} rewrites them.
 */
class GoldenOutputTest {
    private static final String REGENERATE = "if the change is deliberate, run sample-pcaps/update-goldens and "
            + "review the diff";

    static Path cases() {
        return SharedFiles.sampleCases();
    }

    @TestFactory
    Stream<DynamicTest> verboseTreesMatchTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "dissect-V.txt", "dissect", "-V")));
    }

    @TestFactory
    Stream<DynamicTest> jsonMatchesTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "dissect.json", "dissect", "-T", "json")));
    }

    @TestFactory
    Stream<DynamicTest> messagesJsonMatchesTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "messages.json", "messages", "--json")));
    }

    @TestFactory
    Stream<DynamicTest> flowsMatchTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "flows.txt", "flows")));
    }

    @TestFactory
    Stream<DynamicTest> summaryMatchesTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "summary.txt", "summary")));
    }

    @TestFactory
    Stream<DynamicTest> explainMatchesTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "explain.txt", "explain")));
    }

    @TestFactory
    Stream<DynamicTest> explainJsonMatchesTheGoldens() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> compare(s, "explain.json", "explain", "--json")));
    }

    /** {@code correlate} (text and --json) of each run seen from several vantage points (issue 20). */
    @TestFactory
    Stream<DynamicTest> correlateMatchesTheGoldens() {
        Stream<DynamicTest> rc = VantageScenario.VARIANTS.stream().flatMap(v -> correlate(v.name(),
                Stream.of(VantageScenario.Point.values()).map(VantageScenario.Point::id).toList()));
        Stream<DynamicTest> iwarp = correlate(IwarpTsoScenario.NAME,
                Stream.of(IwarpTsoScenario.Point.values()).map(IwarpTsoScenario.Point::id).toList());
        return Stream.concat(rc, iwarp);
    }

    /** The two goldens of a run whose points' captures are {@code POINT.pcapng}, in the order given. */
    private static Stream<DynamicTest> correlate(String name, java.util.List<String> pointIds) {
        Path folder = cases().resolve(name);
        String[] points = pointIds.stream().map(p -> folder.resolve(p + ".pcapng").toString()).toArray(String[]::new);
        String[] json = Stream.concat(Stream.of("correlate", "--json"), Stream.of(points)).toArray(String[]::new);
        String[] text = Stream.concat(Stream.of("correlate"), Stream.of(points)).toArray(String[]::new);
        return Stream.of(DynamicTest.dynamicTest(name + " --json", () -> compare(folder, "correlate.json", json)),
                DynamicTest.dynamicTest(name, () -> compare(folder, "correlate.txt", text)));
    }

    /** Runs {@code verbAndOptions} on the scenario's capture (given last) and compares with the golden. */
    private static void compare(Scenario s, String golden, String... verbAndOptions) throws IOException {
        Path folder = cases().resolve(s.name());
        Path capture = folder.resolve(s.name() + "." + s.format().extension());
        String[] args = Arrays.copyOf(verbAndOptions, verbAndOptions.length + 1);
        args[args.length - 1] = capture.toString();
        compare(folder, golden, args);
    }

    /** Runs {@code args} and compares its output with {@code folder}'s golden. */
    private static void compare(Path folder, String golden, String... args) throws IOException {
        Cli run = Cli.run(args);
        assertEquals(0, run.status(), run.err());
        String expected = Files.readString(folder.resolve(golden));
        if (!expected.equals(run.out())) {
            String[] want = expected.split("\n", -1);
            String[] got = run.out().split("\n", -1);
            for (int i = 0; i < Math.max(want.length, got.length); i++) {
                String w = i < want.length ? want[i] : "<end>";
                String g = i < got.length ? got[i] : "<end>";
                if (!w.equals(g)) {
                    fail(folder.getFileName() + "/" + golden + " line " + (i + 1) + ":\n  golden: " + w + "\n  now:    " + g
                            + "\n" + REGENERATE);
                }
            }
        }
    }
}
