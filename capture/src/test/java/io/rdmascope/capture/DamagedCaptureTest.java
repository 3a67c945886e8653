package io.rdmascope.capture;

import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The bad-input contract: every complete frame, then one clear error, never anything else. */
class DamagedCaptureTest {

    @TempDir
    Path dir;

    private static CaptureBuilder smallPcap(ByteOrder order) {
        return CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, order, LinkTypes.ETHERNET, 65535)
                .record(100, 1, payload(1, 14), 14)
                .record(100, 2, new byte[0], 0)
                .record(100, 3, payload(2, 33), 60)
                .record(101, 4, payload(3, 5), 5);
    }

    private static CaptureBuilder smallPcapng() {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0, b.stringOption(2, "eth0"), b.tsresol(9));
        b.enhancedPacket(0, 1_000_000_000_000L, payload(1, 13), 13);
        b.block(0x0000_0BAD, new byte[8]);
        b.section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.RAW, 8);
        b.simplePacket(20, payload(2, 8));
        b.enhancedPacket(0, 77, new byte[0], 0);
        b.obsoletePacket(0, 78, payload(3, 6), 6);
        return b;
    }

    @Test
    void cutAnywhereAPcapYieldsTheCompleteFramesThenOneErrorOrACleanEnd() throws IOException {
        for (ByteOrder order : new ByteOrder[]{ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            CaptureBuilder b = smallPcap(order);
            assertEveryCutBehaves(b.bytes(), b.pieces(), PcapReader.FILE_HEADER_LENGTH, "cut.pcap");
        }
    }

    @Test
    void cutAnywhereAPcapngYieldsTheCompleteFramesThenOneErrorOrACleanEnd() throws IOException {
        CaptureBuilder b = smallPcapng();
        assertEveryCutBehaves(b.bytes(), b.pieces(), b.pieces().get(0).end(), "cut.pcapng");
    }

    /**
     * Cuts {@code whole} at every length. A cut inside the file header fails at open; a cut at the
     * end of a record or block ends cleanly; any other cut gives the frames that were complete and
     * one error naming the broken record's offset and the next frame number. Each cut is read with
     * one big mapping and with a tiny window, which must agree.
     */
    private void assertEveryCutBehaves(byte[] whole, List<CaptureBuilder.Piece> pieces, int headerEnd, String name)
            throws IOException {
        List<Frames.Seen> all = Frames.readAll(Frames.write(dir, "whole-" + name, whole));
        for (int cut = 0; cut <= whole.length; cut++) {
            Path file = Frames.write(dir, name, Arrays.copyOf(whole, cut));
            if (cut < headerEnd) {
                CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(file),
                        "cut at " + cut);
                assertEquals(0, e.frameNumber());
                continue;
            }
            int completeFrames = 0;
            boolean onBoundary = cut == headerEnd;
            long brokenAt = -1;
            for (CaptureBuilder.Piece piece : pieces) {
                if (piece.end() <= cut) {
                    completeFrames += piece.frame() ? 1 : 0;
                    onBoundary = onBoundary || piece.end() == cut;
                } else if (brokenAt < 0 && piece.start() < cut) {
                    brokenAt = piece.start();
                }
            }
            for (long window : new long[]{Integer.MAX_VALUE, 20}) {
                Frames.Outcome outcome;
                try (PacketSource source = CaptureFiles.open(file, window)) {
                    outcome = Frames.readUntilError(source);
                    assertNull(source.next(), "after the end or an error, only nulls; cut at " + cut);
                } catch (RuntimeException e) {
                    throw new AssertionError("cut at " + cut + " threw " + e, e);
                }
                String where = "cut at " + cut + " of " + whole.length + ", window " + window;
                assertEquals(all.subList(0, completeFrames), outcome.frames(), where);
                if (onBoundary) {
                    assertNull(outcome.error(), where);
                } else {
                    CaptureFormatException e = outcome.error();
                    assertNotNull(e, where);
                    assertEquals(brokenAt, e.byteOffset(), where + ": " + e.getMessage());
                    assertEquals(completeFrames + 1, e.frameNumber(), where + ": " + e.getMessage());
                    assertEquals(file.toString(), e.fileName());
                    assertTrue(e.getMessage().startsWith(file + ": truncated "), e.getMessage());
                }
            }
        }
    }

    @Test
    void explainsATruncatedRecordInOneLine() throws IOException {
        byte[] whole = smallPcap(ByteOrder.LITTLE_ENDIAN).bytes();
        // Cut 3 bytes into the third record's 33 bytes of data.
        int thirdRecord = 24 + 16 + 14 + 16;
        Path file = Frames.write(dir, "capture.pcap", Arrays.copyOf(whole, thirdRecord + 16 + 3));
        try (PacketSource source = CaptureFiles.open(file)) {
            CaptureFormatException e = Frames.readUntilError(source).error();
            assertEquals(file + ": truncated record at byte offset " + thirdRecord
                    + " (frame 3): header says 33 bytes, 3 remain", e.getMessage());
            assertEquals(thirdRecord, e.byteOffset());
            assertEquals(3, e.frameNumber());
        }
    }

    @Test
    void rejectsAbsurdPcapRecordLengthsWithoutAllocatingThem() throws IOException {
        byte[] huge = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535)
                .record(1, 0, payload(0, 10), 10)
                .recordHeaderOnly(0xFFFF_FFF0L, 0xFFFF_FFF0L)
                .bytes();
        assertErrorWithinSmallAllocation(Frames.write(dir, "huge.pcap", huge), "absurd record length", 1);
        assertErrorWithinSmallAllocation(Frames.write(dir, "huge.pcap.gz", CaptureBuilder.gzip(huge)),
                "absurd record length", 1);

        // Under the limit but far beyond the file: found truncated without reserving 200 MiB first.
        // The 100 KB that do follow are more than a stream reader's first buffer, so it must grow.
        byte[] big = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.BIG_ENDIAN, 1, 65535)
                .recordHeaderOnly(200L << 20, 200L << 20)
                .raw(payload(0, 100_000))
                .bytes();
        assertErrorWithinSmallAllocation(Frames.write(dir, "big.pcap", big), "truncated record", 0);
        assertErrorWithinSmallAllocation(Frames.write(dir, "big.pcap.gz", CaptureBuilder.gzip(big)),
                "truncated record", 0);
    }

    @Test
    void rejectsAbsurdPcapngBlockLengthsWithoutAllocatingThem() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        byte[] huge = b.int32(6).int32(0x7FFF_FFF0).raw(new byte[64]).bytes();
        assertErrorWithinSmallAllocation(Frames.write(dir, "huge.pcapng", huge), "absurd block length", 0);
        assertErrorWithinSmallAllocation(Frames.write(dir, "huge.pcapng.gz", CaptureBuilder.gzip(huge)),
                "absurd block length", 0);

        CaptureBuilder c = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN);
        c.interfaceBlock(LinkTypes.ETHERNET, 0);
        byte[] big = c.int32(6).int32(200 << 20).raw(new byte[100_000]).bytes();
        assertErrorWithinSmallAllocation(Frames.write(dir, "big.pcapng.gz", CaptureBuilder.gzip(big)),
                "truncated block", 0);
    }

    private static void assertErrorWithinSmallAllocation(Path file, String problem, int framesFirst)
            throws IOException {
        long before = allocatedBytes();
        try (PacketSource source = CaptureFiles.open(file)) {
            Frames.Outcome outcome = Frames.readUntilError(source);
            assertEquals(framesFirst, outcome.frames().size());
            assertNotNull(outcome.error(), file.toString());
            assertTrue(outcome.error().getMessage().contains(problem), outcome.error().getMessage());
        }
        long allocated = allocatedBytes() - before;
        if (allocated >= 0) {
            assertTrue(allocated < 16L << 20, file + ": allocated " + allocated + " bytes");
        }
    }

    /** Bytes this thread allocated so far, or -1 where the JVM cannot say. */
    private static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled()) {
            return bean.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    @Test
    void rejectsAPacketForAnInterfaceWithNoDescription() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        b.enhancedPacket(0, 1, payload(0, 4), 4);
        int second = b.bytes().length;
        b.enhancedPacket(1, 2, payload(0, 4), 4);
        CaptureFormatException e = errorAfter(b.bytes(), 1);
        assertEquals(second, e.byteOffset());
        assertEquals(2, e.frameNumber());
        assertTrue(e.getMessage().contains("packet for an undeclared interface"), e.getMessage());
    }

    @Test
    void forgetsTheInterfacesOfEarlierSections() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        b.enhancedPacket(0, 1, payload(0, 4), 4);
        b.section(ByteOrder.LITTLE_ENDIAN);
        b.enhancedPacket(0, 2, payload(0, 4), 4);
        assertTrue(errorAfter(b.bytes(), 1).getMessage().contains("undeclared interface"));
    }

    @Test
    void rejectsASimplePacketBeforeAnyInterface() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN);
        b.simplePacket(4, payload(0, 4));
        assertTrue(errorAfter(b.bytes(), 0).getMessage().contains("undeclared interface"));
    }

    @Test
    void rejectsBlocksWhoseLeadingAndTrailingLengthsDisagree() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        b.enhancedPacket(0, 1, payload(0, 4), 4);
        int start = b.bytes().length;
        b.int32(6).int32(36).int32(0).int32(0).int32(0).int32(4).int32(4).raw(payload(0, 4)).int32(40);
        CaptureFormatException e = errorAfter(b.bytes(), 1);
        assertEquals(start, e.byteOffset());
        assertTrue(e.getMessage().contains("block lengths disagree at byte offset " + start)
                && e.getMessage().endsWith(": leading length 36, trailing length 40"), e.getMessage());
    }

    @Test
    void rejectsBlockLengthsShorterThanTheBlockMinimumOrMisaligned() throws IOException {
        CaptureBuilder shortBlock = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        shortBlock.int32(0x99).int32(8).raw(new byte[8]);
        assertTrue(errorAfter(shortBlock.bytes(), 0).getMessage().contains("block too short"));

        CaptureBuilder shortEpb = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        shortEpb.interfaceBlock(LinkTypes.ETHERNET, 0);
        shortEpb.block(6, new byte[8]);
        assertTrue(errorAfter(shortEpb.bytes(), 0).getMessage().contains("block too short"));

        CaptureBuilder odd = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN);
        odd.int32(0x99).int32(13).raw(new byte[5]).int32(13);
        assertTrue(errorAfter(odd.bytes(), 0).getMessage().contains("misaligned block length"));
    }

    @Test
    void rejectsACapturedLengthBeyondItsBlock() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        b.int32(6).int32(36).int32(0).int32(0).int32(0).int32(5).int32(5).raw(payload(0, 4)).int32(36);
        assertTrue(errorAfter(b.bytes(), 0).getMessage().contains("packet overruns its block"));
    }

    @Test
    void rejectsALaterSectionWithABadByteOrderMagic() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        b.enhancedPacket(0, 1, payload(0, 4), 4);
        b.int32(0x0A0D0D0A).int32(28).int32(0x12345678).raw(new byte[12]).int32(28);
        CaptureFormatException e = errorAfter(b.bytes(), 1);
        // The magic is shown as its bytes stand in the file: 0x12345678 written little-endian.
        assertTrue(e.getMessage().contains("bad section header") && e.getMessage().endsWith("0x78563412"),
                e.getMessage());
    }

    @Test
    void rejectsAnUnsupportedPcapngMajorVersion() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng();
        // A little-endian section header (the builder's default order) claiming version 2.0.
        b.int32(0x0A0D0D0A).int32(28).int32(0x1A2B3C4D).raw(new byte[]{2, 0, 0, 0}).raw(new byte[8]).int32(28);
        CaptureFormatException e = assertThrows(CaptureFormatException.class,
                () -> CaptureFiles.open(Frames.write(dir, "v2.pcapng", b.bytes())));
        assertEquals(Frames.write(dir, "v2.pcapng", b.bytes()) + ": unsupported pcapng version at byte offset 0: 2.0",
                e.getMessage());
        assertEquals(0, e.frameNumber());
    }

    @Test
    void rejectsMalformedInterfaceOptions() throws IOException {
        CaptureBuilder wrongSize = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        wrongSize.interfaceBlock(LinkTypes.ETHERNET, 0, wrongSize.option(9, new byte[]{9, 9}));
        assertTrue(errorAfter(wrongSize.bytes(), 0).getMessage().contains("bad if_tsresol option"));

        CaptureBuilder tooFine = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        tooFine.interfaceBlock(LinkTypes.ETHERNET, 0, tooFine.tsresol(0x80 | 100));
        assertTrue(errorAfter(tooFine.bytes(), 0).getMessage().contains("unsupported if_tsresol"));

        CaptureBuilder overrun = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN);
        overrun.block(1, new byte[]{0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 40, 'a', 'b', 'c', 'd'});
        assertTrue(errorAfter(overrun.bytes(), 0).getMessage().contains("interface option overruns its block"));
    }

    private CaptureFormatException errorAfter(byte[] file, int frames) throws IOException {
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "bad.pcapng", file))) {
            Frames.Outcome outcome = Frames.readUntilError(source);
            assertEquals(frames, outcome.frames().size());
            assertNotNull(outcome.error(), "expected a format error");
            assertNull(source.next());
            return outcome.error();
        }
    }

    /**
     * Random damage (flipped bytes, cuts) to valid files of every kind: reading may end cleanly or
     * with a {@link CaptureFormatException}, nothing else, and never stalls.
     */
    @Test
    void survivesRandomDamageWithOnlyFormatErrors() throws IOException {
        Random random = new Random(20240601L);
        List<byte[]> originals = List.of(
                smallPcap(ByteOrder.LITTLE_ENDIAN).bytes(),
                smallPcap(ByteOrder.BIG_ENDIAN).bytes(),
                smallPcapng().bytes(),
                PcapngReaderTest.twoSections(),
                CaptureBuilder.gzip(smallPcapng().bytes()),
                CaptureBuilder.gzip(smallPcap(ByteOrder.BIG_ENDIAN).bytes()));
        for (int round = 0; round < 3000; round++) {
            byte[] damaged = originals.get(round % originals.size()).clone();
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
                    if (++frames > 1000) {
                        fail("round " + round + ": more frames than bytes");
                    }
                }
            } catch (CaptureFormatException expected) {
                assertTrue(expected.getMessage().startsWith(file.toString()), expected.getMessage());
            } catch (IOException | RuntimeException e) {
                throw new AssertionError("round " + round + " threw " + e, e);
            }
        }
    }
}
