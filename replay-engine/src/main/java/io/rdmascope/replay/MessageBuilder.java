package io.rdmascope.replay;

import java.util.ArrayList;
import java.util.List;

/** A message being reassembled; frozen into a {@link Message} when it completes, fails or the capture ends. */
final class MessageBuilder {
    /** SEND and WRITE learn "with immediate/invalidate" only at their LAST packet. */
    MessageKind kind;
    /** First PSN; moves back when a FIRST the capture showed late (lost upstream, resent) joins a partial message. */
    int firstPsn;
    /** Last PSN: grows with a SEND/WRITE's packets; fixed for a READ (its response span) and the atomics. */
    int lastPsn;
    /** Payload seen (each PSN once); for a READ the bytes returned so far. */
    long bytes;
    final List<Integer> frames = new ArrayList<>(2);
    /** The PSN and payload of each request frame, in step with {@code frames} (a message split later needs them). */
    final List<Integer> framePsns = new ArrayList<>(2);
    final List<Long> framePayloads = new ArrayList<>(2);
    final List<Long> frameTimes = new ArrayList<>(2);
    final List<Integer> responseFrames = new ArrayList<>(0);
    long firstTimeNanos;
    /** Time of the newest request frame (the ACK timer restarts with each transmission). */
    long lastRequestNanos;
    /** RETH DMA length of a WRITE or READ, -1 when none was seen. */
    long dmaLength = -1;
    /** A READ whose span was guessed from the next request's PSN (path MTU unknown): that frame, else 0. */
    long spanGuessedAt;
    /** A READ's RETH virtual address and R_Key (a re-read from inside its span continues the same buffer). */
    long rethVa;
    long rethRkey;
    Long immediate;
    Long invalidatedRkey;
    /** SEND/WRITE: the LAST or ONLY was seen, so the message is whole at the requester. */
    boolean closed;
    /** PSN of the newest packet appended (PSN-wrap detection), and of the newest READ response. */
    int newestPsn;
    int newestResponsePsn = -1;
    /** Pad-count violation found: bytes were counted from the DMA length instead. */
    boolean padFixed;
    String status = Message.INCOMPLETE;
    Integer completionFrame;
    Long latencyNanos;
    boolean emitted;
    /** The capture misses its FIRST (the message started in a PSN gap or before the capture). */
    boolean firstMissing;
    /** Closed by the next message while its LAST sat in a PSN gap: the capture may show that LAST late. */
    boolean lastMissing;
    /** UC: one of its PSNs was skipped; it ends dropped (IBTA 9.8.3), with the packets the capture shows. */
    boolean ucDropped;
    /** A PSN inside its range was acknowledged without the capture showing it. */
    boolean psnsMissing;
    /** PSN of the ACK that completed it, -1 when something else did (a READ response, a NAK's implied ACK). */
    int completionAckPsn = -1;
    /** Its completion went into the conversation's statistics (a reopened message is not counted twice). */
    boolean counted;
    /**
     * READs, atomics, FLUSH, ATOMIC WRITE: the newest response PSN at or after its first PSN seen since
     * its last transmission, and when (-1 none): a resend soon after one beyond its own PSN is an
     * implied NAK (R3.2, R3.7), not a timeout.
     */
    int responsePsnSince = -1;
    long responseNanosSince = -1;
    /** READ: PSN of its last transmission (a re-read starts inside the span, R3.7) and what was answered since. */
    int readFromPsn;
    final java.util.BitSet respondedSince = new java.util.BitSet();
    /** READ: response PSNs whose payload was counted (each once). */
    final java.util.BitSet countedResponses = new java.util.BitSet();

    MessageBuilder(MessageKind kind, int firstPsn, int lastPsn, long firstFrame, long firstTimeNanos) {
        this.kind = kind;
        this.firstPsn = firstPsn;
        this.lastPsn = lastPsn;
        this.newestPsn = firstPsn;
        this.frames.add((int) firstFrame);
        this.framePsns.add(firstPsn);
        this.framePayloads.add(0L);
        this.frameTimes.add(firstTimeNanos);
        this.firstTimeNanos = firstTimeNanos;
        this.lastRequestNanos = firstTimeNanos;
        this.readFromPsn = firstPsn;
    }

    void addFrame(long frame, long timeNanos) {
        addFrame(frame, timeNanos, -1, 0);
    }

    void addFrame(long frame, long timeNanos, int psn, long payload) {
        frames.add((int) frame);
        framePsns.add(psn);
        framePayloads.add(payload);
        frameTimes.add(timeNanos);
        lastRequestNanos = Math.max(lastRequestNanos, timeNanos);
        if (timeNanos < firstTimeNanos && frame < frames.get(0)) {
            firstTimeNanos = timeNanos;
        }
    }

    /** Frames in capture order (a late FIRST joins after later PSNs' frames). */
    List<Integer> framesInOrder() {
        for (int i = 1; i < frames.size(); i++) {
            if (frames.get(i) < frames.get(i - 1)) {
                List<Integer> sorted = new ArrayList<>(frames);
                sorted.sort(null);
                return sorted;
            }
        }
        return frames;
    }

    /** Whether one of its captured request frames carried {@code psn}. */
    boolean carried(int psn) {
        return framePsns.contains(psn);
    }

    boolean finished() {
        return !Message.INCOMPLETE.equals(status);
    }

    void finish(String newStatus, long frame, long timeNanos) {
        status = newStatus;
        if (frame > 0) {
            completionFrame = (int) frame;
            latencyNanos = timeNanos - firstTimeNanos;
        }
    }

    long firstFrame() {
        long first = frames.get(0);
        for (int f : frames) {
            first = Math.min(first, f);
        }
        return first;
    }
}
