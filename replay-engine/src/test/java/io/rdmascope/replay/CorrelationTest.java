package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.samples.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20: two vantage points made from one capture whose truth is known by construction. Point A is
 * the capture itself (at the requester's host); point B sees the same packets with a clock
 * {@code THETA} ahead, requests {@code TO_B} later and responses {@code TO_A} earlier than A (B sits
 * between the hosts), some requests lost between A and B and some responses missed by B's capture.
 */
class CorrelationTest {
    private static final long THETA = 7_250_000_123L; // B's clock is 7.25 s ahead of A's
    private static final long TO_B = 1_300;           // request from A to B: 1.3 µs
    private static final long TO_A = 900;             // response from B to A: 0.9 µs

    private record Built(Correlation.Result result, Set<Long> lostRequests, Set<Long> missedResponses,
                         List<Message> messages) {
    }

    private static Built correlate(Path capture, boolean withResponses) throws IOException {
        Correlation c = new Correlation(List.of("host", "switch"));
        DissectorChain chain = DissectorChain.standard();
        List<Frame> frames = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(capture)) {
            for (Frame f; (f = s.next()) != null; ) {
                frames.add(f);
            }
        }
        Dissection d = new Dissection();
        Set<Long> lost = new HashSet<>();
        Set<Long> missed = new HashSet<>();
        ReplayResult host = new ReplayResult();
        for (Frame f : frames) {
            chain.dissect(f, d);
            host.accept(d);
            boolean request = d.rdma().bthLayer >= 0 && Opcodes.of(d.rdma().opcode).operation().isRequest();
            if (!request && !withResponses) {
                continue;
            }
            c.accept(0, d);
        }
        int requests = 0;
        int responses = 0;
        Dissection e = new Dissection();
        for (Frame f : frames) {
            chain.dissect(f, e);
            if (e.rdma().bthLayer < 0) {
                continue;
            }
            boolean request = Opcodes.of(e.rdma().opcode).operation().isRequest();
            if (!request && !withResponses) {
                continue;
            }
            if (request && ++requests % 5 == 0) {
                lost.add(f.number()); // every fifth request dies between the host and the switch
                continue;
            }
            if (!request && ++responses % 7 == 0) {
                missed.add(f.number()); // every seventh response passes the switch uncaptured
                continue;
            }
            long t = f.timeNanos() + THETA + (request ? TO_B : -TO_A);
            c.accept(1, dissect(chain, shifted(f, t)));
        }
        List<Message> messages = host.finish().messages();
        return new Built(c.result(messages), lost, missed, messages);
    }

    private static Frame shifted(Frame f, long timeNanos) {
        return new Frame(f.number(), timeNanos, f.capturedLength(), f.wireLength(), f.linkType(), f.interfaceId(),
                f.buffer(), f.offset());
    }

    private static Dissection dissect(DissectorChain chain, Frame f) {
        Dissection d = new Dissection();
        chain.dissect(f, d);
        return d;
    }

    private static Path sample(String name) {
        return io.rdmascope.testsupport.SharedFiles.sampleCases().resolve(name).resolve(name + ".pcapng");
    }

    @Test
    void theClockOffsetIsFoundWithinItsBoundAndDelaysAreExact() throws IOException {
        Built b = correlate(sample("rc_read"), true);
        Correlation.ClockOffset o = b.result().clockOffsets().get(0);
        assertEquals("host", o.from());
        assertEquals("switch", o.to());
        assertTrue(o.offsetNs() != null, o.note());
        assertTrue(Math.abs(o.offsetNs() - THETA) <= o.boundNs(), o.offsetNs() + " ± " + o.boundNs() + " misses " + THETA);
        // Constant delays: the midpoint is off by half their difference; the bound is half their sum, and a
        // little more for the drift the packets cannot rule out (ClockFit), under 1 % here.
        assertEquals(THETA + (TO_B - TO_A) / 2, o.offsetNs());
        assertEquals(0.0, o.driftPpm());
        long halfRoundTrip = (TO_B + TO_A) / 2;
        assertTrue(o.boundNs() >= halfRoundTrip && o.boundNs() <= halfRoundTrip * 101 / 100, o.toString());
        List<Correlation.Delay> delays = b.result().oneWayDelays();
        assertEquals(2, delays.size(), delays.toString());
        for (Correlation.Delay d : delays) {
            // Corrected by the midpoint, each way is off by the same half difference, in opposite senses.
            long expected = d.from().equals("host") ? TO_B - (TO_B - TO_A) / 2 : TO_A + (TO_B - TO_A) / 2;
            assertEquals(expected, d.minNs(), d.toString());
            assertEquals(expected, d.maxNs(), d.toString());
        }
    }

    @Test
    void lossesAreLocatedBetweenThePointsAndCaptureMissesToldApart() throws IOException {
        Built b = correlate(sample("rc_read"), true);
        Set<Long> wire = new HashSet<>();
        Set<Long> missed = new HashSet<>();
        for (Correlation.Loss l : b.result().lost()) {
            if (l.onTheWire()) {
                assertEquals("host", l.lastSeenAt());
                assertEquals("switch", l.missingAt());
                wire.add(l.lastSeenFrame());
            } else {
                assertEquals("switch", l.missingAt(), "a response the switch's capture did not show");
                missed.add(l.lastSeenFrame());
            }
        }
        assertTrue(!b.lostRequests().isEmpty() && !b.missedResponses().isEmpty());
        assertEquals(b.lostRequests(), wire);
        assertEquals(b.missedResponses(), missed);
        Correlation.Counts counts = b.result().packets();
        assertEquals(counts.packets().get(0) - b.lostRequests().size() - b.missedResponses().size(),
                counts.multiSighted());
    }

    @Test
    void everyMessageWhoseFirstPacketReachedTheSwitchHasItsOneWayDelay() throws IOException {
        Built b = correlate(sample("rc_read"), true);
        assertEquals(b.messages().size(), b.result().messages().size());
        long expectedRequestHop = TO_B - (TO_B - TO_A) / 2; // corrected by the midpoint (see above)
        int measured = 0;
        for (Correlation.MessageDelay m : b.result().messages()) {
            if (b.lostRequests().contains(m.frame())) {
                assertTrue(m.delays().isEmpty(), "a first packet lost before the switch has no hop: " + m);
                continue;
            }
            assertEquals(List.of(new Correlation.Hop("host", "switch", expectedRequestHop)), m.delays(), m.toString());
            measured++;
        }
        assertTrue(measured > 0);
    }

    @Test
    void theTurnaroundNearestTheResponderIsTheRequestersRoundTripLessBothHops() throws IOException {
        Built b = correlate(sample("rc_read"), true);
        int checked = 0;
        for (int i = 0; i < b.messages().size(); i++) {
            Message m = b.messages().get(i);
            Correlation.MessageDelay d = b.result().messages().get(i);
            Integer done = m.completionFrame();
            if (done == null || b.lostRequests().contains((long) m.frames().get(0))
                    || b.missedResponses().contains((long) done)) {
                continue; // the switch did not see both ends: only the host's turnaround is there
            }
            long hostGap = m.latencyNanos();
            assertEquals(new Correlation.Turnaround("switch", hostGap - TO_B - TO_A), d.turnaround(), m.toString());
            checked++;
        }
        assertTrue(checked > 0);
    }

    @Test
    void oneDirectionAloneLeavesTheOffsetUnknown() throws IOException {
        Built b = correlate(sample("rc_read"), false);
        Correlation.ClockOffset o = b.result().clockOffsets().get(0);
        assertNull(o.offsetNs());
        assertTrue(o.note().contains("one direction only"), o.note());
        assertTrue(b.result().oneWayDelays().isEmpty());
        assertTrue(b.result().lost().isEmpty(), "no order, so no loss is placed");
    }

    /**
     * The packet table holds primitive columns that grow and rehash as packets and directions come: a
     * capture of many host pairs and more packets than the tables start with must still have every packet
     * counted once (against identities gathered independently here), every loss located, and the offset
     * exact. Hosts talk both ways here, so B's delay is set per direction (towards the higher address passes
     * A first) rather than per request and response.
     */
    @Test
    void manyPacketsAndHostPairsGrowTheTablesWithoutLosingAPacket(@TempDir Path dir) throws IOException {
        Path capture = Scenarios.writeMixedLarge(dir, 1, 20_000, 64, true);
        Correlation c = new Correlation(List.of("host", "switch"));
        Set<List<Long>> identities = new HashSet<>();
        Set<List<Long>> directions = new HashSet<>();
        Set<Long> lost = new HashSet<>();
        Set<Long> missed = new HashSet<>();
        DissectorChain chain = DissectorChain.standard();
        PacketFacts facts = new PacketFacts();
        Dissection a = new Dissection();
        Dissection b = new Dissection();
        int upward = 0;
        int downward = 0;
        try (PacketSource s = CaptureFiles.open(capture)) {
            for (Frame f; (f = s.next()) != null; ) {
                chain.dissect(f, a);
                c.accept(0, a);
                if (!facts.read(a) || facts.headersCut || facts.opcode == null) {
                    continue;
                }
                List<Long> addresses = List.of((long) facts.addressKind, facts.srcHi, facts.srcLo, facts.dstHi,
                        facts.dstLo);
                directions.add(addresses);
                List<Long> id = new ArrayList<>(addresses);
                id.addAll(List.of((long) facts.destQp, (long) facts.psn, (long) facts.opcode.code(), facts.icrcValue()));
                identities.add(id);
                boolean up = Long.compareUnsigned(facts.srcLo, facts.dstLo) < 0;
                if (up && ++upward % 5 == 0) {
                    lost.add(f.number());
                } else if (!up && ++downward % 7 == 0) {
                    missed.add(f.number());
                } else {
                    chain.dissect(shifted(f, f.timeNanos() + THETA + (up ? TO_B : -TO_A)), b);
                    c.accept(1, b);
                }
            }
        }
        assertTrue(identities.size() > 4 * 4096 && directions.size() > 16,
                identities.size() + " packets, " + directions.size() + " directions: too few to grow the tables");
        Correlation.Result r = c.result();
        assertEquals(identities.size(), r.packets().distinct());
        assertEquals(identities.size() - lost.size() - missed.size(), r.packets().multiSighted());
        Set<Long> wire = new HashSet<>();
        Set<Long> notCaptured = new HashSet<>();
        for (Correlation.Loss l : r.lost()) {
            (l.onTheWire() ? wire : notCaptured).add(l.lastSeenFrame());
        }
        assertEquals(lost, wire);
        assertEquals(missed, notCaptured);
        Correlation.ClockOffset o = r.clockOffsets().get(0);
        assertTrue(o.offsetNs() != null, o.note());
        assertEquals(THETA + (TO_B - TO_A) / 2, o.offsetNs());
        assertEquals(directions.size(), r.oneWayDelays().size(), "one line of delays per direction");
    }
}
