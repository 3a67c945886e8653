package io.rdmascope.capture.live;

import io.rdmascope.frame.Frame;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounded hand-over between the capture thread (one producer) and the consumer: bounded both in
 * frames and in captured bytes, never blocking the producer. A frame that does not fit is dropped
 * and counted, so a slow decoder or disk shows up as "dropped by rdmascope's queue" rather than as
 * kernel drops or, worse, as nothing.
 */
final class FrameQueue {
    private final ArrayBlockingQueue<Frame> frames;
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();
    private volatile long dropped;
    private volatile long accepted;

    FrameQueue(int maxFrames, long maxBytes) {
        this.frames = new ArrayBlockingQueue<>(maxFrames);
        this.maxBytes = maxBytes;
    }

    /** Producer only: queues {@code frame}, or counts it dropped when the queue is full. */
    boolean offer(Frame frame) {
        long size = frame.capturedLength();
        long after = bytes.addAndGet(size);
        // Over the byte bound, unless the queue held nothing: one frame bigger than the bound still passes.
        if (after > maxBytes && after != size || !frames.offer(frame)) {
            bytes.addAndGet(-size);
            dropped++;   // single writer: the capture thread
            return false;
        }
        accepted++;
        return true;
    }

    /** The next frame, or null when none is queued now. */
    Frame poll() {
        return taken(frames.poll());
    }

    /** The next frame, waiting up to {@code timeout}; null when none came. */
    Frame poll(long timeout, TimeUnit unit) throws InterruptedException {
        return taken(frames.poll(timeout, unit));
    }

    private Frame taken(Frame f) {
        if (f != null) {
            bytes.addAndGet(-f.capturedLength());
        }
        return f;
    }

    boolean isEmpty() {
        return frames.isEmpty();
    }

    int size() {
        return frames.size();
    }

    long bytes() {
        return bytes.get();
    }

    long dropped() {
        return dropped;
    }

    long accepted() {
        return accepted;
    }

    void clear() {
        frames.clear();
        bytes.set(0);
    }
}
