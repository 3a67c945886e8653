package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Replays a capture through the replay engine on a background thread, following a {@link FrameIndex}
 * while it is still being filled (the replay trails the loader instead of waiting for it), then
 * builds the {@link CaptureAnalysis}.
 *
 * <p>Which conversation a frame belongs to: the replay engine says it for the frames of messages and
 * observations; every other RDMA frame (a duplicate ACK, an ACK that completes nothing, a CNP) is
 * placed by its (source, destination, destination QP), the engine's own demultiplexing key, matched
 * against the two directions of each flow. QP1 (CM) frames join a conversation through its lifecycle.
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
        long start = System.nanoTime();
        ReplayResult result = new ReplayResult();
        Dissection d = new Dissection();
        KeyReader keys = new KeyReader();
        int[] keyOfFrame = new int[1024];
        int next = 1;
        long lastReport = System.nanoTime();
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
                chain.dissect(index.frame(next), d);
                result.accept(d);
                if (next >= keyOfFrame.length) {
                    keyOfFrame = Arrays.copyOf(keyOfFrame, Math.max(next + 1, keyOfFrame.length * 2));
                }
                keyOfFrame[next] = keys.read(d);
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
        result.finish();
        int frames = index.count();
        List<Flow> flows = List.copyOf(result.flows());
        List<Message> messages = List.copyOf(result.messages());
        List<Observation> observations = List.copyOf(result.observations());
        List<Finding> findings = Rules.evaluate(observations, rules);
        FrameAnalysis perFrame = FrameAnalysis.of(result);
        int[] conversationOf = placeFrames(frames, keyOfFrame, keys, flows, messages, observations);
        progress.update(frames);
        return new CaptureAnalysis(flows, messages, observations, findings, perFrame, conversationOf,
                System.nanoTime() - start);
    }

    private static void sleep() {
        try {
            Thread.sleep(WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int[] placeFrames(int frames, int[] keyOfFrame, KeyReader keys, List<Flow> flows,
                                     List<Message> messages, List<Observation> observations) {
        int[] conv = new int[frames + 1];
        Map<String, Integer> flowIndex = new HashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            flowIndex.put(flows.get(i).conversation(), i + 1);
        }
        // What the engine says: message frames, observations, lifecycle (CM) frames.
        for (Message m : messages) {
            Integer c = flowIndex.get(m.conversation());
            if (c == null) {
                continue;
            }
            for (int f : m.frames()) {
                mark(conv, f, c);
            }
            for (int f : m.responseFrames()) {
                mark(conv, f, c);
            }
            if (m.completionFrame() != null) {
                mark(conv, m.completionFrame(), c);
            }
        }
        for (Observation o : observations) {
            Integer c = o.conversation() == null ? null : flowIndex.get(o.conversation());
            if (c != null && o.frame() > 0 && o.frame() <= frames) {
                mark(conv, (int) o.frame(), c);
            }
        }
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            if (f.lifecycle() != null) {
                for (Flow.Transition t : f.lifecycle()) {
                    if (t.frame() > 0 && t.frame() <= frames) {
                        mark(conv, (int) t.frame(), i + 1);
                    }
                }
            }
        }
        // The rest by demultiplexing key: (a → b, b's QP) and (b → a, a's QP).
        Map<Integer, Integer> convOfKey = new HashMap<>();
        List<RdmaKey> all = keys.keys();
        for (int k = 0; k < all.size(); k++) {
            RdmaKey key = all.get(k);
            if (key.destQp() == 1) {
                continue; // QP1 carries the CM of every connection between two hosts
            }
            String src = key.source().text();
            String dst = key.destination().text();
            for (int i = 0; i < flows.size(); i++) {
                Flow f = flows.get(i);
                if (f.a() == null || f.b() == null) {
                    continue;
                }
                if (matches(f.a(), f.b(), src, dst, key.destQp()) || matches(f.b(), f.a(), src, dst, key.destQp())) {
                    convOfKey.putIfAbsent(k + 1, i + 1);
                    break;
                }
            }
        }
        for (int f = 1; f <= frames && f < keyOfFrame.length; f++) {
            if (conv[f] == 0 && keyOfFrame[f] != 0) {
                Integer c = convOfKey.get(keyOfFrame[f]);
                if (c != null) {
                    conv[f] = c;
                }
            }
        }
        return conv;
    }

    private static boolean matches(Flow.Side from, Flow.Side to, String src, String dst, int destQp) {
        return from.address() != null && from.address().equals(src) && to.address() != null
                && to.address().equals(dst) && to.qpn() != null && to.qpn() == destQp;
    }

    private static void mark(int[] conv, int frame, int c) {
        if (frame > 0 && frame < conv.length && conv[frame] == 0) {
            conv[frame] = c;
        }
    }

    /** Numbers each distinct (source, destination, destination QP) key from 1. */
    static final class KeyReader {
        private final Map<RdmaKey, Integer> ids = new HashMap<>();
        private final List<RdmaKey> keys = new ArrayList<>();

        List<RdmaKey> keys() {
            return keys;
        }

        /** The key id of the frame in {@code d}, or 0 when it is no InfiniBand transport packet. */
        int read(Dissection d) {
            RdmaKey key = RdmaKey.of(d);
            if (key == null) {
                return 0;
            }
            Integer id = ids.get(key);
            if (id == null) {
                keys.add(key);
                id = keys.size();
                ids.put(key, id);
            }
            return id;
        }
    }
}
