package io.rdmascope.replay;

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
    /**
     * The request frames in the order added, held in the builder itself rather than in list objects of
     * their own: a finished message waits among the recent ones (late duplicates) long enough to leave
     * the cache, and its hand-out then reads one object, not three. Each frame's number, PSN, payload and
     * time (a message split or joined later needs them): the first frame's in fields while
     * {@code frameData} is null (most messages have one frame); from the second frame on, every frame's
     * in {@code frameData}, {@value #FRAME_STRIDE} longs a frame (number and PSN packed, payload, time),
     * one array where four were.
     */
    private int firstFrameNumber;
    private int firstFramePsn;
    private long firstFramePayload;
    private long firstFrameTime;
    private long[] frameData;
    private static final int FRAME_STRIDE = 3;
    private int frameCount;
    /** Frames were added in ascending order (the usual case: a late FIRST is rare), so no sort is needed. */
    private boolean framesAscending = true;
    /** {@code frameData} is also a handed-out list's array: copy before writing into it. */
    private boolean framesShared;
    /** Response frames, made with the first (most messages get none: an ACK is not listed as one). */
    private FrameNumbers responseFrames;
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
    /*
     * What the hand-out reads (status, completion, completionAckPsn, ackCountedFrame, emitted) changes only
     * through methods here, which refresh the copy the recent messages keep of it (RecentMessages): a
     * counting replay's hand-out reads that copy, not this builder.
     */
    private String status = Message.INCOMPLETE;
    /**
     * The frame that completed it and the latency, meaningful only while {@link #hasCompletion}: kept as
     * primitives (boxed once, when the message is handed out) since a builder often outlives a GC cycle
     * and a reference stored into an old object pays a G1 write barrier with a fence.
     */
    private boolean hasCompletion;
    private int completionFrame;
    long latencyNanos;
    private boolean emitted;
    /** The capture misses its FIRST (the message started in a PSN gap or before the capture). */
    boolean firstMissing;
    /** Closed by the next message while its LAST sat in a PSN gap: the capture may show that LAST late. */
    boolean lastMissing;
    /** UC: one of its PSNs was skipped; it ends dropped (IBTA 9.8.3), with the packets the capture shows. */
    boolean ucDropped;
    /** A PSN inside its range was acknowledged without the capture showing it. */
    boolean psnsMissing;
    /** PSN of the ACK that completed it, -1 when something else did (a READ response, a NAK's implied ACK). */
    private int completionAckPsn = -1;
    /** The ACK frame whose coalesced-ACK count includes this message, -1 when none does. */
    private long ackCountedFrame = -1;
    /** The recent messages it was last placed among, and where (RecentMessages keeps its hand-out fields). */
    RecentMessages recentIn;
    long recentTicket;
    /** Its completion went into the conversation's statistics (a reopened message is not counted twice). */
    boolean counted;
    /** READ: PSN of its last transmission (a re-read starts inside the span, R3.7) and what was answered since. */
    int readFromPsn;
    /** READ only, made when first needed: response PSN offsets answered since the last transmission, and counted. */
    private java.util.BitSet respondedSince;
    private java.util.BitSet countedResponses;

    MessageBuilder(MessageKind kind, int firstPsn, int lastPsn, long firstFrame, long firstTimeNanos) {
        this.kind = kind;
        this.firstPsn = firstPsn;
        this.lastPsn = lastPsn;
        this.newestPsn = firstPsn;
        append((int) firstFrame, firstPsn, 0, firstTimeNanos);
        this.firstTimeNanos = firstTimeNanos;
        this.lastRequestNanos = firstTimeNanos;
        this.readFromPsn = firstPsn;
    }

    void addFrame(long frame, long timeNanos, int psn, long payload) {
        append((int) frame, psn, payload, timeNanos);
        lastRequestNanos = Math.max(lastRequestNanos, timeNanos);
        if (timeNanos < firstTimeNanos && frame < frameAt(0)) {
            firstTimeNanos = timeNanos;
        }
    }

    int frameCount() {
        return frameCount;
    }

    private int frameAt(int i) {
        if (i >= frameCount) {
            throw new IndexOutOfBoundsException(i);
        }
        return frameData == null ? firstFrameNumber : (int) (frameData[i * FRAME_STRIDE] >>> 32);
    }

    private int psnAt(int i) {
        return frameData == null ? firstFramePsn : (int) frameData[i * FRAME_STRIDE];
    }

    private long payloadAt(int i) {
        return frameData == null ? firstFramePayload : frameData[i * FRAME_STRIDE + 1];
    }

    private long timeAt(int i) {
        return frameData == null ? firstFrameTime : frameData[i * FRAME_STRIDE + 2];
    }

    private static long numberAndPsn(int frame, int psn) {
        return (long) frame << 32 | (psn & 0xFFFF_FFFFL);
    }

    private void append(int frame, int psn, long payload, long time) {
        if (frameCount > 0 && frame < frameAt(frameCount - 1)) {
            framesAscending = false;
        }
        if (frameData == null && frameCount == 0) {
            firstFrameNumber = frame;
            firstFramePsn = psn;
            firstFramePayload = payload;
            firstFrameTime = time;
            frameCount = 1;
            return;
        }
        if (frameData == null || (frameCount + 1) * FRAME_STRIDE > frameData.length || framesShared) {
            long[] grown = new long[Math.max(4, frameCount * 2) * FRAME_STRIDE];
            if (frameData == null) {
                grown[0] = numberAndPsn(firstFrameNumber, firstFramePsn);
                grown[1] = firstFramePayload;
                grown[2] = firstFrameTime;
            } else {
                System.arraycopy(frameData, 0, grown, 0, frameCount * FRAME_STRIDE);
            }
            frameData = grown;
            framesShared = false;
        }
        int at = frameCount * FRAME_STRIDE;
        frameData[at] = numberAndPsn(frame, psn);
        frameData[at + 1] = payload;
        frameData[at + 2] = time;
        frameCount++;
    }

    private void clearFrames() {
        if (framesShared) {
            frameData = null;
            framesShared = false;
        }
        frameCount = 0;
        framesAscending = true;
    }

    /**
     * The request frames as the immutable list a {@link Message} carries, in capture order (a late
     * FIRST joins after later PSNs' frames): frames added in order are handed out sharing the array
     * (a later add copies it first), only a list added out of order is copied and sorted.
     */
    java.util.List<Integer> frameList() {
        if (frameData == null) {
            return frameCount == 0 ? java.util.List.of() : FrameNumbers.single(firstFrameNumber);
        }
        if (framesAscending) {
            if (frameCount > 0) {
                framesShared = true;
            }
            return FrameNumbers.highHalves(frameData, FRAME_STRIDE, frameCount);
        }
        int[] sorted = new int[frameCount];
        for (int i = 0; i < frameCount; i++) {
            sorted[i] = frameAt(i);
        }
        java.util.Arrays.sort(sorted);
        return FrameNumbers.ascendingView(sorted, frameCount, true);
    }

    void addResponseFrame(int frame) {
        if (responseFrames == null) {
            responseFrames = new FrameNumbers(0);
        }
        responseFrames.add(frame);
    }

    /** The response frames in the order added, as the immutable list a {@link Message} carries. */
    java.util.List<Integer> responseFrameList() {
        return responseFrames == null ? java.util.List.of() : responseFrames.toList();
    }

    /** The payload of the first frame (the constructor knows only its PSN and time). */
    void firstPayload(long payload) {
        if (frameData == null) {
            firstFramePayload = payload;
        } else {
            frameData[1] = payload; // not a frame number: a handed-out list does not see it
        }
    }

    /** Appends every frame of {@code other}. */
    void appendFrames(MessageBuilder other) {
        for (int i = 0; i < other.frameCount; i++) {
            addFrame(other.frameAt(i), other.timeAt(i), other.psnAt(i), other.payloadAt(i));
        }
    }

    /** Moves the frames carrying PSNs after {@code psn} into {@code tail} (which starts empty). */
    void moveFramesAfter(int psn, MessageBuilder tail) {
        tail.clearFrames();
        int n = frameCount;
        int[] psns = new int[n];
        long[] payloads = new long[n];
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
            psns[i] = psnAt(i);
            payloads[i] = payloadAt(i);
            times[i] = timeAt(i);
        }
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = frameAt(i);
        }
        clearFrames();
        for (int i = 0; i < n; i++) {
            MessageBuilder to = psns[i] >= 0 && Psn.diff(psns[i], psn) > 0 ? tail : this;
            to.append(all[i], psns[i], payloads[i], times[i]);
        }
    }

    /** The lowest PSN among its frames (in PSN order), or {@code fallback} when none carries one. */
    int lowestPsn(int fallback) {
        int lowest = fallback;
        boolean any = false;
        for (int i = 0; i < frameCount; i++) {
            int p = psnAt(i);
            if (p >= 0 && (!any || Psn.diff(p, lowest) < 0)) {
                lowest = p;
                any = true;
            }
        }
        return lowest;
    }

    long earliestFrameNanos() {
        long t = Long.MAX_VALUE;
        for (int i = 0; i < frameCount; i++) {
            t = Math.min(t, timeAt(i));
        }
        return t;
    }

    long latestFrameNanos() {
        long t = Long.MIN_VALUE;
        for (int i = 0; i < frameCount; i++) {
            t = Math.max(t, timeAt(i));
        }
        return t;
    }

    /** Payload its captured frames carry, each PSN once. */
    long distinctBytes() {
        long total = 0;
        for (int i = 0; i < frameCount; i++) {
            boolean repeat = false;
            for (int j = 0; j < i && !repeat; j++) {
                repeat = psnAt(j) == psnAt(i);
            }
            if (!repeat) {
                total += payloadAt(i);
            }
        }
        return total;
    }

    /** READ: response PSN offset {@code offset} was answered since the last transmission. */
    void markResponded(int offset) {
        if (respondedSince == null) {
            respondedSince = new java.util.BitSet();
        }
        respondedSince.set(offset);
    }

    void clearResponded() {
        if (respondedSince != null) {
            respondedSince.clear();
        }
    }

    /** READ: whether every response offset from {@code from} to {@code to} was answered since. */
    boolean respondedFrom(int from, int to) {
        return respondedSince != null && respondedSince.nextClearBit(from) > to;
    }

    /** READ: true the first time a response offset is counted. */
    boolean countResponseOnce(int offset) {
        if (countedResponses == null) {
            countedResponses = new java.util.BitSet();
        }
        if (countedResponses.get(offset)) {
            return false;
        }
        countedResponses.set(offset);
        return true;
    }

    boolean finished() {
        return !Message.INCOMPLETE.equals(status);
    }

    String status() {
        return status;
    }

    boolean hasCompletion() {
        return hasCompletion;
    }

    int completionFrame() {
        return completionFrame;
    }

    boolean emitted() {
        return emitted;
    }

    long ackCountedFrame() {
        return ackCountedFrame;
    }

    /** Counted toward the ACK in {@code frame} (-1: toward none). */
    void ackCountedFrame(long frame) {
        ackCountedFrame = frame;
        handOutChanged();
    }

    /** The PSN of the ACK that completed it, -1 when something else did. */
    void completionAckPsn(int psn) {
        completionAckPsn = psn;
        handOutChanged();
    }

    /** Handed out ({@link Conversation#emit}): final. */
    void markEmitted() {
        emitted = true;
        handOutChanged();
    }

    /**
     * Handed out from its only placement among the recent messages, which it has just left
     * ({@link RecentMessages#handOutFirst}): nothing holds a copy to refresh, and only stores are made,
     * so the hand-out waits for no read of this builder. {@code undone}: its ACK count was taken back.
     */
    void markEmittedLeaving(boolean undone) {
        emitted = true;
        if (undone) {
            ackCountedFrame = -1;
        }
    }

    /** A resend or a join took its completion back: incomplete again. */
    void reopen() {
        status = Message.INCOMPLETE;
        clearCompletion();
    }

    /** Forgets a completion a resend or a join took back. */
    private void clearCompletion() {
        hasCompletion = false;
        completionFrame = 0;
        latencyNanos = 0;
        handOutChanged();
    }

    void finish(String newStatus, long frame, long timeNanos) {
        status = newStatus;
        if (frame > 0) {
            hasCompletion = true;
            completionFrame = (int) frame;
            latencyNanos = timeNanos - firstTimeNanos;
        }
        handOutChanged();
    }

    /**
     * What its hand-out decides on besides the ACK frame: handed out already, and whether it is final as
     * the completion of the ACK it was counted toward (that ACK then completed it; else the count is taken
     * back).
     */
    byte handOutFlags() {
        boolean finalAtAck = hasCompletion && completionFrame == ackCountedFrame && completionAckPsn >= 0
                && Message.COMPLETED.equals(status);
        return (byte) ((emitted ? RecentMessages.EMITTED : 0) | (finalAtAck ? RecentMessages.FINAL_AT_ACK : 0));
    }

    private void handOutChanged() {
        if (recentIn != null) {
            recentIn.refresh(this);
        }
    }

    long firstFrame() {
        int lowest = Integer.MAX_VALUE;
        for (int i = 0; i < frameCount; i++) {
            lowest = Math.min(lowest, frameAt(i));
        }
        return lowest;
    }
}
