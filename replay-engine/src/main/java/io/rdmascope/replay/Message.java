package io.rdmascope.replay;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * A reassembled message: the {@code messages --json} contract (extend, don't rename). {@code bytes}
 * is the payload the capture shows (each PSN once; for READ the bytes returned; 8 for the atomics).
 * {@code frames} are the request frames, retransmissions included; {@code status} is completed,
 * incomplete, failed or dropped. {@code immediate} and {@code invalidatedRkey} appear only on the
 * messages that carry them. {@code partial} is true when the capture misses some of the message's
 * request packets (a FIRST or LAST it never showed, or a packet acknowledged but not captured);
 * {@code firstPsn} is then the first PSN the capture shows.
 */
public record Message(String conversation, String src, String dst, Integer srcQp, int destQp, MessageKind kind,
                      Transport transport, int firstPsn, int lastPsn, long bytes, List<Integer> frames,
                      List<Integer> responseFrames, Integer completionFrame, Long latencyNanos, String status,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Long immediate,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Long invalidatedRkey,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean partial) {

    public static final String COMPLETED = "completed";
    public static final String INCOMPLETE = "incomplete";
    public static final String FAILED = "failed";
    public static final String DROPPED = "dropped";

    /**
     * The frame lists are taken as given, not copied (one message per few frames makes copies a hot
     * spot): the engine hands over unmodifiable lists it no longer touches.
     */
    public Message {
        frames = java.util.Objects.requireNonNull(frames);
        responseFrames = java.util.Objects.requireNonNull(responseFrames);
    }
}
