package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The live decoded lines of {@code capture}: one {@link SummaryLine} per frame.
 *
 * <p>When frames are only printed, the capture's consumer thread prints them itself (inline), and a
 * printer that falls behind shows up as the capture queue's drops. When they are also written
 * ({@code -w} with {@code -P}), printing runs on a thread of its own behind a bounded queue, so a
 * slow terminal never costs the file a frame: frames the printer cannot keep up with are skipped and
 * counted (every one of them is in the file).
 */
final class LinePrinter implements AutoCloseable {
    private static final int FLUSH_BYTES = 1 << 16;

    private final OutputStream out;
    private final DissectorChain chain;
    private final Dissection d = new Dissection();
    private final AsciiSink sink = new AsciiSink(2 * FLUSH_BYTES);
    private final ArrayBlockingQueue<Frame> queue;
    private final Thread thread;
    private volatile boolean closing;
    private volatile long printed;
    private long skipped;
    private volatile IOException failure;

    /**
     * @param ownThread print on a separate thread behind a queue of {@code queueFrames} frames
     */
    LinePrinter(OutputStream out, DissectorChain chain, boolean ownThread, int queueFrames) {
        this.out = out;
        this.chain = chain;
        if (ownThread) {
            queue = new ArrayBlockingQueue<>(queueFrames);
            thread = new Thread(this::drain, "rdmascope-print");
            thread.setDaemon(true);
            thread.start();
        } else {
            queue = null;
            thread = null;
        }
    }

    /** Prints {@code frame} now (inline) or hands it to the printing thread, skipping it if that is behind. */
    void accept(Frame frame) throws IOException {
        if (queue == null) {
            print(frame);
        } else if (!queue.offer(frame)) {
            skipped++;
        }
        IOException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /** The capture is idle for now: make the lines printed so far visible (inline mode). */
    void idle() throws IOException {
        if (queue == null) {
            flush();
        }
    }

    long printed() {
        return printed;
    }

    /** Frames not printed because the printing thread was behind (all of them were written). */
    long skipped() {
        return skipped;
    }

    /** Prints what is queued, stops the printing thread, flushes. */
    @Override
    public void close() throws IOException {
        if (thread != null) {
            closing = true;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            flush();
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void drain() {
        try {
            while (true) {
                Frame f = queue.poll(100, TimeUnit.MILLISECONDS);
                if (f == null) {
                    flush();
                    if (closing && queue.isEmpty()) {
                        return;
                    }
                    continue;
                }
                print(f);
            }
        } catch (IOException e) {
            failure = e;
            queue.clear();
        } catch (RuntimeException | Error e) {
            // Never die silently: the capture reports it once the printer is closed.
            failure = new IOException("printing decoded lines failed: " + e, e);
            queue.clear();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void print(Frame f) throws IOException {
        chain.dissect(f, d);
        SummaryLine.append(sink, d);
        printed++;
        if (sink.length() >= FLUSH_BYTES) {
            sink.writeTo(out);
            sink.clear();
        }
    }

    private void flush() throws IOException {
        if (sink.length() > 0) {
            sink.writeTo(out);
            sink.clear();
        }
        out.flush();
    }
}
