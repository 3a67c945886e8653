package io.rdmascope.capture;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The writers' byte sink: little-endian header fields assembled in a small scratch array, packet
 * bytes from arrays or buffers, all through one {@link BufferedOutputStream}.
 *
 * <p>Fields go through a scratch array rather than {@code write(int)} per byte because every
 * {@code BufferedOutputStream.write} call takes a lock; one call per header keeps writing cheap.
 */
final class LittleEndianOutput implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;
    private static final int COPY_CHUNK = 16 * 1024;

    private final BufferedOutputStream out;
    private final byte[] scratch = new byte[64];
    private final byte[] zeros = new byte[4];
    private int filled;
    /** Lazily made: only direct (mapped) buffers need copying through the heap. */
    private byte[] copyChunk;

    LittleEndianOutput(OutputStream out) {
        this.out = new BufferedOutputStream(out, BUFFER);
    }

    LittleEndianOutput u16(int value) {
        scratch[filled++] = (byte) value;
        scratch[filled++] = (byte) (value >>> 8);
        return this;
    }

    LittleEndianOutput i32(int value) {
        scratch[filled++] = (byte) value;
        scratch[filled++] = (byte) (value >>> 8);
        scratch[filled++] = (byte) (value >>> 16);
        scratch[filled++] = (byte) (value >>> 24);
        return this;
    }

    LittleEndianOutput i64(long value) {
        return i32((int) value).i32((int) (value >>> 32));
    }

    /** Sends the fields assembled so far; call before writing bytes that must follow them. */
    void endFields() throws IOException {
        out.write(scratch, 0, filled);
        filled = 0;
    }

    void bytes(byte[] data, int offset, int length) throws IOException {
        out.write(data, offset, length);
    }

    /** Writes {@code buffer[index, index + length)} with absolute gets: the buffer's position is untouched. */
    void bytes(ByteBuffer buffer, int index, int length) throws IOException {
        if (buffer.hasArray()) {
            out.write(buffer.array(), buffer.arrayOffset() + index, length);
            return;
        }
        if (copyChunk == null) {
            copyChunk = new byte[COPY_CHUNK];
        }
        for (int done = 0; done < length; ) {
            int n = Math.min(COPY_CHUNK, length - done);
            buffer.get(index + done, copyChunk, 0, n);
            out.write(copyChunk, 0, n);
            done += n;
        }
    }

    /** Zero bytes that bring {@code length} up to a multiple of 4 (pcapng alignment). */
    void pad(int length) throws IOException {
        int padding = padding(length);
        if (padding > 0) {
            out.write(zeros, 0, padding);
        }
    }

    static int padding(int length) {
        return -length & 3;
    }

    void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
