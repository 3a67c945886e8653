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
    private List<Flow> flows;

    public ReplayResult() {
        this(ReplayLimits.defaults());
    }

    public ReplayResult(ReplayLimits limits) {
        this.engine = new ReplayEngine(this, limits);
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
        messages.add(message);
    }

    @Override
    public void observation(Observation observation) {
        observations.add(observation);
    }

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
