package io.rdmascope.capture;

import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.proto.frame.FrameFields;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;

import static io.rdmascope.capture.CaptureBuilder.concat;
import static io.rdmascope.capture.CaptureBuilder.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ErfWriterTest {

    private static final long T0 = 1_700_000_000_123_456_789L;

    @TempDir
    Path dir;

    /** The record our writer must produce, assembled independently with ByteBuffers. */
    private static byte[] expectedRecord(long seconds, long fraction, int type, byte[] afterHeader, int wlen) {
        int rlen = (16 + afterHeader.length + 7) & ~7;
        return ByteBuffer.allocate(rlen)
                .order(ByteOrder.LITTLE_ENDIAN).putLong(seconds << 32 | fraction)
                .order(ByteOrder.BIG_ENDIAN).put((byte) type).put((byte) 0x04)
                .putShort((short) rlen).putShort((short) 0).putShort((short) wlen)
                .put(afterHeader).array();
    }

    @Test
    void writesTheErfRecordLayout() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ErfWriter w = new ErfWriter(out)) {
            w.write(T0, Erf.TYPE_ETH, payload(1, 60), 64);
            w.write(T0 + 1, Erf.TYPE_INFINIBAND, payload(2, 30), 30);
            w.write(T0 + 2, Erf.TYPE_INFINIBAND_LINK, payload(3, 24), 24);
        }
        // 123_456_789 ns is 530242871.22 units of 2^-32 s, 123_456_790 ns 530242875.52 (rounded up),
        // 123_456_791 ns 530242879.81.
        byte[] expected = concat(
                expectedRecord(1_700_000_000L, 0x1F9A_DD37L, Erf.TYPE_ETH, concat(new byte[2], payload(1, 60)), 64),
                expectedRecord(1_700_000_000L, 0x1F9A_DD3CL, Erf.TYPE_INFINIBAND, payload(2, 30), 30),
                expectedRecord(1_700_000_000L, 0x1F9A_DD40L, Erf.TYPE_INFINIBAND_LINK, payload(3, 24), 24));
        assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(out.toByteArray()));
    }

    @Test
    void roundTripsTimesLengthsAndBytes() throws IOException {
        Path file = dir.resolve("round.erf");
        try (ErfWriter w = ErfWriter.create(file)) {
            w.write(T0, Erf.TYPE_ETH, payload(1, 60), 64);
            w.write(T0 + 1, Erf.TYPE_INFINIBAND, payload(2, 30), 30);
            w.write(T0 + 999_999_999L - 123_456_789L, Erf.TYPE_INFINIBAND_LINK, payload(3, 1), 1);
            w.write(0, Erf.TYPE_ETH, new byte[0], 0);
            w.write(0xFFFF_FFFFL * 1_000_000_000L + 999_999_999L, Erf.TYPE_INFINIBAND, payload(4, 8), 1000);
        }
        try (PacketSource source = CaptureFiles.open(file)) {
            assertInstanceOf(ErfReader.class, source);
            List<Frames.Seen> frames = Frames.readAll(source);
            long[] times = {T0, T0 + 1, T0 + 999_999_999L - 123_456_789L, 0, 0xFFFF_FFFFL * 1_000_000_000L + 999_999_999L};
            int[] rlens = {80, 48, 24, 24, 24};
            int[] wlens = {64, 30, 1, 0, 1000};
            byte[][] packets = {payload(1, 60), payload(2, 30), payload(3, 1), new byte[0], payload(4, 8)};
            assertEquals(5, frames.size());
            for (int i = 0; i < frames.size(); i++) {
                Frames.Seen f = frames.get(i);
                assertEquals(times[i], f.timeNanos(), "frame " + (i + 1));
                assertEquals(rlens[i], f.capturedLength(), "frame " + (i + 1));
                assertEquals(wlens[i], f.wireLength(), "frame " + (i + 1));
                assertEquals(LinkTypes.ERF, f.linkType());
                assertEquals(0, f.interfaceId());
                byte[] record = HexFormat.of().parseHex(f.hex());
                int start = (record[8] == Erf.TYPE_ETH) ? 18 : 16;
                String packet = HexFormat.of().formatHex(record, start, start + packets[i].length);
                assertEquals(HexFormat.of().formatHex(packets[i]), packet, "frame " + (i + 1));
            }
        }
    }

    @Test
    void everyNanosecondComesBackExactly() throws IOException {
        Random random = new Random(42);
        Path file = dir.resolve("times.erf");
        long[] times = new long[2000];
        try (ErfWriter w = ErfWriter.create(file)) {
            for (int i = 0; i < times.length; i++) {
                long nanos = i < 10 ? i : i < 20 ? 999_999_990L + i - 10 : random.nextInt(1_000_000_000);
                times[i] = 1_600_000_000L * 1_000_000_000L + nanos;
                w.write(times[i], Erf.TYPE_INFINIBAND, payload(i, 8), 8);
            }
        }
        List<Frames.Seen> frames = Frames.readAll(file);
        for (int i = 0; i < times.length; i++) {
            assertEquals(times[i], frames.get(i).timeNanos(), "frame " + (i + 1));
        }
    }

    @Test
    void padsRecordsToEightBytesAndCutsWhatRlenCannotHold() throws IOException {
        Path file = dir.resolve("sizes.erf");
        try (ErfWriter w = ErfWriter.create(file)) {
            for (int n = 1; n <= 40; n++) {
                w.write(T0, Erf.TYPE_INFINIBAND, payload(n, n), n);
                w.write(T0, Erf.TYPE_ETH, payload(n, n), n);
            }
            w.write(T0, Erf.TYPE_ETH, payload(0, 70_000), 0xFFFF);
        }
        List<Frames.Seen> frames = Frames.readAll(file);
        for (int i = 0; i < 80; i++) {
            int n = i / 2 + 1;
            int expected = ((i % 2 == 0 ? 16 : 18) + n + 7) & ~7;
            assertEquals(expected, frames.get(i).capturedLength(), "packet of " + n + " bytes");
        }
        Frames.Seen big = frames.get(80);
        assertEquals(0xFFF8, big.capturedLength());
        assertEquals(0xFFFF, big.wireLength());
    }

    @Test
    void refusesWhatErfCannotHold() throws IOException {
        try (ErfWriter w = new ErfWriter(new ByteArrayOutputStream())) {
            assertThrows(IllegalArgumentException.class, () -> w.write(T0, 22, payload(0, 20), 20));
            assertThrows(IllegalArgumentException.class, () -> w.write(T0, Erf.TYPE_ETH, payload(0, 20), 70_000));
            assertThrows(IllegalArgumentException.class, () -> w.write(T0, Erf.TYPE_ETH, payload(0, 20), -1));
            assertThrows(IllegalArgumentException.class, () -> w.write(-1, Erf.TYPE_ETH, payload(0, 20), 20));
            assertThrows(IllegalArgumentException.class,
                    () -> w.write((1L << 32) * 1_000_000_000L, Erf.TYPE_ETH, payload(0, 20), 20));
            assertThrows(IllegalArgumentException.class, () -> w.write(T0, Erf.TYPE_INFINIBAND, new byte[0], 0));
        }
    }

    @Test
    void anEmptyErfFileIsNotRecognisable() throws IOException {
        // ERF has no file header: with no records there is nothing to recognise, as for tshark.
        Path file = dir.resolve("empty.erf");
        ErfWriter.create(file).close();
        assertEquals(0, Files.size(file));
        CaptureFormatException e = assertThrows(CaptureFormatException.class, () -> CaptureFiles.open(file));
        assertTrue(e.getMessage().endsWith("it is empty"), e.getMessage());
    }

    /** Wireshark is the reference reader: when it is installed, it must read what we wrote the same way. */
    @Test
    void writesFilesThatTsharkReadsTheSameWay() throws Exception {
        Path file = dir.resolve("ts.erf");
        byte[] roce = RocePacket.v2Ipv4(new byte[]{2, 0, 0, 0, 0, 1}, new byte[]{2, 0, 0, 0, 0, 2},
                new byte[]{10, 0, 0, 1}, new byte[]{10, 0, 0, 2}).opcode(0x04).destQp(0x12).psn(7)
                .payload(payload(5, 64)).build();
        byte[] ib = RocePacket.nativeIb(1, 2).opcode(0x04).destQp(0x12).psn(8).payload(payload(6, 40)).build();
        byte[] ethWithFcs = concat(roce, fcs(roce));
        try (ErfWriter w = ErfWriter.create(file)) {
            for (int i = 0; i < 5; i++) {
                long t = T0 + i * 1_000_001L;
                w.write(t, Erf.TYPE_ETH, ethWithFcs, ethWithFcs.length);
                w.write(t + 1, Erf.TYPE_INFINIBAND, ib, ib.length);
                w.write(t + 2, Erf.TYPE_INFINIBAND_LINK, ib, ib.length);
                w.write(t + 3, Erf.TYPE_INFINIBAND, payload(i, 20 + i), 100);   // snapped: wlen > captured
            }
        }
        List<String> ours = new ArrayList<>();
        List<String> protocols = new ArrayList<>();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        try (PacketSource source = CaptureFiles.open(file)) {
            for (Frame f = source.next(); f != null; f = source.next()) {
                ours.add(f.number() + "\t" + Tshark.epoch(f.timeNanos()) + "\t" + f.wireLength() + "\t"
                        + ErfReader.packetCapturedLength(f) + "\t" + f.interfaceId());
                d.reset(f);
                chain.dissect(f, d);
                protocols.add(FrameFields.protocolsOf(d));
            }
        }
        assertEquals(20, ours.size());
        assertTrue(protocols.get(0).startsWith("erf:eth:ethertype:ip:udp:infiniband"), protocols.get(0));
        assertTrue(protocols.get(1).startsWith("erf:infiniband"), protocols.get(1));
        // frame.protocols is the dissectors' business and is not compared here: TShark 4.0 decodes
        // type INFINIBAND_LINK as link (flow control) packets, "erf:infiniband_link".
        assertTrue(protocols.get(2).startsWith("erf:"), protocols.get(2));
        List<String> tshark = Tshark.fields(file, "frame.number", "frame.time_epoch", "frame.len", "frame.cap_len",
                "frame.interface_id");
        assertEquals(tshark, ours);
    }

    /** The Ethernet FCS as it goes on the wire: CRC-32 of the frame, least significant byte first. */
    private static byte[] fcs(byte[] frame) {
        CRC32 crc = new CRC32();
        crc.update(frame);
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue()).array();
    }
}
