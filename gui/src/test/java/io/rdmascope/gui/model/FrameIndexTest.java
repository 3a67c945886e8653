package io.rdmascope.gui.model;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import io.rdmascope.gui.Samples;
import io.rdmascope.samples.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compact frame index and the loader that fills it. */
class FrameIndexTest {

    private static void assertSameFrames(Path file, FrameIndex index) throws IOException {
        try (PacketSource s = CaptureFiles.open(file)) {
            int n = 0;
            Frame f;
            while ((f = s.next()) != null) {
                n++;
                Frame g = index.frame(n);
                assertEquals(n, g.number());
                assertEquals(f.timeNanos(), g.timeNanos());
                assertEquals(f.wireLength(), g.wireLength());
                assertEquals(f.linkType(), g.linkType());
                assertEquals(f.interfaceId(), g.interfaceId());
                assertArrayEquals(f.toByteArray(), g.toByteArray(), "frame " + n);
            }
            assertEquals(n, index.count());
        }
    }

    @Test
    void framesOfAMappedFileComeBackByteForByteWithoutCopies() throws IOException {
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(Samples.mixed(), index, () -> false, (n, f) -> {
        });
        assertTrue(index.isComplete());
        assertEquals(0, index.copiedBytes(), "a mapped file is pointed into, not copied");
        assertSameFrames(Samples.mixed(), index);
    }

    @Test
    void framesOfACompressedFileAreKeptInBlocks(@TempDir Path dir) throws IOException {
        Path gz = dir.resolve("mixed.pcapng.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(Samples.mixed(), out);
        }
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(gz, index, () -> false, (n, f) -> {
        });
        assertTrue(index.copiedBytes() > 0);
        assertSameFrames(Samples.mixed(), index);
    }

    @Test
    void framesBeyondOneChunkAreIndexedAndStayCompact(@TempDir Path dir) throws IOException {
        Path big = Scenarios.writeMixedLarge(dir, 3, 150_000, 16, false);
        FrameIndex index = new FrameIndex();
        AtomicInteger reports = new AtomicInteger();
        int[] first = new int[1];
        CaptureLoader.Outcome outcome = CaptureLoader.load(big, index, () -> false, (n, f) -> {
            if (reports.getAndIncrement() == 0) {
                first[0] = n;
            }
        });
        assertEquals(150_000, outcome.frames());
        assertEquals(CaptureLoader.FIRST_BATCH, first[0], "the first rows are reported after the first batch");
        assertSameFrames(big, index);
        assertTrue(index.heapBytes() < 150_000L * 40, "under 40 bytes a frame: " + index.heapBytes());
    }

    @Test
    void cancellingStopsLoadingAndKeepsWhatWasRead(@TempDir Path dir) throws IOException {
        Path big = Scenarios.writeMixedLarge(dir, 3, 20_000, 4, false);
        FrameIndex index = new FrameIndex();
        CaptureLoader.Outcome outcome = CaptureLoader.load(big, index, () -> index.count() >= 5_000, (n, f) -> {
        });
        assertTrue(outcome.cancelled());
        assertTrue(index.count() >= 5_000 && index.count() < 20_000, "stopped at " + index.count());
        assertTrue(index.isComplete());
    }

    @Test
    void askingForAFrameThatIsNotThereFails() {
        FrameIndex index = new FrameIndex();
        assertThrows(IndexOutOfBoundsException.class, () -> index.frame(1));
        index.append(Frame.of(1, 5, 1, new byte[]{1, 2, 3}));
        assertArrayEquals(new byte[]{1, 2, 3}, index.frame(1).toByteArray());
        assertThrows(IndexOutOfBoundsException.class, () -> index.frame(2));
        assertThrows(IndexOutOfBoundsException.class, () -> index.frame(0));
    }

    @Test
    void ownedFramesLargerThanABlockGetABlockOfTheirOwn() {
        FrameIndex index = new FrameIndex();
        byte[] huge = new byte[20 << 20];
        Arrays.fill(huge, (byte) 7);
        index.append(Frame.of(1, 1, 1, new byte[]{9}));
        index.append(Frame.of(2, 2, 1, huge));
        index.append(Frame.of(3, 3, 1, new byte[]{8}));
        assertArrayEquals(new byte[]{9}, index.frame(1).toByteArray());
        assertArrayEquals(huge, index.frame(2).toByteArray());
        assertArrayEquals(new byte[]{8}, index.frame(3).toByteArray());
    }
}
