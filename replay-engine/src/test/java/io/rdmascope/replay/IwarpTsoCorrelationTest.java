package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.iwarp.IwarpFrame;
import io.rdmascope.samples.IwarpTsoScenario;
import io.rdmascope.samples.Trace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20, iWARP segments cut by TCP segmentation offload: the initiator's host captures its large segments
 * before its NIC cuts them, the switch sees the MSS-sized pieces ({@link IwarpTsoScenario}). Checked against the
 * generator's truth: every segment matched (a whole by its pieces), no loss where none was planted, the clock
 * offset within its bound, one-way delays read at the first byte and exact once the offset's error is taken
 * out; the union replays each byte once and finds the host's own messages.
 */
class IwarpTsoCorrelationTest {
    private static final long[] SEEDS = {1, 2, 3, 4};
    private static final DissectorChain CHAIN = DissectorChain.standard();

    private static List<Frame> frames(List<Trace.CapturedFrame> captured) {
        List<Frame> out = new ArrayList<>();
        for (Trace.CapturedFrame f : captured) {
            out.add(Frame.of(out.size() + 1, f.timeNanos(), f.linkType(), f.bytes()));
        }
        return out;
    }

    /** Feeds one point's frames; returns how many were iWARP segments. */
    private static int feed(Correlation c, int point, List<Frame> frames, ReplayResult replay) {
        Dissection d = new Dissection();
        int iwarp = 0;
        for (Frame f : frames) {
            CHAIN.dissect(f, d);
            c.accept(point, d);
            iwarp += IwarpFrame.of(d) != null ? 1 : 0;
            if (replay != null) {
                replay.accept(d);
            }
        }
        return iwarp;
    }

    @Test
    void everySegmentIsMatchedByItsPiecesWithNoFalseLossAndDelaysAtTheFirstByte() {
        for (long seed : SEEDS) {
            IwarpTsoScenario.Run run = IwarpTsoScenario.generate(seed);
            IwarpTsoScenario.Truth truth = run.truth();
            String where = "seed " + seed;
            assertTrue(truth.wholes() >= 4, where + ": the host's capture holds segments its NIC cut: " + truth.wholes());
            Correlation c = new Correlation(List.of("host", "switch"));
            int atHost = feed(c, 0, frames(run.host()), null);
            int atSwitch = feed(c, 1, frames(run.atSwitch()), null);
            Correlation.Result r = c.result();
            int pieces = truth.segments().stream().mapToInt(s -> s.switchFrames().size() - 1).sum();
            assertEquals(atHost + pieces, atSwitch, where + ": the switch sees each whole's pieces");
            // Every iWARP segment of the host is one packet, seen at both points (a whole by its pieces).
            assertEquals(List.of((long) atHost, (long) atSwitch), r.packets().packets(), where);
            assertEquals(atHost, r.packets().distinct(), where + ": " + r.packets());
            assertEquals(atHost, r.packets().multiSighted(), where + ": " + r.packets());
            assertEquals(List.of(), r.lost(), where + ": nothing was lost");

            Correlation.ClockOffset o = r.clockOffsets().get(0);
            assertNotNull(o.offsetNs(), where + ": " + o.note());
            long error = o.offsetNs() - truth.switchClockOffsetNs();
            assertTrue(Math.abs(error) <= o.boundNs(), where + ": " + o + " misses " + truth.switchClockOffsetNs());

            // Per direction, the delays of the segments both saw: read at the first byte, off by the offset's error.
            for (Correlation.Delay d : r.oneWayDelays()) {
                boolean fromHost = d.from().equals("host");
                List<Long> expected = new ArrayList<>();
                for (IwarpTsoScenario.Segment s : truth.segments()) {
                    if (s.fromHost() == fromHost && s.switchFrames().size() > 0 && identified(run, s)) {
                        expected.add(fromHost ? s.firstByteDelayNs() - error : -s.firstByteDelayNs() + error);
                    }
                }
                expected.sort(null);
                String what = where + ": " + d;
                assertEquals(expected.size(), d.packets(), what);
                assertEquals(expected.get(0), d.minNs(), what);
                assertEquals(expected.get(expected.size() / 2), d.medianNs(), what);
                assertEquals(expected.get(expected.size() - 1), d.maxNs(), what);
            }
            assertEquals(2, r.oneWayDelays().size(), where);
        }
    }

    @Test
    void thinkTimeRunsFromTheRequestsLastByteAtTheSwitch() {
        for (long seed : SEEDS) {
            IwarpTsoScenario.Run run = IwarpTsoScenario.generate(seed);
            Correlation c = new Correlation(List.of("host", "switch"));
            ReplayResult host = new ReplayResult();
            feed(c, 0, frames(run.host()), host);
            feed(c, 1, frames(run.atSwitch()), null);
            Correlation.Result r = c.result(host.finish().messages());
            // Per switch frame: whether it ends a host segment (its last piece), and whether the host sent it.
            int n = run.atSwitch().size();
            boolean[] lastPiece = new boolean[n + 1];
            boolean[] fromHost = new boolean[n + 1];
            for (IwarpTsoScenario.Segment s : run.truth().segments()) {
                for (int f : s.switchFrames()) {
                    fromHost[f] = s.fromHost();
                }
                lastPiece[s.switchFrames().get(s.switchFrames().size() - 1)] = true;
            }
            int checked = 0;
            for (Correlation.MessageDelay m : r.messages()) {
                Correlation.ThinkTime think = m.thinkTime();
                assertNotNull(think, "seed " + seed + ": " + m);
                assertEquals("switch", think.requestAt(), m.toString());
                assertEquals("switch", think.responseAt(), m.toString());
                // The request's last piece and the first of the responder's frames after it, nothing of the host's
                // between: a whole read at its first byte would count the rest of its pieces as thinking.
                boolean found = false;
                for (int l = 1; l <= n && !found; l++) {
                    if (!fromHost[l] || !lastPiece[l]) {
                        continue;
                    }
                    int next = l + 1;
                    while (next <= n && !fromHost[next] && run.atSwitch().get(next - 1).timeNanos()
                            - run.atSwitch().get(l - 1).timeNanos() < think.ns()) {
                        next++;
                    }
                    found = next <= n && !fromHost[next] && run.atSwitch().get(next - 1).timeNanos()
                            - run.atSwitch().get(l - 1).timeNanos() == think.ns();
                }
                assertTrue(found, "seed " + seed + ": " + m);
                checked++;
            }
            assertTrue(checked >= 5, "seed " + seed);
        }
    }

    @Test
    void piecesWhoseFpduCrcsDifferFromTheWholesAreNotItsPieces() {
        IwarpTsoScenario.Run run = IwarpTsoScenario.generate(1);
        IwarpTsoScenario.Segment whole = run.truth().segments().stream().filter(s -> s.switchFrames().size() > 1)
                .findFirst().orElseThrow();
        // The second piece's MPA CRC (its last four bytes, one FPDU per piece) changed on the way: other bytes.
        List<Frame> atSwitch = frames(run.atSwitch());
        int second = whole.switchFrames().get(1);
        Frame f = atSwitch.get(second - 1);
        byte[] bytes = new byte[f.capturedLength()];
        f.buffer().duplicate().position(f.offset()).get(bytes);
        bytes[bytes.length - 1] ^= 0x5A;
        atSwitch.set(second - 1, Frame.of(second, f.timeNanos(), f.linkType(), bytes));
        Correlation c = new Correlation(List.of("host", "switch"));
        feed(c, 0, frames(run.host()), null);
        feed(c, 1, atSwitch, null);
        Correlation.Result r = c.result();
        // That whole stays unmatched: lost between the points, its pieces missed by the host's capture.
        Correlation.Loss lost = r.lost().stream().filter(Correlation.Loss::onTheWire).findFirst().orElseThrow();
        assertEquals(whole.hostFrame(), lost.lastSeenFrame(), r.lost().toString());
        assertEquals(whole.seq(), lost.psn() & 0xFFFF_FFFFL);
        assertEquals(whole.switchFrames().size(), r.lost().size() - 1, r.lost().toString());
    }

    /** Whether the host's frame of segment {@code s} is an iWARP connection's (the SYN handshake is not). */
    private static boolean identified(IwarpTsoScenario.Run run, IwarpTsoScenario.Segment s) {
        List<Frame> host = frames(run.host());
        Dissection d = new Dissection();
        for (Frame f : host) {
            CHAIN.dissect(f, d);
            if (f.number() == s.hostFrame()) {
                return IwarpFrame.of(d) != null;
            }
        }
        throw new AssertionError("no host frame " + s.hostFrame());
    }

    @Test
    void theUnionHoldsEachByteOnceAndReplaysTheHostsMessages() throws Exception {
        for (long seed : SEEDS) {
            IwarpTsoScenario.Run run = IwarpTsoScenario.generate(seed);
            String where = "seed " + seed;
            VantageUnion u = VantageUnion.index(List.of(IwarpCorrelationTest.point("host", frames(run.host())),
                    IwarpCorrelationTest.point("switch", frames(run.atSwitch()))), CHAIN, d -> true, -1);
            ReplayResult union = new ReplayResult();
            int count = 0;
            Dissection d = new Dissection();
            try (VantageUnion.FrameSource frames = u.frames()) {
                for (Frame f; (f = frames.next()) != null; ) {
                    CHAIN.dissect(f, d);
                    union.accept(d);
                    count++;
                }
            }
            // The switch's pieces add no frame: each whole is one union frame, sighted at the switch by the
            // piece with its first byte.
            assertEquals(run.host().size(), count, where);
            for (IwarpTsoScenario.Segment s : run.truth().segments()) {
                long unionFrame = u.unionFrameOf(0, s.hostFrame());
                assertTrue(unionFrame > 0, where + ": host frame " + s.hostFrame());
                List<VantageUnion.Sighting> seen = u.sightings(unionFrame);
                if (u.identified(unionFrame)) {
                    assertEquals(List.of(new VantageUnion.Sighting("host", s.hostFrame()),
                            new VantageUnion.Sighting("switch", s.switchFrames().get(0))), seen, where + ": " + s);
                }
            }
            ReplayResult host = new ReplayResult();
            Dissection h = new Dissection();
            for (Frame f : frames(run.host())) {
                CHAIN.dissect(f, h);
                host.accept(h);
            }
            List<String> expected = summary(host.finish().messages());
            assertTrue(expected.size() >= 5, where + ": " + expected);
            assertEquals(expected, summary(union.finish().messages()), where);
        }
    }

    private static List<String> summary(List<Message> messages) {
        return messages.stream().map(m -> m.kind() + " " + m.bytes() + " B " + m.status()).toList();
    }
}
