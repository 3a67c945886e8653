package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapngReader;
import io.rdmascope.frame.Frame;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.rdmascope.cli.CliHabitsTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 20: {@code rdmascope merge} writes what mergecap writes, frame for frame, and keeps each input's interfaces apart. */
class MergeCommandTest {
    @TempDir
    Path dir;

    /** Inputs of every format: pcapng, pcap, ERF, several timestamp resolutions and link types. */
    private static List<String> inputs() {
        return List.of(sample("rc_send"), sample("native_ib_erf"), sample("roce_v2_ipv6"), sample("rc_loss_nak"));
    }

    @Test
    void chronologicalMergeHasMergecapsFramesInMergecapsOrder() throws Exception {
        assertSameAsMergecap(inputs(), false);
    }

    @Test
    void concatenationHasMergecapsFrames() throws Exception {
        assertSameAsMergecap(inputs(), true);
    }

    @Test
    void realCapturesMergeAsMergecapMergesThem() throws Exception {
        List<String> real = List.of(SharedFiles.capture("linlinw5_rdma_cm.pcap").toString(),
                SharedFiles.capture("linlinw5_rping.pcap").toString(),
                SharedFiles.capture("sanderw71_RoCE_capture_1_packet__1_.pcapng").toString());
        assertSameAsMergecap(real, false);
    }

    @Test
    void everyInputKeepsItsInterfacesNamedByIfNameOrFile() throws Exception {
        Path out = dir.resolve("m.pcapng");
        Cli r = Cli.run(args(inputs(), false, out));
        assertEquals(0, r.status(), r.err());
        List<Frame> frames = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(out)) {
            for (Frame f; (f = s.next()) != null; ) {
                frames.add(f);
            }
            for (PcapngReader.CaptureInterface c : ((PcapngReader) s).interfaces()) {
                names.add(c.name());
            }
        }
        long expected = 0;
        for (String in : inputs()) {
            expected += count(Path.of(in));
        }
        assertEquals(expected, frames.size());
        // pcapng inputs keep their if_name (the generated cases say generated-Ethernet); pcap and ERF, which
        // have none, are named by their file.
        assertEquals(List.of("generated-Ethernet", "native_ib_erf.erf", "roce_v2_ipv6.pcap", "generated-Ethernet"),
                names);
        for (int i = 1; i < frames.size(); i++) {
            assertTrue(frames.get(i - 1).timeNanos() <= frames.get(i).timeNanos(), "frame " + (i + 1) + " out of order");
        }
    }

    @Test
    void aDamagedInputLosesNothingBeforeTheDamageAndSaysSo() throws Exception {
        Path whole = Path.of(sample("rc_loss_nak"));
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("cut.pcapng");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 30)); // the last block cut in the middle
        Path out = dir.resolve("m.pcapng");
        String other = sample("rc_send");
        Cli r = Cli.run("merge", "-w", out.toString(), other, cut.toString());
        assertEquals(2, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("cut.pcapng") || r.err().contains("cut short") || r.err().contains("truncated"),
                r.err());
        assertEquals(count(Path.of(other)) + count(whole) - 1, count(out));
    }

    @Test
    void usageErrors() {
        assertEquals(2, Cli.run("merge", sample("rc_send")).status()); // no -w
        assertEquals(2, Cli.run("merge", "-w", dir.resolve("x").toString()).status()); // no input
        assertEquals(2, Cli.run("merge", "-F", "pcap", "-w", dir.resolve("x").toString(), sample("rc_send")).status());
        assertEquals(2, Cli.run("merge", "-w", dir.resolve("x").toString(), dir.resolve("absent.pcap").toString())
                .status());
        Cli same = Cli.run("merge", "-w", sample("rc_send"), sample("rc_send"));
        assertEquals(2, same.status());
        assertTrue(same.err().contains("also an input"), same.err());
    }

    private void assertSameAsMergecap(List<String> in, boolean concatenate) throws Exception {
        Tshark.assumeInstalled();
        Assumptions.assumeTrue(Tshark.runs("mergecap", "-v"), "SKIPPED: mergecap is not installed (.ci/run installs tshark)");
        Path ours = dir.resolve("ours.pcapng");
        Path theirs = dir.resolve("theirs.pcapng");
        Cli r = Cli.run(args(in, concatenate, ours));
        assertEquals(0, r.status(), r.err());
        List<String> mergecap = new ArrayList<>(List.of("mergecap", "-w", theirs.toString()));
        if (concatenate) {
            mergecap.add("-a");
        }
        mergecap.addAll(in);
        Process p = new ProcessBuilder(mergecap).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "mergecap failed");
        String[] fields = {"frame.number", "frame.time_epoch", "frame.len", "frame.cap_len", "frame.protocols"};
        List<String> theirFrames = Tshark.fields(theirs, fields);
        assertFalse(theirFrames.isEmpty());
        assertEquals(theirFrames, Tshark.fields(ours, fields));
        assertEquals(bytesOf(theirs), bytesOf(ours));
    }

    private static String[] args(List<String> in, boolean concatenate, Path out) {
        List<String> a = new ArrayList<>(List.of("merge", "-w", out.toString()));
        if (concatenate) {
            a.add("-a");
        }
        a.addAll(in);
        return a.toArray(String[]::new);
    }

    /**
     * Every frame's time and bytes, read back with rdmascope's reader. An ERF record is compared without
     * its padding and rlen, which mergecap drops and rewrites while merge copies the record as it was.
     */
    private static List<String> bytesOf(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(file)) {
            for (Frame f; (f = s.next()) != null; ) {
                byte[] b = f.toByteArray();
                if (f.linkType() == io.rdmascope.frame.LinkTypes.ERF && b.length >= 16) {
                    int wlen = ((b[14] & 0xFF) << 8) | (b[15] & 0xFF);
                    b = Arrays.copyOf(b, Math.min(b.length, 16 + wlen));
                    b[10] = 0; // rlen
                    b[11] = 0;
                }
                out.add(f.timeNanos() + " " + Arrays.hashCode(b));
            }
        }
        return out;
    }

    private static long count(Path file) throws IOException {
        long n = 0;
        try (PacketSource s = CaptureFiles.open(file)) {
            try {
                while (s.next() != null) {
                    n++;
                }
            } catch (IOException damaged) {
                return n;
            }
        }
        return n;
    }
}
