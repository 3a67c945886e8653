package io.rdmascope.capture;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * Touches the pages of a mapped capture a few megabytes ahead of its reader, on a daemon thread of its
 * own, so that the reader finds them mapped.
 *
 * <p>Why: the first read of each page of a mapping takes a page fault even when the file is in the page
 * cache (Linux maps up to 64 KiB around the faulting page), about 0.25 s of system time on a 2.3 GB
 * capture, all of it on the thread that reads and dissects (the one that bounds the wall time of
 * {@code summary}). Page tables belong to the process, so a fault taken here serves the reader. A bulk
 * {@code FileChannel.read} into a reused buffer instead costs four times the system time (it copies every
 * byte), and {@code MappedByteBuffer.load()} takes the same faults on the calling thread (issue 18,
 * docs/performance.md).
 *
 * <p>One byte per 4 KiB page is read; nothing here changes what the reader sees. The thread ends at the
 * end of the file, at {@link #close}, or after a second without progress from the reader (an abandoned
 * source must not keep its mapping alive); the reader starts a new one when it moves on after that. A
 * fault while touching (the file shrank underneath) ends the thread quietly: the reader meets the same
 * fault itself and reports it as it always did.
 */
final class PageToucher implements Runnable {
    /** How far ahead of the reader pages are touched: far enough that the reader never catches up. */
    static final long AHEAD = 16L << 20;
    /** How often the reader reports its position (and wakes this thread). */
    static final long STEP = 1L << 20;
    private static final int PAGE = 4096;
    private static final long IDLE_NANOS = 1_000_000_000L;

    /** The mapping the reader is in and the capture position of its first byte; replaced together. */
    private record Target(ByteBuffer window, long base, long end) {
    }

    private final String name;
    private volatile Target target;
    private volatile long readerAt;
    private volatile boolean closed;
    private volatile Thread thread;
    /** Set by the thread when it ends, so that the reader can start another. */
    private volatile boolean running;
    /** Keeps the touching loads from being optimised away; never read. */
    private int sink;

    PageToucher(String name) {
        this.name = name;
    }

    /** The reader now reads {@code window}, whose byte 0 is capture position {@code base}. */
    void window(ByteBuffer window, long base) {
        target = new Target(window, base, base + window.capacity());
    }

    /** The reader has reached capture position {@code at}: touch ahead of it. Called every {@link #STEP} bytes. */
    void readerAt(long at) {
        readerAt = at;
        Thread t = thread;
        if (!running && !closed) {
            running = true;
            t = new Thread(this, "rdmascope-page-toucher");
            t.setDaemon(true);
            thread = t;
            t.start();
        } else if (t != null) {
            LockSupport.unpark(t);
        }
    }

    void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        try {
            touch();
        } catch (InternalError | RuntimeException e) {
            // A fault in the mapping (the file was truncated while mapped): the reader reports it.
        } finally {
            running = false;
        }
    }

    private void touch() {
        Target touching = null;
        long touched = 0;
        long idleSince = System.nanoTime();
        long lastReaderAt = -1;
        while (!closed) {
            Target t = target;
            if (t != touching) {
                touching = t;
                touched = t.base;
            }
            long at = readerAt;
            long until = Math.min(t.end, at + AHEAD);
            if (touched < at) {
                touched = at; // the reader got there first
            }
            if (touched < until) {
                for (long p = touched; p < until; p += PAGE) {
                    sink += t.window.get((int) (p - t.base));
                }
                touched = until;
                continue;
            }
            if (at != lastReaderAt) {
                lastReaderAt = at;
                idleSince = System.nanoTime();
            } else if (System.nanoTime() - idleSince > IDLE_NANOS) {
                return; // the reader stopped (or was abandoned): do not keep the mapping alive
            }
            LockSupport.parkNanos(this, IDLE_NANOS / 4);
        }
    }

    @Override
    public String toString() {
        return "page toucher of " + name;
    }
}
