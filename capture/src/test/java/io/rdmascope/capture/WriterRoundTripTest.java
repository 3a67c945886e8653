package io.rdmascope.capture;

import io.rdmascope.testsupport.Tshark;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WriterRoundTripTest {

    private static final long T0 = 1_700_000_000_123_456_789L;

    @TempDir
    Path dir;

    @Test
    void roundTripsNanosecondPcap() throws IOException {
        Path file = dir.resolve("ns.pcap");
        try (PcapWriter w = PcapWriter.create(file, LinkTypes.ETHERNET, PcapWriter.DEFAULT_SNAPLEN, true)) {
            w.write(T0, payload(1, 60), 60);
            w.write(T0 + 1, payload(2, 1514), 1514);
        }
        try (PacketSource source = CaptureFiles.open(file)) {
            PcapReader reader = assertInstanceOf(PcapReader.class, source);
            assertEquals(ByteOrder.LITTLE_ENDIAN, reader.byteOrder());
            assertEquals(true, reader.nanosecondResolution());
            assertEquals(PcapWriter.DEFAULT_SNAPLEN, reader.snapLength());
            List<Frames.Seen> frames = Frames.readAll(source);
            assertEquals(List.of(
                    new Frames.Seen(1, T0, 60, 60, LinkTypes.ETHERNET, 0, hex(payload(1, 60))),
                    new Frames.Seen(2, T0 + 1, 1514, 1514, LinkTypes.ETHERNET, 0, hex(payload(2, 1514)))), frames);
        }
    }

    @Test
    void roundTripsMicrosecondPcapTruncatingTimestampsToMicroseconds() throws IOException {
        Path file = dir.resolve("us.pcap");
        try (PcapWriter w = PcapWriter.create(file, LinkTypes.RAW, 65535, false)) {
            w.write(T0, payload(1, 20), 20);
        }
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(new byte[]{(byte) 0xD4, (byte) 0xC3, (byte) 0xB2, (byte) 0xA1}, Arrays.copyOf(bytes, 4));
        List<Frames.Seen> frames = Frames.readAll(file);
        assertEquals(T0 - 789, frames.get(0).timeNanos());
        assertEquals(LinkTypes.RAW, frames.get(0).linkType());
    }

    @Test
    void cutsPacketsToTheSnapLengthButKeepsTheirWireLength() throws IOException {
        Path pcap = dir.resolve("snap.pcap");
        try (PcapWriter w = PcapWriter.create(pcap, LinkTypes.ETHERNET, 64, true)) {
            w.write(T0, payload(0, 1000), 1000);
        }
        Frames.Seen f = Frames.readAll(pcap).get(0);
        assertEquals(64, f.capturedLength());
        assertEquals(1000, f.wireLength());
        assertEquals(hex(payload(0, 64)), f.hex());

        Path pcapng = dir.resolve("snap.pcapng");
        try (PcapngWriter w = PcapngWriter.create(pcapng, null, null, null)) {
            int id = w.addInterface(LinkTypes.ETHERNET, 64, null, null, null);
            w.write(id, T0, payload(0, 1000), 1000);
        }
        assertEquals(f, Frames.readAll(pcapng).get(0));
    }

    @Test
    void roundTripsPcapngWithTwoInterfacesAndTheirOptions() throws IOException {
        Path file = dir.resolve("two.pcapng");
        try (PcapngWriter w = PcapngWriter.create(file, "x86_64", "Linux 6.1", "rdmascope 0.1")) {
            int eth = w.addInterface(LinkTypes.ETHERNET, 0, "eth0", "udp port 4791", "Linux");
            w.write(eth, T0, payload(1, 61), 61);
            int ib = w.addInterface(LinkTypes.ERF, 262144, "mlx5_0", null, null);
            w.write(ib, T0 + 5, payload(2, 100), 100);
            w.write(eth, T0 + 10, payload(3, 2), 2);
        }
        try (PacketSource source = CaptureFiles.open(file)) {
            List<Frames.Seen> frames = Frames.readAll(source);
            assertEquals(List.of(
                    new Frames.Seen(1, T0, 61, 61, LinkTypes.ETHERNET, 0, hex(payload(1, 61))),
                    new Frames.Seen(2, T0 + 5, 100, 100, LinkTypes.ERF, 1, hex(payload(2, 100))),
                    new Frames.Seen(3, T0 + 10, 2, 2, LinkTypes.ETHERNET, 0, hex(payload(3, 2)))), frames);
            List<PcapngReader.CaptureInterface> ifs = ((PcapngReader) source).interfaces();
            assertEquals(new PcapngReader.CaptureInterface(0, 0, LinkTypes.ETHERNET, 0, "eth0", "udp port 4791",
                    "Linux", 9, 0), ifs.get(0));
            assertEquals(new PcapngReader.CaptureInterface(1, 0, LinkTypes.ERF, 262144, "mlx5_0", null, null, 9, 0),
                    ifs.get(1));
        }
    }

    @Test
    void writesFramesReadFromAnotherCaptureWithoutCopyingThemFirst() throws IOException {
        Path source = Frames.write(dir, "src.pcap", MappedWindowTest.mixedPcap(ByteOrder.BIG_ENDIAN));
        Path copyPcap = dir.resolve("copy.pcap");
        Path copyPcapng = dir.resolve("copy.pcapng");
        try (PacketSource in = CaptureFiles.open(source);
             PcapWriter pcap = PcapWriter.create(copyPcap, LinkTypes.ETHERNET, 65535, true);
             PcapngWriter pcapng = PcapngWriter.create(copyPcapng, null, null, null)) {
            int id = pcapng.addInterface(LinkTypes.ETHERNET, 0, null, null, null);
            for (Frame f = in.next(); f != null; f = in.next()) {
                pcap.write(f);
                pcapng.write(id, f);
            }
        }
        List<Frames.Seen> expected = Frames.readAll(source);
        assertEquals(expected, Frames.readAll(copyPcap));
        assertEquals(expected, Frames.readAll(copyPcapng));
    }

    @Test
    void writesByteBuffersWithoutMovingTheirPosition() throws IOException {
        ByteBuffer heap = ByteBuffer.wrap(payload(0, 50)).position(10);
        ByteBuffer direct = ByteBuffer.allocateDirect(50).put(payload(0, 50)).flip().position(10);
        ByteBuffer readOnly = ByteBuffer.wrap(payload(0, 50)).asReadOnlyBuffer().position(10);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapngWriter w = new PcapngWriter(bytes, null, null, null)) {
            int id = w.addInterface(LinkTypes.ETHERNET, 0, null, null, null);
            w.write(id, T0, heap, 40);
            w.write(id, T0, direct, 40);
            w.write(id, T0, readOnly, 40);
        }
        assertEquals(10, heap.position());
        assertEquals(10, direct.position());
        assertEquals(10, readOnly.position());
        byte[] tail = Arrays.copyOfRange(payload(0, 50), 10, 50);
        for (Frames.Seen f : Frames.readAll(Frames.write(dir, "bb.pcapng", bytes.toByteArray()))) {
            assertEquals(hex(tail), f.hex());
        }
    }

    @Test
    void writesAnEmptyCaptureThatReadsBackEmpty() throws IOException {
        Path pcap = dir.resolve("empty.pcap");
        PcapWriter.create(pcap, LinkTypes.ETHERNET, 65535, false).close();
        assertEquals(24, Files.size(pcap));
        Path pcapng = dir.resolve("empty.pcapng");
        PcapngWriter.create(pcapng, null, null, null).close();
        assertEquals(28, Files.size(pcapng));
        try (PacketSource source = CaptureFiles.open(pcapng)) {
            assertNull(source.next());
        }
    }

    @Test
    void refusesPacketsForInterfacesNotAdded() throws IOException {
        try (PcapngWriter w = new PcapngWriter(new ByteArrayOutputStream(), null, null, null)) {
            assertThrows(IllegalArgumentException.class, () -> w.write(0, T0, new byte[1], 1));
        }
    }

    @Test
    void refusesTimestampsPcapCannotHold() throws IOException {
        try (PcapWriter w = new PcapWriter(new ByteArrayOutputStream(), LinkTypes.ETHERNET, 65535, true)) {
            assertThrows(IllegalArgumentException.class, () -> w.write(-1, new byte[1], 1));
            assertThrows(IllegalArgumentException.class, () -> w.write((1L << 32) * 1_000_000_000L, new byte[1], 1));
        }
    }

    /** Wireshark is the reference reader: when it is installed, it must agree with what we wrote. */
    @Test
    void writesFilesThatTsharkReadsTheSameWay() throws Exception {
        Path pcap = dir.resolve("ts.pcap");
        Path pcapng = dir.resolve("ts.pcapng");
        try (PcapWriter a = PcapWriter.create(pcap, LinkTypes.ETHERNET, 65535, true);
             PcapngWriter b = PcapngWriter.create(pcapng, "hw", "os", "app")) {
            int id0 = b.addInterface(LinkTypes.ETHERNET, 0, "eth0", "udp", "Linux");
            int id1 = b.addInterface(LinkTypes.RAW, 100, "raw0", null, null);
            for (int i = 0; i < 5; i++) {
                a.write(T0 + i * 1_001L, payload(i, 60 + i), 60 + i);
                b.write(i % 2 == 0 ? id0 : id1, T0 + i * 1_001L, payload(i, 60 + i * 30), 60 + i * 30);
            }
        }
        List<String> pcapLines = Tshark.fields(pcap, "frame.number", "frame.time_epoch", "frame.len", "frame.cap_len");
        List<String> pcapngLines = Tshark.fields(pcapng, "frame.number", "frame.time_epoch", "frame.len",
                "frame.cap_len", "frame.interface_id");
        assertEquals(ours(Frames.readAll(pcap), false), pcapLines);
        assertEquals(ours(Frames.readAll(pcapng), true), pcapngLines);
    }

    private static List<String> ours(List<Frames.Seen> frames, boolean withInterface) {
        List<String> lines = new ArrayList<>();
        for (Frames.Seen f : frames) {
            String line = f.number() + "\t" + Tshark.epoch(f.timeNanos()) + "\t" + f.wireLength() + "\t"
                    + f.capturedLength();
            lines.add(withInterface ? line + "\t" + f.interfaceId() : line);
        }
        return lines;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
