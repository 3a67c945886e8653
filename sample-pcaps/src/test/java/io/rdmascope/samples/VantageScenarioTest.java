package io.rdmascope.samples;

import io.rdmascope.samples.VantageScenario.Point;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three-point run ({@link VantageScenario}) says of itself what its captures hold: every sighting is a
 * frame of that point's capture with the same bytes and the stamp of its clock, a packet lost on a link is
 * seen exactly at the points before it, its retransmission everywhere, and time runs forward along each path.
 */
class VantageScenarioTest {
    private static final long[] SEEDS = {1, 2, 3, 91, 92};
    private static final List<String> REQUEST_PATH = List.of("requester", "switch", "responder");
    private static final List<String> RESPONSE_PATH = List.of("responder", "switch", "requester");

    @Test
    void everySightingIsItsPointsFrameWithTheSameBytesAndItsClocksStamp() {
        for (long seed : SEEDS) {
            for (boolean drift : new boolean[]{false, true}) {
                VantageScenario.Run run = VantageScenario.generate(seed, drift);
                VantageTruth t = run.truth();
                int[] seen = new int[Point.values().length];
                for (VantageTruth.Packet p : t.sightings()) {
                    byte[] bytes = null;
                    for (VantageTruth.Sighting s : p.seen()) {
                        Point point = Point.valueOf(s.at().toUpperCase(java.util.Locale.ROOT));
                        Trace.CapturedFrame f = run.captures().get(point).get(s.frame() - 1);
                        assertEquals(s.stampNs(), f.timeNanos(), "seed " + seed + " packet " + p.id());
                        VantageTruth.Point clock = t.vantagePoints().get(point.ordinal());
                        assertEquals(s.trueNs() + clock.clockOffsetNs()
                                + Math.round(clock.clockDriftPpm() * (s.trueNs() - t.startNanos()) / 1e6), s.stampNs());
                        if (bytes != null) {
                            assertArrayEquals(bytes, f.bytes(), "the same bytes at every point");
                        }
                        bytes = f.bytes();
                        seen[point.ordinal()]++;
                    }
                }
                for (Point p : Point.values()) {
                    List<Trace.CapturedFrame> frames = run.captures().get(p);
                    assertEquals(frames.size(), seen[p.ordinal()], "every frame is some packet's sighting");
                    assertEquals(frames.size(), t.vantagePoints().get(p.ordinal()).frames());
                    for (int i = 1; i < frames.size(); i++) {
                        assertTrue(frames.get(i).timeNanos() >= frames.get(i - 1).timeNanos(), "in stamp order");
                    }
                }
            }
        }
    }

    @Test
    void aLostPacketIsSeenBeforeItsLinkOnlyAndItsRetransmissionEverywhere() {
        for (long seed : SEEDS) {
            VantageTruth t = VantageScenario.generate(seed, false).truth();
            assertEquals(5, t.lost().size());
            for (VantageTruth.Packet p : t.sightings()) {
                List<String> path = p.sender().equals("requester") ? REQUEST_PATH : RESPONSE_PATH;
                List<String> at = p.seen().stream().map(VantageTruth.Sighting::at).toList();
                List<Long> times = p.seen().stream().map(VantageTruth.Sighting::trueNs).toList();
                if (p.lostOn() == null) {
                    assertEquals(REQUEST_PATH, at, "seed " + seed + ": packet " + p.id() + " arrived, seen everywhere");
                } else {
                    String[] link = p.lostOn().split("→");
                    assertEquals(path.subList(0, path.indexOf(link[1])), sorted(at, path), "seed " + seed + ": " + p);
                    assertTrue(path.indexOf(link[1]) == path.indexOf(link[0]) + 1);
                    VantageTruth.Packet again = resent(t, p);
                    assertEquals(3, again.seen().size(), "seed " + seed + ": the resend of " + p);
                }
                List<Long> alongPath = new ArrayList<>();
                for (String point : path) {
                    if (at.contains(point)) {
                        alongPath.add(times.get(at.indexOf(point)));
                    }
                }
                List<Long> ordered = new ArrayList<>(alongPath);
                ordered.sort(null);
                assertEquals(ordered, alongPath, "time runs forward along the path: " + p);
                assertFalse(alongPath.size() > 1 && alongPath.get(0).equals(alongPath.get(1)));
            }
        }
    }

    @Test
    void thinkTimeIsTheTurnaroundForAMessageAnsweredAtOnceAndDelaysAddUpAlongThePath() {
        for (long seed : SEEDS) {
            VantageTruth t = VantageScenario.generate(seed, false).truth();
            assertEquals(13, t.messages().size());
            for (VantageTruth.Message m : t.messages()) {
                assertTrue(m.thinkNs() >= 1_500, m.toString()); // the responder's turnaround draws 1.5–4 µs
                Map<String, Long> hops = new java.util.HashMap<>();
                m.delays().forEach(h -> hops.put(h.from() + h.to(), h.ns()));
                assertEquals(3, hops.size(), m.toString());
                assertEquals(hops.get("requesterresponder"), hops.get("requesterswitch") + hops.get("switchresponder"));
                assertTrue(hops.values().stream().allMatch(ns -> ns > 0));
                // The turnaround at the responder's host holds the think time, and more only when the message
                // had several packets or its answer was resent.
                if (m.turnaround() != null) {
                    assertTrue(m.thinkNs() <= m.turnaround().ns(), m.toString());
                }
            }
            // A one-packet request answered by one response, never resent: think time is the whole turnaround.
            VantageTruth.Message first = t.messages().get(0);
            assertEquals("SEND", first.kind());
            assertEquals(first.thinkNs(), first.turnaround().ns());
        }
    }

    @Test
    void driftChangesTheTimesNotThePackets() {
        VantageScenario.Run still = VantageScenario.generate(5, false);
        VantageScenario.Run drifting = VantageScenario.generate(5, true);
        for (Point p : Point.values()) {
            List<Trace.CapturedFrame> a = still.captures().get(p);
            List<Trace.CapturedFrame> b = drifting.captures().get(p);
            assertEquals(a.size(), b.size());
            for (int i = 0; i < a.size(); i++) {
                assertTrue(Arrays.equals(a.get(i).bytes(), b.get(i).bytes()), p + " frame " + (i + 1));
            }
        }
        assertTrue(drifting.truth().vantagePoints().stream().allMatch(v -> Math.abs(v.clockDriftPpm()) >= 2
                && Math.abs(v.clockDriftPpm()) <= 20));
        assertTrue(still.truth().vantagePoints().stream().allMatch(v -> v.clockDriftPpm() == 0));
    }

    /** {@code at} in path order (a point's sightings are listed in the points' declaration order). */
    private static List<String> sorted(List<String> at, List<String> path) {
        List<String> out = new ArrayList<>(at);
        out.sort(java.util.Comparator.comparingInt(path::indexOf));
        return out;
    }

    /** The next emission of the same PSN and opcode the same way: the recovery's resend. */
    private static VantageTruth.Packet resent(VantageTruth t, VantageTruth.Packet lost) {
        return t.sightings().stream().filter(p -> p.id() > lost.id() && p.retransmission()
                        && p.psn() == lost.psn() && p.opcode().equals(lost.opcode()) && p.destQp() == lost.destQp())
                .findFirst().orElseThrow(() -> new AssertionError("never resent: " + lost));
    }
}
