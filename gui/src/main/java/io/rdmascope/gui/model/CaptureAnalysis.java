package io.rdmascope.gui.model;

import io.rdmascope.replay.Flow;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.Observation;
import io.rdmascope.rules.Diagnosis;
import io.rdmascope.rules.Finding;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the replay of a whole capture found, as the RDMA views show it: flows (one per conversation),
 * messages, observations, findings, the per-frame verdicts, which conversation every frame
 * belongs to (the ladder diagram's frames), and the per-conversation account of what went wrong
 * ({@link Diagnosis}, the Diagnosis pane's and {@code rdmascope explain}'s). Immutable once built.
 *
 * @param conversationOfFrame by frame number: the index into {@code flows} plus one, 0 for frames
 *                            of no conversation
 */
public record CaptureAnalysis(List<Flow> flows, List<Message> messages, List<Observation> observations,
                              List<Finding> findings, FrameAnalysis frames, int[] conversationOfFrame,
                              Diagnosis diagnosis, long nanos) {

    /** The number of frames replayed. */
    public int frameCount() {
        return conversationOfFrame.length - 1;
    }

    /** The diagnosis of conversation {@code id}, or null. */
    public Diagnosis.Account account(String id) {
        for (Diagnosis.Account a : diagnosis.conversations()) {
            if (a.conversation().equals(id)) {
                return a;
            }
        }
        return null;
    }

    /** The flow of conversation {@code id}, or null. */
    public Flow flow(String id) {
        for (Flow f : flows) {
            if (f.conversation().equals(id)) {
                return f;
            }
        }
        return null;
    }

    /** Index of conversation {@code id} in {@link #flows()}, or -1. */
    public int flowIndex(String id) {
        for (int i = 0; i < flows.size(); i++) {
            if (flows.get(i).conversation().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** The frames of conversation {@code id} in capture order. */
    public int[] framesOf(String id) {
        int want = flowIndex(id) + 1;
        if (want == 0) {
            return new int[0];
        }
        int n = 0;
        for (int c : conversationOfFrame) {
            if (c == want) {
                n++;
            }
        }
        int[] out = new int[n];
        int k = 0;
        for (int f = 1; f < conversationOfFrame.length; f++) {
            if (conversationOfFrame[f] == want) {
                out[k++] = f;
            }
        }
        return out;
    }

    /** The conversation id of frame {@code number}, or null. */
    public String conversationOf(int number) {
        if (number <= 0 || number >= conversationOfFrame.length || conversationOfFrame[number] == 0) {
            return null;
        }
        return flows.get(conversationOfFrame[number] - 1).conversation();
    }

    /** Observations by frame number, for marking arrows and rows. */
    public Map<Long, List<Observation>> observationsByFrame() {
        Map<Long, List<Observation>> m = new HashMap<>();
        for (Observation o : observations) {
            if (o.frame() > 0) {
                m.computeIfAbsent(o.frame(), k -> new java.util.ArrayList<>()).add(o);
            }
        }
        return m;
    }

    @Override
    public String toString() {
        return "CaptureAnalysis[" + flows.size() + " conversations, " + messages.size() + " messages, "
                + findings.size() + " findings, " + Arrays.stream(conversationOfFrame).filter(c -> c != 0).count()
                + " frames in conversations]";
    }
}
