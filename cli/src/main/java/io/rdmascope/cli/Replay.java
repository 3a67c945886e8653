package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.ops.Operation;
import io.rdmascope.ops.OperationRules;
import io.rdmascope.ops.OperationTracker;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.IcrcCheck;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayFeed;
import io.rdmascope.replay.ReplayResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replays a capture file through the replay engine for {@code messages} and {@code flows}. A file that
 * cannot be opened fails at once; damage further in ends the replay where it is, so the caller can
 * report what was replayed up to there and then the error (as {@code dissect} prints every complete
 * frame before it).
 *
 * @param result  the finished replay (everything before the damage, if any)
 * @param failure the error that stopped the reading, or null when the file was read to its end
 */
record Replay(ReplayResult result, IOException failure, Vantage vantage, List<Observation> disagreements) {

    Replay(ReplayResult result, IOException failure) {
        this(result, failure, null, List.of());
    }

    /**
     * @param selection    the frames read (-c) and replayed (-Y): a frame the filter drops never reaches the
     *                     engine, as tshark's -Y keeps a frame from the statistics of -z
     * @param keepMessages false for front ends that need only flows, observations and findings: memory
     *                     then stays bounded whatever the capture's length (a 5 GB capture under -Xmx512m)
     * @param threads      2 or more: replayed on a thread of its own while this one reads and dissects
     *                     ({@code --threads}); the result is the same either way
     */
    static Replay of(Path file, DissectorChain chain, ReplayOptions.Selection selection, boolean keepMessages,
                     IcrcCheck icrc, int threads) throws IOException {
        return of(file, chain, selection, keepMessages, icrc, threads, null);
    }

    /**
     * As above; the storage operations are tracked beside the replay (each frame on the reading thread, just
     * before the replay gets it, while the protocols' connection state is that frame's), their rules'
     * observations join the replay's (issue 19), and each finished operation goes to {@code operations}
     * (null: nowhere).
     */
    static Replay of(Path file, DissectorChain chain, ReplayOptions.Selection selection, boolean keepMessages,
                     IcrcCheck icrc, int threads, Consumer<Operation> operations) throws IOException {
        ReplayResult result = keepMessages ? new ReplayResult(icrc) : ReplayResult.withoutMessages(icrc);
        OperationRules rules = new OperationRules();
        OperationTracker tracker = rules.tracker(operations != null ? operations : o -> { });
        IOException failure = null;
        try (PacketSource source = CaptureFiles.open(file);
             ReplayFeed feed = ReplayFeed.into(result, threads)) {
            try {
                long read = 0;
                Frame frame;
                while (selection.more(read) && (frame = source.next()) != null) {
                    read++;
                    Dissection d = feed.next();
                    chain.dissect(frame, d);
                    if (selection.passes(d)) {
                        tracker.accept(d);
                        feed.replay();
                    }
                }
            } catch (IOException e) {
                failure = e;
            }
        }
        tracker.finish();
        result.finish();
        result.addObservations(rules.observations(result));
        return new Replay(result, failure);
    }

    /**
     * Replays the union of several vantage points' captures once (issue 20): each distinct packet once, in
     * corrected-time order. Messages are always kept: the placements they come with give the points'
     * disagreements their conversations. Damage in any capture ends that capture where it is.
     */
    static Replay ofUnion(Vantage vantage, DissectorChain chain, IcrcCheck icrc, int threads) throws IOException {
        ReplayResult result = new ReplayResult(icrc);
        OperationRules rules = new OperationRules();
        OperationTracker tracker = rules.tracker(o -> { });
        IOException failure = null;
        try (PacketSource source = vantage.source();
             ReplayFeed feed = ReplayFeed.into(result, threads)) {
            try {
                for (Frame frame; (frame = source.next()) != null; ) {
                    Dissection d = feed.next();
                    chain.dissect(frame, d);
                    tracker.accept(d);
                    feed.replay();
                }
            } catch (IOException e) {
                failure = e;
            }
        }
        tracker.finish();
        result.finish();
        result.addObservations(rules.observations(result));
        return new Replay(result, failure != null ? failure : vantage.union().failure(), vantage,
                vantage.union().disagreements(result));
    }

    /** The replay's observations, and with several vantage points their disagreements, in frame order. */
    List<Observation> observations() {
        if (disagreements.isEmpty()) {
            return result.observations();
        }
        List<Observation> all = new ArrayList<>(result.observations());
        all.addAll(disagreements);
        all.sort(Comparator.comparingLong(o -> o.frame() == 0 ? Long.MAX_VALUE : o.frame()));
        return all;
    }

    /** After the output is written: the error that cut the replay short, if any (one line, exit 2). */
    void rethrowFailure() throws IOException {
        if (failure != null) {
            throw failure;
        }
    }
}
