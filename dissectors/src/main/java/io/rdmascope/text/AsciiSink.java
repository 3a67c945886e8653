package io.rdmascope.text;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * A growable byte buffer for text output (UTF-8, nearly all ASCII), so that a million output lines cost no String or
 * char[] per value. Not thread-safe; one per output stream.
 */
public final class AsciiSink {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private byte[] bytes;
    private int size;

    public AsciiSink(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(int extra) {
        if (size + extra > bytes.length) {
            bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
        }
    }

    public AsciiSink append(char c) {
        ensure(1);
        bytes[size++] = (byte) c;
        return this;
    }

    /** Appends text as UTF-8 (ASCII fast path; the arrow and ellipsis of tshark's output need more). */
    public AsciiSink append(CharSequence s) {
        return append(s, 0, s.length());
    }

    /** Appends characters {@code [from, to)} of {@code s} as UTF-8. */
    public AsciiSink append(CharSequence s, int from, int to) {
        ensure((to - from) * 3);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes[size++] = (byte) c;
            } else if (c < 0x800) {
                bytes[size++] = (byte) (0xC0 | (c >> 6));
                bytes[size++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                bytes[size++] = '?'; // no supplementary characters in this project's output
            } else {
                bytes[size++] = (byte) (0xE0 | (c >> 12));
                bytes[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return this;
    }

    public AsciiSink appendDecimal(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return append(Long.toString(v));
            }
            append('-');
            v = -v;
        }
        ensure(20);
        int start = size;
        do {
            bytes[size++] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v != 0);
        reverse(start, size - 1);
        return this;
    }

    /** Unsigned 64-bit decimal (UINT64 fields may exceed Long.MAX_VALUE). */
    public AsciiSink appendUnsignedDecimal(long v) {
        return v >= 0 ? appendDecimal(v) : append(Long.toUnsignedString(v));
    }

    /** {@code digits} lowercase hex digits of {@code v}, zero-padded. */
    public AsciiSink appendHex(long v, int digits) {
        ensure(digits);
        for (int i = digits - 1; i >= 0; i--) {
            bytes[size++] = HEX[(int) (v >>> (i * 4)) & 0xF];
        }
        return this;
    }

    /** Bytes {@code [from, from+length)} of {@code buffer} (absolute indexes) as contiguous lowercase hex. */
    public AsciiSink appendHexBytes(ByteBuffer buffer, int from, int length, char separator) {
        ensure(length * 3);
        for (int i = 0; i < length; i++) {
            if (separator != 0 && i > 0) {
                bytes[size++] = (byte) separator;
            }
            int b = buffer.get(from + i) & 0xFF;
            bytes[size++] = HEX[b >>> 4];
            bytes[size++] = HEX[b & 0xF];
        }
        return this;
    }

    /** Nanoseconds as seconds with nine decimals ("1.052744000"), as tshark prints relative times. */
    public AsciiSink appendSeconds(long nanos) {
        if (nanos < 0) {
            append('-');
            nanos = -nanos;
        }
        appendDecimal(nanos / 1_000_000_000L);
        append('.');
        long frac = nanos % 1_000_000_000L;
        ensure(9);
        for (int i = 8; i >= 0; i--) {
            bytes[size + i] = (byte) ('0' + (frac % 10));
            frac /= 10;
        }
        size += 9;
        return this;
    }

    private void reverse(int i, int j) {
        while (i < j) {
            byte t = bytes[i];
            bytes[i++] = bytes[j];
            bytes[j--] = t;
        }
    }

    public int length() {
        return size;
    }

    /** Cuts the text back to {@code length} bytes. */
    public void truncate(int length) {
        size = length;
    }

    public void clear() {
        size = 0;
    }

    public void writeTo(OutputStream out) throws IOException {
        out.write(bytes, 0, size);
    }

    @Override
    public String toString() {
        return new String(bytes, 0, size, java.nio.charset.StandardCharsets.UTF_8);
    }
}
