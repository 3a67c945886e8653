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
    final FrameNumbers frames = new FrameNumbers(2);
    /**
     * The PSN, payload and time of each request frame, in step with {@code frames} (a message split or
     * joined later needs them): primitive arrays, as one message is made per few frames on the hot path.
     */
    private int[] framePsn;
    private long[] framePayload;
    private long[] frameTime;
    /** The first frame's, kept in fields: most messages have one frame, so the arrays come with the second. */
    private int firstFramePsn;
    private long firstFramePayload;
    private long firstFrameTime;
    final FrameNumbers responseFrames = new FrameNumbers(0);
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
    /**
     * The frame that completed it and the latency, meaningful only while {@link #hasCompletion}: kept as
     * primitives (boxed once, when the message is handed out) since a builder often outlives a GC cycle
     * and a reference stored into an old object pays a G1 write barrier with a fence.
     */
    boolean hasCompletion;
    int completionFrame;
    long latencyNanos;
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
    /** The ACK frame whose coalesced-ACK count includes this message, -1 when none does. */
    long ackCountedFrame = -1;
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
        this.frames.add((int) firstFrame);
        this.firstFramePsn = firstPsn;
        this.firstFrameTime = firstTimeNanos;
        this.firstTimeNanos = firstTimeNanos;
        this.lastRequestNanos = firstTimeNanos;
        this.readFromPsn = firstPsn;
    }

    void addFrame(long frame, long timeNanos, int psn, long payload) {
        int i = frames.size();
        frames.add((int) frame);
        set(i, psn, payload, timeNanos);
        lastRequestNanos = Math.max(lastRequestNanos, timeNanos);
        if (timeNanos < firstTimeNanos && frame < frames.get(0)) {
            firstTimeNanos = timeNanos;
        }
    }

    private void set(int i, int psn, long payload, long time) {
        if (i == 0) {
            firstFramePsn = psn;
            firstFramePayload = payload;
            firstFrameTime = time;
            return;
        }
        if (framePsn == null || i > framePsn.length) {
            int n = Math.max(i + 1, framePsn == null ? 4 : (framePsn.length + 1) * 2);
            framePsn = framePsn == null ? new int[n] : java.util.Arrays.copyOf(framePsn, n);
            framePayload = framePayload == null ? new long[n] : java.util.Arrays.copyOf(framePayload, n);
            frameTime = frameTime == null ? new long[n] : java.util.Arrays.copyOf(frameTime, n);
        }
        framePsn[i - 1] = psn;
        framePayload[i - 1] = payload;
        frameTime[i - 1] = time;
    }

    private int psnAt(int i) {
        return i == 0 ? firstFramePsn : framePsn[i - 1];
    }

    private long payloadAt(int i) {
        return i == 0 ? firstFramePayload : framePayload[i - 1];
    }

    private long timeAt(int i) {
        return i == 0 ? firstFrameTime : frameTime[i - 1];
    }

    /** The payload of the first frame (the constructor knows only its PSN and time). */
    void firstPayload(long payload) {
        firstFramePayload = payload;
    }

    /** Appends every frame of {@code other}. */
    void appendFrames(MessageBuilder other) {
        for (int i = 0; i < other.frames.size(); i++) {
            addFrame(other.frames.get(i), other.timeAt(i), other.psnAt(i), other.payloadAt(i));
        }
    }

    /** Moves the frames carrying PSNs after {@code psn} into {@code tail} (which starts empty). */
    void moveFramesAfter(int psn, MessageBuilder tail) {
        tail.frames.clear();
        int n = frames.size();
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
            all[i] = frames.get(i);
        }
        frames.clear();
        for (int i = 0; i < n; i++) {
            MessageBuilder to = psns[i] >= 0 && Psn.diff(psns[i], psn) > 0 ? tail : this;
            int j = to.frames.size();
            to.frames.add(all[i]);
            to.set(j, psns[i], payloads[i], times[i]);
        }
    }

    /** The lowest PSN among its frames (in PSN order), or {@code fallback} when none carries one. */
    int lowestPsn(int fallback) {
        int lowest = fallback;
        boolean any = false;
        for (int i = 0; i < frames.size(); i++) {
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
        for (int i = 0; i < frames.size(); i++) {
            t = Math.min(t, timeAt(i));
        }
        return t;
    }

    long latestFrameNanos() {
        long t = Long.MIN_VALUE;
        for (int i = 0; i < frames.size(); i++) {
            t = Math.max(t, timeAt(i));
        }
        return t;
    }

    /** Payload its captured frames carry, each PSN once. */
    long distinctBytes() {
        long total = 0;
        for (int i = 0; i < frames.size(); i++) {
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

    /** Forgets a completion a resend or a join took back. */
    void clearCompletion() {
        hasCompletion = false;
        completionFrame = 0;
        latencyNanos = 0;
    }

    void finish(String newStatus, long frame, long timeNanos) {
        status = newStatus;
        if (frame > 0) {
            hasCompletion = true;
            completionFrame = (int) frame;
            latencyNanos = timeNanos - firstTimeNanos;
        }
    }

    long firstFrame() {
        return frames.min();
    }
}
