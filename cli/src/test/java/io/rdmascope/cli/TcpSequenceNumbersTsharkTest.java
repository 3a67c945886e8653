package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TCP's relative sequence and acknowledgment numbers (issue 17, point 2) against tshark 4.0.17: the
 * values of tcp.seq, tcp.seq_raw, tcp.ack, tcp.ack_raw and tcp.nxtseq on every frame, and the -V
 * lines that show them, with the default (relative) numbers and with {@code -o
 * tcp.relative_sequence_numbers:FALSE}, on every real capture and every committed iWARP case.
 */
class TcpSequenceNumbersTsharkTest {
    private static final String RAW = "tcp.relative_sequence_numbers:FALSE";
    private static final String[] FIELDS = {"tcp.seq", "tcp.seq_raw", "tcp.ack", "tcp.ack_raw", "tcp.nxtseq"};
    /** The TCP tree lines of the numbers, at the TCP layer's depth: "Sequence Number: 1    (relative …)". */
    private static final Pattern NUMBER_LINE = Pattern.compile("^    \\[?(Sequence Number|Sequence Number \\(raw\\)"
            + "|Next Sequence Number|Acknowledgment Number|Acknowledgment number \\(raw\\)): .*");

    /** The real captures (both shared folders) and the committed iWARP cases: every TCP we have. */
    private static List<Path> captures() throws IOException {
        List<Path> all = new ArrayList<>(SharedFiles.allCaptures());
        Path hard = SharedFiles.root().resolve("captures-hard");
        if (Files.isDirectory(hard)) {
            try (Stream<Path> files = Files.list(hard)) {
                files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                        .forEach(all::add);
            }
        } else {
            System.out.println("SKIPPED part: " + hard + " absent, its iWARP captures are not compared");
        }
        try (Stream<Path> cases = Files.list(SharedFiles.sampleCases())) {
            cases.filter(c -> c.getFileName().toString().startsWith("iwarp_")).sorted()
                    .forEach(c -> all.add(c.resolve(c.getFileName() + ".pcap")));
        }
        return all;
    }

    private static List<String> args(Path capture, boolean raw, String... more) {
        List<String> args = new ArrayList<>(List.of("-r", capture.toString()));
        if (raw) {
            args.addAll(List.of("-o", RAW));
        }
        args.addAll(List.of(more));
        return args;
    }

    private static List<String> fieldArgs(Path capture, boolean raw) {
        List<String> args = args(capture, raw, "-T", "fields");
        for (String f : FIELDS) {
            args.add("-e");
            args.add(f);
        }
        return args;
    }

    private static Cli ours(List<String> args) {
        List<String> all = new ArrayList<>(List.of("dissect"));
        all.addAll(args);
        Cli c = Cli.run(all.toArray(String[]::new));
        assertEquals(0, c.status(), c.err());
        return c;
    }

    /** The number lines of every TCP node, in order: the node runs to the next top-level line. */
    private static List<String> numberLines(String tree) {
        List<String> lines = new ArrayList<>();
        boolean inTcp = false;
        for (String l : tree.lines().toList()) {
            if (!l.startsWith(" ")) {
                inTcp = l.startsWith("Transmission Control Protocol");
            } else if (inTcp && NUMBER_LINE.matcher(l).matches()) {
                lines.add(l);
            }
        }
        return lines;
    }

    @Test
    @DisplayName("tcp.seq, tcp.seq_raw, tcp.ack, tcp.ack_raw and tcp.nxtseq equal tshark's on every frame, both ways")
    void fieldsEqualTsharkBothWays() throws Exception {
        Tshark.assumeInstalled();
        int tcpFrames = 0;
        for (Path capture : captures()) {
            for (boolean raw : new boolean[]{false, true}) {
                List<String> args = fieldArgs(capture, raw);
                String theirs = Tshark.run(args);
                assertEquals(theirs, ours(args).out(), capture.getFileName() + (raw ? " with -o " + RAW : ""));
                tcpFrames += (int) theirs.lines().filter(l -> !l.isBlank()).count();
            }
        }
        assertTrue(tcpFrames > 200, "too few TCP frames compared: " + tcpFrames);
    }

    @Test
    @DisplayName("-V words the TCP numbers as tshark does, line for line, both ways")
    void treeLinesEqualTsharkBothWays() throws Exception {
        Tshark.assumeInstalled();
        int compared = 0;
        for (Path capture : captures()) {
            for (boolean raw : new boolean[]{false, true}) {
                List<String> args = args(capture, raw, "-V");
                List<String> theirs = numberLines(Tshark.run(args));
                compared += theirs.size();
                assertEquals(theirs, numberLines(ours(args).out()), capture.getFileName()
                        + (raw ? " with -o " + RAW : ""));
            }
        }
        assertTrue(compared > 1000, "too few TCP number lines compared: " + compared);
    }

    /** The Info column's numbers of a TCP frame's line: "Seq=1 Ack=17" (tshark adds Win= between them and Len). */
    private static final Pattern INFO_NUMBERS = Pattern.compile(" TCP \\d+ .*?(Seq=\\d+(?: Ack=\\d+)?)");

    private static List<String> infoNumbers(String lines) {
        return lines.lines().map(INFO_NUMBERS::matcher).map(m -> m.find() ? m.group(1) : "").toList();
    }

    @Test
    @DisplayName("the Info column's Seq= and Ack= equal tshark's on every frame TCP names, both ways")
    void infoNumbersEqualTsharkBothWays() throws Exception {
        Tshark.assumeInstalled();
        int compared = 0;
        for (Path capture : captures()) {
            for (boolean raw : new boolean[]{false, true}) {
                List<String> args = args(capture, raw);
                List<String> theirs = infoNumbers(Tshark.run(args));
                List<String> ours = infoNumbers(ours(args).out());
                assertEquals(theirs.size(), ours.size(), capture.getFileName() + ": frames");
                for (int i = 0; i < theirs.size(); i++) {
                    if (!theirs.get(i).isEmpty() && !ours.get(i).isEmpty()) { // both name the frame TCP
                        assertEquals(theirs.get(i), ours.get(i), capture.getFileName() + " frame " + (i + 1)
                                + (raw ? " with -o " + RAW : ""));
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 200, "too few TCP Info columns compared: " + compared);
    }

    @Test
    @DisplayName("relative by default, raw with -o FALSE, in -V, -T fields and -Y alike (no tshark needed)")
    void optionSwitchesEveryOutput() throws Exception {
        Path capture = SharedFiles.sampleCases().resolve("iwarp_rdma_ops").resolve("iwarp_rdma_ops.pcap");
        String relativeTree = ours(args(capture, false, "-V", "-c", "1")).out();
        String rawTree = ours(args(capture, true, "-V", "-c", "1")).out();
        assertTrue(relativeTree.contains("    Sequence Number: 0    (relative sequence number)\n"), relativeTree);
        assertTrue(relativeTree.contains("    Sequence Number (raw): "), relativeTree);
        assertFalse(rawTree.contains("(relative"), rawTree);
        assertFalse(rawTree.contains("Sequence Number (raw)"), rawTree);
        String rawSeq = ours(args(capture, false, "-T", "fields", "-e", "tcp.seq_raw", "-c", "1")).out().strip();
        assertEquals(rawSeq, ours(args(capture, true, "-T", "fields", "-e", "tcp.seq", "-c", "1")).out().strip());
        assertEquals("0", ours(args(capture, false, "-T", "fields", "-e", "tcp.seq", "-c", "1")).out().strip());
        assertEquals(1, ours(args(capture, true, "-Y", "tcp.seq == " + rawSeq, "-c", "1")).out().lines().count());
        assertEquals(0, ours(args(capture, false, "-Y", "tcp.seq == " + rawSeq, "-c", "1")).out().lines().count());
    }

    @Test
    @DisplayName("-o refuses any other preference, and any value but TRUE/FALSE, in one line")
    void otherPreferencesRefused() {
        Path capture = SharedFiles.sampleCases().resolve("iwarp_rdma_ops").resolve("iwarp_rdma_ops.pcap");
        Cli other = Cli.run("dissect", "-o", "tcp.analyze_sequence_numbers:FALSE", capture.toString());
        assertEquals(Main.EXIT_BAD_INPUT, other.status());
        assertEquals("rdmascope: unknown preference 'tcp.analyze_sequence_numbers' for -o (the one supported: "
                + "tcp.relative_sequence_numbers:TRUE|FALSE)", other.err().strip());
        Cli value = Cli.run("dissect", "-o", "tcp.relative_sequence_numbers:no", capture.toString());
        assertEquals(Main.EXIT_BAD_INPUT, value.status());
        assertEquals(1, value.err().strip().lines().count(), value.err());
        assertEquals("", value.out());
    }
}
