package io.rdmascope.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import io.rdmascope.samples.Trace;
import io.rdmascope.samples.VantageScenario;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20, item 5: several vantage points' captures replayed once as their union. The points are made
 * from one committed capture (truth by construction): the capture itself with its clock shifted, views
 * of it with packets left out, and points that saw a packet twice or never saw an answer.
 */
class VantageUnionTest {
    private static final long THETA = 7_250_000_123L; // the second point's clock is 7.25 s ahead
    private static final long TO_B = 1_300;           // a request reaches the second point 1.3 µs later
    private static final long TO_A = 900;             // a response reaches it 0.9 µs earlier
    private static final DissectorChain CHAIN = DissectorChain.standard();

    private static Path sample(String name) {
        return SharedFiles.sampleCases().resolve(name).resolve(name + ".pcapng");
    }

    private static List<Frame> read(Path capture) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(capture)) {
            for (Frame f; (f = s.next()) != null; ) {
                frames.add(f);
            }
        }
        return frames;
    }

    /** A point whose capture holds {@code frames} (numbered again 1, 2, … as its own file would be). */
    private static VantageUnion.Point point(String name, List<Frame> frames) {
        return new VantageUnion.Point(name, () -> new VantageUnion.FrameSource() {
            int next;

            @Override
            public Frame next() {
                if (next == frames.size()) {
                    return null;
                }
                Frame f = frames.get(next++);
                return new Frame(next, f.timeNanos(), f.capturedLength(), f.wireLength(), f.linkType(),
                        f.interfaceId(), f.buffer(), f.offset());
            }

            @Override
            public void close() {
            }
        });
    }

    /** The frames of a capture as a point with its own clock and delays sees them; null leaves a frame out. */
    private static List<Frame> view(List<Frame> frames, Function<Frame, Long> time) {
        List<Frame> out = new ArrayList<>();
        for (Frame f : frames) {
            Long t = time.apply(f);
            if (t != null) {
                out.add(new Frame(f.number(), t, f.capturedLength(), f.wireLength(), f.linkType(), f.interfaceId(),
                        f.buffer(), f.offset()));
            }
        }
        return out;
    }

    /**
     * A switch between the hosts: its clock {@code THETA} ahead, requests reaching it {@code TO_B} after the
     * first point saw them, responses {@code TO_A} before.
     */
    private static VantageUnion.Point switchView(List<Frame> frames) {
        return point("switch", view(frames, f -> f.timeNanos() + THETA + (operation(f).isRequest() ? TO_B : -TO_A)));
    }

    private static Operation operation(Frame f) {
        Dissection d = new Dissection();
        CHAIN.dissect(f, d);
        return d.rdma().bthLayer < 0 ? null : Opcodes.of(d.rdma().opcode).operation();
    }

    /** Whether the union can tell this frame's packet at two points: an RDMA packet whose headers were kept. */
    /**
     * Which of a capture's frames are packets a union can match across points: RoCE/InfiniBand packets with
     * their headers, and the TCP segments of iWARP connections (the frames dissected in order, as the stream
     * layer must see them to know a connection).
     */
    private static boolean[] identified(List<Frame> frames) {
        boolean[] out = new boolean[frames.size()];
        Dissection d = new Dissection();
        PacketFacts facts = new PacketFacts();
        for (int i = 0; i < frames.size(); i++) {
            CHAIN.dissect(frames.get(i), d);
            out[i] = facts.read(d) && !facts.headersCut && facts.opcode != null
                    || io.rdmascope.proto.iwarp.IwarpFrame.of(d) != null;
        }
        return out;
    }

    private record Union(VantageUnion union, ReplayResult replay, List<Observation> disagreements) {
    }

    private static Union union(VantageUnion.Point... points) throws IOException {
        VantageUnion u = VantageUnion.index(List.of(points), CHAIN, d -> true, -1);
        ReplayResult replay = new ReplayResult();
        try (VantageUnion.FrameSource frames = u.frames()) {
            Dissection d = new Dissection();
            for (Frame f; (f = frames.next()) != null; ) {
                CHAIN.dissect(f, d);
                replay.accept(d);
            }
        }
        replay.finish();
        return new Union(u, replay, u.disagreements(replay));
    }

    private static ReplayResult single(List<Frame> frames) {
        ReplayResult r = new ReplayResult();
        Dissection d = new Dissection();
        for (Frame f : frames) {
            CHAIN.dissect(f, d);
            r.accept(d);
        }
        return r.finish();
    }

    private static void assertSameReplay(ReplayResult expected, ReplayResult actual, String what) throws IOException {
        assertEquals(expected.messages(), actual.messages(), what + ": messages");
        assertEquals(expected.observations(), actual.observations(), what + ": observations");
        // As JSON: a flow's time series holds an array, which a record compares by identity.
        ObjectMapper json = new ObjectMapper();
        assertEquals(json.writeValueAsString(expected.flows()), json.writeValueAsString(actual.flows()), what + ": flows");
    }

    @Test
    void aCaptureUnitedWithItselfShiftedIsTheCaptureWithBothPointsOnEveryPacket() throws IOException {
        List<Path> cases;
        try (Stream<Path> dirs = Files.list(SharedFiles.sampleCases())) {
            cases = dirs.sorted().map(d -> d.resolve(d.getFileName() + ".pcapng")).filter(Files::isRegularFile).toList();
        }
        assertTrue(cases.size() > 20, "committed cases: " + cases.size());
        assertTrue(unitedWithItself(cases) > 20, "too few cases united");
    }

    @Test
    void realCapturesUnitedWithThemselvesShiftedReplayAsThemselves() throws IOException {
        List<Path> captures = new ArrayList<>(SharedFiles.allCaptures()); // skips, saying why, when absent
        assertTrue(unitedWithItself(captures) >= 8, "too few real captures united");
    }

    /**
     * Each capture united with itself {@code THETA} later replays exactly as the capture, with both points
     * on every packet they can identify and no disagreement; returns how many had a known offset (the rest,
     * traffic seen one way only, must say the offset is unknown rather than guess it).
     */
    private static int unitedWithItself(List<Path> captures) throws IOException {
        int united = 0;
        for (Path c : captures) {
            List<Frame> frames = read(c);
            Union u = union(point("host", frames), point("copy", view(frames, f -> f.timeNanos() + THETA)));
            Long offset = u.union().offsetsToFirst().get(1);
            if (!u.union().notes().isEmpty()) {
                assertEquals(0L, offset, c.toString());
                continue;
            }
            united++;
            assertEquals(THETA, offset, c.toString());
            assertSameReplay(single(frames), u.replay(), c.getFileName().toString());
            assertEquals(List.of(), u.disagreements(), c.toString());
            assertEquals(frames.size(), u.union().unionFrames(), c.toString());
            boolean[] identifiedFrames = identified(frames);
            for (long f = 1; f <= frames.size(); f++) {
                List<VantageUnion.Sighting> s = u.union().sightings(f);
                boolean identified = identifiedFrames[(int) f - 1];
                assertEquals(identified ? List.of(new VantageUnion.Sighting("host", f), new VantageUnion.Sighting("copy", f))
                        : List.of(new VantageUnion.Sighting("host", f)), s, c + " frame " + f);
            }
        }
        return united;
    }

    @Test
    void everySightingIsMatchedAcrossTheFabricAndTheUnionKeepsTheFirstPointsOrder() throws IOException {
        List<Frame> frames = read(sample("rc_read"));
        Union u = union(point("host", frames), switchView(frames));
        assertEquals(frames.size(), u.union().unionFrames());
        for (long f = 1; f <= frames.size(); f++) {
            assertEquals(2, u.union().sightings(f).size(), "frame " + f + ": " + u.union().sightings(f));
        }
        assertEquals(single(frames).messages().size(), u.replay().messages().size());
        assertTrue(u.replay().messages().stream().allMatch(m -> m.completionFrame() != null), "every READ completes");
        assertEquals(List.of(), u.disagreements());
    }

    /**
     * A switch whose clock runs 400 ppm fast over a capture stretched to seconds: by the capture's end a
     * constant offset is off by hundreds of microseconds, beyond the matching window; the offset's line
     * (Correlation's drift fit) must place every packet, so every frame is still seen at both points.
     */
    @Test
    void aDriftingClockStillMatchesEverySightingAcrossALongCapture() throws IOException {
        List<Frame> frames = read(sample("rc_read"));
        long start = frames.get(0).timeNanos();
        List<Frame> stretched = view(frames, f -> start + (f.timeNanos() - start) * 10_000);
        long span = stretched.get(stretched.size() - 1).timeNanos() - start;
        assertTrue(span > 500_000_000L, "the capture spans " + span + " ns: too short for the drift to matter");
        VantageUnion.Point drifting = point("switch", view(stretched, f -> {
            long t = f.timeNanos() + (operation(f).isRequest() ? TO_B : -TO_A);
            return t + THETA + (t - start) * 400 / 1_000_000;
        }));
        Union u = union(point("host", stretched), drifting);
        assertEquals(stretched.size(), u.union().unionFrames());
        for (long f = 1; f <= stretched.size(); f++) {
            assertEquals(2, u.union().sightings(f).size(), "frame " + f + ": " + u.union().sightings(f));
        }
    }

    /**
     * The generated three-point run (requester host, switch, responder host; its own clocks, with and without
     * drift): the union holds each distinct packet of the truth once, seen at exactly the points the truth
     * says. With drift the offset is a line: a constant offset would misplace the points' late packets by
     * tens of microseconds and split their sightings.
     */
    @Test
    void theGeneratedThreePointRunUnitesIntoTheTruthsDistinctPackets() throws IOException {
        for (long seed : VantageCorrelationTest.SEEDS) {
            for (boolean drift : new boolean[]{false, true}) {
                VantageScenario.Run run = VantageScenario.generate(seed, drift);
                List<VantageUnion.Point> points = new ArrayList<>();
                for (VantageScenario.Point p : VantageScenario.Point.values()) {
                    List<Frame> frames = new ArrayList<>();
                    long number = 1;
                    for (Trace.CapturedFrame f : run.captures().get(p)) {
                        frames.add(Frame.of(number++, f.timeNanos(), f.linkType(), f.bytes()));
                    }
                    points.add(point(p.id(), frames));
                }
                Union u = union(points.toArray(VantageUnion.Point[]::new));
                String where = "seed " + seed + (drift ? " with drift" : "");
                assertEquals(run.truth().packets().distinct(), u.union().unionFrames(), where + ": distinct packets");
                long multiSighted = 0;
                for (long f = 1; f <= u.union().unionFrames(); f++) {
                    if (u.union().sightings(f).size() > 1) {
                        multiSighted++;
                    }
                }
                assertEquals(run.truth().packets().multiSighted(), multiSighted, where + ": packets seen at two points");
            }
        }
    }

    @Test
    void twoViewsWithComplementaryLossesGiveTheWholeCaptureBack() throws IOException {
        for (String name : List.of("rc_read", "rc_write", "rc_send", "rc_atomics")) {
            List<Frame> frames = read(sample(name));
            // The host's capture misses every fifth frame, the switch's every fifth from the third: between
            // them every frame was seen, neither alone has all.
            List<Frame> host = view(frames, f -> f.number() % 5 == 0 ? null : f.timeNanos());
            List<Frame> mirror = view(frames, f -> f.number() % 5 == 3 ? null : f.timeNanos() + THETA);
            ReplayResult whole = single(frames);
            Union u = union(point("host", host), point("mirror", mirror));
            assertSameReplay(whole, u.replay(), name);
            assertTrue(single(host).messages().stream().anyMatch(m -> m.completionFrame() == null)
                    || single(mirror).messages().stream().anyMatch(m -> m.completionFrame() == null)
                    || !single(host).messages().equals(whole.messages()), name + ": a view alone lacks something");
            // Frame 5 is the mirror's alone (its fourth: it lacks frame 3), frame 3 the host's (its third).
            assertEquals(List.of(new VantageUnion.Sighting("mirror", 4)), u.union().sightings(5), name);
            assertEquals(List.of(new VantageUnion.Sighting("host", 3)), u.union().sightings(3), name);
        }
    }

    @Test
    void aDuplicateOnlyTheSendersCaptureShowsIsTheSendersSide() throws IOException {
        List<Frame> frames = read(sample("rc_write"));
        int copied = -1;
        List<Frame> host = new ArrayList<>();
        for (Frame f : frames) {
            host.add(f);
            if (copied < 0 && operation(f).isRequest()) {
                copied = (int) f.number();
                host.add(new Frame(f.number(), f.timeNanos() + 1_000, f.capturedLength(), f.wireLength(), f.linkType(),
                        f.interfaceId(), f.buffer(), f.offset())); // the host's capture records it twice, 1 µs apart
            }
        }
        Union u = union(point("host", host), switchView(frames));
        assertEquals(1, u.disagreements().size(), u.disagreements().toString());
        Observation.SenderSideDuplicate dup = (Observation.SenderSideDuplicate) u.disagreements().get(0);
        assertEquals("host", dup.copiesAt());
        assertEquals(copied, dup.firstCopyFrame());
        assertEquals(copied + 1, dup.secondCopyFrame());
        assertEquals("switch", dup.onceAt());
        assertEquals(copied, dup.onceFrame());
        assertEquals("1", dup.conversation());
        List<Finding> findings = Rules.evaluate(u.disagreements(), RulesConfig.defaults());
        assertEquals("IB-VP-DUP-001", findings.get(0).rule());
        // The union keeps both copies (a copy at one point stays a packet), so its replay sees the duplicate.
        assertTrue(u.replay().observations().stream().anyMatch(o -> o.kind() == ObservationKind.DUPLICATE));
    }

    @Test
    void anAckTheRespondersSideShowsAndTheRequesterNeverDoes() throws IOException {
        List<Frame> frames = read(sample("rc_write"));
        long ack = frames.stream().filter(f -> operation(f) == Operation.ACKNOWLEDGE).findFirst().orElseThrow().number();
        // The host (requester) never sees that ACK; the switch, nearer the responder, does.
        List<Frame> host = view(frames, f -> f.number() == ack ? null : f.timeNanos());
        Union u = union(point("host", host), switchView(frames));
        assertEquals(1, u.disagreements().size(), u.disagreements().toString());
        Observation.ResponseNotDownstream r = (Observation.ResponseNotDownstream) u.disagreements().get(0);
        assertEquals("switch", r.seenAt());
        assertEquals(ack, r.seenFrame());
        assertEquals("host", r.missingAt());
        assertEquals(List.of(new VantageUnion.Sighting("switch", ack)), u.union().sightings(r.frame()));
        assertEquals("IB-VP-LOSS-001", Rules.evaluate(u.disagreements(), RulesConfig.defaults()).get(0).rule());
        // The union still has the ACK: the message it completes is complete.
        assertEquals(single(frames).messages().stream().filter(m -> m.completionFrame() != null).count(),
                u.replay().messages().stream().filter(m -> m.completionFrame() != null).count());
        // Missing at the responder's side instead (upstream of the host): a capture miss there, not this rule.
        List<Frame> mirror = view(frames, f -> f.number() == ack ? null : f.timeNanos() + THETA
                + (operation(f).isRequest() ? TO_B : -TO_A));
        assertFalse(union(point("host", frames), point("switch", mirror)).disagreements().stream()
                .anyMatch(o -> o.kind() == ObservationKind.RESPONSE_NOT_DOWNSTREAM));
    }
}
