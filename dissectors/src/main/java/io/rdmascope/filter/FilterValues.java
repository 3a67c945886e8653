package io.rdmascope.filter;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where a {@link ProvidedField} puts its values for one frame. It belongs to one filter operand
 * and is reused frame after frame: after the first few frames adding numbers and bytes allocates
 * nothing.
 */
public final class FilterValues {
    private long[] longs = new long[4];
    private byte[] bytes = new byte[64];
    private int[] starts = new int[4];
    private int[] lengths = new int[4];
    private CharSequence[] texts = new CharSequence[4];
    private int count;
    private int bytesUsed;

    FilterValues() {
    }

    /** Adds an integer, a boolean (0 or 1), a time in nanoseconds or an IPv4 address (unsigned 32 bits). */
    public FilterValues add(long value) {
        grow();
        longs[count++] = value;
        return this;
    }

    /** Adds a MAC or IPv6 address or a byte string; the bytes are copied. */
    public FilterValues add(byte[] value, int offset, int length) {
        grow();
        if (bytesUsed + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, bytesUsed + length));
        }
        System.arraycopy(value, offset, bytes, bytesUsed, length);
        starts[count] = bytesUsed;
        lengths[count++] = length;
        bytesUsed += length;
        return this;
    }

    public FilterValues add(byte[] value) {
        return add(value, 0, value.length);
    }

    /** Adds a string value. */
    public FilterValues add(CharSequence value) {
        grow();
        texts[count++] = value;
        return this;
    }

    public int size() {
        return count;
    }

    void clear() {
        for (int i = 0; i < count; i++) {
            texts[i] = null;
        }
        count = 0;
        bytesUsed = 0;
    }

    long longAt(int i) {
        return longs[i];
    }

    ByteBuffer bytesBuffer() {
        return ByteBuffer.wrap(bytes);
    }

    byte[] bytesArray() {
        return bytes;
    }

    int bytesStart(int i) {
        return starts[i];
    }

    int bytesLength(int i) {
        return lengths[i];
    }

    CharSequence textAt(int i) {
        return texts[i];
    }

    private void grow() {
        if (count == longs.length) {
            int n = count * 2;
            longs = Arrays.copyOf(longs, n);
            starts = Arrays.copyOf(starts, n);
            lengths = Arrays.copyOf(lengths, n);
            texts = Arrays.copyOf(texts, n);
        }
    }
}
