package io.rdmascope.samples;

import io.rdmascope.samples.ScenarioCatalog.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code generate --scenario all} reproduces every committed case byte for byte: capture (the three
 * captures of a vantage run), truth and README. A generator change that alters a committed capture fails here first.
 */
class CommittedCasesTest {

    @TestFactory
    Stream<DynamicTest> everyScenarioReproducesItsCommittedFiles(@TempDir Path out) {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Path written = Scenarios.write(s, out, s.seed());
            Path committed = CommittedCases.capture(s);
            assertArrayEquals(Files.readAllBytes(committed), Files.readAllBytes(written),
                    s.name() + ": generated capture differs from the committed one; " + CommittedCases.regenerateHint());
            for (String file : List.of(Scenarios.TRUTH_FILE, "README.md")) {
                assertEquals(Files.readString(CommittedCases.caseFolder(s).resolve(file)),
                        Files.readString(out.resolve(s.name()).resolve(file)),
                        s.name() + "/" + file + " differs; " + CommittedCases.regenerateHint());
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyVantageRunReproducesItsCommittedFiles(@TempDir Path out) {
        return VantageScenario.VARIANTS.stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
            Path written = VantageScenario.write(v, out, v.seed());
            Path committed = CommittedCases.folder().resolve(v.name());
            for (String file : List.of("requester.pcapng", "switch.pcapng", "responder.pcapng", Scenarios.TRUTH_FILE,
                    "README.md")) {
                assertArrayEquals(Files.readAllBytes(committed.resolve(file)), Files.readAllBytes(written.resolve(file)),
                        v.name() + "/" + file + " differs; " + CommittedCases.regenerateHint());
            }
        }));
    }

    @Test
    void theIwarpSegmentationOffloadRunReproducesItsCommittedFiles(@TempDir Path out) throws IOException {
        Path written = IwarpTsoScenario.write(out, IwarpTsoScenario.SEED);
        Path committed = CommittedCases.folder().resolve(IwarpTsoScenario.NAME);
        for (String file : List.of("host.pcapng", "switch.pcapng", Scenarios.TRUTH_FILE, "README.md")) {
            assertArrayEquals(Files.readAllBytes(committed.resolve(file)), Files.readAllBytes(written.resolve(file)),
                    IwarpTsoScenario.NAME + "/" + file + " differs; " + CommittedCases.regenerateHint());
        }
    }

    @Test
    void theCommittedCaseFoldersAreExactlyTheCatalog() throws IOException {
        Set<String> catalog = ScenarioCatalog.all().stream().map(Scenario::name)
                .collect(Collectors.toCollection(TreeSet::new));
        VantageScenario.VARIANTS.forEach(v -> catalog.add(v.name()));
        catalog.add(IwarpTsoScenario.NAME);
        Set<String> folders;
        try (Stream<Path> list = Files.list(CommittedCases.folder())) {
            folders = list.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(catalog, folders, "sample-pcaps/cases must hold one folder per catalog scenario");
    }

    @Test
    void theReadmeSampleIsMixedLargeWithItsDocumentedParameters(@TempDir Path out) throws IOException {
        Path written = Scenarios.writeMixedLarge(out, 7, 300, 4, true);
        Path committed = CommittedCases.root().resolve("sample-pcaps/captures/roce_v2_mixed.pcapng");
        assertArrayEquals(Files.readAllBytes(committed), Files.readAllBytes(written),
                "roce_v2_mixed.pcapng no longer matches generate --scenario mixed_large --frames 300 --seed 7 --qps 4");
    }

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedDifferentOnes(@TempDir Path out) throws IOException {
        Scenario s = ScenarioCatalog.byName("rc_loss_nak");
        byte[] a = Files.readAllBytes(Scenarios.write(s, out.resolve("a"), 5));
        byte[] b = Files.readAllBytes(Scenarios.write(s, out.resolve("b"), 5));
        byte[] c = Files.readAllBytes(Scenarios.write(s, out.resolve("c"), 6));
        assertArrayEquals(a, b);
        assertEquals(false, java.util.Arrays.equals(a, c), "a different seed must change the capture");
    }
}
