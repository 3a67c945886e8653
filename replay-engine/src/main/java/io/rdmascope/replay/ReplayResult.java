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

    public ReplayResult() {
        this(ReplayLimits.defaults());
    }

    public ReplayResult(ReplayLimits limits) {
        this(limits, true);
    }

    private ReplayResult(ReplayLimits limits, boolean keepMessages) {
        this.engine = new ReplayEngine(this, limits);
        this.keepMessages = keepMessages;
    }

    /**
     * A result that counts messages but does not keep them: for front ends that need only flows,
     * observations and findings (flows, summary, check), so memory does not grow with the capture.
     */
    public static ReplayResult withoutMessages() {
        return new ReplayResult(ReplayLimits.defaults(), false);
    }

    public void accept(Dissection d) {
        engine.accept(d);
    }

    /** Ends the replay and sorts what it found. */
    public ReplayResult finish() {
        engine.finish();
        messages.sort(Comparator.comparingInt((Message m) -> m.frames().isEmpty() ? Integer.MAX_VALUE
                : m.frames().get(0)).thenComparingInt(Message::firstPsn));
        observations.sort(Comparator.comparingLong(o -> o.frame() == 0 ? Long.MAX_VALUE : o.frame()));
        flows = engine.flows();
        return this;
    }

    @Override
    public void message(Message message) {
        messageCount++;
        if (keepMessages) {
            messages.add(message);
        }
    }

    /** Messages replayed, kept or not. */
    public long messageCount() {
        return messageCount;
    }

    @Override
    public void observation(Observation observation) {
        observations.add(observation);
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
