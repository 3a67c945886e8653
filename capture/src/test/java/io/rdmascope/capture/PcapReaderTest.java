package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PcapReaderTest {

    private static final long SECOND = 1_700_000_000L;

    @TempDir
    Path dir;

    @Test
    void readsMicrosecondPcapInLittleEndian() throws IOException {
        assertReadsTwoFrames(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, false);
    }

    @Test
    void readsMicrosecondPcapInBigEndian() throws IOException {
        assertReadsTwoFrames(PcapReader.MAGIC_MICROS, ByteOrder.BIG_ENDIAN, false);
    }

    @Test
    void readsNanosecondPcapInLittleEndian() throws IOException {
        assertReadsTwoFrames(PcapReader.MAGIC_NANOS, ByteOrder.LITTLE_ENDIAN, true);
    }

    @Test
    void readsNanosecondPcapInBigEndian() throws IOException {
        assertReadsTwoFrames(PcapReader.MAGIC_NANOS, ByteOrder.BIG_ENDIAN, true);
    }

    private void assertReadsTwoFrames(int magic, ByteOrder order, boolean nanos) throws IOException {
        byte[] first = payload(1, 60);
        byte[] second = payload(7, 1514);
        long fraction = nanos ? 123_456_789 : 123_456;
        byte[] file = CaptureBuilder.pcap(magic, order, LinkTypes.ETHERNET, 65535)
                .record(SECOND, fraction, first, 60)
                .record(SECOND + 1, 0, second, 1514)
                .bytes();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "t.pcap", file))) {
            PcapReader reader = assertInstanceOf(PcapReader.class, source);
            assertEquals(order, reader.byteOrder());
            assertEquals(nanos, reader.nanosecondResolution());
            assertEquals(65535, reader.snapLength());

            Frame f1 = source.next();
            assertEquals(1, f1.number());
            long expectedNanos = nanos ? 123_456_789 : 123_456_000;
            assertEquals(SECOND * 1_000_000_000L + expectedNanos, f1.timeNanos());
            assertEquals(60, f1.capturedLength());
            assertEquals(LinkTypes.ETHERNET, f1.linkType());
            assertEquals(0, f1.interfaceId());
            assertArrayEquals(first, f1.toByteArray());

            Frame f2 = source.next();
            assertEquals(2, f2.number());
            assertEquals((SECOND + 1) * 1_000_000_000L, f2.timeNanos());
            assertArrayEquals(second, f2.toByteArray());

            assertNull(source.next());
            assertNull(source.next(), "the end stays the end");
        }
    }

    @Test
    void keepsCapturedAndWireLengthsApart() throws IOException {
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 96)
                .record(SECOND, 0, payload(0, 96), 9000)
                .bytes();
        List<Frames.Seen> frames = Frames.readAll(Frames.write(dir, "snap.pcap", file));
        assertEquals(96, frames.get(0).capturedLength());
        assertEquals(9000, frames.get(0).wireLength());
    }

    @Test
    void takesTheLinkTypeFromTheLow16BitsIgnoringFcsBits() throws IOException {
        // f bit (28) set with an FCS length of 2 16-bit words (bits 31:29 = 010).
        int linkTypeWord = 0x5000_0000 | LinkTypes.ERF;
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.BIG_ENDIAN, linkTypeWord, 65535)
                .record(SECOND, 0, payload(0, 20), 20)
                .bytes();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "fcs.pcap", file))) {
            assertEquals(LinkTypes.ERF, ((PcapReader) source).linkType());
            assertEquals(LinkTypes.ERF, source.next().linkType());
        }
    }

    @Test
    void readsAFileWithAHeaderAndNoRecordsAsEmpty() throws IOException {
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535).bytes();
        assertTrue(Frames.readAll(Frames.write(dir, "empty.pcap", file)).isEmpty());
    }

    @Test
    void acceptsZeroLengthRecords() throws IOException {
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535)
                .record(SECOND, 0, new byte[0], 0)
                .record(SECOND, 1, payload(3, 5), 5)
                .bytes();
        List<Frames.Seen> frames = Frames.readAll(Frames.write(dir, "zero.pcap", file));
        assertEquals(2, frames.size());
        assertEquals(0, frames.get(0).capturedLength());
        assertEquals(5, frames.get(1).capturedLength());
    }

    @Test
    void handsOutViewsIntoOneMappedBufferInNetworkByteOrder() throws IOException {
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535)
                .record(SECOND, 0, new byte[]{0x12, 0x34, 0x56, 0x78}, 4)
                .record(SECOND, 0, payload(0, 8), 8)
                .bytes();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "views.pcap", file))) {
            Frame a = source.next();
            Frame b = source.next();
            assertTrue(a.buffer().isDirect(), "mapped, not copied to the heap");
            assertTrue(a.buffer().isReadOnly());
            assertSame(a.buffer(), b.buffer(), "frames share the window");
            assertEquals(24 + 16, a.offset());
            assertEquals(24 + 16 + 4 + 16, b.offset());
            // A little-endian file still hands out big-endian buffers: packet bytes are network order.
            assertEquals(ByteOrder.BIG_ENDIAN, a.buffer().order());
            assertEquals(0x12345678, a.buffer().getInt(a.offset()));
        }
    }

    @Test
    void keepsFramesReadableAfterClose() throws IOException {
        byte[] data = payload(9, 100);
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535)
                .record(SECOND, 0, data, 100)
                .bytes();
        Frame kept;
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "kept.pcap", file))) {
            kept = source.next();
        }
        assertArrayEquals(data, kept.toByteArray());
    }

    @Test
    void reportsTheFileNameItWasOpenedWith() throws IOException {
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535).bytes();
        Path path = Frames.write(dir, "named.pcap", file);
        try (PacketSource source = CaptureFiles.open(path)) {
            assertEquals(path.toString(), source.name());
            assertFalse(((PcapReader) source).compressed());
        }
    }
}
