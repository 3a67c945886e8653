package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects a whole replay: messages in order of first frame (the {@code messages} order),
 * observations in frame order, and the flows. For front ends that show everything at the end;
 * streaming consumers implement {@link ReplayListener} instead.
 */
public final class ReplayResult implements ReplayListener {
    private final List<Message> messages = new ArrayList<>();
    private final List<Observation> observations = new ArrayList<>();
    private final ReplayEngine engine;
    private final boolean keepMessages;
    private long messageCount;
    private List<Flow> flows;
    /** Per frame: the provisional conversation number (0 none) and side/role ({@link #placement}). */
    private int[] placedConversation = new int[0];
    private byte[] placedSideRole = new byte[0];

    public ReplayResult() {
        this(ReplayLimits.defaults());
    }

    public ReplayResult(ReplayLimits limits) {
        this(limits, true, IcrcCheck.AUTO);
    }

    /** A result keeping messages, with ICRCs judged as {@code icrc} says ({@code --icrc}). */
    public ReplayResult(IcrcCheck icrc) {
        this(ReplayLimits.defaults(), true, icrc);
    }

    private ReplayResult(ReplayLimits limits, boolean keepMessages, IcrcCheck icrc) {
        this.keepMessages = keepMessages; // before the engine, which may ask keepsMessages()
        this.engine = new ReplayEngine(this, limits, icrc);
    }

    /**
     * A result that counts messages but does not keep them: for front ends that need only flows,
     * observations and findings (flows, summary, check), so memory does not grow with the capture.
     */
    public static ReplayResult withoutMessages() {
        return withoutMessages(IcrcCheck.AUTO);
    }

    /** {@link #withoutMessages()} with ICRCs judged as {@code icrc} says. */
    public static ReplayResult withoutMessages(IcrcCheck icrc) {
        return new ReplayResult(ReplayLimits.defaults(), false, icrc);
    }

    public void accept(Dissection d) {
        engine.accept(d);
    }

    /** The part of a frame's replay that depends on it alone, done ahead by a {@link ReplayFeed}. */
    boolean readAhead(Dissection d, PacketFacts into, boolean crcs) {
        return engine.readAhead(d, into, crcs);
    }

    /** Replays a frame whose facts {@link #readAhead} read. */
    void accept(Dissection d, PacketFacts read, boolean transport) {
        engine.accept(d, read, transport);
    }

    /** Ends the replay and sorts what it found. */
    public ReplayResult finish() {
        return finish(Long.MIN_VALUE);
    }

    /**
     * Ends a replay of part of a capture that went on until {@code captureEndNanos}
     * ({@link ReplayEngine#finish(long)}), and sorts what it found.
     */
    public ReplayResult finish(long captureEndNanos) {
        engine.finish(captureEndNanos);
        if (!engine.idsFinal()) {
            renumber();
        }
        sortByFirstFrame(messages);
        observations.sort(Comparator.comparingLong(o -> o.frame() == 0 ? Long.MAX_VALUE : o.frame()));
        flows = engine.flows();
        return this;
    }

    /**
     * Sorts {@code messages} by first request frame, then first PSN (signed, as compared before), a
     * message with no frame last; ties keep their order (a stable sort). Each key is read once: a
     * message's frames are a primitive list that boxes every number it hands out (FrameNumbers), and a
     * comparator reading them at every comparison boxed dozens of numbers per message on the GUI's
     * millions of messages.
     */
    static void sortByFirstFrame(List<Message> messages) {
        int n = messages.size();
        long[] keys = new long[n];
        int[] order = new int[n];
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            Message m = messages.get(i);
            long frame = m.frames().isEmpty() ? Integer.MAX_VALUE : m.frames().get(0);
            keys[i] = frame << 32 | (m.firstPsn() ^ 0x8000_0000L) & 0xFFFF_FFFFL; // frames are never negative
            order[i] = i;
            sorted &= i == 0 || keys[i - 1] <= keys[i];
        }
        if (sorted) {
            return;
        }
        mergeSort(order, new int[n], keys, 0, n);
        Message[] byKey = new Message[n];
        for (int i = 0; i < n; i++) {
            byKey[i] = messages.get(order[i]);
        }
        for (int i = 0; i < n; i++) {
            messages.set(i, byKey[i]);
        }
    }

    /** Stable merge sort of {@code order[from, to)} by {@code keys[order[i]]}. */
    private static void mergeSort(int[] order, int[] scratch, long[] keys, int from, int to) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) { // insertion sort: stable, since it moves only past greater keys
                int v = order[i];
                int j = i - 1;
                while (j >= from && keys[order[j]] > keys[v]) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(order, scratch, keys, from, mid);
        mergeSort(order, scratch, keys, mid, to);
        if (keys[order[mid - 1]] <= keys[order[mid]]) {
            return; // already in order: common, since messages are handed out roughly as they begin
        }
        System.arraycopy(order, from, scratch, from, to - from);
        int left = from;
        int right = mid;
        for (int i = from; i < to; i++) {
            if (right >= to || (left < mid && keys[scratch[left]] <= keys[scratch[right]])) {
                order[i] = scratch[left++];
            } else {
                order[i] = scratch[right++];
            }
        }
    }

    /** Time of the capture's last frame (any frame, RDMA or not), or Long.MIN_VALUE for an empty capture. */
    public long captureEndNanos() {
        return engine.captureEndNanos();
    }

    @Override
    public void message(Message message) {
        messageCount++;
        if (keepMessages) {
            messages.add(message);
        }
    }

    /** Without messages kept, none is built for this result: it only counts them. */
    @Override
    public boolean keepsMessages() {
        return keepMessages;
    }

    @Override
    public void messageCounted() {
        messageCount++;
    }

    /** Messages replayed, kept or not. */
    public long messageCount() {
        return messageCount;
    }

    @Override
    public void observation(Observation observation) {
        observations.add(observation);
    }

    /** Kept only with messages: a result without them stays small whatever the capture's length. */
    @Override
    public void placement(long frame, String conversation, int side, FrameRole role) {
        if (!keepMessages || frame <= 0 || frame > Integer.MAX_VALUE - 8) {
            return;
        }
        int f = (int) frame;
        if (f >= placedConversation.length) {
            int size = Math.max(f + 1, Math.max(16, placedConversation.length * 2));
            placedConversation = java.util.Arrays.copyOf(placedConversation, size);
            placedSideRole = java.util.Arrays.copyOf(placedSideRole, size);
        }
        placedConversation[f] = Integer.parseInt(conversation);
        placedSideRole[f] = (byte) ((side << 5) | (role.ordinal() + 1));
    }

    /** Conversation id of frame {@code frame}, or null when the engine placed it nowhere. */
    public String conversationOf(long frame) {
        if (frame <= 0 || frame >= placedConversation.length || placedConversation[(int) frame] == 0) {
            return null;
        }
        return String.valueOf(placedConversation[(int) frame]);
    }

    /** The side (0 or 1) of its conversation that sent frame {@code frame}, or -1. */
    public int sideOf(long frame) {
        if (frame <= 0 || frame >= placedSideRole.length || placedSideRole[(int) frame] == 0) {
            return -1;
        }
        return placedSideRole[(int) frame] >> 5;
    }

    /** What frame {@code frame} is to its conversation, or null. */
    public FrameRole roleOf(long frame) {
        if (frame <= 0 || frame >= placedSideRole.length || placedSideRole[(int) frame] == 0) {
            return null;
        }
        return FrameRole.of((placedSideRole[(int) frame] & 0x1F) - 1);
    }

    /** Frame numbers this result has placements for go up to, exclusive. */
    int placedFrames() {
        return placedConversation.length;
    }

    /** Pairing merged directions after their ids were given out: every id becomes its final one. */
    private void renumber() {
        messages.replaceAll(m -> new Message(engine.finalConversationId(m.conversation()), m.src(), m.dst(), m.srcQp(),
                m.destQp(), m.kind(), m.transport(), m.firstPsn(), m.lastPsn(), m.bytes(), m.frames(),
                m.responseFrames(), m.completionFrame(), m.latencyNanos(), m.status(), m.immediate(),
                m.invalidatedRkey(), m.partial()));
        observations.replaceAll(o -> Observations.withConversation(o, engine.finalConversationId(o.conversation())));
        for (int f = 0; f < placedConversation.length; f++) {
            if (placedConversation[f] != 0) {
                placedConversation[f] = Integer.parseInt(
                        engine.finalConversationId(String.valueOf(placedConversation[f])));
            }
        }
    }

    /**
     * Adds observations made beside the replay after it finished (the storage operation rules, issue 19),
     * keeping the frame order {@link #finish} gave: every consumer of {@link #observations()} (rules,
     * explain, analysis fields, the GUI) then sees them as the replay's own.
     */
    public void addObservations(List<? extends Observation> more) {
        if (more.isEmpty()) {
            return;
        }
        observations.addAll(more);
        observations.sort(Comparator.comparingLong(o -> o.frame() == 0 ? Long.MAX_VALUE : o.frame()));
    }

    /** The messages in order of first frame; empty for a {@link #withoutMessages()} result. */
    public List<Message> messages() {
        return messages;
    }

    public List<Observation> observations() {
        return observations;
    }

    public List<Flow> flows() {
        if (flows == null) {
            throw new IllegalStateException("call finish() first");
        }
        return flows;
    }
}
