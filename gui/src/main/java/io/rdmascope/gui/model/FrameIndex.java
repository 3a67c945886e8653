package io.rdmascope.gui.model;

import io.rdmascope.frame.Frame;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Every frame of an open capture, kept compactly: where its bytes are, its time and its lengths,
 * 28 bytes per frame in chunked primitive arrays (about 28 MB for a million frames). No text, no
 * tree and no {@link Frame} object is kept; {@link #frame(int)} makes the view again when the list
 * or the detail pane asks for one frame, and the dissectors redo the rest in microseconds.
 *
 * <p>Frames from a memory-mapped file point into the mapping, so only the mapped window is kept.
 * Frames that own a copy of their bytes (gzip, pipes, live capture) are appended to large byte
 * blocks instead, so a million of them are a few hundred arrays, not a million.
 *
 * <p>One writer thread appends; any thread reads frames below {@link #count()}. Chunks never move
 * once written and {@code count} is published last, so readers need no lock.
 */
public final class FrameIndex {
    private static final int CHUNK_BITS = 16;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MASK = CHUNK - 1;
    /** Bytes per block for frames that own their bytes. */
    private static final int BLOCK = 16 << 20;

    private volatile long[][] times = new long[16][];
    private volatile long[][] locations = new long[16][];
    private volatile int[][] captured = new int[16][];
    private volatile int[][] wire = new int[16][];
    private volatile int[][] links = new int[16][];
    private volatile ByteBuffer[] buffers = new ByteBuffer[16];
    private int bufferCount;
    private ByteBuffer lastShared;
    private int lastSharedIndex = -1;
    private byte[] block;
    private int blockUsed;
    private int blockIndex = -1;
    private long copiedBytes;
    private volatile int count;
    private volatile boolean complete;
    private volatile CaptureInfo info;
    private volatile boolean subMicrosecondTimes;

    /** Frames indexed so far; frames 1..count() can be read. */
    public int count() {
        return count;
    }

    /** Whether the writer has finished (the whole file is indexed, or loading stopped). */
    public boolean isComplete() {
        return complete;
    }

    /** Marks the index finished: no more frames will come. */
    public void markComplete() {
        complete = true;
    }

    /** The file's format and timestamp precision, once the loader has read them; null before. */
    public CaptureInfo info() {
        return info;
    }

    public void setInfo(CaptureInfo info) {
        this.info = info;
    }

    /**
     * Fraction digits the Time column shows: the file's precision, or 9 when any frame's time has
     * digits below a microsecond (a source that does not say its precision, such as a stream
     * whose header promised less than it holds).
     */
    public int timeDigits() {
        CaptureInfo i = info;
        int declared = i == null ? CaptureInfo.MICROSECONDS : i.timeDigits();
        return subMicrosecondTimes ? Math.max(declared, CaptureInfo.NANOSECONDS) : declared;
    }

    /** Bytes copied into blocks (frames that did not point into a mapping). */
    public long copiedBytes() {
        return copiedBytes;
    }

    /**
     * Adds the next frame. Frames must arrive numbered 1, 2, 3, …; the frame's number is not read,
     * the index numbers them itself.
     */
    public void append(Frame f) {
        int n = count;
        int chunk = n >>> CHUNK_BITS;
        if (chunk >= times.length) {
            growOuter(chunk + 1);
        }
        if (times[chunk] == null) {
            times[chunk] = new long[CHUNK];
            locations[chunk] = new long[CHUNK];
            captured[chunk] = new int[CHUNK];
            wire[chunk] = new int[CHUNK];
            links[chunk] = new int[CHUNK];
        }
        int i = n & MASK;
        if (!subMicrosecondTimes && f.timeNanos() % 1_000 != 0) {
            subMicrosecondTimes = true;
        }
        times[chunk][i] = f.timeNanos();
        captured[chunk][i] = f.capturedLength();
        wire[chunk][i] = f.wireLength();
        links[chunk][i] = (f.linkType() & 0xFFFF) | (Math.min(f.interfaceId(), 0xFFFF) << 16);
        locations[chunk][i] = locate(f);
        count = n + 1;
    }

    private long locate(Frame f) {
        ByteBuffer b = f.buffer();
        if (b == lastShared) {
            return (long) lastSharedIndex << 32 | f.offset();
        }
        if (b.capacity() > f.capturedLength() || f.offset() != 0) {
            // A window shared by many frames (a mapping): keep the window, not a copy.
            lastShared = b;
            lastSharedIndex = addBuffer(b);
            return (long) lastSharedIndex << 32 | f.offset();
        }
        // The frame owns its bytes: copy them into the current block.
        int len = f.capturedLength();
        if (block == null || blockUsed + len > block.length) {
            block = new byte[Math.max(BLOCK, len)];
            blockUsed = 0;
            blockIndex = addBuffer(ByteBuffer.wrap(block).asReadOnlyBuffer());
        }
        b.get(f.offset(), block, blockUsed, len);
        long location = (long) blockIndex << 32 | blockUsed;
        blockUsed += len;
        copiedBytes += len;
        return location;
    }

    private int addBuffer(ByteBuffer b) {
        if (bufferCount == buffers.length) {
            buffers = Arrays.copyOf(buffers, bufferCount * 2);
        }
        ByteBuffer[] array = buffers;
        array[bufferCount] = b;
        buffers = array; // volatile write: publishes the slot to readers
        return bufferCount++;
    }

    private void growOuter(int min) {
        int n = Math.max(min, times.length * 2);
        locations = Arrays.copyOf(locations, n);
        captured = Arrays.copyOf(captured, n);
        wire = Arrays.copyOf(wire, n);
        links = Arrays.copyOf(links, n);
        times = Arrays.copyOf(times, n);
    }

    private void check(int number) {
        if (number < 1 || number > count) {
            throw new IndexOutOfBoundsException("frame " + number + " of " + count);
        }
    }

    /** Frame {@code number} (1-based) as a view of its bytes, as the reader returned it. */
    public Frame frame(int number) {
        check(number);
        int n = number - 1;
        int chunk = n >>> CHUNK_BITS;
        int i = n & MASK;
        long location = locations[chunk][i];
        ByteBuffer b = buffers[(int) (location >>> 32)];
        int link = links[chunk][i];
        return new Frame(number, times[chunk][i], captured[chunk][i], wire[chunk][i], link & 0xFFFF,
                link >>> 16, b, (int) location);
    }

    public long timeNanos(int number) {
        check(number);
        int n = number - 1;
        return times[n >>> CHUNK_BITS][n & MASK];
    }

    public int wireLength(int number) {
        check(number);
        int n = number - 1;
        return wire[n >>> CHUNK_BITS][n & MASK];
    }

    /** The frame's link type (LINKTYPE_ value). */
    public int linkType(int number) {
        check(number);
        int n = number - 1;
        return links[n >>> CHUNK_BITS][n & MASK] & 0xFFFF;
    }

    public int capturedLength(int number) {
        check(number);
        int n = number - 1;
        return captured[n >>> CHUNK_BITS][n & MASK];
    }

    /** Time of the first frame, which {@code frame.time_relative} and the Time column count from; 0 if none. */
    public long firstTimeNanos() {
        return count == 0 ? 0 : timeNanos(1);
    }

    /** Rough heap held per frame, for the status line and tests of the memory bound. */
    public long heapBytes() {
        int chunks = (count + CHUNK - 1) >>> CHUNK_BITS;
        return (long) chunks * CHUNK * (8 + 8 + 4 + 4 + 4) + copiedBytes;
    }
}
