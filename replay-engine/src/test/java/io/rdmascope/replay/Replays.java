package io.rdmascope.replay;

import io.rdmascope.testsupport.SharedFiles;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.ops.OperationRules;
import io.rdmascope.ops.OperationTracker;

import java.io.IOException;
import java.nio.file.Path;

/** Test helper: replays a capture file. */
final class Replays {
    private Replays() {
    }

    static ReplayResult of(Path capture) throws IOException {
        return of(capture, IcrcCheck.AUTO);
    }

    /** The replay of {@code capture}, with the storage operation rules' observations (issue 19) as the CLI has them. */
    static ReplayResult of(Path capture, IcrcCheck icrc) throws IOException {
        try (PacketSource source = CaptureFiles.open(capture)) {
            return of(source::next, icrc);
        }
    }

    /** The replay of {@code frames}, with the storage operation rules' observations, as {@link #of(Path)}. */
    static ReplayResult of(java.util.List<Frame> frames) {
        java.util.Iterator<Frame> each = frames.iterator();
        try {
            return of(() -> each.hasNext() ? each.next() : null, IcrcCheck.AUTO);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a list of frames reads nothing
        }
    }

    /** The frames {@code next} hands out until null, replayed as the CLI replays them. */
    private static ReplayResult of(FrameSupplier next, IcrcCheck icrc) throws IOException {
        ReplayResult result = new ReplayResult(icrc);
        OperationRules rules = new OperationRules();
        OperationTracker tracker = rules.tracker(o -> { });
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        Frame f;
        while ((f = next.get()) != null) {
            chain.dissect(f, d);
            tracker.accept(d);
            result.accept(d);
        }
        tracker.finish();
        result.finish();
        result.addObservations(rules.observations(result));
        return result;
    }

    private interface FrameSupplier {
        Frame get() throws IOException;
    }

    /** A capture of {@code ../shared/captures-hard/}; the test is skipped, saying so, when it is absent. */
    static Path hard(String name) {
        Path file = SharedFiles.root().resolve("captures-hard").resolve(name);
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(file),
                "SKIPPED: hard capture not present: " + file);
        return file;
    }

    static Path cases() {
        return SharedFiles.sampleCases();
    }
}
