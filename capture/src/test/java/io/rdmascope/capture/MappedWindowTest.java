package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Windowed mapping, exercised with tiny windows on small files instead of files over 2 GiB. */
class MappedWindowTest {

    @TempDir
    Path dir;

    /** Records of mixed sizes, some bigger than the smallest windows. */
    static byte[] mixedPcap(ByteOrder order) {
        CaptureBuilder b = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, order, LinkTypes.ETHERNET, 65535);
        int[] sizes = {0, 1, 14, 60, 61, 62, 63, 64, 100, 300, 1514, 7, 4000, 48, 9000, 2};
        for (int i = 0; i < 200; i++) {
            int size = sizes[i % sizes.length];
            b.record(1_600_000_000L + i, i, payload(i, size), size + i % 3);
        }
        return b.bytes();
    }

    static byte[] mixedPcapng() {
        CaptureBuilder b = CaptureBuilder.pcapng();
        int[] sizes = {0, 3, 60, 61, 300, 1514, 5000};
        for (int section = 0; section < 3; section++) {
            b.section(section % 2 == 0 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            b.interfaceBlock(LinkTypes.ETHERNET, 0, b.tsresol(9));
            b.interfaceBlock(LinkTypes.RAW, 0);
            for (int i = 0; i < 40; i++) {
                int size = sizes[i % sizes.length];
                b.enhancedPacket(i % 2, 1_600_000_000_000_000_000L + i, payload(i, size), size);
                if (i % 9 == 0) {
                    b.block(0x0000_0005, new byte[36]);
                }
            }
            b.simplePacket(20, payload(1, 20));
        }
        return b.bytes();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 16, 24, 63, 64, 100, 256, 1000, 1024, 4096})
    void tinyWindowsGiveTheSameFramesAsOneBigMappingForPcap(int window) throws IOException {
        for (ByteOrder order : new ByteOrder[]{ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            Path file = Frames.write(dir, "mixed.pcap", mixedPcap(order));
            List<Frames.Seen> expected = Frames.readAll(file);
            assertEquals(200, expected.size());
            assertEquals(expected, Frames.readAll(file, window), "window " + window + ", " + order);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 28, 64, 100, 512, 1024, 4096})
    void tinyWindowsGiveTheSameFramesAsOneBigMappingForPcapng(int window) throws IOException {
        Path file = Frames.write(dir, "mixed.pcapng", mixedPcapng());
        List<Frames.Seen> expected = Frames.readAll(file);
        assertEquals(123, expected.size());
        assertEquals(expected, Frames.readAll(file, window), "window " + window);
    }

    @Test
    void keepsEarlierFramesValidAfterTheWindowMoves() throws IOException {
        Path file = Frames.write(dir, "keep.pcap", mixedPcap(ByteOrder.LITTLE_ENDIAN));
        List<Frame> kept = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(file, 128)) {
            for (Frame f = source.next(); f != null; f = source.next()) {
                kept.add(f);
            }
        }
        List<Frames.Seen> expected = Frames.readAll(file);
        for (int i = 0; i < kept.size(); i++) {
            assertEquals(expected.get(i), Frames.Seen.of(kept.get(i)), "frame " + (i + 1));
        }
        assertNotSame(kept.get(0).buffer(), kept.get(kept.size() - 1).buffer(), "the window did move");
    }

    @Test
    void startsANewWindowAtTheRecordThatDidNotFit() throws IOException {
        // Header 24 + record 16+40 = 80 bytes; a 100-byte window cannot also hold the second record.
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535)
                .record(1, 0, payload(0, 40), 40)
                .record(2, 0, payload(1, 40), 40)
                .bytes();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "two.pcap", file), 100)) {
            Frame first = source.next();
            Frame second = source.next();
            assertEquals(40, first.offset());
            assertEquals(16, second.offset(), "the second window starts at the second record's header");
            assertArrayEquals(payload(1, 40), second.toByteArray());
            ByteBuffer window = second.buffer();
            assertTrue(window.isDirect());
        }
    }
}
