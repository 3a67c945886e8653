package io.rdmascope.capture.live;

import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Capture on a real Ethernet link: a veth pair between this host's namespace and a fresh network
 * namespace. rdmascope captures on the host end while a separate JVM inside the namespace sends
 * RoCEv2 and unrelated UDP across the pair. Needs root and a working {@code ip netns}; skips,
 * saying why, otherwise. The namespace (and with it both veth ends) is always deleted.
 */
class NamespaceCaptureTest {
    private static final int N = 100;

    @Test
    void capturesRoceSentFromAnotherNamespaceAcrossAVethPair() throws Exception {
        LiveTestSupport.assumeCanCapture("lo");
        String tag = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
        String ns = "rdmascope-test-" + tag;
        String hostEnd = "rsh" + tag;     // interface names: at most 15 characters
        String nsEnd = "rsn" + tag;
        int subnet = ThreadLocalRandom.current().nextInt(0, 64) * 4;   // 10.231.255.N/30
        String hostIp = "10.231.255." + (subnet + 1);
        String nsIp = "10.231.255." + (subnet + 2);

        LiveTestSupport.Run add = LiveTestSupport.run(10, "ip", "netns", "add", ns);
        assumeTrue(add.status() == 0, "SKIPPED: 'ip netns add' does not work here: " + add.output().strip());
        try {
            sh("ip", "link", "add", hostEnd, "type", "veth", "peer", "name", nsEnd);
            sh("ip", "link", "set", nsEnd, "netns", ns);
            sh("ip", "addr", "add", hostIp + "/30", "dev", hostEnd);
            sh("ip", "link", "set", hostEnd, "up");
            sh("ip", "netns", "exec", ns, "ip", "addr", "add", nsIp + "/30", "dev", nsEnd);
            sh("ip", "netns", "exec", ns, "ip", "link", "set", nsEnd, "up");

            LiveCapture capture = LiveCapture.open(LiveCaptureOptions.on(hostEnd));
            LiveTestSupport.Consumer consumer = new LiveTestSupport.Consumer(capture, null);
            try {
                assertEquals(LinkTypes.ETHERNET, capture.linkType());
                capture.start();
                consumer.start();
                List<String> sender = new ArrayList<>(List.of("ip", "netns", "exec", ns, LiveTestSupport.java(),
                        "-cp", System.getProperty("java.class.path"), RoceTraffic.class.getName(),
                        hostIp, "4791", Integer.toString(N), "0", "48", "4792"));
                LiveTestSupport.Run sent = LiveTestSupport.run(sender, 60);
                assertEquals(0, sent.status(), sent.output());
                assertTrue(sent.output().startsWith("sent " + N + " "), sent.output());
                capture.stop();
                assertTrue(capture.awaitStopped(Duration.ofSeconds(5)));
                consumer.join(5000);
            } finally {
                capture.close();
            }
            assertNull(consumer.failure, () -> "consumer failed: " + consumer.failure);
            // The link is ours alone: exactly the N RoCE frames, in order, and nothing else.
            assertEquals(N, consumer.seen.size(), "frames captured on " + hostEnd);
            for (int i = 0; i < N; i++) {
                LiveTestSupport.Seen s = consumer.seen.get(i);
                assertEquals(4791, s.udpDestination());
                assertEquals(RoceTraffic.opcode(i), s.opcode(), "opcode of frame " + i);
                assertEquals(i, s.psn(), "PSN of frame " + i);
                // Real Ethernet: the source MAC is the namespace end's, not zero as on lo.
                assertTrue(s.bytes()[6] != 0 || s.bytes()[7] != 0 || s.bytes()[11] != 0, "source MAC");
            }
            CaptureStatistics stats = capture.statistics();
            assertEquals(N, stats.captured());
            assertEquals(0, stats.droppedByKernel() + stats.droppedByQueue());
            assertTrue(stats.droppedByInterface() >= 0);
        } finally {
            LiveTestSupport.run(10, "ip", "netns", "del", ns);
            LiveTestSupport.run(10, "ip", "link", "del", hostEnd);   // gone with the namespace; just in case
        }
    }

    private static void sh(String... command) throws Exception {
        LiveTestSupport.Run r = LiveTestSupport.run(10, command);
        assertEquals(0, r.status(), String.join(" ", command) + ": " + r.output());
    }
}
