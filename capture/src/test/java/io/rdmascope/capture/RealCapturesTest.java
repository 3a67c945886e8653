package io.rdmascope.capture;

import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Public captures nobody on this project wrote (../shared/captures, see its SOURCES.md). They are
 * never copied into the repository, so these tests skip where the folder is absent.
 */
class RealCapturesTest {

    /** Frame counts as {@code tshark -r FILE | wc -l} gives them (TShark 4.0.17). */
    private static final Map<String, Integer> FRAME_COUNTS = Map.ofEntries(
            Map.entry("kazikame_uiwarp_v1.pcap", 14),
            Map.entry("linlinw5_pingpong_rc.pcap", 31),
            Map.entry("linlinw5_pingpong_uc.pcap", 21),
            Map.entry("linlinw5_pingpong_ud.pcap", 21),
            Map.entry("linlinw5_rdma_atomic_bw.pcap", 48),
            Map.entry("linlinw5_rdma_cm.pcap", 96),
            Map.entry("linlinw5_rdma_read_bw.pcap", 60),
            Map.entry("linlinw5_rdma_read_lat.pcap", 38),
            Map.entry("linlinw5_rdma_send_bw.pcap", 50),
            Map.entry("linlinw5_rdma_write_bw.pcap", 60),
            Map.entry("linlinw5_rdma_write_lat.pcap", 45),
            Map.entry("linlinw5_rping.pcap", 65),
            Map.entry("sanderw71_RoCE_capture_1_packet__1_.pcapng", 27),
            Map.entry("srinivaskoritala_infiniband.pcap", 43));

    /** pcap link type ERF: Wireshark takes time and lengths from the ERF header inside the data. */
    private static final String ERF_FILE = "srinivaskoritala_infiniband.pcap";

    @TempDir
    Path dir;

    /** Where the captures are; skips the calling test, with the reason, when they are absent. */
    private static Path captures() {
        return SharedFiles.capturesFolder();
    }

    static Stream<String> captureNames() {
        return FRAME_COUNTS.keySet().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("captureNames")
    void readsEveryFrameOfTheRealCapture(String name) throws IOException {
        Path file = captures().resolve(name);
        Assumptions.assumeTrue(Files.exists(file), file + " is missing");
        try (PacketSource source = CaptureFiles.open(file)) {
            assertEquals((int) FRAME_COUNTS.get(name), Frames.readAll(source).size());
            assertNull(source.next());
        }
    }

    @Test
    void knowsEveryCaptureInTheSharedFolder() throws IOException {
        try (Stream<Path> files = Files.list(captures())) {
            List<String> unknown = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".erf")
                            || n.endsWith(".gz"))
                    .filter(n -> !FRAME_COUNTS.containsKey(n))
                    .toList();
            assertEquals(List.of(), unknown, "add their tshark frame counts to FRAME_COUNTS");
        }
    }

    @ParameterizedTest
    @MethodSource("captureNames")
    void agreesWithTsharkOnTimesAndLengths(String name) throws Exception {
        Assumptions.assumeFalse(name.equals(ERF_FILE), "tshark shows the ERF header's values for this one");
        Path file = captures().resolve(name);
        List<String> tshark = Tshark.fields(file, "frame.number", "frame.time_epoch", "frame.len", "frame.cap_len");
        List<String> ours = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(file)) {
            for (Frame f = source.next(); f != null; f = source.next()) {
                // An ERF file's frames hold whole records; tshark's cap_len counts the packet only.
                int capLen = source instanceof ErfReader ? ErfReader.packetCapturedLength(f) : f.capturedLength();
                ours.add(f.number() + "\t" + Tshark.epoch(f.timeNanos()) + "\t" + f.wireLength() + "\t" + capLen);
            }
        }
        assertEquals(tshark, ours);
    }

    @Test
    void readsKnownTimesAndLengths() throws IOException {
        // Values from tshark -T fields -e frame.time_epoch -e frame.len -e frame.cap_len.
        List<Frames.Seen> iwarp = Frames.readAll(captures().resolve("kazikame_uiwarp_v1.pcap"));
        assertEquals("1637898254.908691000", Tshark.epoch(iwarp.get(0).timeNanos()));
        assertEquals(74, iwarp.get(0).wireLength());
        assertEquals(66, iwarp.get(13).capturedLength());

        List<Frames.Seen> cm = Frames.readAll(captures().resolve("linlinw5_rdma_cm.pcap"));
        assertEquals("1781943737.099720000", Tshark.epoch(cm.get(95).timeNanos()));
        assertEquals(322, cm.get(95).wireLength());

        List<Frames.Seen> roce = Frames.readAll(captures().resolve("sanderw71_RoCE_capture_1_packet__1_.pcapng"));
        assertEquals("1668761831.141471700", Tshark.epoch(roce.get(0).timeNanos()));
        assertEquals(92, roce.get(0).capturedLength());
        assertEquals("1668761832.363224500", Tshark.epoch(roce.get(9).timeNanos()));
        assertEquals(322, roce.get(9).wireLength());
        assertEquals("1668761833.261121700", Tshark.epoch(roce.get(26).timeNanos()));
        assertEquals(LinkTypes.ETHERNET, roce.get(26).linkType());
    }

    @Test
    void reportsThePcapRecordValuesOfTheErfCapture() throws IOException {
        // tshark shows 1210794479.499693535 and 290 bytes for frame 1: the ERF header's own timestamp
        // and wire length. The pcap record around it says microseconds and 306 = 16 + 290 bytes.
        try (PacketSource source = CaptureFiles.open(captures().resolve(ERF_FILE))) {
            assertEquals(LinkTypes.ERF, assertInstanceOf(PcapReader.class, source).linkType());
            Frame first = source.next();
            assertEquals("1210794479.499693000", Tshark.epoch(first.timeNanos()));
            assertEquals(306, first.capturedLength());
            assertEquals(306, first.wireLength());
            assertEquals(LinkTypes.ERF, first.linkType());
        }
    }

    @ParameterizedTest
    @MethodSource("captureNames")
    void readsTheSameFramesThroughTinyWindowsAndGzip(String name) throws IOException {
        Path file = captures().resolve(name);
        List<Frames.Seen> expected = Frames.readAll(file);
        assertEquals(expected, Frames.readAll(file, 512));
        // A compressed copy in the test's temporary folder, never in the repository.
        Path gz = Frames.write(dir, name + ".gz", CaptureBuilder.gzip(Files.readAllBytes(file)));
        assertEquals(expected, Frames.readAll(gz));
        assertTrue(expected.size() > 0);
    }
}
