package io.rdmascope.rules;

import io.rdmascope.replay.ObservationKind;

import java.util.List;

/**
 * A conformance rule: a stable id, a revision bumped when its meaning changes, a default severity,
 * a one-line summary, the specification it enforces, a longer explanation with the typical cause,
 * and the replay-engine observation kinds that raise it.
 */
public record Rule(String id, int revision, Severity severity, String summary, String reference,
                   String explanation, List<ObservationKind> observations) {
    public Rule {
        observations = List.copyOf(observations);
    }
}
