package io.rdmascope.capture.live;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapngReader;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance test of issue 6 on {@code lo}: with the default filter, exactly the RoCEv2 frames the
 * test sends are captured, decoded as sent, written, read back by our reader and by tshark, and the
 * statistics say nothing was lost. Runs as root where libpcap is present; skips, saying why, elsewhere.
 */
class LoopbackCaptureTest {
    private static final int N = 200;
    private static final int UNRELATED_PORT = 4792;

    @Test
    void capturesExactlyTheRoceFramesSentDecodesWritesAndCountsThem(@TempDir Path dir) throws Exception {
        LiveTestSupport.assumeCanCapture("lo");
        Path file = dir.resolve("lo.pcapng");
        LiveCapture capture = LiveCapture.open(LiveCaptureOptions.on("lo"));
        int roceSource;
        LiveTestSupport.Consumer consumer;
        try {
            assertEquals(LiveCaptureOptions.DEFAULT_FILTER, capture.filter());
            assertEquals(LinkTypes.ETHERNET, capture.linkType());
            assertEquals("EN10MB", capture.linkTypeName());
            PcapngOutput output = PcapngOutput.file(file, List.of(PcapngOutput.Interface.of(capture)), "rdmascope test");
            consumer = new LiveTestSupport.Consumer(capture, output);
            capture.start();
            consumer.start();
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            try (DatagramSocket roce = new DatagramSocket(0, loopback); DatagramSocket other = new DatagramSocket(0, loopback)) {
                roceSource = roce.getLocalPort();
                byte[] noise = "unrelated".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                for (int i = 0; i < N; i++) {
                    byte[] payload = RoceTraffic.transport(i, 32 + i % 7);
                    roce.send(new DatagramPacket(payload, payload.length, loopback, 4791));
                    other.send(new DatagramPacket(noise, noise.length, loopback, UNRELATED_PORT));
                }
            }
            capture.stop();
            assertTrue(capture.awaitStopped(Duration.ofSeconds(5)), "capture thread did not stop");
            consumer.join(5000);
        } finally {
            capture.close();
        }
        assertNull(consumer.failure, () -> "consumer failed: " + consumer.failure);
        assertEquals(LiveCapture.StopReason.REQUESTED, capture.stopReason());

        // Frames from other RoCE traffic on this host (a concurrent run) would be captured too: they
        // are counted apart, and none of ours may be missing, extra or reordered.
        List<LiveTestSupport.Seen> ours = new ArrayList<>();
        long foreign = 0;
        for (LiveTestSupport.Seen s : consumer.seen) {
            assertTrue(s.udpDestination() != UNRELATED_PORT && s.udpSource() != UNRELATED_PORT,
                    "the filter let unrelated UDP through: " + s);
            if (s.udpSource() == roceSource) {
                ours.add(s);
            } else {
                foreign++;
            }
        }
        assertEquals(N, ours.size(), "RoCE frames captured");
        for (int i = 0; i < N; i++) {
            LiveTestSupport.Seen s = ours.get(i);
            assertEquals(4791, s.udpDestination());
            assertEquals(RoceTraffic.opcode(i), s.opcode(), "opcode of frame " + i);
            assertEquals(i, s.psn(), "PSN of frame " + i);
            assertEquals(RoceTraffic.DEST_QP, s.destQp());
        }
        for (int i = 0; i < consumer.seen.size(); i++) {
            assertEquals(i + 1, consumer.seen.get(i).number(), "frames are numbered 1, 2, … as delivered");
        }

        CaptureStatistics stats = capture.statistics();
        long total = N + foreign;
        assertEquals(total, stats.captured());
        assertEquals(total, stats.delivered());
        assertEquals(0, stats.droppedByQueue());
        assertEquals(0, stats.droppedByKernel(), "kernel drops");
        assertEquals(0, stats.droppedByInterface(), "interface drops");
        assertTrue(stats.pcapReceived() >= total, "libpcap's ps_recv " + stats.pcapReceived());
        assertTrue(stats.dropCountsReliable());

        // Our reader gives back the same frames, and the interface block records name, filter, OS.
        List<Frame> read = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(file)) {
            Frame f;
            while ((f = source.next()) != null) {
                read.add(f);
            }
            PcapngReader.CaptureInterface idb = ((PcapngReader) source).interfaces().get(0);
            assertEquals("lo", idb.name());
            assertEquals(LiveCaptureOptions.DEFAULT_FILTER, idb.filter());
            assertEquals(LiveCapture.operatingSystem(), idb.os());
            assertEquals(LinkTypes.ETHERNET, idb.linkType());
        }
        assertEquals(total, read.size());
        for (int i = 0; i < read.size(); i++) {
            assertArrayEquals(consumer.seen.get(i).bytes(), read.get(i).toByteArray(), "bytes of frame " + (i + 1));
        }

        // tshark agrees: the same opcodes and PSNs from our source port.
        Tshark.assumeInstalled();
        List<String> lines = Tshark.fields(file, "udp.srcport", "infiniband.bth.opcode", "infiniband.bth.psn");
        assertEquals(total, lines.size());
        List<String> expected = new ArrayList<>();
        List<String> fromUs = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            expected.add(roceSource + "\t" + RoceTraffic.opcode(i) + "\t" + i);
        }
        for (String line : lines) {
            if (line.startsWith(roceSource + "\t")) {
                fromUs.add(line);
            }
        }
        assertEquals(expected, fromUs);
    }

    @Test
    void theDirectReadAndPcap4jsReadDeliverIdenticalFrames() throws Exception {
        LiveTestSupport.assumeCanCapture("lo");
        int n = 50;
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            String filter = "udp dst port 4791 and udp src port " + socket.getLocalPort();
            LiveCapture direct = LiveCapture.open(LiveCaptureOptions.on("lo").withFilter(filter).withMaxFrames(n), true);
            LiveCapture viaPcap4j = LiveCapture.open(LiveCaptureOptions.on("lo").withFilter(filter).withMaxFrames(n), false);
            try {
                assertEquals("direct", direct.readPath());
                assertEquals("pcap4j", viaPcap4j.readPath());
                direct.start();
                viaPcap4j.start();
                InetAddress lo = InetAddress.getByName("127.0.0.1");
                for (int i = 0; i < n; i++) {
                    byte[] payload = RoceTraffic.transport(i, i * 3);
                    socket.send(new DatagramPacket(payload, payload.length, lo, 4791));
                }
                long firstStamp = 0;
                for (int i = 0; i < n; i++) {
                    Frame a = direct.next();
                    Frame b = viaPcap4j.next();
                    assertTrue(a != null && b != null, "frame " + (i + 1));
                    assertArrayEquals(b.toByteArray(), a.toByteArray(), "bytes of frame " + (i + 1));
                    assertEquals(b.timeNanos(), a.timeNanos(), "timestamp of frame " + (i + 1));
                    assertEquals(b.wireLength(), a.wireLength());
                    assertEquals(b.capturedLength(), a.capturedLength());
                    assertEquals(i + 1, a.number());
                    if (i == 0) {
                        firstStamp = a.timeNanos();
                    }
                }
                assertNull(direct.next());
                assertNull(viaPcap4j.next());
                assertEquals(LiveCapture.StopReason.FRAME_COUNT, direct.stopReason());
                // Epoch nanoseconds, read from the pcap_pkthdr in place: close to now.
                long now = java.time.Instant.now().toEpochMilli() * 1_000_000L;
                assertTrue(Math.abs(now - firstStamp) < 60_000_000_000L, "timestamp " + firstStamp);
            } finally {
                direct.close();
                viaPcap4j.close();
            }
        }
    }
}
