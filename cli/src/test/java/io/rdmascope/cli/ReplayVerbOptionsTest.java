package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.rdmascope.cli.CliHabitsTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replay verbs' shared options (-Y, -c), terminal width, units and iWARP's honest headers. */
class ReplayVerbOptionsTest {
    private static final Map<String, String> COLUMNS_100 = Map.of("COLUMNS", "100");

    /** Verbs and the committed case whose text is widest for them today. */
    private static final List<List<String>> WIDE = List.of(List.of("messages", "uc_ud_xrc"),
            List.of("messages", "roce_v2_ipv6"), List.of("messages", "iwarp_rdma_ops"), List.of("flows", "rc_ack_timeout"),
            List.of("flows", "roce_v2_ipv6"), List.of("summary", "iwarp_violations"), List.of("check", "iwarp_violations"),
            List.of("explain", "iwarp_shared_msn"));

    @TestFactory
    Stream<DynamicTest> everyLineFitsAHundredColumns() {
        return WIDE.stream().map(c -> DynamicTest.dynamicTest(c.get(0) + " " + c.get(1), () -> {
            Cli r = Cli.runWith(COLUMNS_100, c.get(0), sample(c.get(1)));
            assertTrue(r.status() == 0 || c.get(0).equals("check"), r.err());
            assertFalse(r.out().isEmpty());
            for (String line : r.out().split("\n")) {
                assertTrue(line.length() <= 100, line.length() + ": " + line);
            }
        }));
    }

    @Test
    void wideAndPipedOutputKeepEveryColumn() {
        String capture = sample("rc_ack_timeout");
        Cli piped = Cli.run("flows", capture);
        Cli wide = Cli.runWith(COLUMNS_100, "flows", capture, "--wide");
        Cli fitted = Cli.runWith(COLUMNS_100, "flows", capture);
        assertEquals(piped.out(), wide.out());
        assertTrue(piped.out().lines().findFirst().orElseThrow().length() > 200);
        assertTrue(piped.out().contains("RNR NAKs") && !fitted.out().contains("RNR NAKs"), fitted.out());
        // What a narrow terminal keeps: the conversation's identity and its errors.
        assertTrue(fitted.out().startsWith("Conv  Address A  QP A      Address B  QP B"), fitted.out());
        assertTrue(fitted.out().contains("Retrans") && fitted.out().contains("NAKs"), fitted.out());
    }

    @Test
    void shrunkCellsKeepBothEnds() {
        assertEquals("fd00…4:1", Table.shorten("fd00::abcd:1234:1", 8));
        assertEquals("10.0.0.1", Table.shorten("10.0.0.1", 8));
    }

    @Test
    void ratesUseTheUnitThatFitsThem() {
        assertEquals("0 b/s", Text.bitsPerSecond(0));
        assertEquals("0.50 b/s", Text.bitsPerSecond(0.5));
        assertEquals("231 kb/s", Text.bitsPerSecond(230_700));
        assertEquals("1.50 Mb/s", Text.bitsPerSecond(1_500_000));
        assertEquals("25.0 Gb/s", Text.bitsPerSecond(25e9));
        Cli summary = Cli.run("summary", sample("rc_ack_timeout"));
        assertTrue(summary.out().contains(" kb/s"), summary.out());
        assertFalse(summary.out().contains("Gb/s"), summary.out());
    }

    @Test
    void iwarpMessagesShowQueueAndMsnUnderTheirOwnNames() {
        Cli r = Cli.run("messages", sample("iwarp_rdma_ops"));
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).matches("Conv +Transport +Kind +Source +QP +Destination +QN +MSN +Bytes.*"), lines.get(0));
        assertTrue(lines.get(1).matches(" +1 +IWARP +SEND +10\\.0\\.0\\.1 +- +→ +10\\.0\\.0\\.2 +0 +1 +200 .*"), lines.get(1));
        assertTrue(r.out().lines().anyMatch(l -> l.matches(" +1 +IWARP +WRITE +10\\.0\\.0\\.1 +- +→ +10\\.0\\.0\\.2 +- +- +512 .*")),
                r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches(" +1 +IWARP +READ +10\\.0\\.0\\.1 +- +→ +10\\.0\\.0\\.2 +1 +1 +700 .*")),
                r.out());
        assertFalse(r.out().contains("0x000000"), r.out());
    }

    @Test
    void displayFilterChoosesTheFramesReplayed() {
        String capture = sample("rc_send");
        // 21 frames; the first four are SEND Only + ACK, SEND First, ...
        Cli all = Cli.run("messages", capture);
        Cli firstTwo = Cli.run("messages", capture, "-Y", "frame.number <= 2");
        assertEquals(10, all.out().lines().count(), all.out());
        assertEquals(2, firstTwo.out().lines().count(), firstTwo.out());
        Cli summary = Cli.run("summary", capture, "-Y", "frame.number <= 2");
        assertTrue(summary.out().contains("\nFrames:        2\n"), summary.out());
        Cli bad = Cli.run("flows", capture, "-Y", "frame.number <=");
        assertEquals(2, bad.status());
        assertTrue(bad.err().startsWith("rdmascope: invalid display filter: "), bad.err());
    }

    @Test
    void analysisFieldsInTheFilterAreAnsweredFromAFirstPass() {
        String capture = sample("rc_loss_nak");
        Cli retransmitted = Cli.run("summary", capture, "-Y", "rdmascope.analysis.retransmission");
        Cli dissected = Cli.run("dissect", capture, "-Y", "rdmascope.analysis.retransmission");
        assertEquals(0, retransmitted.status(), retransmitted.err());
        long frames = dissected.out().lines().count();
        assertTrue(frames > 0, dissected.out());
        assertTrue(retransmitted.out().contains("\nFrames:        " + frames + "\n"), retransmitted.out());
    }

    @TestFactory
    Stream<DynamicTest> countStopsReadingOnEveryVerb() {
        return Stream.of("messages", "flows", "summary", "explain", "check").map(verb ->
                DynamicTest.dynamicTest(verb, () -> {
                    Cli r = Cli.run(verb, sample("rc_send"), "-c", "2", "--json");
                    if (verb.equals("check")) {
                        r = Cli.run(verb, sample("rc_send"), "-c", "2", "--report", "json");
                    }
                    assertEquals(0, r.status(), r.err());
                    Cli full = verb.equals("check") ? Cli.run(verb, sample("rc_send"), "--report", "json")
                            : Cli.run(verb, sample("rc_send"), "--json");
                    if (!verb.equals("check")) {
                        assertFalse(full.out().equals(r.out()), verb + ": -c 2 changed nothing");
                    }
                    Cli zero = Cli.run(verb, sample("rc_send"), "-c", "0");
                    assertEquals(2, zero.status());
                }));
    }

    @Test
    void summaryCountsOnlyTheFramesRead() {
        Cli r = Cli.run("summary", sample("rc_send"), "-c", "3");
        assertTrue(r.out().contains("\nFrames:        3\n"), r.out());
    }

    /** Issue 18: one thread or a replay thread, every replay verb prints the same bytes; 0 threads is a usage error. */
    @TestFactory
    Stream<DynamicTest> threadsChangeNothingTheVerbsPrint() {
        return Stream.of("messages", "flows", "summary", "explain", "check").map(verb ->
                DynamicTest.dynamicTest(verb, () -> {
                    for (String c : List.of("rc_loss_nak", "iwarp_tcp_recovery", "uc_ud_xrc")) {
                        Cli one = Cli.run(verb, sample(c), "--threads", "1");
                        Cli two = Cli.run(verb, sample(c), "--threads", "2");
                        Cli four = Cli.run(verb, sample(c), "--threads", "4");
                        assertFalse(one.out().isEmpty(), verb + " " + c);
                        assertEquals(one.out(), two.out(), verb + " " + c);
                        assertEquals(one.out(), four.out(), verb + " " + c);
                        assertEquals(one.status(), two.status(), verb + " " + c);
                    }
                    Cli zero = Cli.run(verb, sample("rc_send"), "--threads", "0");
                    assertEquals(2, zero.status(), zero.err());
                    assertTrue(zero.err().contains("--threads"), zero.err());
                }));
    }

    /**
     * Issue 18: {@code summary} counts its frames (capture facts, protocol hierarchy, opcodes) on the replay
     * thread when there is one. One thread and two give the same JSON on every committed case and real
     * capture: whole, under display filters (what a filter drops is counted by neither) and with -c.
     */
    @TestFactory
    Stream<DynamicTest> summaryCountsTheSameOnOneThreadAndTwo() throws IOException {
        List<Path> captures = new ArrayList<>(SharedFiles.committedCaptures());
        assertTrue(captures.size() >= 40, "the committed cases are where they were: " + captures.size());
        List<Path> real = SharedFiles.realCaptures();
        if (real.isEmpty()) {
            System.out.println("SKIPPED real captures: none under " + SharedFiles.root() + " (../shared beside the repository)");
        }
        captures.addAll(real);
        List<List<String>> selections = List.of(List.of(), List.of("-Y", "frame.number > 3"),
                List.of("-Y", "infiniband.bth.opcode == 4 || tcp"), List.of("-c", "5"));
        return captures.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> {
            for (List<String> selection : selections) {
                List<String> args = new ArrayList<>(List.of("summary", "--json", c.toString()));
                args.addAll(selection);
                Cli one = Cli.run(withThreads(args, "1"));
                Cli two = Cli.run(withThreads(args, "2"));
                assertEquals(0, one.status(), c + " " + selection + ": " + one.err());
                assertTrue(one.out().contains("\"frames\""), one.out());
                assertEquals(one.out(), two.out(), c + " " + selection);
            }
        }));
    }

    private static String[] withThreads(List<String> args, String threads) {
        List<String> all = new ArrayList<>(args);
        all.add("--threads");
        all.add(threads);
        return all.toArray(String[]::new);
    }
}
