package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapWriter;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** dissect's tshark options -t, -w, -q and -z, against tshark 4.0 on the same captures. */
class DissectTsharkOptionsTest {
    private static final List<String> FORMATS = List.of("a", "ad", "adoy", "d", "dd", "e", "r", "u", "ud", "udoy");

    @TempDir
    static Path temp;

    /** A microsecond pcap made from a committed nanosecond case, so two precisions exist without ../shared. */
    static Path microsecondCopy() throws IOException {
        Path copy = temp.resolve("rc_loss_nak-us.pcap");
        if (!Files.exists(copy)) {
            try (PacketSource in = CaptureFiles.open(Path.of(CliHabitsTest.sample("rc_loss_nak")));
                 PcapWriter out = PcapWriter.create(copy, LinkTypes.ETHERNET, 65535, false)) {
                Frame f;
                while ((f = in.next()) != null) {
                    out.write(f);
                }
            }
        }
        return copy;
    }

    /** Captures of every timestamp precision we have: ns pcapng, ns pcap, µs pcap, ERF, and the real ones. */
    static List<Path> captures() throws IOException {
        List<Path> list = new ArrayList<>(List.of(Path.of(CliHabitsTest.sample("rc_send")),
                Path.of(CliHabitsTest.sample("roce_v1")), Path.of(CliHabitsTest.sample("native_ib_erf")),
                microsecondCopy()));
        Path shared = SharedFiles.root().resolve("captures");
        for (String name : List.of("linlinw5_rdma_write_lat.pcap", "sanderw71_RoCE_capture_1_packet__1_.pcapng")) {
            if (Files.isReadable(shared.resolve(name))) {
                list.add(shared.resolve(name));
            } else {
                System.out.println("SKIPPED: -t parity on " + name + ": not found in " + shared);
            }
        }
        return list;
    }

    @TestFactory
    Stream<DynamicTest> timeFormatsMatchTsharkToTheCapturesPrecision() throws IOException {
        Tshark.assumeInstalled();
        List<DynamicTest> tests = new ArrayList<>();
        for (Path capture : captures()) {
            for (String format : FORMATS) {
                tests.add(DynamicTest.dynamicTest(capture.getFileName() + " -t " + format,
                        () -> compareTimes(capture, format, null)));
            }
            // dd differs from d only when frames are hidden.
            tests.add(DynamicTest.dynamicTest(capture.getFileName() + " -t dd -Y",
                    () -> compareTimes(capture, "dd", "frame.number != 2 && frame.number != 3")));
        }
        return tests.stream();
    }

    private static void compareTimes(Path capture, String format, String filter) throws Exception {
        List<String> args = new ArrayList<>(List.of("-r", capture.toString(), "-t", format, "-c", "40", "-T", "fields",
                "-e", "_ws.col.Time"));
        List<String> ours = new ArrayList<>(List.of("dissect", capture.toString(), "-t", format, "-c", "40"));
        if (filter != null) {
            args.addAll(List.of("-Y", filter));
            ours.addAll(List.of("-Y", filter));
        }
        List<String> theirs = Tshark.run(args).lines().toList();
        Cli r = Cli.run(ours.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(theirs.size(), lines.size(), r.out());
        assertTrue(!theirs.isEmpty());
        for (int i = 0; i < lines.size(); i++) {
            String expected = theirs.get(i);
            // "   12 TIME SRC → …": the time is the tokens after the number, as many as tshark's has.
            String[] tokens = lines.get(i).strip().split(" +");
            String time = String.join(" ", List.of(tokens).subList(1, 1 + expected.split(" ").length));
            assertEquals(expected, time, capture.getFileName() + " -t " + format + " line " + (i + 1));
        }
    }

    @Test
    void defaultTimeColumnKeepsNanoseconds() {
        Cli r = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-c", "3");
        assertTrue(r.out().contains(" 0.000004199 "), r.out()); // 6 digits would read 0.000004
    }

    @Test
    void badTimeFormatIsOneLine() {
        Cli r = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-t", "x");
        assertEquals(2, r.status());
        assertEquals("rdmascope: -t takes a, ad, adoy, d, dd, e, r, u, ud or udoy (got 'x')\n", r.err());
    }

    @TestFactory
    Stream<DynamicTest> writtenFramesReadBackByTsharkAndOurReader() throws IOException {
        return captures().stream().map(capture -> DynamicTest.dynamicTest(capture.getFileName().toString(), () -> {
            Path out = temp.resolve(capture.getFileName() + ".written.pcapng");
            String filter = "frame.number != 2";
            Cli r = Cli.run("dissect", capture.toString(), "-Y", filter, "-c", "30", "-w", out.toString(), "-q");
            assertEquals(0, r.status(), r.err());
            assertEquals("", r.out()); // -q: no per-frame lines
            // Our reader: the kept frames' bytes, lengths, link types and times.
            List<Frame> kept = new ArrayList<>();
            try (PacketSource in = CaptureFiles.open(capture)) {
                Frame f;
                while ((f = in.next()) != null && f.number() <= 30) {
                    if (f.number() != 2) {
                        kept.add(f);
                    }
                }
            }
            try (PacketSource in = CaptureFiles.open(out)) {
                for (Frame want : kept) {
                    Frame got = in.next();
                    assertEquals(want.timeNanos(), got.timeNanos());
                    assertEquals(want.linkType(), got.linkType());
                    assertEquals(want.wireLength(), got.wireLength());
                    assertArrayEquals(bytes(want), bytes(got));
                    assertEquals(in.timestampDigits(got.interfaceId()), sourceDigits(capture));
                }
                assertEquals(null, in.next());
            }
            if (!Tshark.installed()) {
                System.out.println("SKIPPED: -w read back by tshark: tshark is not installed");
                return;
            }
            // tshark: the same frames with the same fields, frame count included.
            List<String> fields = List.of("-T", "fields", "-e", "frame.time_epoch", "-e", "frame.len", "-e",
                    "frame.cap_len", "-e", "frame.protocols", "-e", "_ws.col.Time");
            List<String> original = new ArrayList<>(List.of("-r", capture.toString(), "-c", "30", "-Y", filter));
            original.addAll(fields);
            List<String> written = new ArrayList<>(List.of("-r", out.toString()));
            written.addAll(fields);
            String expected = Tshark.run(original);
            assertEquals(kept.size(), expected.lines().count());
            assertEquals(expected, Tshark.run(written));
        }));
    }

    private static int sourceDigits(Path capture) throws IOException {
        try (PacketSource in = CaptureFiles.open(capture)) {
            Frame f = in.next();
            return in.timestampDigits(f.interfaceId());
        }
    }

    private static byte[] bytes(Frame f) {
        ByteBuffer b = f.buffer().duplicate();
        byte[] out = new byte[f.capturedLength()];
        b.position(f.offset());
        b.get(out);
        return out;
    }

    @Test
    void dashWDashWritesTheCaptureAloneToStandardOutput() throws IOException {
        Cli r = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-w", "-", "-c", "3", "-T", "json");
        assertEquals(0, r.status(), r.err());
        java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
        Main.run(new String[] {"dissect", CliHabitsTest.sample("rc_send"), "-w", "-", "-c", "3"}, raw,
                new java.io.PrintWriter(java.io.Writer.nullWriter()));
        try (PacketSource in = CaptureFiles.open(new java.io.ByteArrayInputStream(raw.toByteArray()), "stdout")) {
            for (int i = 1; i <= 3; i++) {
                assertEquals(i, in.next().number());
            }
            assertEquals(null, in.next());
        }
        Cli withStatistics = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-w", "-", "-z", "io,phs");
        assertEquals(2, withStatistics.status());
    }

    @Test
    void quietProtocolHierarchyIsTsharksText() throws Exception {
        Path capture = Path.of(CliHabitsTest.sample("roce_v1"));
        Cli r = Cli.run("dissect", capture.toString(), "-q", "-z", "io,phs");
        assertEquals(0, r.status(), r.err());
        assertEquals(Tshark.run(List.of("-r", capture.toString(), "-q", "-z", "io,phs")), r.out());
    }

    /** Every address table tshark 4.0 has, with -n (tshark resolves MAC vendors otherwise; we never do). */
    private static final List<String> ADDRESS_TABLES = List.of("conv,eth", "conv,ip", "conv,ipv6", "conv,udp",
            "conv,tcp", "endpoints,eth", "endpoints,ip", "endpoints,ipv6", "endpoints,udp", "endpoints,tcp");

    @TestFactory
    Stream<DynamicTest> conversationAndEndpointTablesAreTsharks() throws IOException {
        Tshark.assumeInstalled();
        List<Path> captures = new ArrayList<>(List.of(Path.of(CliHabitsTest.sample("rc_send")),
                Path.of(CliHabitsTest.sample("roce_v2_ipv6")), Path.of(CliHabitsTest.sample("iwarp_rdma_ops")),
                Path.of(CliHabitsTest.sample("cm_lifecycle"))));
        Path shared = SharedFiles.root();
        for (String name : List.of("captures/linlinw5_rdma_write_bw.pcap", "captures/linlinw5_rping.pcap",
                "captures-hard/ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap")) {
            if (Files.isReadable(shared.resolve(name))) {
                captures.add(shared.resolve(name));
            } else {
                System.out.println("SKIPPED: -z conv parity on " + name + ": not found in " + shared);
            }
        }
        return captures.stream().map(capture -> DynamicTest.dynamicTest(capture.getFileName().toString(), () -> {
            List<String> theirs = new ArrayList<>(List.of("-n", "-r", capture.toString(), "-q"));
            List<String> ours = new ArrayList<>(List.of("dissect", capture.toString(), "-q"));
            for (String z : ADDRESS_TABLES) {
                theirs.addAll(List.of("-z", z));
                ours.addAll(List.of("-z", z));
            }
            Cli r = Cli.run(ours.toArray(String[]::new));
            assertEquals(0, r.status(), r.err());
            assertEquals(Tshark.run(theirs), r.out());
        }));
    }

    @Test
    void rdmaTablesComeFromTheReplay() {
        Cli r = Cli.run("dissect", CliHabitsTest.sample("rc_loss_nak"), "-q", "-z", "conv,ib", "-z", "endpoints,ib",
                "-z", "rdma,srt");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("\n===================================================================\n"
                + "RDMA SRT Statistics:\nFilter: \nIndex  Message                 Calls    Min SRT    Max SRT"), r.out());
        // flows says: conversation 1, 10.0.0.1 QP 0x00de19 ⇄ 10.0.0.2 QP 0x00678c, 15 packets A→B and 7 back.
        assertTrue(r.out().matches("(?s).*\n10\\.0\\.0\\.1:0x00de19 +<-> 10\\.0\\.0\\.2:0x00678c +7 434 bytes +15 13 kB +22 14 kB .*"),
                r.out());
        // messages says: three SENDs and one WRITE, all completed
        assertTrue(r.out().matches("(?s).*\n +1  RC SEND +3 .*\n +2  RC WRITE +1 .*"), r.out());
        assertTrue(r.out().contains("InfiniBand Endpoints") && r.out().contains("|  QP       ||  Packets"), r.out());
    }

    @Test
    void statisticsFollowTheFramesAndCountOnlyWhatMinusYKeeps() {
        Cli r = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-Y", "frame.number <= 5", "-z", "io,phs");
        assertEquals(0, r.status(), r.err());
        assertEquals(5, r.out().lines().takeWhile(l -> !l.isEmpty()).count(), r.out());
        assertTrue(r.out().contains("\neth                                      frames:5 bytes:"), r.out());
        Cli unknown = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-z", "conv,sctp");
        assertEquals(2, unknown.status());
        assertEquals(1, unknown.err().lines().count(), unknown.err());
    }

    @Test
    void countMustBePositiveAsInTshark() {
        Cli zero = Cli.run("dissect", CliHabitsTest.sample("rc_send"), "-c", "0");
        assertEquals(2, zero.status());
        assertEquals("rdmascope: -c takes a positive number of frames (got 0)\n", zero.err());
    }

    @Test
    void nAndTwoAreAccepted() {
        Cli plain = Cli.run("dissect", CliHabitsTest.sample("rc_send"));
        Cli withFlags = Cli.run("dissect", "-n", "-2", CliHabitsTest.sample("rc_send"));
        assertEquals(0, withFlags.status(), withFlags.err());
        assertEquals(plain.out(), withFlags.out());
    }
}
