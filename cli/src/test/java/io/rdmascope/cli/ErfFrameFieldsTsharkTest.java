package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16 point 4: for ERF records tshark takes the frame's lengths and time from the ERF header
 * (wlen, the packet bytes after the ERF headers, the ERF timestamp), in an ERF file and in a pcap
 * of link type 197 alike. {@code frame.len}, {@code frame.cap_len}, {@code frame.time_epoch} and
 * {@code frame.time_relative} must equal tshark 4.0's on every frame of every committed ERF case and
 * of every ERF capture among the real ones ({@code ../shared/captures} and {@code captures-hard}).
 */
class ErfFrameFieldsTsharkTest {
    private static final List<String> FIELDS = List.of("frame.number", "frame.len", "frame.cap_len",
            "frame.time_epoch", "frame.time_relative");

    @Test
    void frameLengthsAndTimesOfTheCommittedErfCasesAreTsharks() throws Exception {
        Tshark.assumeInstalled();
        List<Path> erfCases = new ArrayList<>();
        for (ScenarioCatalog.Scenario s : ScenarioCatalog.all()) {
            if (s.format() == ScenarioCatalog.Format.ERF) {
                erfCases.add(GoldenOutputTest.cases().resolve(s.name()).resolve(s.name() + ".erf"));
            }
        }
        assertFalse(erfCases.isEmpty(), "native_ib_erf at least is an ERF case");
        for (Path capture : erfCases) {
            assertSameAsTshark(capture);
        }
    }

    @Test
    void frameLengthsAndTimesOfTheRealErfCapturesAreTsharks() throws Exception {
        Tshark.assumeInstalled();
        List<Path> erf = new ArrayList<>();
        List<Path> real = new ArrayList<>(SharedFiles.allCaptures());
        Path hard = SharedFiles.root().resolve("captures-hard");
        if (Files.isDirectory(hard)) {
            try (java.util.stream.Stream<Path> files = Files.list(hard)) {
                files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                        .forEach(real::add);
            }
        }
        for (Path capture : real) {
            try (PacketSource source = CaptureFiles.open(capture)) {
                Frame first = source.next();
                if (first != null && first.linkType() == LinkTypes.ERF) {
                    erf.add(capture);
                }
            }
        }
        org.junit.jupiter.api.Assumptions.assumeFalse(erf.isEmpty(),
                "SKIPPED: no ERF capture among the real captures");
        for (Path capture : erf) {
            assertSameAsTshark(capture);
        }
    }

    private static void assertSameAsTshark(Path capture) throws Exception {
        List<String> args = new ArrayList<>(List.of("-r", capture.toString(), "-T", "fields"));
        for (String field : FIELDS) {
            args.add("-e");
            args.add(field);
        }
        String theirs = Tshark.run(args);
        Cli ours = Cli.run(args.toArray(String[]::new));
        assertEquals(0, ours.status(), ours.err());
        assertTrue(theirs.lines().count() > 0, "tshark read no frame of " + capture);
        List<String> t = theirs.lines().toList();
        List<String> o = ours.out().lines().toList();
        assertEquals(t.size(), o.size(), capture + ": frame count");
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            if (!t.get(i).equals(o.get(i))) {
                mismatches.add("tshark '" + t.get(i) + "' rdmascope '" + o.get(i) + "'");
            }
        }
        assertEquals(List.of(), mismatches, capture.getFileName() + ": " + FIELDS);
        System.out.printf("ERF frame fields: %s, %d frames equal to tshark's%n", capture.getFileName(), t.size());
    }
}
