package io.rdmascope.rules;

import java.util.List;

/**
 * A rule firing: the {@code check --report json} contract (rule, severity, summary, reference,
 * frames, conversation, detail). Frames are 1-based; the conversation is null when no queue pair
 * is involved.
 */
public record Finding(String rule, String severity, String summary, String reference, List<Long> frames,
                      String conversation, String detail) {
    public Finding {
        frames = List.copyOf(frames);
    }

    /** First frame, or Long.MAX_VALUE when none (findings sort by it). */
    public long firstFrame() {
        return frames.isEmpty() ? Long.MAX_VALUE : frames.get(0);
    }
}
