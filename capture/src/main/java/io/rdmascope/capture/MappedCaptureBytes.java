package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A plain file, memory-mapped read-only in windows; frames are views into the window, never copies.
 *
 * <p>One mapping cannot exceed 2 GiB - 1 bytes, so big files are mapped a window at a time. When a
 * record or block does not fit in the current window, the next window starts at that record, so a
 * record never straddles two windows. Frames keep a reference to their window; the JVM unmaps it
 * once no frame refers to it, which is why closing the channel does not invalidate old frames.
 */
final class MappedCaptureBytes extends CaptureBytes {

    private final FileChannel channel;
    private final long size;
    private final long windowSize;

    /** The window in big-endian order: what frames point into (see {@link CaptureBytes}). */
    private ByteBuffer window;
    /** The same window in little-endian order, kept so a section change costs no remapping. */
    private ByteBuffer littleEndian;
    /** Capture position just past the window. */
    private long end;
    /** Touches pages ahead of the reader; null for files too small to pay for a thread. */
    private final PageToucher toucher;
    /** Capture position at which the reader next tells the toucher where it is. */
    private long nextReport;

    /** Files from this size on get a {@link PageToucher} (its thread costs about what 1 MB of faults do). */
    static final long TOUCH_AHEAD_FROM = 64L << 20;

    MappedCaptureBytes(String name, FileChannel channel, long windowSize) throws IOException {
        this(name, channel, windowSize, TOUCH_AHEAD_FROM);
    }

    /** As above, touching pages ahead once the file has {@code touchAheadFrom} bytes (tests use small files). */
    MappedCaptureBytes(String name, FileChannel channel, long windowSize, long touchAheadFrom) throws IOException {
        super(name);
        if (windowSize < 1 || windowSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("window size must be 1 .. 2^31-1 bytes: " + windowSize);
        }
        this.channel = channel;
        this.size = channel.size();
        this.windowSize = windowSize;
        this.toucher = size >= touchAheadFrom ? new PageToucher(name) : null;
        this.nextReport = toucher == null ? Long.MAX_VALUE : 0;
        map(0, (int) Math.min(windowSize, size));
    }

    private void map(long at, int len) throws IOException {
        MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, at, len);
        window = mapped;
        littleEndian = mapped.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ordered = order == ByteOrder.LITTLE_ENDIAN ? littleEndian : window;
        base = at;
        end = at + len;
        if (toucher != null) {
            toucher.window(mapped, at);
        }
    }

    @Override
    boolean ensure(long pos, int len) throws IOException {
        long last = pos + len;
        if (pos >= base && last <= end) {
            return true;
        }
        if (last > size) {
            return false;
        }
        // A record bigger than the window gets a window of its own size; records are at most
        // 256 MiB (the readers check before asking), so that always fits in one mapping.
        map(pos, (int) Math.max(len, Math.min(windowSize, size - pos)));
        return true;
    }

    @Override
    long remaining(long pos) {
        return Math.max(0, size - pos);
    }

    @Override
    Frame frame(long number, long timeNanos, int capturedLength, int wireLength, int linkType, int interfaceId,
                long dataPos) {
        if (dataPos >= nextReport) {
            toucher.readerAt(dataPos); // once a megabyte: one comparison per frame otherwise
            nextReport = dataPos + PageToucher.STEP;
        }
        return new Frame(number, timeNanos, capturedLength, wireLength, linkType, interfaceId, window,
                (int) (dataPos - base));
    }

    @Override
    void order(ByteOrder newOrder) {
        order = newOrder;
        ordered = newOrder == ByteOrder.LITTLE_ENDIAN ? littleEndian : window;
    }

    @Override
    boolean decompressed() {
        return false;
    }

    @Override
    void close() throws IOException {
        if (toucher != null) {
            toucher.close();
        }
        channel.close();
    }
}
