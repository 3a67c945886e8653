package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.iwarp.IwarpFrame;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20, iWARP: two vantage points made from an iWARP capture (real ones from ../shared/captures-hard, and
 * committed generated cases) whose truth is known by construction.
 * Point "host" is the capture itself, on the MPA initiator's side; point "switch" sees the same frames with a
 * clock {@code THETA} ahead, the initiator's segments {@code TO_SWITCH} later and the responder's
 * {@code TO_HOST} earlier (it sits between the hosts). Planted: one of the initiator's data segments lost
 * between host and switch, one of the responder's missed by the switch's capture, and one of the responder's
 * segments sent again (a TCP retransmission, seen at both points).
 */
class IwarpCorrelationTest {
    private static final long THETA = -3_141_592_653L; // the switch's clock is 3.14 s behind the host's
    private static final long TO_SWITCH = 2_100;
    private static final long TO_HOST = 700;
    private static final long RESENT_AFTER = 250_000;  // the retransmission, 250 µs after its original
    private static final DissectorChain CHAIN = DissectorChain.standard();

    /** A frame of the capture and what the dissection says of it, in capture order. */
    private record Seen(Frame frame, int direction, int payload, long seq) {
        boolean iwarp() {
            return direction >= 0;
        }
    }

    /** A committed generated case ("case:NAME") or a real capture of ../shared/captures-hard (skipped when absent). */
    private static Path capture(String name) {
        if (name.startsWith("case:")) {
            String c = name.substring(5);
            return SharedFiles.sampleCases().resolve(c).resolve(c + ".pcap");
        }
        return SharedFiles.hardCapture(name);
    }

    private static List<Seen> read(Path capture) throws IOException {
        List<Seen> out = new ArrayList<>();
        Dissection d = new Dissection();
        try (PacketSource s = CaptureFiles.open(capture)) {
            for (Frame f; (f = s.next()) != null; ) {
                Frame copy = new Frame(f.number(), f.timeNanos(), f.capturedLength(), f.wireLength(), f.linkType(),
                        f.interfaceId(), java.nio.ByteBuffer.wrap(bytes(f)), 0);
                CHAIN.dissect(copy, d);
                IwarpFrame w = IwarpFrame.of(d);
                out.add(new Seen(copy, w == null ? -1 : w.direction(), w == null ? 0 : w.payloadLength(),
                        w == null ? -1 : w.seq() & 0xFFFF_FFFFL));
            }
        }
        return out;
    }

    private static byte[] bytes(Frame f) {
        byte[] b = new byte[f.capturedLength()];
        f.buffer().duplicate().position(f.offset()).get(b);
        return b;
    }

    private static Frame at(Frame f, long number, long timeNanos) {
        return new Frame(number, timeNanos, f.capturedLength(), f.wireLength(), f.linkType(), f.interfaceId(),
                f.buffer(), f.offset());
    }

    /** The planted run: both points' frames, the lost and the missed segment's host frames, the resent one's. */
    private record Run(List<Frame> host, List<Frame> atSwitch, Seen lost, Seen missed, Seen resent, int iwarpFrames) {
    }

    private static Run plant(List<Seen> capture) {
        Seen lost = null;
        Seen missed = null;
        Seen resent = null;
        int responderData = 0;
        for (Seen s : capture) {
            if (!s.iwarp() || s.payload() == 0) {
                continue;
            }
            if (s.direction() == 0 && lost == null && s.frame().number() > firstIwarpFrame(capture)) {
                lost = s; // not the MPA Request: the connection must be seen at both points
            } else if (s.direction() == 1 && ++responderData == 3) {
                missed = s;
            } else if (s.direction() == 1 && responderData == 4) {
                resent = s;
            }
        }
        assertNotNull(lost, "no initiator data segment after the MPA Request");
        assertNotNull(missed, "too few responder data segments");
        assertNotNull(resent, "too few responder data segments");
        List<Frame> host = new ArrayList<>();
        List<Frame> atSwitch = new ArrayList<>();
        int iwarp = 0;
        for (Seen s : capture) {
            Frame f = s.frame();
            host.add(at(f, host.size() + 1, f.timeNanos()));
            iwarp += s.iwarp() ? 1 : 0;
            long shifted = f.timeNanos() + THETA + (s.direction() == 0 ? TO_SWITCH : s.direction() == 1 ? -TO_HOST : 0);
            if (s != lost && s != missed) {
                atSwitch.add(at(f, atSwitch.size() + 1, shifted));
            }
        }
        // the retransmission comes last in both captures: the same bytes, the same sequence number
        Frame again = resent.frame();
        host.add(at(again, host.size() + 1, again.timeNanos() + RESENT_AFTER));
        atSwitch.add(at(again, atSwitch.size() + 1, again.timeNanos() + RESENT_AFTER + THETA - TO_HOST));
        return new Run(host, atSwitch, lost, missed, resent, iwarp + 1);
    }

    private static long firstIwarpFrame(List<Seen> capture) {
        return capture.stream().filter(Seen::iwarp).mapToLong(s -> s.frame().number()).min().orElseThrow();
    }

    private static Correlation.Result correlate(Run run) {
        Correlation c = new Correlation(List.of("host", "switch"));
        feed(c, 0, run.host());
        feed(c, 1, run.atSwitch());
        return c.result();
    }

    private static void feed(Correlation c, int point, List<Frame> frames) {
        Dissection d = new Dissection(); // each point's streams are its own
        for (Frame f : frames) {
            CHAIN.dissect(f, d);
            c.accept(point, d);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ajbanjara_Wireshark_iwarp_rdma__read.pcap",
            "ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap", "case:iwarp_rdma_ops"})
    void everySegmentIsMatchedTheOffsetFoundAndTheLossLocated(String name) throws IOException {
        Run run = plant(read(capture(name)));
        Correlation.Result r = correlate(run);

        // every iWARP segment (the retransmission a copy of its original) is one packet; the switch saw all
        // but the two planted
        int distinct = run.iwarpFrames() - 1;
        assertEquals(distinct, r.packets().distinct(), r.packets().toString());
        assertEquals(distinct - 2, r.packets().multiSighted(), r.packets().toString());
        assertEquals(List.of((long) run.iwarpFrames(), (long) run.iwarpFrames() - 2), r.packets().packets());

        Correlation.ClockOffset o = r.clockOffsets().get(0);
        assertNotNull(o.offsetNs(), o.note());
        assertTrue(Math.abs(o.offsetNs() - THETA) <= o.boundNs(), o.offsetNs() + " ± " + o.boundNs() + " misses " + THETA);
        // constant delays: the midpoint is off by half their difference, the bound about half their sum
        assertEquals(THETA + (TO_SWITCH - TO_HOST) / 2, o.offsetNs(), o.toString());
        long halfRoundTrip = (TO_SWITCH + TO_HOST) / 2;
        assertTrue(o.boundNs() >= halfRoundTrip && o.boundNs() <= halfRoundTrip * 101 / 100, o.toString());
        assertEquals(2, r.oneWayDelays().size(), r.oneWayDelays().toString());
        for (Correlation.Delay d : r.oneWayDelays()) {
            long expected = d.from().equals("host") ? TO_SWITCH - (TO_SWITCH - TO_HOST) / 2
                    : TO_HOST + (TO_SWITCH - TO_HOST) / 2;
            assertEquals(expected, d.minNs(), d.toString());
            assertEquals(expected, d.maxNs(), d.toString());
        }

        assertEquals(2, r.lost().size(), r.lost().toString());
        Correlation.Loss wire = r.lost().stream().filter(Correlation.Loss::onTheWire).findFirst().orElseThrow();
        assertEquals("host", wire.lastSeenAt());
        assertEquals("switch", wire.missingAt());
        assertEquals(run.lost().frame().number(), wire.lastSeenFrame());
        assertEquals(run.lost().seq(), wire.psn() & 0xFFFF_FFFFL, "the TCP sequence number");
        assertEquals("iWARP connection's TCP segment", wire.opcode());
        Correlation.Loss capture = r.lost().stream().filter(l -> !l.onTheWire()).findFirst().orElseThrow();
        assertEquals("host", capture.lastSeenAt(), "the host saw what the switch's capture missed");
        assertEquals("switch", capture.missingAt());
        assertEquals(run.missed().frame().number(), capture.lastSeenFrame());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ajbanjara_Wireshark_iwarp_rdma__read.pcap",
            "ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap", "case:iwarp_rdma_ops"})
    void theUnionMatchesEachSegmentOnceAndKeepsTheRetransmissionApart(String name) throws IOException {
        Run run = plant(read(capture(name)));
        VantageUnion u = VantageUnion.index(List.of(point("host", run.host()), point("switch", run.atSwitch())),
                CHAIN, d -> true, -1);
        List<Frame> union = new ArrayList<>();
        try (VantageUnion.FrameSource frames = u.frames()) {
            for (Frame f; (f = frames.next()) != null; ) {
                union.add(f);
            }
        }
        // every host frame once (the switch adds nothing the host did not see), every iWARP one seen at both
        // points but the two planted, the retransmission a union frame of its own
        assertEquals(run.host().size(), union.size());
        int both = 0;
        long resentOriginal = 0;
        long resentAgain = 0;
        for (long f = 1; f <= union.size(); f++) {
            List<VantageUnion.Sighting> s = u.sightings(f);
            both += s.size() == 2 ? 1 : 0;
            long hostFrame = s.get(0).frame();
            assertEquals("host", s.get(0).point());
            if (hostFrame == run.resent().frame().number()) {
                resentOriginal = f;
            } else if (hostFrame == run.host().size()) {
                resentAgain = f;
            }
            if (hostFrame == run.lost().frame().number() || hostFrame == run.missed().frame().number()) {
                assertEquals(1, s.size(), "planted at frame " + hostFrame + ": " + s);
            }
        }
        assertEquals(run.iwarpFrames() - 2, both);
        assertTrue(resentOriginal > 0 && resentAgain > resentOriginal, resentOriginal + " " + resentAgain);
        assertEquals(2, u.sightings(resentAgain).size(), "the retransmission seen at both points");
        assertFalse(u.sightings(resentAgain).get(1).frame() == u.sightings(resentOriginal).get(1).frame());
        assertEquals(THETA + (TO_SWITCH - TO_HOST) / 2, u.offsetsToFirst().get(1));
    }

    /** A vantage point reading frames held in memory. */
    static VantageUnion.Point point(String name, List<Frame> frames) {
        return new VantageUnion.Point(name, () -> new VantageUnion.FrameSource() {
            private int next;

            @Override
            public Frame next() {
                return next == frames.size() ? null : frames.get(next++);
            }

            @Override
            public void close() {
            }
        });
    }
}
