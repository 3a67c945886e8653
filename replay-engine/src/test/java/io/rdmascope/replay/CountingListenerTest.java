package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.RandomScenario;
import io.rdmascope.samples.Trace;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 18: a listener that does not keep messages ({@link ReplayListener#keepsMessages()} false) is told
 * of each with {@link ReplayListener#messageCounted()} and never handed a {@link Message}, and gets the
 * same count, observations and flows as one that keeps them; one that keeps them still gets every message.
 * RC/UC/UD/XRC and iWARP both, on every committed case and on the randomized family.
 */
class CountingListenerTest {

    /** Fails the test when handed a message: the engine must not build one for it. */
    private static final class CountOnly implements ReplayListener {
        long counted;
        final List<Observation> observations = new ArrayList<>();

        @Override
        public boolean keepsMessages() {
            return false;
        }

        @Override
        public void messageCounted() {
            counted++;
        }

        @Override
        public void message(Message message) {
            fail("a counting listener was handed " + message);
        }

        @Override
        public void observation(Observation observation) {
            observations.add(observation);
        }
    }

    /** Keeps what the engine hands out, as it hands it out; counts fail it. */
    private static final class Keep implements ReplayListener {
        final List<Message> messages = new ArrayList<>();

        @Override
        public void message(Message message) {
            messages.add(message);
        }

        @Override
        public void messageCounted() {
            fail("a keeping listener was only told of a message");
        }

        @Override
        public void observation(Observation observation) {
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCommittedCaseCountsWhatItWouldKeep() throws IOException {
        List<Path> captures = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SharedFiles.sampleCases())) {
            files.filter(CountingListenerTest::isCapture).sorted().forEach(captures::add);
        }
        assertTrue(captures.size() >= 40, "the committed cases are where they were: " + captures.size());
        return captures.stream().map(c -> DynamicTest.dynamicTest(c.getParent().getFileName().toString(),
                () -> assertCountsWhatItKeeps(frames(c), c.toString())));
    }

    @Test
    void theRandomizedFamilyCountsWhatItWouldKeep() {
        for (long seed = 1; seed <= 8; seed++) {
            List<Frame> frames = new ArrayList<>();
            long number = 1;
            for (Trace.CapturedFrame f : RandomScenario.generate(seed, RandomScenario.Options.defaults()).frames()) {
                frames.add(Frame.of(number++, f.timeNanos(), f.linkType(), f.bytes()));
            }
            assertCountsWhatItKeeps(frames, "seed " + seed);
        }
    }

    private static void assertCountsWhatItKeeps(List<Frame> frames, String what) {
        ReplayResult kept = replay(frames, new ReplayResult());
        ReplayResult counted = replay(frames, ReplayResult.withoutMessages());
        assertEquals(kept.messages().size(), kept.messageCount(), what);
        assertEquals(kept.messageCount(), counted.messageCount(), what);
        assertTrue(counted.messages().isEmpty(), what);
        assertEquals(kept.observations(), counted.observations(), what);
        assertEquals(ThreadedReplayIdentityTest.deep(kept.flows()), ThreadedReplayIdentityTest.deep(counted.flows()), what);

        // The engine itself, with a listener of each kind: the same messages reach the keeping one (in the
        // order they finish) that a ReplayResult sorts, and the counting one is told of as many.
        CountOnly countOnly = new CountOnly();
        Keep keep = new Keep();
        engineReplay(frames, new ReplayEngine(countOnly));
        engineReplay(frames, new ReplayEngine(keep));
        assertEquals(kept.messageCount(), countOnly.counted, what);
        assertEquals(kept.messages().size(), keep.messages.size(), what);
        assertEquals(withoutIds(kept.messages()), withoutIds(keep.messages), what);
    }

    /**
     * The messages as sorted text without their conversation ids: a {@link ReplayResult} gives merged
     * directions their final ids at the end, the engine's own listener sees the provisional ones.
     */
    private static List<String> withoutIds(List<Message> messages) {
        return messages.stream().map(m -> m.toString().replaceFirst("conversation=[^,]*, ", "")).sorted().toList();
    }

    private static ReplayResult replay(List<Frame> frames, ReplayResult into) {
        feed(frames, into::accept);
        return into.finish();
    }

    private static void engineReplay(List<Frame> frames, ReplayEngine engine) {
        feed(frames, engine::accept);
        engine.finish();
    }

    private static void feed(List<Frame> frames, java.util.function.Consumer<Dissection> into) {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (Frame f : frames) {
            chain.dissect(f, d);
            into.accept(d);
        }
    }

    /** The frames of {@code capture}, each with bytes of its own (a reader's frames share its buffer). */
    private static List<Frame> frames(Path capture) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(capture)) {
            for (Frame f; (f = source.next()) != null; ) {
                frames.add(new Frame(f.number(), f.timeNanos(), f.capturedLength(), f.wireLength(), f.linkType(),
                        f.interfaceId(), java.nio.ByteBuffer.wrap(f.toByteArray()).asReadOnlyBuffer(), 0));
            }
        }
        return frames;
    }

    private static boolean isCapture(Path p) {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && (n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".erf")
                || n.endsWith(".pcap.gz") || n.endsWith(".pcapng.gz"));
    }
}
