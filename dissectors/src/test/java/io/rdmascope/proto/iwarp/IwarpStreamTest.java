package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.iwarp.IwarpTraffic.Pdu;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The iWARP stream layer through the dissection, as a capture reader drives it: frames in order
 * through one {@link Dissection}. The same FPDUs must come out however TCP cut the stream.
 */
class IwarpStreamTest {

    /** The Sends FPDUs of sizes around the marker interval, so that markers land everywhere in them. */
    private static final int[] SIZES = {0, 1, 2, 3, 100, 490, 491, 492, 493, 494, 495, 496, 1_000, 1_500, 3};

    private static IwarpTraffic queueSends(boolean crc, boolean markers) {
        IwarpTraffic t = new IwarpTraffic(crc, markers, markers).startup();
        for (int size : SIZES) {
            t.send(size, false);
        }
        return t;
    }

    private static List<Pdu> fpdus(List<Pdu> all) {
        return all.stream().filter(p -> p.kind() == IwarpPdu.Kind.FPDU && p.inOrder()).toList();
    }

    /** The Sends came out in order, whole and checked; each shown at most once (all when {@code allShown}). */
    private static void assertTheSends(List<Pdu> decoded, boolean crc) {
        assertTheSends(decoded, crc, false);
    }

    private static void assertTheSends(List<Pdu> decoded, boolean crc, boolean allShown) {
        List<Pdu> f = fpdus(decoded);
        assertEquals(SIZES.length, f.size(), "one FPDU per Send: " + f);
        for (int i = 0; i < SIZES.length; i++) {
            Pdu p = f.get(i);
            assertEquals(DdpRdmap.OP_SEND, p.opcode());
            assertEquals(i + 1, p.msn());
            assertEquals(SIZES[i], p.payload());
            assertEquals(crc ? Mpa.STATUS_GOOD : Mpa.STATUS_UNVERIFIED, p.crcStatus(), "FPDU " + i);
            assertEquals(0, p.badMarkers());
        }
        List<Long> shown = decoded.stream().filter(p -> p.kind() == IwarpPdu.Kind.FPDU && p.shown())
                .map(Pdu::msn).toList();
        assertEquals(shown.size(), new java.util.HashSet<>(shown).size(), "no FPDU shown twice: " + shown);
        if (allShown) {
            assertEquals(SIZES.length, shown.size(), "every FPDU shown");
        }
    }

    @ParameterizedTest(name = "markers {0}")
    @ValueSource(booleans = {false, true})
    void fpdusAlignedWithSegmentsDecode(boolean markers) {
        IwarpTraffic t = new IwarpTraffic(true, markers, markers).startup();
        int at = t.length(0);
        for (int size : SIZES) {
            t.send(size, false);
            t.segment(0, at, t.length(0));
            at = t.length(0);
        }
        List<Pdu> decoded = t.decode();
        assertTheSends(decoded, true, true);
        if (markers) {
            assertTrue(fpdus(decoded).stream().mapToInt(Pdu::markers).sum() >= 8, "the Sends hold markers");
            assertEquals(1, fpdus(decoded).get(0).markers(), "the first FPDU starts with the stream's first marker");
        }
    }

    @ParameterizedTest(name = "markers {0}")
    @ValueSource(booleans = {false, true})
    void everyCutOfTheStreamDecodesTheSameFpdus(boolean markers) {
        // One cut at every position of the first 1,200 bytes, then the rest in one segment.
        IwarpTraffic template = queueSends(true, markers);
        int from = 20; // after the Request
        int end = template.length(0);
        for (int cut = from + 1; cut < Math.min(end, from + 1_200); cut += markers ? 7 : 1) {
            IwarpTraffic t = queueSends(true, markers);
            t.segment(0, from, cut);
            t.segment(0, cut, end);
            assertTheSends(t.decode(), true);
        }
    }

    @Test
    void oneByteSegmentsDecodeLikeAnyOther() {
        IwarpTraffic t = queueSends(true, true);
        for (int at = 20; at < t.length(0); at++) {
            t.segment(0, at, at + 1);
        }
        assertTheSends(t.decode(), true, true);
    }

    @Test
    void randomCutsWithoutCrcDecodeTheSameFpdus() {
        Random random = new Random(8);
        for (int round = 0; round < 50; round++) {
            IwarpTraffic t = queueSends(false, round % 2 == 0);
            cutAtRandom(t, random, 900);
            assertTheSends(t.decode(), false);
        }
    }

    /** Captures the initiator's stream past the Request in segments of 1 to {@code longest} bytes. */
    private static void cutAtRandom(IwarpTraffic t, Random random, int longest) {
        int at = 20;
        while (at < t.length(0)) {
            int next = Math.min(t.length(0), at + 1 + random.nextInt(longest));
            t.segment(0, at, next);
            at = next;
        }
    }

    @Test
    void allFpdusInOneSegmentShowUpToTheLayerBoundAndAllReachTheReplay() {
        IwarpTraffic t = new IwarpTraffic(true, false, false).startup();
        for (int i = 0; i < 40; i++) {
            t.send(8, false);
        }
        t.segment(0, 20, t.length(0));
        List<Pdu> decoded = t.decode();
        assertEquals(40, fpdus(decoded).size(), "the replay sees every FPDU");
        long shown = decoded.stream().filter(p -> p.kind() == IwarpPdu.Kind.FPDU && p.shown()).count();
        assertTrue(shown >= 5 && shown < 40, "as many as the frame's layers can show: " + shown);
    }

    /**
     * RFC 5044 §5 puts a marker every 512 octets of the TCP stream, counted from the first octet after
     * the sender's MPA Request/Reply, its FPDUPTR (network byte order) giving how far back the FPDU
     * starts. A real sender (ajbanjara read_write_long_run_mrkr, the OSC iWARP stack's layout) does
     * not count each FPDU's CRC field in its marker clock, so its markers drift 4 octets per FPDU, and
     * writes FPDUPTR little-endian. Both must decode, with every marker pointing back.
     */
    @Nested
    class MarkersAsARealSenderPlacesThem {
        /** The capture's first three FPDUs towards the initiator, byte for byte in layout (payload made up). */
        @Test
        void theRealCapturesLayoutDecodesWithEveryMarkerPointingBack() {
            IwarpTraffic t = new IwarpTraffic(false, true, true).startup();
            int origin = t.length(0);
            // A Send (ULPDU 34) starting with the first marker, FPDUPTR 0.
            java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
            b.writeBytes(new byte[4]);
            b.writeBytes(new byte[] {0, 34});
            b.writeBytes(IwarpBuilder.untagged(DdpRdmap.OP_SEND, true, 0, 0, 1, 0, new byte[0], new byte[16]));
            b.writeBytes(new byte[4]); // CRC field, zero: no CRC negotiated
            // Two Writes (ULPDU 1038) whose markers sit at 472 and 984, then 448 and 960, octets into them:
            // stream offsets 516, 1028, 1544, 2056 past the origin, not 512·k.
            writeWithMarkers(b, 472, 984);
            writeWithMarkers(b, 448, 960);
            t.raw(0, b.toByteArray());
            t.segment(0, origin, origin + 44);
            t.segment(0, origin + 44, origin + 1_096);
            t.segment(0, origin + 1_096, origin + 2_148);
            List<Pdu> f = fpdus(t.decode());
            assertEquals(3, f.size(), f.toString());
            assertEquals(List.of(DdpRdmap.OP_SEND, DdpRdmap.OP_WRITE, DdpRdmap.OP_WRITE),
                    f.stream().map(Pdu::opcode).toList());
            assertEquals(List.of(1, 2, 2), f.stream().map(Pdu::markers).toList());
            assertEquals(List.of(0, 0, 0), f.stream().map(Pdu::badMarkers).toList());
            assertEquals(List.of(16, 1_024, 1_024), f.stream().map(Pdu::payload).toList());
        }

        private static void writeWithMarkers(java.io.ByteArrayOutputStream out, int... markerAt) {
            byte[] data = new byte[1_024];
            java.util.Arrays.fill(data, (byte) 2);
            byte[] ulpdu = IwarpBuilder.tagged(DdpRdmap.OP_WRITE, true, 1, 0x805c000L, data);
            byte[] logical = new byte[2 + ulpdu.length];
            logical[0] = (byte) (ulpdu.length >> 8);
            logical[1] = (byte) ulpdu.length;
            System.arraycopy(ulpdu, 0, logical, 2, ulpdu.length);
            int k = 0;
            int raw = 0;
            for (int m : markerAt) {
                out.write(logical, k, m - raw);
                k += m - raw;
                out.writeBytes(new byte[] {0, 0, (byte) m, (byte) (m >> 8)}); // FPDUPTR least significant first
                raw = m + 4;
            }
            out.write(logical, k, logical.length - k);
            out.writeBytes(new byte[4]);
        }

        @ParameterizedTest
        @ValueSource(booleans = {false, true})
        void oscStyleMarkersDecodeHoweverTcpCutTheStream(boolean crc) {
            IwarpTraffic t = new IwarpTraffic(crc, true, true).startup().oscMarkers();
            for (int size : SIZES) {
                t.send(size, false);
            }
            cutAtRandom(t, new Random(16), 1_200);
            assertTheSends(t.decode(), crc);
        }

        @Test
        void afterBytesMissingFromTheCaptureTheOscMarkerClockIsFoundAgain() {
            IwarpTraffic t = new IwarpTraffic(false, true, true).startup().oscMarkers();
            List<Integer> starts = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                starts.add(t.send(1_000 + 8 * i, false));
            }
            starts.add(t.length(0));
            for (int i = 0; i < 5; i++) {
                t.segment(0, starts.get(i), starts.get(i + 1));
            }
            // The sixth FPDU and the head of the seventh never captured; the seventh's tail and the
            // eighth in one segment, whose start is no FPDU's; then one FPDU per segment again.
            t.segment(0, starts.get(6) + 100, starts.get(8));
            for (int i = 8; i < 12; i++) {
                t.segment(0, starts.get(i), starts.get(i + 1));
            }
            t.ack(0, t.length(0));
            List<Pdu> f = fpdus(t.decode());
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 9L, 10L, 11L, 12L), f.stream().map(Pdu::msn).toList());
            assertEquals(0, f.stream().mapToInt(Pdu::badMarkers).sum(), f.toString());
        }
    }

    @Nested
    class Errors {
        @Test
        void aCorruptCrcIsBadAndTheFramingGoesOn() {
            IwarpTraffic t = new IwarpTraffic(true, false, false).startup();
            t.send(100, false);
            t.send(100, true);
            t.send(100, false);
            t.segment(0, 20, t.length(0));
            List<Pdu> f = fpdus(t.decode());
            assertEquals(List.of(Mpa.STATUS_GOOD, Mpa.STATUS_BAD, Mpa.STATUS_GOOD),
                    f.stream().map(Pdu::crcStatus).toList());
        }

        @Test
        void aMarkerThatPointsElsewhereIsCounted() {
            IwarpTraffic t = new IwarpTraffic(true, true, true).startup();
            byte[] data = new byte[900];
            t.fpdu(0, IwarpBuilder.untagged(DdpRdmap.OP_SEND, true, 0, 0, 1, 0, new byte[0], data), false, true);
            t.segment(0, 20, t.length(0));
            Pdu p = fpdus(t.decode()).get(0);
            assertEquals(p.markers(), p.badMarkers());
            assertEquals(Mpa.STATUS_GOOD, p.crcStatus(), "the CRC covers the markers as sent");
        }

        @ParameterizedTest(name = "markers {0}")
        @ValueSource(booleans = {false, true})
        void afterBytesMissingFromTheCaptureTheFramingIsFoundAgain(boolean markers) {
            IwarpTraffic t = new IwarpTraffic(true, markers, markers).startup();
            int[] starts = new int[6];
            for (int i = 0; i < 6; i++) {
                starts[i] = t.send(700, false);
            }
            t.segment(0, starts[0], starts[1]);
            // starts[1] .. starts[2] + 100 never captured: one whole FPDU and the head of the next.
            t.segment(0, starts[2] + 100, starts[4]);
            t.segment(0, starts[4], t.length(0));
            t.ack(0, t.length(0));
            List<Pdu> f = fpdus(t.decode());
            List<Long> msns = f.stream().map(Pdu::msn).toList();
            // With markers a marker inside the cut FPDU points at the next one; without them the next
            // segment start that holds a plausible FPDU (with a good CRC) is taken.
            assertEquals(markers ? List.of(1L, 4L, 5L, 6L) : List.of(1L, 5L, 6L), msns);
        }
    }

    @Test
    void aSegmentAheadOfAHoleIsShownAtOnceAndReachesTheReplayInOrder() {
        IwarpTraffic t = new IwarpTraffic(true, false, false).startup();
        int a = t.send(100, false);
        int b = t.send(100, false);
        int c = t.send(100, false);
        t.segment(0, a, b);
        t.segment(0, c, t.length(0)); // frame 4: ahead of the hole
        t.segment(0, b, c); // frame 5: fills it
        List<Pdu> decoded = t.decode();
        List<Pdu> atFour = decoded.stream().filter(p -> p.frame() == 4).toList();
        assertEquals(1, atFour.size());
        assertTrue(atFour.get(0).shown() && !atFour.get(0).inOrder());
        List<Pdu> atFive = decoded.stream().filter(p -> p.frame() == 5).toList();
        assertEquals(List.of(2L, 3L), atFive.stream().map(Pdu::msn).toList(), "in order when the hole fills");
        assertEquals(List.of(true, false), atFive.stream().map(Pdu::shown).toList(), "the third is not shown twice");
        assertEquals(4, atFive.get(1).firstFrame(), "it keeps the frame that carried it");
    }

    @Test
    void framesGoingBackwardsStartANewPassAndARequestAloneStillDecodes() {
        IwarpTraffic t = queueSends(true, false);
        t.segment(0, 20, t.length(0));
        List<Frame> frames = t.frames();
        Dissection d = new Dissection();
        assertTheSends(IwarpTraffic.decode(frames, d), true);
        // Random access: frame 3 (the FPDUs) again on the same dissection, then frame 1 (the Request).
        List<Pdu> again = IwarpTraffic.decode(List.of(frames.get(2)), d);
        assertEquals(List.of(), again, "no stream before it: its payload is TCP data");
        assertTrue(d.find(Data.HEADER) >= 0);
        List<Pdu> request = IwarpTraffic.decode(List.of(frames.get(0)), d);
        assertEquals(IwarpPdu.Kind.REQUEST, request.get(0).kind());
    }

    @Test
    void aTcpConnectionThatStartsWithoutAnMpaRequestIsLeftAlone() {
        byte[] payload = "GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] frame = io.rdmascope.build.EthernetFrame.between(new byte[6], new byte[6])
                .ipv4(new byte[] {1, 1, 1, 1}, new byte[] {2, 2, 2, 2}).tcp(1234, 80, 1, 1, 0x18, payload);
        Dissection d = new Dissection();
        DissectorChain.standard().dissect(Frame.of(1, 0, io.rdmascope.frame.LinkTypes.ETHERNET, frame), d);
        assertEquals(null, IwarpFrame.of(d));
        assertTrue(d.find(Data.HEADER) >= 0);
    }

    @Test
    void mutatedFramesNeverThrowAndEveryFieldOfEveryLayerPrints() {
        Random random = new Random(Long.getLong("iwarp.seed", 29));
        io.rdmascope.field.FieldRegistry registry = io.rdmascope.field.FieldRegistry.standard();
        for (int round = 0; round < Integer.getInteger("iwarp.rounds", 60); round++) {
            IwarpTraffic t = queueSends(random.nextBoolean(), random.nextBoolean());
            int at = 20;
            while (at < t.length(0)) {
                int next = Math.min(t.length(0), at + 1 + random.nextInt(1_200));
                t.segment(0, at, next);
                at = next;
            }
            t.ack(0, t.length(0));
            Dissection d = new Dissection();
            for (Frame f : t.frames()) {
                byte[] bytes = f.toByteArray();
                if (f.number() > 2 && bytes.length > 54 && random.nextInt(3) == 0) {
                    for (int k = 0; k < 1 + random.nextInt(6); k++) {
                        bytes[54 + random.nextInt(Math.max(1, bytes.length - 54))] ^= (byte) (1 + random.nextInt(255));
                    }
                }
                int cut = random.nextInt(8) == 0 ? Math.max(1, random.nextInt(bytes.length)) : bytes.length;
                Frame mutated = new Frame(f.number(), f.timeNanos(), cut, bytes.length, f.linkType(), 0,
                        java.nio.ByteBuffer.wrap(bytes), 0);
                DissectorChain.standard().dissect(mutated, d);
                io.rdmascope.text.ProtoTree.build(d);
                io.rdmascope.text.PacketSummary.of(d);
                io.rdmascope.text.AsciiSink sink = new io.rdmascope.text.AsciiSink(256);
                for (io.rdmascope.field.FieldRegistry.Entry e : registry.entries()) {
                    if (e.abbrev().startsWith("iwarp")) {
                        io.rdmascope.text.FieldText.appendOccurrences(sink, e, d, ',',
                                io.rdmascope.text.FieldText.Occurrence.ALL);
                    }
                }
            }
        }
    }

    @Test
    void garbageAfterTheStartupNeverThrows() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            IwarpTraffic t = new IwarpTraffic(random.nextBoolean(), random.nextBoolean(), random.nextBoolean())
                    .startup();
            byte[] junk = new byte[random.nextInt(3_000)];
            random.nextBytes(junk);
            if (junk.length > 2 && random.nextBoolean()) {
                junk[0] = 0;
                junk[1] = (byte) random.nextInt(40); // a small ULPDU length
            }
            List<Integer> cuts = new ArrayList<>();
            int start = t.fpdu(0, junk, false, false);
            int at = start;
            while (at < t.length(0)) {
                int next = Math.min(t.length(0), at + 1 + random.nextInt(600));
                if (random.nextInt(5) > 0) {
                    t.segment(0, at, next);
                }
                cuts.add(next);
                at = next;
            }
            t.ack(0, t.length(0));
            t.decode(); // no exception, whatever the bytes
        }
    }
}
