package io.rdmascope.capture;

import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Touching pages ahead of the reader ({@link PageToucher}) changes nothing the reader sees, on one mapping and
 * across windows, for a whole file and a damaged one, and its thread does not outlive the source. Files of a
 * few megabytes stand in for the big ones it is made for (the size threshold is lowered to 0).
 */
class PageToucherTest {
    private static final String THREAD = "rdmascope-page-toucher";

    @TempDir
    Path dir;

    /** About 5 MB: several of the reader's position reports, so the toucher is woken more than once. */
    private static byte[] bigPcap() {
        CaptureBuilder b = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, LinkTypes.ETHERNET, 65535);
        int[] sizes = {60, 1514, 300, 9000, 64, 4000};
        for (int i = 0; i < 1800; i++) {
            int size = sizes[i % sizes.length];
            b.record(1_600_000_000L + i, i, payload(i, size), size);
        }
        return b.bytes();
    }

    @Test
    void framesAreTheSameWithPagesTouchedAheadOnOneMappingAndAcrossWindows() throws IOException {
        byte[] bytes = bigPcap();
        assertTrue(bytes.length > 4 * PageToucher.STEP, "the file spans several position reports");
        Path file = Frames.write(dir, "big.pcap", bytes);
        List<Frames.Seen> expected = Frames.readAll(file); // below the threshold: no toucher
        assertEquals(1800, expected.size());
        for (long window : new long[]{Integer.MAX_VALUE, 256 * 1024, 10_000}) {
            try (PacketSource source = CaptureFiles.open(file, window, 0)) {
                assertEquals(expected, Frames.readAll(source), "window " + window);
                assertNotNull(toucher(), "the toucher runs while the file is read (window " + window + ")");
            }
            awaitNoToucher();
        }
    }

    @Test
    void aDamagedFileGivesTheSameFramesAndErrorWithPagesTouchedAhead() throws IOException {
        byte[] whole = bigPcap();
        Path file = Frames.write(dir, "cut.pcap", Arrays.copyOf(whole, whole.length - 5000)); // inside the last record
        Frames.Outcome expected;
        try (PacketSource source = CaptureFiles.open(file)) {
            expected = Frames.readUntilError(source);
        }
        assertNotNull(expected.error(), "the cut file is damaged");
        try (PacketSource source = CaptureFiles.open(file, Integer.MAX_VALUE, 0)) {
            Frames.Outcome touched = Frames.readUntilError(source);
            assertEquals(expected.frames(), touched.frames());
            assertEquals(expected.error().getMessage(), touched.error().getMessage());
        }
        awaitNoToucher();
    }

    @Test
    void smallFilesStartNoThread() throws IOException {
        awaitNoToucher();
        Path file = Frames.write(dir, "small.pcap", MappedWindowTest.mixedPcap(ByteOrder.BIG_ENDIAN));
        try (PacketSource source = CaptureFiles.open(file)) {
            assertEquals(200, Frames.readAll(source).size());
            assertFalse(toucher() != null, "a file below " + MappedCaptureBytes.TOUCH_AHEAD_FROM + " bytes is read alone");
        }
    }

    private static Thread toucher() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(THREAD) && t.isAlive()).findFirst().orElse(null);
    }

    /** Closing the source ends the thread (it also ends by itself a second after the reader stops). */
    private static void awaitNoToucher() {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (toucher() != null) {
            assertTrue(System.nanoTime() < deadline, "the toucher thread outlived its source by 5 s");
            Thread.onSpinWait();
        }
    }
}
