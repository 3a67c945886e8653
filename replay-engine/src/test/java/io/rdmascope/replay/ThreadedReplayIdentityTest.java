package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.RandomScenario;
import io.rdmascope.samples.Trace;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18: a replay fed through a replay thread ({@link ReplayFeed} with 2 or more threads) gives
 * exactly what the sequential replay gives: every message, observation, flow and frame placement, on
 * every committed case, on the randomized family and on the real captures.
 */
class ThreadedReplayIdentityTest {
    /** Seeds of the randomized family replayed both ways (each a few thousand frames, several QP pairs). */
    private static final int SEEDS = 12;

    @TestFactory
    Stream<DynamicTest> everyCommittedCaseReplaysTheSameOnAReplayThread() throws IOException {
        List<Path> captures = SharedFiles.committedCaptures();
        assertTrue(captures.size() >= 40, "the committed cases are where they were: " + captures.size());
        return captures.stream().map(c -> DynamicTest.dynamicTest(c.getParent().getFileName().toString(),
                () -> assertSameBothWays(c)));
    }

    @TestFactory
    Stream<DynamicTest> everyRealCaptureReplaysTheSameOnAReplayThread() throws IOException {
        List<Path> captures = SharedFiles.realCaptures();
        Assumptions.assumeFalse(captures.isEmpty(), "SKIPPED: no real captures under " + SharedFiles.root());
        return captures.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(),
                () -> assertSameBothWays(c)));
    }

    @Test
    void theRandomizedFamilyReplaysTheSameOnAReplayThread() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            List<Trace.CapturedFrame> frames = RandomScenario.generate(seed, RandomScenario.Options.defaults()).frames();
            String sequential = render(replay(frames, 1));
            assertEquals(sequential, render(replay(frames, 2)), "seed " + seed);
            assertEquals(sequential, render(replay(frames, 8)), "seed " + seed + ", 8 threads");
        }
    }

    /**
     * What a feed counts beside the replay ({@link ReplayFeed.FrameCounter}, {@code summary}'s counts): every
     * frame the engine gets and no other, in the same order and with the same dissection, whichever way the
     * feed runs; with a replay thread the counting is done there, not on the reading thread.
     */
    @TestFactory
    Stream<DynamicTest> theCounterBesideTheReplaySeesWhatTheSequentialFeedSees() throws IOException {
        Stream<DynamicTest> cases = SharedFiles.committedCaptures().stream().map(c -> DynamicTest.dynamicTest(
                c.getParent().getFileName().toString(), () -> {
                    List<Frame> frames = new ArrayList<>();
                    try (PacketSource source = CaptureFiles.open(c)) {
                        for (Frame f; (f = source.next()) != null; ) {
                            frames.add(f);
                        }
                    }
                    assertCountedTheSameBothWays(frames);
                }));
        Stream<DynamicTest> seeds = Stream.of(1L, 2L, 3L).map(seed -> DynamicTest.dynamicTest("random seed " + seed,
                () -> {
                    List<Frame> frames = new ArrayList<>();
                    long number = 1;
                    for (Trace.CapturedFrame f : RandomScenario.generate(seed, RandomScenario.Options.defaults()).frames()) {
                        frames.add(Frame.of(number++, f.timeNanos(), f.linkType(), f.bytes()));
                    }
                    assertCountedTheSameBothWays(frames);
                }));
        return Stream.concat(cases, seeds);
    }

    private static void assertCountedTheSameBothWays(List<Frame> frames) {
        Thread reader = Thread.currentThread();
        String sequential = counted(frames, 1, reader, false);
        assertFalse(sequential.isEmpty());
        assertEquals(sequential, counted(frames, 2, reader, true));
    }

    /**
     * Feeds {@code frames} (every seventh dropped, as a filter would) and lists what the counter saw: each
     * frame's number, wire length, layers and opcode. Fails if the counter ran on the wrong thread.
     */
    private static String counted(List<Frame> frames, int threads, Thread reader, boolean offReader) {
        StringBuilder seen = new StringBuilder();
        List<String> wrongThread = new ArrayList<>();
        ReplayFeed.FrameCounter counter = d -> {
            if ((Thread.currentThread() != reader) != offReader) {
                wrongThread.add(d.frame().number() + " on " + Thread.currentThread().getName());
            }
            seen.append(d.frame().number()).append(' ').append(d.frame().wireLength()).append(' ');
            for (int i = 0; i < d.layerCount(); i++) {
                seen.append(d.layerType(i).abbrev()).append(':').append(d.layerLength(i)).append(' ');
            }
            seen.append(d.rdma().opcode).append('\n');
        };
        ReplayResult result = ReplayResult.withoutMessages(IcrcCheck.AUTO);
        DissectorChain chain = DissectorChain.standard();
        try (ReplayFeed feed = ReplayFeed.into(result, threads, counter)) {
            for (Frame f : frames) {
                Dissection d = feed.next();
                chain.dissect(f, d);
                if (f.number() % 7 != 0) {
                    feed.replay();
                }
            }
        }
        assertTrue(wrongThread.isEmpty(), "counted on the wrong thread: " + wrongThread);
        return seen.toString();
    }

    @Test
    void aFailureOnTheReplayThreadReachesTheReader() {
        ReplayResult result = new ReplayResult();
        result.finish(); // the engine refuses frames after finish(): the replay thread fails on the first
        List<Trace.CapturedFrame> frames = RandomScenario.generate(1, RandomScenario.Options.defaults()).frames();
        DissectorChain chain = DissectorChain.standard();
        IllegalStateException thrown = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> {
            try (ReplayFeed feed = ReplayFeed.into(result, 2)) {
                long number = 1;
                for (Trace.CapturedFrame f : frames) {
                    chain.dissect(Frame.of(number++, f.timeNanos(), f.linkType(), f.bytes()), feed.next());
                    feed.replay();
                }
            }
        });
        assertTrue(thrown.getMessage().contains("finish()"), thrown.getMessage());
    }

    private static void assertSameBothWays(Path capture) throws IOException {
        String sequential = render(replay(capture, ReplayFeed.into(new ReplayResult(), 1)));
        assertFalse(sequential.isEmpty());
        assertEquals(sequential, render(replay(capture, ReplayFeed.into(new ReplayResult(), 2))), capture.toString());
    }

    private static ReplayResult replay(Path capture, ReplayFeed feedInto) throws IOException {
        ReplayResult result = feedInto.result();
        DissectorChain chain = DissectorChain.standard();
        try (PacketSource source = CaptureFiles.open(capture); ReplayFeed feed = feedInto) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, feed.next());
                feed.replay();
            }
        }
        return result.finish();
    }

    private static ReplayResult replay(List<Trace.CapturedFrame> frames, int threads) {
        return replay(frames, ReplayFeed.into(new ReplayResult(), threads));
    }

    private static ReplayResult replay(List<Trace.CapturedFrame> frames, ReplayFeed feedInto) {
        ReplayResult result = feedInto.result();
        DissectorChain chain = DissectorChain.standard();
        try (ReplayFeed feed = feedInto) {
            long number = 1;
            Iterator<Trace.CapturedFrame> it = frames.iterator();
            while (it.hasNext()) {
                Trace.CapturedFrame f = it.next();
                Dissection d = feed.next();
                chain.dissect(Frame.of(number++, f.timeNanos(), f.linkType(), f.bytes()), d);
                if (number % 7 != 0) { // frames a filter drops never reach the engine, whichever way it is fed
                    feed.replay();
                }
            }
        }
        return result.finish();
    }

    /** A value as text, arrays and records inside it by content (a record's own toString prints arrays by identity). */
    static String deep(Object v) {
        if (v == null) {
            return "null";
        }
        if (v.getClass().isArray()) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
                sb.append(i == 0 ? "" : ", ").append(deep(java.lang.reflect.Array.get(v, i)));
            }
            return sb.append(']').toString();
        }
        if (v instanceof Record) {
            StringBuilder sb = new StringBuilder(v.getClass().getSimpleName()).append('[');
            for (java.lang.reflect.RecordComponent c : v.getClass().getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    sb.append(c.getName()).append('=').append(deep(c.getAccessor().invoke(v))).append(", ");
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return sb.append(']').toString();
        }
        if (v instanceof java.util.Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            m.forEach((k, x) -> sb.append(deep(k)).append('=').append(deep(x)).append(", "));
            return sb.append('}').toString();
        }
        if (v instanceof Iterable<?> it) {
            StringBuilder sb = new StringBuilder("[");
            it.forEach(x -> sb.append(deep(x)).append(", "));
            return sb.append(']').toString();
        }
        return v.toString();
    }

    /** Everything the replay reports, as text: messages, observations, flows, and every frame's placement. */
    private static String render(ReplayResult r) {
        StringBuilder sb = new StringBuilder();
        r.messages().forEach(m -> sb.append(m).append('\n'));
        r.observations().forEach(o -> sb.append(o).append('\n'));
        r.flows().forEach(f -> sb.append(deep(f)).append('\n'));
        for (int f = 1; f < r.placedFrames(); f++) {
            if (r.conversationOf(f) != null) {
                sb.append(f).append(' ').append(r.conversationOf(f)).append(' ').append(r.sideOf(f)).append(' ')
                        .append(r.roleOf(f)).append('\n');
            }
        }
        sb.append(r.messageCount()).append(' ').append(r.captureEndNanos()).append('\n');
        return sb.toString();
    }
}
