package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.ops.Operation;
import io.rdmascope.ops.OperationRules;
import io.rdmascope.ops.OperationTracker;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayFeed;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.rules.Diagnosis;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Replays a capture through the replay engine on a background thread, following a {@link FrameIndex}
 * while it is still being filled (the replay trails the loader instead of waiting for it), then
 * builds the {@link CaptureAnalysis}: flows, messages, findings, the per-conversation
 * {@link Diagnosis} and the storage operations ({@link FrameAnalysis#operations}), all from the one pass
 * (the Diagnosis pane never replays again).
 *
 * <p>Which conversation a frame belongs to is the replay engine's answer alone
 * ({@link FrameAnalysis#conversationOf}): it places every frame it reads, requests, ACK-only, NAKs,
 * CNPs, CM and iWARP segments alike; the GUI derives no placement of its own.
 */
public final class AnalysisRunner {
    /** How long to wait for the loader when the replay has caught up with it. */
    private static final long WAIT_MILLIS = 2;

    /** Progress: frames replayed so far. */
    public interface Progress {
        void update(int frames);
    }

    private AnalysisRunner() {
    }

    /** Runs the replay to the index's end; null when cancelled. */
    public static CaptureAnalysis run(FrameIndex index, DissectorChain chain, RulesConfig rules,
                                      BooleanSupplier cancelled, Progress progress) {
        return run(index, chain, rules, cancelled, progress, r -> List.of());
    }

    /**
     * Runs the replay to the index's end and judges its observations together with what {@code more} adds
     * once the replay is finished (several vantage points: where they disagree, observations on the union's
     * frames that only the union can make), in frame order as {@code check} orders them; null when cancelled.
     */
    public static CaptureAnalysis run(FrameIndex index, DissectorChain chain, RulesConfig rules,
                                      BooleanSupplier cancelled, Progress progress,
                                      Function<ReplayResult, List<Observation>> more) {
        long start = System.nanoTime();
        ReplayResult result = new ReplayResult();
        // Storage operations (issue 19), tracked beside the replay on this thread, before each frame goes to it.
        List<Operation> operations = new ArrayList<>();
        OperationRules operationRules = new OperationRules();
        OperationTracker tracker = operationRules.tracker(operations::add);
        int next = 1;
        long lastReport = System.nanoTime();
        // Dissection here, replay on a thread of its own (issue 18): the same pipeline as the command line.
        try (ReplayFeed feed = ReplayFeed.into(result, ReplayFeed.defaultThreads())) {
            while (true) {
                int available = index.count();
                if (next > available) {
                    if (index.isComplete() && next > index.count()) {
                        break;
                    }
                    if (cancelled.getAsBoolean()) {
                        return null;
                    }
                    sleep();
                    continue;
                }
                for (; next <= available; next++) {
                    Dissection d = feed.next();
                    chain.dissect(index.frame(next), d);
                    tracker.accept(d);
                    feed.replay();
                    if ((next & 4095) == 0) {
                        if (cancelled.getAsBoolean()) {
                            return null;
                        }
                        long now = System.nanoTime();
                        if (now - lastReport > CaptureLoader.REPORT_NANOS) {
                            lastReport = now;
                            progress.update(next);
                        }
                    }
                }
            }
        }
        tracker.finish();
        result.finish();
        // the storage protocols' rules (issue 19) judge beside the replay; their findings join the rest
        result.addObservations(operationRules.observations(result));
        int frames = index.count();
        List<Flow> flows = List.copyOf(result.flows());
        List<Message> messages = List.copyOf(result.messages());
        List<Observation> added = more.apply(result);
        List<Observation> observations;
        if (added.isEmpty()) {
            observations = List.copyOf(result.observations());
        } else {
            List<Observation> all = new ArrayList<>(result.observations());
            all.addAll(added);
            // as the command line orders them (cli Replay.observations): by frame, frameless ones last
            all.sort(Comparator.comparingLong(o -> o.frame() == 0 ? Long.MAX_VALUE : o.frame()));
            observations = List.copyOf(all);
        }
        // What is built from the finished replay goes on two threads: once the replay has ended its
        // engine thread is idle, and on 10 M frames these steps took seconds one after the other
        // (Diagnosis.of about 2 s of CPU, FrameAnalysis.of and the frame-to-conversation map about 1 s;
        // docs/performance.md, "Issue 18: the GUI's load of 10 M frames"). Both only read the result.
        FutureTask<FrameAnalysis> perFrameTask = new FutureTask<>(() -> FrameAnalysis.of(result).withOperations(operations));
        FutureTask<int[]> conversationTask = new FutureTask<>(() -> conversationsOf(frames, result::conversationOf, flows));
        Thread beside = new Thread(() -> {
            perFrameTask.run();
            conversationTask.run();
        }, "rdmascope-analysis");
        beside.setDaemon(true);
        beside.setPriority(Thread.currentThread().getPriority());
        beside.start();
        List<Finding> findings = Rules.evaluate(observations, rules);
        Diagnosis diagnosis = Diagnosis.of(result, findings);
        FrameAnalysis perFrame = joined(perFrameTask);
        int[] conversationOf = joined(conversationTask);
        progress.update(frames);
        return new CaptureAnalysis(flows, messages, observations, findings, perFrame, conversationOf, diagnosis,
                System.nanoTime() - start);
    }

    /** The task's value once it has run; what it threw, thrown here (the caller's "Replay failed"). */
    private static <T> T joined(FutureTask<T> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the task is short and reads only the finished replay: wait for it
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Conversation of every frame, as the engine placed it ({@link FrameAnalysis#conversationOf}, which
     * is {@link ReplayResult#conversationOf}, the function given here): by
     * frame number, the index into {@code flows} plus one, 0 for frames the engine placed nowhere.
     */
    static int[] conversationsOf(int frames, LongFunction<String> conversationOfFrame, List<Flow> flows) {
        Map<String, Integer> flowIndex = new HashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            flowIndex.put(flows.get(i).conversation(), i + 1);
        }
        int[] conv = new int[frames + 1];
        for (int f = 1; f <= frames; f++) {
            String id = conversationOfFrame.apply(f);
            if (id != null) {
                conv[f] = flowIndex.getOrDefault(id, 0);
            }
        }
        return conv;
    }
}
