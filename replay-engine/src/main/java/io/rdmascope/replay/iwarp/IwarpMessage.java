package io.rdmascope.replay.iwarp;

import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An iWARP message being put together from its DDP segments, frozen into a {@link Message} once it
 * completes, fails or the capture ends. Its TCP byte range (first segment's start to last segment's
 * end) lets retransmissions of its bytes be counted among its frames and an acknowledgement complete it.
 */
final class IwarpMessage {
    MessageKind kind;
    /** DDP message sequence number on its queue (a Read's is its Read Request's), 0 for a Write. */
    final long msn;
    final long firstTimeNanos;
    long bytes;
    final List<Integer> frames = new ArrayList<>(2);
    final List<Integer> responseFrames = new ArrayList<>(0);
    /** TCP sequence numbers of its first byte and just past its last (both of the sender's stream). */
    int startSeq;
    int endSeq;
    /** Untagged: next message offset expected; tagged Write: next tagged offset. */
    long nextOffset;
    long stag;
    /** A Read: sink STag and tagged offset, size requested, bytes returned so far. */
    long sinkOffset;
    long size;
    Long invalidatedStag;
    Long immediate;
    /** The last segment was seen: whole at the sender, waiting for the peer's acknowledgement. */
    boolean closed;
    String status = Message.INCOMPLETE;
    Integer completionFrame;
    Long latencyNanos;

    IwarpMessage(MessageKind kind, long msn, long firstTimeNanos) {
        this.kind = kind;
        this.msn = msn;
        this.firstTimeNanos = firstTimeNanos;
    }

    void addFrame(List<Integer> list, long frame) {
        int f = (int) frame;
        int i = Collections.binarySearch(list, f);
        if (i < 0) {
            list.add(-i - 1, f);
        }
    }

    long firstFrame() {
        return frames.isEmpty() ? 0 : frames.get(0);
    }

    void finish(String newStatus, long frame, long timeNanos) {
        status = newStatus;
        if (frame > 0) {
            completionFrame = (int) frame;
            latencyNanos = timeNanos - firstTimeNanos;
        }
    }

    boolean finished() {
        return !Message.INCOMPLETE.equals(status);
    }
}
