package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The habits every verb shares (docs/cli.md): help, -V, nearest names, -e, closed pipes. */
class CliHabitsTest {
    static String sample(String name) {
        Path folder = SharedFiles.sampleCases().resolve(name);
        for (String ext : List.of(".pcapng", ".pcap", ".erf")) {
            Path p = folder.resolve(name + ext);
            if (p.toFile().isFile()) {
                return p.toString();
            }
        }
        throw new IllegalStateException("no committed case " + name);
    }

    private static final String RC_SEND = sample("rc_send");

    /** The verbs as Main registers them: a verb added later is covered without touching this test. */
    static List<String> verbs() {
        return List.copyOf(Main.commandLine(OutputStream.nullOutputStream(), Map.of()).getSubcommands().keySet());
    }

    @TestFactory
    Stream<DynamicTest> everyVerbAnswersHelpAndDashH() {
        return verbs().stream().flatMap(verb -> Stream.of("--help", "-h").map(flag ->
                DynamicTest.dynamicTest(verb + " " + flag, () -> {
                    Cli r = Cli.run(verb, flag);
                    assertEquals(0, r.status(), r.err());
                    // picocli's own help verb puts its description before the usage line
                    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("Usage: rdmascope " + verb + " ")), r.out());
                    assertEquals("", r.err());
                })));
    }

    @Test
    void helpWinsOverMissingRequiredArguments() {
        Cli r = Cli.run("messages", "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("-Y, --display-filter=FILTER"), r.out());
        assertTrue(r.out().contains("--wide"), r.out());
    }

    @Test
    void generateListNeedsNeitherScenarioNorOut() {
        Cli r = Cli.run("generate", "--list");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("rc_send\t"), r.out());
        assertTrue(r.out().contains("\nmixed_large\t"), r.out());
        Cli missing = Cli.run("generate");
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("--list shows the names"), missing.err());
    }

    /** Arguments each verb needs besides -V, so that -V alone decides the answer. */
    private static List<String> argsFor(String verb) {
        return switch (verb) {
            case "messages", "ops", "flows", "summary", "explain", "check" -> List.of(RC_SEND);
            case "dissect" -> List.of(RC_SEND, "-c", "1");
            case "correlate" -> List.of(RC_SEND, "copy=" + RC_SEND);
            case "fleet" -> List.of("some-directory", "--out", "some-output");
            case "merge" -> List.of("-w", Path.of(System.getProperty("java.io.tmpdir"), "never-written.pcapng").toString(),
                    RC_SEND);
            default -> List.of();
        };
    }

    @TestFactory
    Stream<DynamicTest> dashVIsDetailOrARefusalNeverSilentSuccess() {
        return verbs().stream().map(verb -> DynamicTest.dynamicTest(verb + " -V", () -> {
            List<String> args = new ArrayList<>(List.of(verb));
            args.addAll(argsFor(verb));
            args.add("-V");
            Cli r = Cli.run(args.toArray(String[]::new));
            if (verb.equals("dissect")) {
                assertEquals(0, r.status(), r.err());
                assertTrue(r.out().contains("Frame 1:") && r.out().contains("InfiniBand\n"), r.out());
            } else {
                assertEquals(2, r.status(), verb + ": " + r.out());
                assertEquals("", r.out());
                assertEquals(1, r.err().lines().count(), r.err());
                assertTrue(r.err().startsWith("rdmascope: " + verb + " has no detail view (-V)"), r.err());
            }
        }));
    }

    @Test
    void topLevelKeepsVersionAndExplainsDashV() {
        Cli version = Cli.run("--version");
        assertEquals(0, version.status());
        assertTrue(version.out().startsWith("rdmascope "), version.out());
        Cli v = Cli.run("-V");
        assertEquals(2, v.status());
        assertTrue(v.err().contains("rdmascope dissect -V FILE") && v.err().contains("--version"), v.err());
    }

    @Test
    void unknownVerbsAndOptionsGetTheNearestValidOne() {
        Cli verb = Cli.run("mesages", RC_SEND);
        assertEquals(2, verb.status());
        assertEquals("rdmascope: unknown command 'mesages'; did you mean 'messages'?\n", verb.err());
        Cli swapped = Cli.run("disscet", RC_SEND);
        assertTrue(swapped.err().contains("did you mean 'dissect'?"), swapped.err());
        Cli option = Cli.run("dissect", RC_SEND, "--hepl");
        assertEquals(2, option.status());
        assertTrue(option.err().startsWith("rdmascope: dissect: unknown option '--hepl'; did you mean '--help'?"),
                option.err());
        Cli flows = Cli.run("flows", RC_SEND, "--jsno");
        assertTrue(flows.err().contains("did you mean '--json'?"), flows.err());
        Cli far = Cli.run("xyzzyplugh");
        assertTrue(far.err().contains("unknown command 'xyzzyplugh' (commands: dissect, messages"), far.err());
        assertFalse(far.err().contains("did you mean"), far.err());
    }

    @Test
    void nearestIsAnEditDistanceWithSwaps() {
        assertEquals(1, VerbHabits.Nearest.distance("flwos", "flows"));
        assertEquals(1, VerbHabits.Nearest.distance("summry", "summary"));
        assertEquals(null, VerbHabits.Nearest.of("zzzz", List.of("flows", "check")));
    }

    @Test
    void dashEWithoutFieldsOrJsonIsRefusedAsTsharkDoes() {
        Cli r = Cli.run("dissect", RC_SEND, "-e", "frame.number");
        assertEquals(2, r.status());
        assertEquals("", r.out());
        assertEquals("rdmascope: -e FIELD needs -T fields or -T json (as tshark, which refuses -e without them)\n",
                r.err());
        assertEquals(0, Cli.run("dissect", RC_SEND, "-T", "json", "-e", "frame.number").status());
    }

    /** Writes {@code limit} bytes, then fails every write as the JDK does on EPIPE. */
    private static final class ClosedPipe extends OutputStream {
        private int room;

        ClosedPipe(int limit) {
            room = limit;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > room) {
                room = 0;
                throw new IOException(BrokenPipe.MESSAGE);
            }
            room -= len;
        }
    }

    @TestFactory
    Stream<DynamicTest> aClosedPipeEndsQuietly() {
        return Stream.of(List.of("dissect", "-V"), List.of("messages"), List.of("flows"), List.of("summary"),
                List.of("explain", "--json"), List.of("dissect", "-T", "json")).map(verb ->
                DynamicTest.dynamicTest(String.join(" ", verb), () -> {
                    List<String> args = new ArrayList<>(verb);
                    args.add(sample("rc_loss_nak"));
                    StringWriter err = new StringWriter();
                    int status = Main.run(args.toArray(String[]::new), new ClosedPipe(10),
                            new PrintWriter(err, true), Map.of());
                    assertEquals(0, status, err.toString());
                    assertEquals("", err.toString());
                }));
    }

    @Test
    void otherWriteErrorsAreStillReported() {
        StringWriter err = new StringWriter();
        OutputStream full = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        int status = Main.run(new String[] {"dissect", "-V", RC_SEND}, full, new PrintWriter(err, true), Map.of());
        assertEquals(2, status);
        assertEquals("rdmascope: No space left on device\n", err.toString());
    }

    /** The whole process, as a user types it: `rdmascope dissect -V F | head -1` prints one line, nothing else. */
    @Test
    void wholeProcessIntoHeadIsSilent() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                "\"$0\" -cp \"$1\" io.rdmascope.cli.Main dissect -V \"$2\" | head -1; echo \"status ${PIPESTATUS[0]}\"",
                javaBin, System.getProperty("java.class.path"), sample("rc_loss_nak"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.getErrorStream().transferTo(err);
        assertEquals(0, p.waitFor());
        assertTrue(out.startsWith("Frame 1: ") && out.endsWith("\nstatus 0\n"), out);
        assertEquals(2, out.lines().count(), out);
        assertEquals("", err.toString(), "stderr must stay empty");
    }
}
