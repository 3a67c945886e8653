package io.rdmascope.rules;

import java.util.List;

/**
 * A rule firing: the {@code check --report json} contract (rule, severity, summary, reference,
 * frames, conversation, detail, rootCause, causedBy). Frames are 1-based; the conversation is null
 * when no queue pair is involved. {@code rootCause} is false for a finding that follows from an
 * earlier one in the same conversation (a retransmission after a NAK, a stall after a PSN reuse);
 * {@code causedBy} is then the first frame of that conversation's first anomaly, else null.
 */
public record Finding(String rule, String severity, String summary, String reference, List<Long> frames,
                      String conversation, String detail, boolean rootCause, Long causedBy) {
    public Finding {
        frames = List.copyOf(frames);
    }

    /** A finding not (yet) placed in a causal chain: a root cause. */
    public Finding(String rule, String severity, String summary, String reference, List<Long> frames,
                   String conversation, String detail) {
        this(rule, severity, summary, reference, frames, conversation, detail, true, null);
    }

    /** The same finding as a consequence of the anomaly first seen in {@code rootFrame}. */
    Finding causedBy(long rootFrame) {
        return new Finding(rule, severity, summary, reference, frames, conversation, detail, false, rootFrame);
    }

    /** First frame, or Long.MAX_VALUE when none (findings sort by it). */
    public long firstFrame() {
        return frames.isEmpty() ? Long.MAX_VALUE : frames.get(0);
    }
}
