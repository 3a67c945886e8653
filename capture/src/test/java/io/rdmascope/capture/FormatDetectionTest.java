package io.rdmascope.capture;

import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FormatDetectionTest {

    @TempDir
    Path dir;

    @Test
    void detectsPcapngByContentEvenWhenNamedPcap() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0);
        b.enhancedPacket(0, 1, payload(0, 4), 4);
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "misnamed.pcap", b.bytes()))) {
            assertInstanceOf(PcapngReader.class, source);
            assertEquals(1, Frames.readAll(source).size());
        }
    }

    @Test
    void detectsPcapByContentWhateverTheExtension() throws IOException {
        byte[] file = CaptureBuilder.pcap(PcapReader.MAGIC_NANOS, ByteOrder.BIG_ENDIAN, LinkTypes.RAW, 65535)
                .record(1, 2, payload(0, 20), 20).bytes();
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "notes.txt", file))) {
            assertInstanceOf(PcapReader.class, source);
        }
    }

    @Test
    void refusesOtherContentNamingItsMagic() throws IOException {
        Path text = Frames.write(dir, "readme.pcap", "Hello, capture".getBytes(StandardCharsets.US_ASCII));
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(text));
        assertEquals(text + ": not a pcap, pcapng or ERF capture (magic 0x48656C6C) at byte offset 0",
                e.getMessage());
        assertEquals(0, e.byteOffset());
        assertEquals(0, e.frameNumber());
        assertEquals(text.toString(), e.fileName());
    }

    @Test
    void refusesEmptyAndTinyFiles() throws IOException {
        Path empty = Frames.write(dir, "empty.pcap", new byte[0]);
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(empty));
        assertEquals(empty + ": not a pcap, pcapng or ERF capture at byte offset 0: it is empty", e.getMessage());

        Path tiny = Frames.write(dir, "tiny.pcap", new byte[]{(byte) 0xD4, (byte) 0xC3, (byte) 0xB2});
        e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(tiny));
        assertEquals(tiny + ": not a pcap, pcapng or ERF capture at byte offset 0: only 3 bytes long", e.getMessage());
    }

    @Test
    void refusesAPcapWhoseFileHeaderIsCut() throws IOException {
        byte[] header = CaptureBuilder.pcap(PcapReader.MAGIC_MICROS, ByteOrder.LITTLE_ENDIAN, 1, 65535).bytes();
        Path cut = Frames.write(dir, "cut.pcap", Arrays.copyOf(header, 20));
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(cut));
        assertEquals(cut + ": truncated pcap file header at byte offset 0: 24 bytes needed, 20 present",
                e.getMessage());
    }

    @Test
    void refusesAFirstSectionWithABadByteOrderMagic() throws IOException {
        byte[] file = {0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 1, 2, 3, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 28, 0, 0, 0};
        Path path = Frames.write(dir, "bad.pcapng", file);
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(path));
        assertEquals(path + ": bad section header at byte offset 0: byte-order magic 0x01020304", e.getMessage());
    }
}
