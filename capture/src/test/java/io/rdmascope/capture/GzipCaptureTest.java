package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GzipCaptureTest {

    @TempDir
    Path dir;

    static byte[] bigEndianPcap() {
        CaptureBuilder b = CaptureBuilder.pcap(PcapReader.MAGIC_NANOS, ByteOrder.BIG_ENDIAN, LinkTypes.ETHERNET, 65535);
        for (int i = 0; i < 50; i++) {
            b.record(1_700_000_000L + i, i * 1000L, payload(i, 60 + i * 7), 60 + i * 7);
        }
        return b.bytes();
    }

    @Test
    void readsAGzippedPcapLikeThePlainOne() throws IOException {
        byte[] plain = bigEndianPcap();
        List<Frames.Seen> expected = Frames.readAll(Frames.write(dir, "plain.pcap", plain));
        Path gz = Frames.write(dir, "compressed.pcap.gz", CaptureBuilder.gzip(plain));
        try (PacketSource source = CaptureFiles.open(gz)) {
            assertTrue(((PcapReader) source).compressed());
            assertEquals(expected, Frames.readAll(source));
        }
    }

    @Test
    void readsAGzippedPcapngLikeThePlainOne() throws IOException {
        byte[] plain = PcapngReaderTest.twoSections();
        List<Frames.Seen> expected = Frames.readAll(Frames.write(dir, "plain.pcapng", plain));
        assertEquals(8, expected.size());
        Path gz = Frames.write(dir, "compressed.pcapng.gz", CaptureBuilder.gzip(plain));
        assertEquals(expected, Frames.readAll(gz));
    }

    @Test
    void detectsGzipByContentWhateverTheName() throws IOException {
        Path misnamed = Frames.write(dir, "really-gzip.pcap", CaptureBuilder.gzip(bigEndianPcap()));
        assertEquals(50, Frames.readAll(misnamed).size());
    }

    @Test
    void givesGzipFramesTheirOwnExactSizeArrays() throws IOException {
        Path gz = Frames.write(dir, "own.pcap.gz", CaptureBuilder.gzip(bigEndianPcap()));
        try (PacketSource source = CaptureFiles.open(gz)) {
            Frame first = source.next();
            Frame second = source.next();
            assertEquals(0, first.offset());
            assertEquals(first.capturedLength(), first.buffer().capacity());
            assertTrue(first.buffer().isReadOnly());
            assertFalse(first.buffer() == second.buffer(), "later reads must not overwrite earlier frames");
            assertEquals(Arrays.toString(payload(0, 60)), Arrays.toString(first.toByteArray()));
        }
    }

    @Test
    void readsFromAStreamCompressedOrNot() throws IOException {
        byte[] plain = bigEndianPcap();
        List<Frames.Seen> expected = Frames.readAll(Frames.write(dir, "s.pcap", plain));
        try (PacketSource source = CaptureFiles.open(new ByteArrayInputStream(plain), "<stdin>")) {
            assertEquals("<stdin>", source.name());
            assertEquals(expected, Frames.readAll(source));
        }
        try (PacketSource source = CaptureFiles.open(new ByteArrayInputStream(CaptureBuilder.gzip(plain)), "<stdin>")) {
            assertEquals(expected, Frames.readAll(source));
        }
    }

    @Test
    void namesDecompressedOffsetsInErrors() throws IOException {
        byte[] plain = bigEndianPcap();
        byte[] cut = Arrays.copyOf(plain, plain.length - 10);
        Path gz = Frames.write(dir, "cut-inside.pcap.gz", CaptureBuilder.gzip(cut));
        try (PacketSource source = CaptureFiles.open(gz)) {
            Frames.Outcome outcome = Frames.readUntilError(source);
            assertEquals(49, outcome.frames().size());
            CaptureFormatException e = outcome.error();
            assertNotNull(e);
            assertTrue(e.inDecompressedStream());
            assertEquals(50, e.frameNumber());
            assertTrue(e.getMessage().contains("of the decompressed stream"), e.getMessage());
            assertNull(source.next());
        }
    }

    @Test
    void deliversEveryCompleteFrameOfACutGzipFileThenOneError() throws IOException {
        byte[] plain = bigEndianPcap();
        List<Frames.Seen> all = Frames.readAll(Frames.write(dir, "whole.pcap", plain));
        byte[] gz = CaptureBuilder.gzip(plain);
        for (int cut = 0; cut < gz.length; cut++) {
            Path file = Frames.write(dir, "cut.pcap.gz", Arrays.copyOf(gz, cut));
            Frames.Outcome outcome;
            try (PacketSource source = CaptureFiles.open(file)) {
                outcome = Frames.readUntilError(source);
                assertNull(source.next(), "nothing after the error, cut at " + cut);
            } catch (CaptureFormatException e) {
                continue;   // cut inside the gzip or pcap header: refused at open, also fine
            }
            // The gzip trailer is missing, so every cut file must end in an error, never cleanly.
            assertNotNull(outcome.error(), "cut at " + cut);
            assertEquals(all.subList(0, outcome.frames().size()), outcome.frames(), "cut at " + cut);
            assertEquals(outcome.frames().size() + 1, outcome.error().frameNumber(), "cut at " + cut);
        }
    }

    @Test
    void refusesAGzipFileThatIsNotACaptureInside() throws IOException {
        Path gz = Frames.write(dir, "text.gz", CaptureBuilder.gzip("hello, world".getBytes()));
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(gz));
        assertTrue(e.getMessage().contains("not a pcap, pcapng or ERF capture (magic 0x68656C6C)"), e.getMessage());
    }

    @Test
    void refusesABrokenGzipHeader() throws IOException {
        Path gz = Frames.write(dir, "bad.gz", new byte[]{0x1F, (byte) 0x8B, 0x07, 0, 0, 0});
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(gz));
        assertTrue(e.getMessage().contains("corrupt gzip header"), e.getMessage());
    }
}
