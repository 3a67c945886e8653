package io.rdmascope.replay;

/**
 * Bounds on the engine's state, so memory depends on them and not on the capture's length
 * (DESIGN.md, bad input contract). Reaching one raises a {@link Observation.LimitReached} once and
 * stops that state from growing: the oldest entry is given up.
 *
 * @param conversations    queue-pair conversations tracked at once
 * @param outstanding      messages per requester awaiting completion (posted, unanswered)
 * @param recentMessages   finished messages kept per requester so late duplicates still find them
 * @param gapPsns          missing PSNs remembered per requester until resolved
 */
public record ReplayLimits(int conversations, int outstanding, int recentMessages, int gapPsns) {

    /** Generous for real fabrics: 64 K conversations, 4 K outstanding messages per QP. */
    public static ReplayLimits defaults() {
        return new ReplayLimits(65_536, 4_096, 64, 1_024);
    }

    public ReplayLimits {
        if (conversations < 1 || outstanding < 1 || recentMessages < 0 || gapPsns < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}
