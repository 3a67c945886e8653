package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static io.rdmascope.capture.CaptureBuilder.concat;
import static io.rdmascope.capture.CaptureBuilder.erfExtension;
import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** ERF files assembled byte by byte: reading, detection without a magic, and the bad-input contract. */
class ErfReaderTest {

    private static final String NOT_A_CAPTURE = "not a pcap, pcapng or ERF capture";
    private static final long S = 1_700_000_000L;

    @TempDir
    Path dir;

    /**
     * Three packets (Ethernet with its pad, InfiniBand behind two extension headers, a snapped
     * InfiniBand link record) and a PAD record before the third. The timestamp fractions are ones
     * whose rounding TShark 4.0.17 showed: 0x80000000 = .5 s, 0x12345678 = .071111111 s, and
     * 0xFFFFFFFF, which rounds up into the next second.
     */
    static CaptureBuilder threeRecords() {
        return CaptureBuilder.erf()
                .erfPacket(S, 0x8000_0000L, Erf.TYPE_ETH, concat(new byte[2], payload(1, 60)), 64)
                .erfPacket(S + 1, 0x1234_5678L, Erf.TYPE_INFINIBAND | 0x80,
                        concat(erfExtension(0x83, 1), erfExtension(0x04, 2), payload(2, 30)), 30)
                .erfRecord(0, 48, 0, 24, 0, new byte[8])
                .erfPacket(S + 2, 0xFFFF_FFFFL, Erf.TYPE_INFINIBAND_LINK, payload(3, 20), 100);
    }

    @Test
    void readsEachRecordWholeAsAnErfFrame() throws IOException {
        CaptureBuilder b = threeRecords();
        byte[] file = b.bytes();
        List<CaptureBuilder.Piece> pieces = b.pieces();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "three.erf", file))) {
            assertInstanceOf(ErfReader.class, source);
            List<Frames.Seen> frames = Frames.readAll(source);
            assertEquals(List.of(
                    new Frames.Seen(1, S * 1_000_000_000L + 500_000_000L, 80, 64, LinkTypes.ERF, 0,
                            hex(file, pieces.get(0))),
                    new Frames.Seen(2, (S + 1) * 1_000_000_000L + 71_111_111L, 64, 30, LinkTypes.ERF, 0,
                            hex(file, pieces.get(1))),
                    new Frames.Seen(3, (S + 3) * 1_000_000_000L, 40, 100, LinkTypes.ERF, 0,
                            hex(file, pieces.get(3)))), frames);
        }
    }

    @Test
    void framesPointIntoTheMappingAndComputeTsharksCapturedLength() throws IOException {
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "three.erf", threeRecords().bytes()))) {
            Frame eth = source.next();
            Frame ib = source.next();
            Frame link = source.next();
            assertTrue(eth.buffer().isDirect(), "a mapped file's frames are views, not copies");
            assertEquals(0, eth.offset());
            assertEquals(80, ib.offset());
            // What tshark shows as frame.cap_len: the record after the ERF framing, at most wlen. The
            // record's zero padding counts when wlen exceeds the packet: 80 - 16 - 2, not 60.
            assertEquals(62, ErfReader.packetCapturedLength(eth));
            assertEquals(30, ErfReader.packetCapturedLength(ib));
            assertEquals(24, ErfReader.packetCapturedLength(link));
        }
    }

    @Test
    void roundsTheBinaryFractionToTheNearestNanosecond() {
        assertEquals(0, ErfReader.nanos(0));
        assertEquals(0, ErfReader.nanos(2));            // 0.47 ns
        assertEquals(1, ErfReader.nanos(3));            // 0.70 ns
        assertEquals(500_000_000, ErfReader.nanos(0x8000_0000L));
        assertEquals(71_111_111, ErfReader.nanos(0x1234_5678L));
        assertEquals(1_000_000_000, ErfReader.nanos(0xFFFF_FFFFL));
    }

    @Test
    void numbersInterfacesInOrderOfFirstAppearanceAsTsharkDoes() throws Exception {
        // Flags and ids as TShark 4.0.17 showed them for this sequence: the port is flags bits 0-1
        // (bit 6 is ignored), and a Host ID extension header makes a new interface.
        int[] flags = {0x06, 0x04, 0x00, 0x40, 0x44, 0x01, 0x02, 0x03, 0x45, 0x04, 0x04, 0x04};
        CaptureBuilder b = CaptureBuilder.erf();
        for (int i = 0; i < flags.length; i++) {
            boolean hostId = i == 10;
            byte[] body = hostId ? concat(erfExtension(17, 0x05_0000_0000_0001L), payload(i, 30)) : payload(i, 30);
            int rlen = (16 + body.length + 7) & ~7;
            b.erfRecord((S + i) << 32, Erf.TYPE_INFINIBAND | (hostId ? 0x80 : 0), flags[i], rlen, 30, body);
        }
        Path file = Frames.write(dir, "ports.erf", b.bytes());
        List<Integer> ids = new ArrayList<>();
        for (Frames.Seen f : Frames.readAll(file)) {
            ids.add(f.interfaceId());
        }
        assertEquals(List.of(0, 1, 1, 1, 1, 2, 0, 3, 2, 1, 4, 1), ids);
        if (Tshark.installed()) {
            List<String> tshark = Tshark.fields(file, "frame.interface_id");
            assertEquals(tshark, ids.stream().map(String::valueOf).toList());
        }
    }

    @Test
    void readsTheSameFramesThroughTinyWindowsStreamsAndGzip() throws IOException {
        byte[] file = threeRecords().bytes();
        Path plain = Frames.write(dir, "three.erf", file);
        List<Frames.Seen> expected = Frames.readAll(plain);
        assertEquals(3, expected.size());
        for (long window : new long[]{1, 7, 16, 20, 64, 100}) {
            assertEquals(expected, Frames.readAll(plain, window), "window " + window);
        }
        assertEquals(expected, Frames.readAll(Frames.write(dir, "three.erf.gz", CaptureBuilder.gzip(file))));
        try (PacketSource source = CaptureFiles.open(new ByteArrayInputStream(file), "<stdin>")) {
            assertInstanceOf(ErfReader.class, source);
            assertEquals(expected, Frames.readAll(source));
        }
    }

    @Test
    void detectsErfByContentWhateverTheName() throws IOException {
        byte[] one = CaptureBuilder.erf().erfPacket(S, 0, Erf.TYPE_INFINIBAND, payload(0, 40), 40).bytes();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "looks-like.pcap", one))) {
            assertInstanceOf(ErfReader.class, source);
            assertEquals(1, Frames.readAll(source).size());
        }
    }

    @Test
    void doesNotTakeRandomBytesTextOrZerosForErf() throws IOException {
        Random random = new Random(197);
        for (int i = 0; i < 2000; i++) {
            byte[] garbage = new byte[16 + random.nextInt(i < 1000 ? 256 : 70_000)];
            random.nextBytes(garbage);
            if ((garbage[0] & 0xFF) == 0x1F && (garbage[1] & 0xFF) == 0x8B) {
                continue;   // a gzip magic: a different refusal, tested elsewhere
            }
            assertNotACapture(Frames.write(dir, "random-" + i, garbage));
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            text.append("line ").append(i).append(": the ERF format has no magic number\n");
        }
        assertNotACapture(Frames.write(dir, "notes.txt", text.toString().getBytes(StandardCharsets.UTF_8)));
        assertNotACapture(Frames.write(dir, "zeros", new byte[4096]));
        byte[] ones = new byte[4096];
        Arrays.fill(ones, (byte) 0xFF);
        assertNotACapture(Frames.write(dir, "ones", ones));
    }

    @Test
    void refusesAPlausibleFirstRecordFollowedByAnImplausibleOne() throws IOException {
        byte[] first = CaptureBuilder.erf().erfPacket(S, 0, Erf.TYPE_INFINIBAND, payload(0, 24), 24).bytes();
        // Reserved flag bit, unknown type, a year and a day later, two seconds earlier, padding > 63.
        byte[][] seconds = {
                CaptureBuilder.erf().erfRecord(S << 32, Erf.TYPE_INFINIBAND, 0x84, 40, 24, payload(0, 24)).bytes(),
                CaptureBuilder.erf().erfRecord(S << 32, 26, 0x04, 40, 24, payload(0, 24)).bytes(),
                CaptureBuilder.erf().erfPacket(S + 366 * 86_400L, 0, Erf.TYPE_INFINIBAND, payload(0, 24), 24).bytes(),
                CaptureBuilder.erf().erfPacket(S - 2, 0, Erf.TYPE_INFINIBAND, payload(0, 24), 24).bytes(),
                CaptureBuilder.erf().erfRecord(S << 32, Erf.TYPE_INFINIBAND, 0x04, 120, 24, payload(0, 24)).bytes(),
        };
        for (int i = 0; i < seconds.length; i++) {
            assertNotACapture(Frames.write(dir, "second-" + i, concat(first, seconds[i])));
        }
        // A second up to a second earlier is fine: records of two ports need not be in time order.
        byte[] earlier = CaptureBuilder.erf().erfPacket(S - 1, 0, Erf.TYPE_INFINIBAND, payload(0, 24), 24).bytes();
        assertEquals(2, Frames.readAll(Frames.write(dir, "earlier.erf", concat(first, earlier))).size());
    }

    private static void assertNotACapture(Path file) {
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(file),
                file.toString());
        assertTrue(e.getMessage().contains(NOT_A_CAPTURE), e.getMessage());
        assertEquals(0, e.frameNumber());
    }

    /**
     * Cuts the file at every length and reads each cut mapped (one mapping, tiny windows), as a
     * stream and gzip-compressed. A cut inside the first record is refused at open (without a
     * complete record there is nothing to recognise ERF by); a cut between records ends cleanly;
     * any other gives the complete frames, then one error naming the broken record and frame.
     */
    @Test
    void cutAnywhereYieldsTheCompleteFramesThenOneErrorOrACleanEnd() throws IOException {
        CaptureBuilder b = threeRecords();
        byte[] whole = b.bytes();
        List<CaptureBuilder.Piece> pieces = b.pieces();
        List<Frames.Seen> all = Frames.readAll(Frames.write(dir, "whole.erf", whole));
        int firstEnd = pieces.get(0).end();
        for (int cut = 0; cut <= whole.length; cut++) {
            byte[] content = Arrays.copyOf(whole, cut);
            Path file = Frames.write(dir, "cut.erf", content);
            Path gz = Frames.write(dir, "cut.erf.gz", CaptureBuilder.gzip(content));
            if (cut < firstEnd) {
                for (Path p : List.of(file, gz)) {
                    CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(p),
                            "cut at " + cut);
                    assertEquals(0, e.frameNumber());
                    assertTrue(e.getMessage().contains(NOT_A_CAPTURE), e.getMessage());
                }
                continue;
            }
            int completeFrames = 0;
            boolean onBoundary = false;
            long brokenAt = -1;
            for (CaptureBuilder.Piece piece : pieces) {
                if (piece.end() <= cut) {
                    completeFrames += piece.frame() ? 1 : 0;
                    onBoundary = onBoundary || piece.end() == cut;
                } else if (brokenAt < 0 && piece.start() < cut) {
                    brokenAt = piece.start();
                }
            }
            List<Frames.Outcome> outcomes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (long window : new long[]{Integer.MAX_VALUE, 20}) {
                try (PacketSource source = CaptureFiles.open(file, window)) {
                    outcomes.add(Frames.readUntilError(source));
                    assertNull(source.next(), "after the end or an error, only nulls; cut at " + cut);
                }
                names.add(file.toString());
            }
            try (PacketSource source = CaptureFiles.open(new ByteArrayInputStream(content), "<stdin>")) {
                outcomes.add(Frames.readUntilError(source));
                assertNull(source.next());
            }
            names.add("<stdin>");
            try (PacketSource source = CaptureFiles.open(gz)) {
                outcomes.add(Frames.readUntilError(source));
                assertNull(source.next());
            }
            names.add(gz.toString());
            for (int i = 0; i < outcomes.size(); i++) {
                Frames.Outcome outcome = outcomes.get(i);
                String where = "cut at " + cut + " of " + whole.length + ", read as " + names.get(i);
                assertEquals(all.subList(0, completeFrames), outcome.frames(), where);
                if (onBoundary) {
                    assertNull(outcome.error(), where);
                } else {
                    CaptureFormatException e = outcome.error();
                    assertNotNull(e, where);
                    assertEquals(brokenAt, e.byteOffset(), where + ": " + e.getMessage());
                    assertEquals(completeFrames + 1, e.frameNumber(), where + ": " + e.getMessage());
                    assertEquals(names.get(i), e.fileName());
                    assertTrue(e.getMessage().startsWith(names.get(i) + ": truncated "), e.getMessage());
                }
            }
        }
    }

    @Test
    void explainsATruncatedRecordInOneLine() throws IOException {
        byte[] whole = threeRecords().bytes();
        Path file = Frames.write(dir, "capture.erf", Arrays.copyOf(whole, 80 + 30));
        try (PacketSource source = CaptureFiles.open(file)) {
            Frames.Outcome outcome = Frames.readUntilError(source);
            assertEquals(1, outcome.frames().size());
            assertEquals(file + ": truncated record at byte offset 80 (frame 2): rlen says 64 bytes, 30 remain",
                    outcome.error().getMessage());
        }
    }

    @Test
    void rejectsDamagedRecordsAfterTheGoodOnes() throws IOException {
        // The damage is in the third record: detection judges the first two.
        assertDamagedThird(CaptureBuilder.erf().erfRecord(S << 32, Erf.TYPE_INFINIBAND, 4, 8, 0, new byte[0]),
                "record too short at byte offset 96 (frame 3): rlen says 8 bytes, less than the 16-byte header");
        assertDamagedThird(CaptureBuilder.erf().erfRecord(S << 32, Erf.TYPE_INFINIBAND, 4, 16, 0, new byte[0]),
                "record too short at byte offset 96 (frame 3): rlen says 16 bytes: a header without a packet");
        assertDamagedThird(CaptureBuilder.erf().erfRecord(S << 32, 60, 4, 24, 8, new byte[8]),
                "unknown ERF record type at byte offset 96 (frame 3): type 60 (0x3c)");
        assertDamagedThird(CaptureBuilder.erf().erfRecord(S << 32, Erf.TYPE_INFINIBAND | 0x80, 4, 24, 0,
                        erfExtension(0x83, 0)),
                "extension headers overrun the record at byte offset 96 (frame 3)");
        assertDamagedThird(CaptureBuilder.erf().erfRecord(S << 32, Erf.TYPE_ETH, 4, 17, 0, new byte[1]),
                "record too short at byte offset 96 (frame 3): an Ethernet record of 17 bytes has no room for "
                        + "its 2-byte pad");
    }

    private void assertDamagedThird(CaptureBuilder third, String message) throws IOException {
        byte[] good = CaptureBuilder.erf()
                .erfPacket(S, 0, Erf.TYPE_INFINIBAND, payload(0, 32), 32)
                .erfPacket(S, 1, Erf.TYPE_INFINIBAND, payload(1, 32), 32).bytes();
        Path file = Frames.write(dir, "damaged.erf", concat(good, third.bytes()));
        try (PacketSource source = CaptureFiles.open(file)) {
            Frames.Outcome outcome = Frames.readUntilError(source);
            assertEquals(2, outcome.frames().size());
            assertNotNull(outcome.error(), message);
            assertTrue(outcome.error().getMessage().startsWith(file + ": " + message), outcome.error().getMessage());
            assertEquals(96, outcome.error().byteOffset());
            assertNull(source.next());
        }
    }

    /** Random damage: reading ends cleanly or with one format error, nothing else, and never stalls. */
    @Test
    void survivesRandomDamageWithOnlyFormatErrors() throws IOException {
        Random random = new Random(2024_0197L);
        byte[] original = threeRecords().bytes();
        byte[] gzipped = CaptureBuilder.gzip(original);
        for (int round = 0; round < 3000; round++) {
            byte[] damaged = (round % 3 == 0 ? gzipped : original).clone();
            int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips; i++) {
                damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
            }
            if (random.nextInt(4) == 0) {
                damaged = Arrays.copyOf(damaged, random.nextInt(damaged.length + 1));
            }
            Path file = Frames.write(dir, "fuzz", damaged);
            try (PacketSource source = CaptureFiles.open(file, 1 + random.nextInt(200))) {
                int frames = 0;
                while (source.next() != null) {
                    if (++frames > 100) {
                        fail("round " + round + ": more frames than records");
                    }
                }
            } catch (CaptureFormatException expected) {
                assertTrue(expected.getMessage().startsWith(file.toString()), expected.getMessage());
            } catch (IOException | RuntimeException e) {
                throw new AssertionError("round " + round + " threw " + e, e);
            }
        }
    }

    /**
     * Real ibdump records: the ERF-in-pcap capture's packets are whole ERF records (whose rlen
     * counts 8-byte padding the pcap records leave out), so padding each to its rlen and
     * concatenating them makes an ERF file of real traffic. Read back, the frames hold the same
     * bytes, and where tshark is installed it agrees on count, times, lengths and interfaces.
     */
    @Test
    void readsRealIbdumpRecordsAsAnErfFile() throws Exception {
        Path pcap = SharedFiles.capture("srinivaskoritala_infiniband.pcap");
        ByteArrayOutputStream erf = new ByteArrayOutputStream();
        List<Frames.Seen> records = Frames.readAll(pcap);
        for (Frames.Seen record : records) {
            byte[] bytes = HexFormat.of().parseHex(record.hex());
            int rlen = (bytes[10] & 0xFF) << 8 | (bytes[11] & 0xFF);
            erf.writeBytes(Arrays.copyOf(bytes, Math.max(rlen, bytes.length)));
        }
        Path file = Frames.write(dir, "ibdump.erf", erf.toByteArray());
        List<String> ours = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(file)) {
            assertInstanceOf(ErfReader.class, source);
            int i = 0;
            for (Frame f = source.next(); f != null; f = source.next(), i++) {
                String original = records.get(i).hex();
                assertTrue(HexFormat.of().formatHex(f.toByteArray()).startsWith(original), "frame " + f.number());
                ours.add(f.number() + "\t" + Tshark.epoch(f.timeNanos()) + "\t" + f.wireLength() + "\t"
                        + ErfReader.packetCapturedLength(f) + "\t" + f.interfaceId());
            }
            assertEquals(records.size(), i);
        }
        // Frame 1 as tshark shows it in both the pcap and the ERF file: the ERF header's time and wlen.
        assertEquals("1\t1210794479.499693535\t290\t290\t0", ours.get(0));
        if (Tshark.installed()) {
            assertEquals(Tshark.fields(file, "frame.number", "frame.time_epoch", "frame.len", "frame.cap_len",
                    "frame.interface_id"), ours);
        }
    }

    private static String hex(byte[] file, CaptureBuilder.Piece piece) {
        return HexFormat.of().formatHex(file, piece.start(), piece.end());
    }
}
