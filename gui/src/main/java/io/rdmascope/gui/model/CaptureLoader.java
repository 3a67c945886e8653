package io.rdmascope.gui.model;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.BooleanSupplier;

/**
 * Reads a capture file into a {@link FrameIndex} on the calling (background) thread, reporting
 * progress as it goes: the first report comes after the first {@value #FIRST_BATCH} frames so the
 * list fills at once, then at most every {@value #REPORT_NANOS} ns.
 *
 * <p>Plain files are memory-mapped by {@link CaptureFiles#open(Path)} and cost the index only
 * their locations. Gzip-compressed files are streamed through a byte counter so that progress
 * can follow the compressed input.
 */
public final class CaptureLoader {
    static final int FIRST_BATCH = 2_000;
    static final long REPORT_NANOS = 100_000_000L;

    /** What the loader tells its caller while it reads. */
    public interface Progress {
        /** {@code frames} are indexed; {@code fraction} of the file is read (0 to 1), or -1 when unknown. */
        void update(int frames, double fraction);
    }

    /** How loading ended: read to the end, stopped by damage (every frame before it is indexed), or cancelled. */
    public record Outcome(int frames, IOException error, boolean cancelled, long nanos) {
    }

    private CaptureLoader() {
    }

    /**
     * Reads {@code path} to its end (or its damage, or until {@code cancelled} says stop) into
     * {@code index}, then marks the index complete. An error opening the file is thrown; an error
     * after the first frame is returned in the outcome, after every frame before it.
     */
    public static Outcome load(Path path, FrameIndex index, BooleanSupplier cancelled, Progress progress)
            throws IOException {
        long start = System.nanoTime();
        long size = Math.max(1, Files.size(path));
        CountingInputStream counter = null;
        PacketSource source;
        try {
            if (isGzip(path)) {
                counter = new CountingInputStream(Files.newInputStream(path));
                source = CaptureFiles.open(counter, path.toString());
            } else {
                source = CaptureFiles.open(path);
            }
        } catch (IOException | RuntimeException e) {
            index.markComplete();
            throw e;
        }
        IOException error = null;
        boolean stopped = false;
        long bytesSeen = 0;
        long lastReport = System.nanoTime();
        boolean firstReported = false;
        try (source) {
            Frame f;
            while (true) {
                if ((index.count() & 255) == 0 && cancelled.getAsBoolean()) {
                    stopped = true;
                    break;
                }
                f = source.next();
                if (f == null) {
                    break;
                }
                index.append(f);
                if (index.count() == 1) {
                    // a pcapng reader knows its first interface's if_tsresol once a frame is read
                    index.setInfo(CaptureInfo.of(source));
                }
                bytesSeen += f.capturedLength() + 16L; // record headers: 16 (pcap) to 32 (pcapng) bytes
                int n = index.count();
                if (!firstReported ? n >= FIRST_BATCH : (n & 1023) == 0 && System.nanoTime() - lastReport >= REPORT_NANOS) {
                    firstReported = true;
                    lastReport = System.nanoTime();
                    long read = counter != null ? counter.count : bytesSeen;
                    progress.update(n, Math.min(0.99, (double) read / size));
                }
            }
        } catch (IOException e) {
            error = e;
        } catch (RuntimeException e) {
            error = new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        } finally {
            index.setInfo(CaptureInfo.of(source)); // every interface the file declared is known now
            index.markComplete();
        }
        progress.update(index.count(), 1.0);
        return new Outcome(index.count(), error, stopped, System.nanoTime() - start);
    }

    private static boolean isGzip(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(2);
            while (head.hasRemaining()) {
                if (ch.read(head) < 0) {
                    return false;
                }
            }
            return (head.getShort(0) & 0xFFFF) == 0x1F8B;
        }
    }

    /** Counts the compressed bytes the decompressor has taken, for progress. */
    private static final class CountingInputStream extends FilterInputStream {
        volatile long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += s;
            return s;
        }
    }
}
