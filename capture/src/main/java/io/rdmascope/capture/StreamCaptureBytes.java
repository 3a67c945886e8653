package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.ZipException;

/**
 * A capture read from a stream (gzip-decompressed file, standard input): bytes pass through a
 * scratch buffer that is reused, so each frame's bytes are copied into an exact-size array.
 *
 * <p>Memory stays proportional to bytes actually read: the scratch buffer grows by doubling only as
 * data arrives, so a header that claims a 200 MiB record in a 1 KiB file costs about 1 KiB, not
 * 200 MiB. The stream is read only when the current record needs more bytes, so a decompression
 * error is attributed to the record that could not be completed, after every earlier frame.
 */
final class StreamCaptureBytes extends CaptureBytes {

    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final InputStream in;
    private final boolean decompressed;

    private byte[] scratch = new byte[INITIAL_CAPACITY];
    /** Valid bytes in {@link #scratch}: capture positions {@code [base, base + filled)}. */
    private int filled;
    private boolean endOfInput;

    StreamCaptureBytes(String name, InputStream in, boolean decompressed) {
        super(name);
        this.in = in;
        this.decompressed = decompressed;
        this.ordered = ByteBuffer.wrap(scratch);
    }

    @Override
    boolean ensure(long pos, int len) throws IOException {
        long last = pos + len;
        if (pos >= base && last <= base + filled) {
            return true;
        }
        discardBefore(pos);
        while (base + filled < last) {
            if (endOfInput) {
                return false;
            }
            if (filled == scratch.length) {
                grow((int) (last - base));
            }
            int n = read(scratch, filled, scratch.length - filled, pos);
            if (n < 0) {
                endOfInput = true;
            } else {
                filled += n;
            }
        }
        return true;
    }

    /**
     * Drops bytes before {@code pos}: readers never look back past the record they are on, and
     * never move past bytes they have not ensured, so {@code pos} is within the buffered bytes.
     */
    private void discardBefore(long pos) {
        int drop = (int) Math.min(filled, pos - base);
        if (drop > 0) {
            System.arraycopy(scratch, drop, scratch, 0, filled - drop);
            filled -= drop;
        }
        base = pos;
    }

    private void grow(int needed) {
        // Double, but never past what the record needs: growth tracks data that really arrived.
        int capacity = (int) Math.min(Math.max((long) scratch.length * 2, INITIAL_CAPACITY), needed);
        byte[] bigger = new byte[capacity];
        System.arraycopy(scratch, 0, bigger, 0, filled);
        scratch = bigger;
        ordered = ByteBuffer.wrap(scratch).order(order);
    }

    /**
     * Reads from the stream, turning decompression failures into the capture error the user sees.
     * {@code GZIPInputStream} reports a cut file as {@link EOFException} and bad data as
     * {@link ZipException}; both mean the capture is damaged at this record.
     */
    private int read(byte[] into, int at, int len, long recordPos) throws IOException {
        try {
            return in.read(into, at, len);
        } catch (ZipException | EOFException e) {
            endOfInput = true;
            throw new DamagedInputException(recordPos, e);
        }
    }

    @Override
    long remaining(long pos) {
        return Math.max(0, base + filled - pos);
    }

    @Override
    Frame frame(long number, long timeNanos, int capturedLength, int wireLength, int linkType, int interfaceId,
                long dataPos) {
        byte[] bytes = new byte[capturedLength];
        System.arraycopy(scratch, (int) (dataPos - base), bytes, 0, capturedLength);
        return new Frame(number, timeNanos, capturedLength, wireLength, linkType, interfaceId,
                ByteBuffer.wrap(bytes).asReadOnlyBuffer(), 0);
    }

    @Override
    void order(ByteOrder newOrder) {
        order = newOrder;
        ordered.order(newOrder);
    }

    @Override
    boolean decompressed() {
        return decompressed;
    }

    @Override
    void close() throws IOException {
        in.close();
    }
}
