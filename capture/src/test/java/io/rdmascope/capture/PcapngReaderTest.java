package io.rdmascope.capture;

import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

class PcapngReaderTest {

    static final long SECOND = 1_700_000_000L;
    static final long NS = 1_000_000_000L;

    @TempDir
    Path dir;

    /**
     * Two sections of opposite byte order; the first has two interfaces with different link types,
     * resolutions (10^-9 s, 2^-10 s) and an offset, the second one interface at the default
     * microseconds, plus SPB, obsolete PB and blocks that carry no packets.
     */
    static byte[] twoSections() {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0, b.stringOption(2, "eth0"), b.tsresol(9));
        b.interfaceBlock(LinkTypes.RAW, 128, b.tsresol(0x80 | 10), b.tsoffset(1000), b.stringOption(12, "Linux"));
        b.enhancedPacket(0, SECOND * NS + 123_456_789, payload(1, 61), 61);
        b.enhancedPacket(1, SECOND * 1024 + 512, payload(2, 40), 1500);
        b.block(0x0000_0BAD, new byte[]{0, 0, 0x7F, 0x17, 1, 2, 3});   // custom block: skipped
        b.block(0x0000_0004, new byte[]{0, 0, 0, 0});                  // name resolution: skipped
        b.enhancedPacket(0, SECOND * NS + 999, payload(3, 3), 3);
        b.section(ByteOrder.BIG_ENDIAN);
        b.interfaceBlock(LinkTypes.IPV4, 64);
        b.enhancedPacket(0, SECOND * 1_000_000 + 42, payload(4, 33), 33);
        b.simplePacket(100, payload(5, 64));    // cut by snaplen 64, as the format requires
        b.simplePacket(10, payload(6, 12));     // padding is not data: 10 bytes
        b.simplePacket(200, payload(7, 40));    // block holds only 40 (a writer that ignored snaplen)
        b.obsoletePacket(0, SECOND * 1_000_000 + 7, payload(8, 20), 20);
        b.block(0x0000_0005, new byte[12]);     // interface statistics: skipped
        return b.bytes();
    }

    @Test
    void readsTwoSectionsOfDifferentByteOrderWithTheirOwnInterfaces() throws IOException {
        List<Frames.Seen> frames = Frames.readAll(Frames.write(dir, "two.pcapng", twoSections()));
        assertEquals(8, frames.size());
        for (int i = 0; i < frames.size(); i++) {
            assertEquals(i + 1, frames.get(i).number());
        }
        assertFrame(frames.get(0), SECOND * NS + 123_456_789, 61, 61, LinkTypes.ETHERNET, 0, payload(1, 61));
        assertFrame(frames.get(1), (SECOND + 1000) * NS + 500_000_000, 40, 1500, LinkTypes.RAW, 1, payload(2, 40));
        assertFrame(frames.get(2), SECOND * NS + 999, 3, 3, LinkTypes.ETHERNET, 0, payload(3, 3));
        assertFrame(frames.get(3), SECOND * NS + 42_000, 33, 33, LinkTypes.IPV4, 2, payload(4, 33));
        assertFrame(frames.get(4), 0, 64, 100, LinkTypes.IPV4, 2, payload(5, 64));
        assertFrame(frames.get(5), 0, 10, 10, LinkTypes.IPV4, 2, payload(6, 10));
        assertFrame(frames.get(6), 0, 40, 200, LinkTypes.IPV4, 2, payload(7, 40));
        assertFrame(frames.get(7), SECOND * NS + 7_000, 20, 20, LinkTypes.IPV4, 2, payload(8, 20));
    }

    private static void assertFrame(Frames.Seen f, long timeNanos, int captured, int wire, int linkType,
                                    int interfaceId, byte[] data) {
        assertEquals(timeNanos, f.timeNanos(), "time of frame " + f.number());
        assertEquals(captured, f.capturedLength(), "captured length of frame " + f.number());
        assertEquals(wire, f.wireLength(), "wire length of frame " + f.number());
        assertEquals(linkType, f.linkType(), "link type of frame " + f.number());
        assertEquals(interfaceId, f.interfaceId(), "interface of frame " + f.number());
        assertEquals(HexFormat.of().formatHex(data), f.hex(), "bytes of frame " + f.number());
    }

    @Test
    void describesEveryInterfaceWithItsSectionAndOptions() throws IOException {
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "ifs.pcapng", twoSections()))) {
            Frames.readAll(source);
            PcapngReader reader = assertInstanceOf(PcapngReader.class, source);
            assertEquals(2, reader.sections());
            List<PcapngReader.CaptureInterface> ifs = reader.interfaces();
            assertEquals(3, ifs.size());
            assertEquals(new PcapngReader.CaptureInterface(0, 0, LinkTypes.ETHERNET, 0, "eth0", null, null, 9, 0),
                    ifs.get(0));
            assertEquals(new PcapngReader.CaptureInterface(1, 0, LinkTypes.RAW, 128, null, null, "Linux", 0x8A, 1000),
                    ifs.get(1));
            assertEquals(new PcapngReader.CaptureInterface(2, 1, LinkTypes.IPV4, 64, null, null, null, 6, 0),
                    ifs.get(2));
        }
    }

    @Test
    void convertsBinaryResolutionsExactly() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0, b.tsresol(0x80 | 32));
        // 2^-32 s units: 0.25 s plus one unit (0.23 ns, below a nanosecond, so truncated away).
        b.enhancedPacket(0, (SECOND << 32) + (1L << 30) + 1, payload(0, 4), 4);
        List<Frames.Seen> frames = Frames.readAll(Frames.write(dir, "bin.pcapng", b.bytes()));
        assertEquals(SECOND * NS + 250_000_000, frames.get(0).timeNanos());
    }

    @Test
    void convertsResolutionsFinerThanNanoseconds() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0, b.tsresol(12));
        b.enhancedPacket(0, 1_234_567_890_123_456L, payload(0, 4), 4);   // picoseconds
        List<Frames.Seen> frames = Frames.readAll(Frames.write(dir, "ps.pcapng", b.bytes()));
        assertEquals(1_234_567_890_123L, frames.get(0).timeNanos());
    }

    @Test
    void ignoresATerminatingNulInStringOptions() throws IOException {
        CaptureBuilder b = CaptureBuilder.pcapng().section(ByteOrder.LITTLE_ENDIAN);
        b.interfaceBlock(LinkTypes.ETHERNET, 0, b.option(2, new byte[]{'i', 'b', '0', 0}),
                b.option(11, new byte[]{0, 'u', 'd', 'p'}));
        try (PacketSource source = CaptureFiles.open(Frames.write(dir, "nul.pcapng", b.bytes()))) {
            assertNull(source.next());
            PcapngReader.CaptureInterface iface = ((PcapngReader) source).interfaces().get(0);
            assertEquals("ib0", iface.name());
            assertEquals("udp", iface.filter());
        }
    }

    @Test
    void readsASectionWithoutPacketsAsEmpty() throws IOException {
        byte[] file = CaptureBuilder.pcapng().section(ByteOrder.BIG_ENDIAN).bytes();
        assertEquals(List.of(), Frames.readAll(Frames.write(dir, "bare.pcapng", file)));
    }
}
