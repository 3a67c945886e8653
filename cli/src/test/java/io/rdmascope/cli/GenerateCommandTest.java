package io.rdmascope.cli;

import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import io.rdmascope.samples.VantageScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenerateCommandTest {

    @Test
    void aNamedScenarioWritesItsCaptureTruthAndReadme(@TempDir Path out) throws IOException {
        Cli run = Cli.run("generate", "--scenario", "rc_rnr", "--out", out.toString());
        assertEquals(0, run.status(), run.err());
        Path folder = out.resolve("rc_rnr");
        assertTrue(Files.size(folder.resolve("rc_rnr.pcapng")) > 0);
        Truth truth = Scenarios.readTruth(folder.resolve("truth.json"));
        assertEquals("rc_rnr", truth.scenario());
        assertTrue(truth.observations().stream().anyMatch(o -> o.kind().equals("rnr_nak")));
        assertTrue(Files.readString(folder.resolve("README.md")).startsWith("rc_rnr: "));
        Cli dissect = Cli.run("dissect", folder.resolve("rc_rnr.pcapng").toString());
        assertEquals(truth.frames(), dissect.out().split("\n").length);
    }

    @Test
    void allWritesEveryCommittedScenarioAndASeedChangesTheBytes(@TempDir Path out) throws IOException {
        Cli all = Cli.run("generate", "--scenario", "all", "--out", out.resolve("a").toString());
        assertEquals(0, all.status(), all.err());
        long folders;
        try (var list = Files.list(out.resolve("a"))) {
            folders = list.count();
        }
        // every catalog scenario, every vantage_rc variant, and vantage_iwarp_tso
        assertEquals(io.rdmascope.samples.ScenarioCatalog.all().size() + VantageScenario.VARIANTS.size() + 1, folders);
        Cli seeded = Cli.run("generate", "--scenario", "psn_wrap", "--seed", "99", "--out", out.resolve("b").toString());
        assertEquals(0, seeded.status(), seeded.err());
        assertTrue(!java.util.Arrays.equals(Files.readAllBytes(out.resolve("a/psn_wrap/psn_wrap.pcapng")),
                Files.readAllBytes(out.resolve("b/psn_wrap/psn_wrap.pcapng"))));
    }

    @Test
    void theSegmentationOffloadRunWritesTwoCapturesThatCorrelateWithoutLoss(@TempDir Path out) throws IOException {
        Cli run = Cli.run("generate", "--scenario", "vantage_iwarp_tso", "--seed", "5", "--out", out.toString());
        assertEquals(0, run.status(), run.err());
        Path folder = out.resolve("vantage_iwarp_tso");
        assertTrue(Files.readString(folder.resolve("truth.json")).contains("\"seed\": 5,"));
        Cli correlate = Cli.run("correlate", folder.resolve("host.pcapng").toString(),
                folder.resolve("switch.pcapng").toString());
        assertEquals(0, correlate.status(), correlate.err());
        assertTrue(correlate.out().contains("Lost between two points: 0"), correlate.out());
    }

    @Test
    void aVantageRunWritesThreeCapturesThatCorrelateAsItsTruthSays(@TempDir Path out) throws IOException {
        Cli run = Cli.run("generate", "--scenario", "vantage_rc_drift", "--seed", "5", "--out", out.toString());
        assertEquals(0, run.status(), run.err());
        Path folder = out.resolve("vantage_rc_drift");
        String truth = Files.readString(folder.resolve("truth.json"));
        assertTrue(truth.contains("\"seed\": 5,") && truth.contains("\"multiSighted\": "), truth);
        Cli correlate = Cli.run("correlate", folder.resolve("requester.pcapng").toString(),
                folder.resolve("switch.pcapng").toString(), folder.resolve("responder.pcapng").toString());
        assertEquals(0, correlate.status(), correlate.err());
        assertTrue(correlate.out().contains("Lost between two points: 5"), correlate.out());
        assertTrue(correlate.out().contains("never at switch") && correlate.out().contains("never at responder")
                && correlate.out().contains("never at requester"), correlate.out());
    }

    @Test
    void mixedLargeTakesFramesAndQps(@TempDir Path out) throws IOException {
        Cli run = Cli.run("generate", "--scenario", "mixed_large", "--frames", "1000", "--qps", "8", "--out",
                out.toString());
        assertEquals(0, run.status(), run.err());
        Cli count = Cli.run("dissect", out.resolve("mixed_large.pcap").toString());
        assertEquals(1000, count.out().split("\n").length);
    }

    @Test
    void mistakesAreOneLineUsageErrors(@TempDir Path out) {
        Cli unknown = Cli.run("generate", "--scenario", "nope", "--out", out.toString());
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("unknown scenario 'nope'") && unknown.err().contains("rc_send"),
                unknown.err());
        Cli frames = Cli.run("generate", "--scenario", "rc_send", "--frames", "5", "--out", out.toString());
        assertEquals(2, frames.status());
        assertTrue(frames.err().contains("mixed_large only"), frames.err());
    }

    @Test
    void randomWritesTheSeedsCaptureAndTruth(@TempDir Path out) throws IOException {
        Cli run = Cli.run("generate", "--scenario", "random", "--seed", "7", "--frames", "300", "--loss", "0.05",
                "--vantage", "switch", "--out", out.toString());
        assertEquals(0, run.status(), run.err());
        Path folder = out.resolve("random-7");
        assertTrue(Files.exists(folder.resolve("truth.json")));
        try (var list = Files.list(folder)) {
            assertTrue(list.anyMatch(p -> p.getFileName().toString().matches("random-7\\.pcap(ng)?")));
        }
        Cli noSeed = Cli.run("generate", "--scenario", "random", "--out", out.toString());
        assertEquals(2, noSeed.status());
        Cli badVantage = Cli.run("generate", "--scenario", "random", "--seed", "1", "--vantage", "moon", "--out",
                out.toString());
        assertEquals(2, badVantage.status());
        assertTrue(badVantage.err().contains("vantage"), badVantage.err());
    }
}
