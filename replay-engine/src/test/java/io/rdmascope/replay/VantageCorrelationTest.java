package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.Trace;
import io.rdmascope.samples.VantageScenario;
import io.rdmascope.samples.VantageScenario.Point;
import io.rdmascope.samples.VantageTruth;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20, item 7: {@link Correlation} on one generated run seen at the requester's host, a switch mirror
 * and the responder's host ({@link VantageScenario}), checked against the run's truth: every sighting
 * matched, every pair's clock offset within its bound, every loss on its link, every one-way delay exact
 * once the offset's own error is taken out, and the turnaround at the responder's host exact; with clocks
 * that drift, the offset within its bound at every packet, and delays and turnarounds within what the bound
 * and the drift allow.
 */
class VantageCorrelationTest {
    /** Seeds played: each draws its own clock offsets, link delays, queueing and payloads. */
    static final long[] SEEDS = {1, 2, 3, 4, 5, 6, 7, 8};

    /** One run correlated: its truth, the account, and the requester capture's replayed messages. */
    record Correlated(long seed, boolean drift, VantageTruth truth, Correlation.Result result) {
        String where() {
            return "seed " + seed + (drift ? " with drift" : "");
        }

        /** The truth's clock of pair (from, to). */
        VantageTruth.PairClock clock(String from, String to) {
            return truth.clockOffsets().stream().filter(c -> c.from().equals(from) && c.to().equals(to)).findFirst()
                    .orElseThrow();
        }

        Correlation.ClockOffset offset(String from, String to) {
            return result.clockOffsets().stream().filter(c -> c.from().equals(from) && c.to().equals(to))
                    .findFirst().orElseThrow();
        }
    }

    /** Plays {@code seed}, feeds the three captures in the requester, switch, responder order, and correlates. */
    static Correlated correlate(long seed, boolean drift) {
        return correlate(seed, drift, (point, frame) -> false);
    }

    /** What a point's capture missed: frames (numbered as the generator wrote them) never fed. */
    interface Missed {
        boolean missed(Point point, long frame);
    }

    /** {@link #correlate(long, boolean)}, with the frames {@code missed} names left out of their captures. */
    static Correlated correlate(long seed, boolean drift, Missed missed) {
        VantageScenario.Run run = VantageScenario.generate(seed, drift);
        List<String> names = new ArrayList<>();
        for (Point p : Point.values()) {
            names.add(p.id());
        }
        Correlation c = new Correlation(names);
        DissectorChain chain = DissectorChain.standard();
        ReplayResult requester = new ReplayResult();
        for (Point p : Point.values()) {
            long number = 1;
            for (Trace.CapturedFrame f : run.captures().get(p)) {
                if (missed.missed(p, number)) {
                    number++;
                    continue;
                }
                Dissection d = new Dissection();
                chain.dissect(Frame.of(number++, f.timeNanos(), f.linkType(), f.bytes()), d);
                c.accept(p.ordinal(), d);
                if (p == Point.REQUESTER) {
                    requester.accept(d);
                }
            }
        }
        return new Correlated(seed, drift, run.truth(), c.result(requester.finish().messages()));
    }

    @Test
    void everyPacketsSightingsAreMatched() {
        for (long seed : SEEDS) {
            for (boolean drift : new boolean[]{false, true}) {
                Correlated r = correlate(seed, drift);
                Correlation.Counts counts = r.result().packets();
                List<Long> frames = r.truth().vantagePoints().stream().map(p -> (long) p.frames()).toList();
                assertEquals(frames, counts.frames(), r.where());
                assertEquals(r.truth().packets().perPoint().stream().map(Integer::longValue).toList(), counts.packets(),
                        r.where());
                assertEquals(r.truth().packets().distinct(), counts.distinct(), r.where());
                assertEquals(r.truth().packets().multiSighted(), counts.multiSighted(), r.where());
            }
        }
    }

    @Test
    void everyClockOffsetLiesWithinItsBoundOfTheTruth() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, false);
            assertEquals(3, r.result().clockOffsets().size());
            for (Correlation.ClockOffset o : r.result().clockOffsets()) {
                assertNotNull(o.offsetNs(), r.where() + ": " + o);
                long truth = r.clock(o.from(), o.to()).offsetNs();
                assertTrue(Math.abs(o.offsetNs() - truth) <= o.boundNs(),
                        r.where() + ": " + o.from() + " → " + o.to() + " " + o.offsetNs() + " ± " + o.boundNs()
                                + " misses " + truth);
                // The bound is half the narrowest round trip between the two points: below the slowest one.
                assertTrue(o.boundNs() > 0 && o.boundNs() < 3_000, r.where() + ": " + o);
            }
        }
    }

    @Test
    void everyLossIsLocatedOnTheLinkItHappenedOn() {
        for (long seed : SEEDS) {
            for (boolean drift : new boolean[]{false, true}) {
                Correlated r = correlate(seed, drift);
                Set<String> expected = new HashSet<>();
                for (VantageTruth.Loss l : r.truth().lost()) {
                    expected.add(l.direction() + " " + l.destQp() + " " + l.psn() + " " + l.opcode() + " seen at "
                            + l.lastSeenAt() + " frame " + l.lastSeenFrame() + ", never at " + l.missingAt());
                }
                Set<String> found = new HashSet<>();
                for (Correlation.Loss l : r.result().lost()) {
                    assertTrue(l.onTheWire(), r.where() + ": every point captured everything that passed it: " + l);
                    assertEquals(1, l.copies(), r.where() + ": " + l);
                    found.add(l.direction() + " " + l.destQp() + " " + l.psn() + " " + l.opcode() + " seen at "
                            + l.lastSeenAt() + " frame " + l.lastSeenFrame() + ", never at " + l.missingAt());
                }
                // One loss on each direction of each link: requests on both links, responses on both.
                assertEquals(5, expected.size(), r.where());
                assertEquals(Set.of("requester→switch", "switch→responder", "responder→switch", "switch→requester"),
                        new HashSet<>(r.truth().lost().stream().map(VantageTruth.Loss::link).toList()), r.where());
                assertEquals(expected, found, r.where());
            }
        }
    }

    @Test
    void everyMessagesOneWayDelaysAreExactOnceTheOffsetsErrorIsTakenOut() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, false);
            Map<Long, VantageTruth.Message> truth = byRequesterFrame(r.truth());
            assertEquals(truth.size(), r.result().messages().size(), r.where());
            int hops = 0;
            for (Correlation.MessageDelay m : r.result().messages()) {
                VantageTruth.Message t = truth.get(m.frame());
                assertNotNull(t, r.where() + ": no message in the truth starts at requester frame " + m.frame());
                assertEquals(t.firstPsn(), m.firstPsn(), r.where());
                List<Correlation.Hop> expected = new ArrayList<>();
                for (VantageTruth.Hop h : t.delays()) {
                    // Measured with the estimated offset: off by exactly the estimate's error, never more.
                    long error = r.offset(h.from(), h.to()).offsetNs() - r.clock(h.from(), h.to()).offsetNs();
                    expected.add(new Correlation.Hop(h.from(), h.to(), h.ns() - error));
                }
                assertEquals(expected, m.delays(), r.where() + ": message at requester frame " + m.frame());
                hops += m.delays().size();
            }
            assertTrue(hops >= 3 * truth.size() - 2, r.where() + ": the first packet of nearly every message passed all three");
        }
    }

    @Test
    void perDirectionDelaysAreTheTruthsShiftedByTheOffsetsError() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, false);
            for (Correlation.Delay d : r.result().oneWayDelays()) {
                List<Long> truth = new ArrayList<>();
                for (VantageTruth.Packet p : r.truth().sightings()) {
                    Long from = trueTime(p, d.from());
                    Long to = trueTime(p, d.to());
                    if (from != null && to != null && p.direction().equals(d.direction())) {
                        truth.add(to - from);
                    }
                }
                truth.sort(null);
                // The delay runs from d.from() to d.to(); the offset the estimator gave may be the reverse pair's.
                boolean forward = isPair(r, d.from(), d.to());
                long error = forward ? r.offset(d.from(), d.to()).offsetNs() - r.clock(d.from(), d.to()).offsetNs()
                        : r.clock(d.to(), d.from()).offsetNs() - r.offset(d.to(), d.from()).offsetNs();
                String what = r.where() + ": " + d;
                assertEquals(truth.size(), d.packets(), what);
                assertEquals(truth.get(0) - error, d.minNs(), what);
                assertEquals(truth.get(truth.size() / 2) - error, d.medianNs(), what);
                assertEquals(truth.get(truth.size() - 1) - error, d.maxNs(), what);
            }
            assertEquals(6, r.result().oneWayDelays().size(), r.where() + ": both ways between every two points");
        }
    }

    @Test
    void theTurnaroundAtTheRespondersHostIsTheTruths() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, false);
            Map<Long, VantageTruth.Message> truth = byRequesterFrame(r.truth());
            int atResponder = 0;
            for (Correlation.MessageDelay m : r.result().messages()) {
                VantageTruth.Message t = truth.get(m.frame());
                if (t.turnaround() == null) {
                    assertTrue(m.turnaround() == null || !m.turnaround().at().equals("responder"), r.where() + ": " + m);
                    continue;
                }
                assertEquals(new Correlation.Turnaround(t.turnaround().at(), t.turnaround().ns()), m.turnaround(),
                        r.where() + ": message at requester frame " + m.frame());
                atResponder++;
            }
            assertTrue(atResponder >= truth.size() - 1, r.where());
        }
    }

    @Test
    void theThinkTimeAtTheRespondersHostAndTheFabricTimeAreTheTruths() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, false);
            Map<Long, VantageTruth.Message> truth = byRequesterFrame(r.truth());
            int measured = 0;
            for (Correlation.MessageDelay m : r.result().messages()) {
                VantageTruth.Message t = truth.get(m.frame());
                if (t.thinkNs() == null) {
                    assertEquals(null, m.thinkTime(), r.where() + ": " + m);
                    continue;
                }
                Correlation.ThinkTime think = m.thinkTime();
                String what = r.where() + ": message at requester frame " + m.frame() + ", " + think;
                assertNotNull(think, what);
                assertEquals(new Correlation.ThinkTime(t.thinkNs(), 0, "responder", "responder", t.fabricNs(),
                        "requester"), think, what);
                measured++;
            }
            assertEquals(truth.values().stream().filter(t -> t.thinkNs() != null).count(), measured, r.where());
            assertTrue(measured >= truth.size() - 1, r.where() + ": every completed message");
            thinkTimesPerConversationSummarise(r);
        }
    }

    /** Each conversation's min, median and max are those of its messages' think and fabric times. */
    private static void thinkTimesPerConversationSummarise(Correlated r) {
        assertEquals(3, r.result().thinkTimes().size(), r.where() + ": one per QP");
        for (Correlation.ConversationThinkTime c : r.result().thinkTimes()) {
            List<Long> think = new ArrayList<>();
            List<Long> fabric = new ArrayList<>();
            for (Correlation.MessageDelay m : r.result().messages()) {
                if (m.conversation().equals(c.conversation()) && m.thinkTime() != null) {
                    think.add(m.thinkTime().ns());
                    fabric.add(m.thinkTime().fabricNs());
                }
            }
            think.sort(null);
            fabric.sort(null);
            assertEquals(new Correlation.ConversationThinkTime(c.conversation(), think.size(), think.get(0),
                    think.get(think.size() / 2), think.get(think.size() - 1), 0, fabric.size(), fabric.get(0),
                    fabric.get(fabric.size() / 2), fabric.get(fabric.size() - 1)), c, r.where());
        }
    }

    @Test
    void withDriftingClocksTheThinkTimeIsOffOnlyByTheRespondersRate() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, true);
            Map<Long, VantageTruth.Message> truth = byRequesterFrame(r.truth());
            for (Correlation.MessageDelay m : r.result().messages()) {
                VantageTruth.Message t = truth.get(m.frame());
                if (t.thinkNs() == null) {
                    continue;
                }
                Correlation.ThinkTime think = m.thinkTime();
                String what = r.where() + ": " + m;
                assertEquals("responder", think.requestAt(), what);
                assertEquals("responder", think.responseAt(), what);
                // Two stamps of one clock: off by that clock's rate over the think time, and their rounding.
                double responder = drift(r, "responder");
                assertTrue(Math.abs(think.ns() - t.thinkNs()) <= Math.abs(responder) * t.thinkNs() / 1e6 + 2, what);
                long roundTrip = t.fabricNs() + t.thinkNs();
                assertTrue(Math.abs(think.fabricNs() - t.fabricNs())
                        <= Math.abs(drift(r, "requester")) * roundTrip / 1e6 + Math.abs(responder) * t.thinkNs() / 1e6
                        + 4, what);
            }
        }
    }

    @Test
    void aResponseTheRespondersCaptureMissedIsReadAtTheSwitchWithinTheOffsetsBound() {
        for (long seed : SEEDS) {
            VantageTruth plain = VantageScenario.generate(seed, false).truth();
            // Every other message's answer left the responder without its capture seeing it.
            Set<Long> missedAtResponder = new HashSet<>();
            Set<Long> affected = new HashSet<>();
            int k = 0;
            for (VantageTruth.Message t : plain.messages()) {
                if (t.thinkResponse() != null && k++ % 2 == 1) {
                    missedAtResponder.add((long) sighting(plain.sightings().get(t.thinkResponse() - 1), "responder")
                            .frame());
                    affected.add((long) t.requesterFrame());
                }
            }
            Correlated r = correlate(seed, false, (p, f) -> p == Point.RESPONDER && missedAtResponder.contains(f));
            Map<Long, VantageTruth.Message> truth = byRequesterFrame(r.truth());
            int checked = 0;
            for (Correlation.MessageDelay m : r.result().messages()) {
                VantageTruth.Message t = truth.get(m.frame());
                if (!affected.contains(m.frame())) {
                    continue;
                }
                Correlation.ThinkTime think = m.thinkTime();
                String what = r.where() + ": " + m;
                assertEquals("responder", think.requestAt(), what);
                assertEquals("switch", think.responseAt(), what);
                Correlation.ClockOffset offset = r.offset("switch", "responder");
                assertEquals(offset.boundNs(), think.boundNs(), what);
                assertTrue(think.boundNs() > 0, what);
                // The request's arrival at the responder to the response passing the switch, in true time: the
                // think time and the response's hop to the switch.
                VantageTruth.Packet request = r.truth().sightings().get(t.thinkRequest() - 1);
                VantageTruth.Packet response = r.truth().sightings().get(t.thinkResponse() - 1);
                long expected = sighting(response, "switch").trueNs() - sighting(request, "responder").trueNs();
                assertTrue(Math.abs(think.ns() - expected) <= think.boundNs(), what + " against " + expected);
                assertTrue(think.ns() - think.boundNs() <= expected && expected > t.thinkNs(), what);
                assertEquals("requester", think.fabricAt(), what);
                long roundTrip = sighting(response, "requester").trueNs() - sighting(request, "requester").trueNs();
                assertTrue(Math.abs(think.fabricNs() - (roundTrip - expected)) <= think.boundNs(), what);
                checked++;
            }
            assertEquals(affected.size(), checked, r.where());
            assertTrue(checked >= 5, r.where());
        }
    }

    private static double drift(Correlated r, String point) {
        return r.truth().vantagePoints().stream().filter(v -> v.name().equals(point)).findFirst().orElseThrow()
                .clockDriftPpm();
    }

    @Test
    void withDriftingClocksTheOffsetStaysWithinItsBoundAtEveryPacket() {
        int drifting = 0;
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, true);
            for (Correlation.ClockOffset o : r.result().clockOffsets()) {
                assertNotNull(o.offsetNs(), r.where() + ": " + o);
                long first = Long.MAX_VALUE;
                long last = Long.MIN_VALUE;
                int checked = 0;
                for (VantageTruth.Packet p : r.truth().sightings()) {
                    VantageTruth.Sighting a = sighting(p, o.from());
                    if (a == null || sighting(p, o.to()) == null) {
                        continue;
                    }
                    long truth = stamp(r.truth(), o.to(), a.trueNs()) - a.stampNs();
                    assertTrue(Math.abs(o.at(a.stampNs()) - truth) <= o.boundNs(), r.where() + ": " + o + " at "
                            + a.stampNs() + " gives " + o.at(a.stampNs()) + ", the truth is " + truth);
                    first = Math.min(first, a.stampNs());
                    last = Math.max(last, a.stampNs());
                    checked++;
                }
                assertTrue(checked > 40, r.where());
                // Two lines within the bound of each other at both ends differ in rate by at most this.
                double driftBound = 2.0 * o.boundNs() / (last - first) * 1e6;
                double drift = r.clock(o.from(), o.to()).driftPpm();
                assertTrue(Math.abs(o.driftPpm() - drift) <= driftBound, r.where() + ": drift " + o.driftPpm()
                        + " ppm, the truth " + drift + " ppm, ± " + driftBound);
                if (Math.abs(drift) > driftBound) {
                    assertTrue(o.driftPpm() != 0, r.where() + ": a drift the packets prove is measured: " + o);
                    drifting++;
                }
            }
        }
        assertTrue(drifting >= SEEDS.length, "most pairs drift apart by more than their bound over the run: " + drifting);
    }

    @Test
    void withDriftingClocksDelaysAndTurnaroundsAreWithinWhatTheBoundAndTheDriftAllow() {
        for (long seed : SEEDS) {
            Correlated r = correlate(seed, true);
            Map<Long, VantageTruth.Message> truth = byRequesterFrame(r.truth());
            for (Correlation.MessageDelay m : r.result().messages()) {
                VantageTruth.Message t = truth.get(m.frame());
                assertEquals(t.delays().size(), m.delays().size(), r.where() + ": " + m);
                for (int i = 0; i < t.delays().size(); i++) {
                    VantageTruth.Hop h = t.delays().get(i);
                    Correlation.Hop got = m.delays().get(i);
                    assertEquals(h.from() + h.to(), got.from() + got.to());
                    // The offset's bound, and a nanosecond for the stamps' rounding.
                    long bound = r.offset(h.from(), h.to()).boundNs() + 1;
                    assertTrue(Math.abs(got.ns() - h.ns()) <= bound, r.where() + ": " + got + " against " + h);
                }
                if (m.turnaround() != null) {
                    // Measured on one clock: off only by that clock's rate, and the rounding of two stamps. Which
                    // point is nearest the responder is judged across clocks, so a long turnaround (an ACK
                    // timeout's) may be shortest at the switch when the responder's clock runs slow.
                    String at = m.turnaround().at();
                    long first = sightingAtRequesterFrame(r.truth(), t.requesterFrame(), at).trueNs();
                    long done = sightingAtRequesterFrame(r.truth(), t.completionFrame(), at).trueNs();
                    double drift = r.truth().vantagePoints().stream().filter(v -> v.name().equals(at)).findFirst()
                            .orElseThrow().clockDriftPpm();
                    double allowed = Math.abs(drift) * (done - first) / 1e6 + 2;
                    assertTrue(Math.abs(m.turnaround().ns() - (done - first)) <= allowed,
                            r.where() + ": " + m.turnaround() + " against " + (done - first) + " at " + at);
                    if (t.turnaround() != null && t.turnaround().ns() < 1_000_000) {
                        assertEquals("responder", at, r.where() + ": " + m);
                    }
                }
            }
        }
    }

    /** Where {@code point} saw the packet the requester's capture holds as frame {@code frame}. */
    private static VantageTruth.Sighting sightingAtRequesterFrame(VantageTruth truth, long frame, String point) {
        for (VantageTruth.Packet p : truth.sightings()) {
            VantageTruth.Sighting atRequester = sighting(p, Point.REQUESTER.id());
            if (atRequester != null && atRequester.frame() == frame) {
                return sighting(p, point);
            }
        }
        throw new AssertionError("no packet at requester frame " + frame);
    }

    /** Point {@code point}'s stamp of true time {@code t}, as the generator stamps it (VantageTruth). */
    private static long stamp(VantageTruth truth, String point, long t) {
        VantageTruth.Point p = truth.vantagePoints().stream().filter(v -> v.name().equals(point)).findFirst()
                .orElseThrow();
        return t + p.clockOffsetNs() + Math.round(p.clockDriftPpm() * (t - truth.startNanos()) / 1e6);
    }

    private static VantageTruth.Sighting sighting(VantageTruth.Packet p, String point) {
        return p.seen().stream().filter(s -> s.at().equals(point)).findFirst().orElse(null);
    }

    static Map<Long, VantageTruth.Message> byRequesterFrame(VantageTruth truth) {
        Map<Long, VantageTruth.Message> out = new HashMap<>();
        for (VantageTruth.Message m : truth.messages()) {
            out.put((long) m.requesterFrame(), m);
        }
        return out;
    }

    private static Long trueTime(VantageTruth.Packet p, String point) {
        VantageTruth.Sighting s = sighting(p, point);
        return s == null ? null : s.trueNs();
    }

    private static boolean isPair(Correlated r, String from, String to) {
        return r.truth().clockOffsets().stream().anyMatch(c -> c.from().equals(from) && c.to().equals(to));
    }
}
