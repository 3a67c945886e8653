package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The bytes of one capture as the format readers see them: a forward-moving window, addressed by
 * absolute position in the (decompressed) capture.
 *
 * <p>Two kinds exist because the two inputs differ in what a frame may point at: a mapped file's
 * window can be handed out as the frame's buffer, while a stream's scratch buffer is reused and must
 * be copied out. Everything else (positions, byte order, header fields) is shared here so the
 * readers are written once.
 *
 * <p>Pitfall: header fields are read through {@link #ordered}, which follows the file's byte order,
 * but frames get the window in its native big-endian order, because the packet bytes inside are in
 * network order whatever the file header says.
 */
abstract sealed class CaptureBytes permits MappedCaptureBytes, StreamCaptureBytes {

    /** File name for error messages. */
    final String name;

    /** The current window in the file's byte order; index 0 is capture position {@link #base}. */
    ByteBuffer ordered;

    /** Capture position of the window's first byte. */
    long base;

    /** Byte order of header fields (pcap file, or current pcapng section). */
    ByteOrder order = ByteOrder.BIG_ENDIAN;

    CaptureBytes(String name) {
        this.name = name;
    }

    /**
     * Makes bytes {@code [pos, pos + len)} addressable by the getters. Positions only move forward:
     * {@code pos} is never before the position of an earlier call's frame.
     *
     * @return false when the input ends before {@code pos + len}; {@link #remaining(long)} then says
     * how many bytes do exist
     */
    abstract boolean ensure(long pos, int len) throws IOException;

    /** Bytes that exist from {@code pos} to the end of input; exact once {@link #ensure} has failed. */
    abstract long remaining(long pos) throws IOException;

    /** Builds the frame whose captured bytes start at {@code dataPos}, already {@link #ensure}d. */
    abstract Frame frame(long number, long timeNanos, int capturedLength, int wireLength, int linkType,
                         int interfaceId, long dataPos);

    /** Switches the byte order of header fields (a pcapng section header decides it). */
    abstract void order(ByteOrder newOrder);

    /** Whether positions count decompressed bytes (gzip), for error messages. */
    abstract boolean decompressed();

    abstract void close() throws IOException;

    final int i32(long pos) {
        return ordered.getInt((int) (pos - base));
    }

    final long u32(long pos) {
        return ordered.getInt((int) (pos - base)) & 0xFFFF_FFFFL;
    }

    final int u16(long pos) {
        return ordered.getShort((int) (pos - base)) & 0xFFFF;
    }

    final int u8(long pos) {
        return ordered.get((int) (pos - base)) & 0xFF;
    }

    final long i64(long pos) {
        return ordered.getLong((int) (pos - base));
    }

    /** Reads a big-endian 32-bit word whatever the current order: magics are compared as written. */
    final int bigEndianI32(long pos) {
        int at = (int) (pos - base);
        return (ordered.get(at) & 0xFF) << 24 | (ordered.get(at + 1) & 0xFF) << 16
                | (ordered.get(at + 2) & 0xFF) << 8 | (ordered.get(at + 3) & 0xFF);
    }

    /** Copies {@code len} already-ensured bytes, for strings in pcapng options (never packet data). */
    final byte[] copy(long pos, int len) {
        byte[] bytes = new byte[len];
        ordered.get((int) (pos - base), bytes);
        return bytes;
    }

    final CaptureFormatException error(long pos, long frameNumber, String problem, String detail) {
        return new CaptureFormatException(name, pos, frameNumber, decompressed(), problem, detail);
    }
}
