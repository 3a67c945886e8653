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
import java.nio.file.Files;
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
        List<Path> captures = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SharedFiles.sampleCases())) {
            files.filter(ThreadedReplayIdentityTest::isCapture).sorted().forEach(captures::add);
        }
        assertTrue(captures.size() >= 40, "the committed cases are where they were: " + captures.size());
        return captures.stream().map(c -> DynamicTest.dynamicTest(c.getParent().getFileName().toString(),
                () -> assertSameBothWays(c)));
    }

    @TestFactory
    Stream<DynamicTest> everyRealCaptureReplaysTheSameOnAReplayThread() throws IOException {
        List<Path> captures = new ArrayList<>();
        for (String folder : List.of("captures", "captures-hard")) {
            Path dir = SharedFiles.root().resolve(folder);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    files.filter(ThreadedReplayIdentityTest::isCapture).sorted().forEach(captures::add);
                }
            }
        }
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

    private static boolean isCapture(Path p) {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && (n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".erf")
                || n.endsWith(".pcap.gz") || n.endsWith(".pcapng.gz"));
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
