package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.ValueNames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A compiled operand: a cursor over the values something has in one frame. {@link #reset} starts
 * over for a frame, {@link #next} moves to the next value (false when there are no more), and the
 * accessors read the current value: {@link #longValue} for integers, booleans, times and IPv4
 * addresses; {@link #bytes}/{@link #at}/{@link #length} for anything made of bytes (read in place
 * from the frame's buffer wherever possible); {@link #text} for strings.
 *
 * <p>Cursors keep their position in fields, so a compiled filter belongs to one thread at a time,
 * like the {@link Dissection} it reads.
 */
abstract class Operand {
    /** What the values are, which decides the literals and operators they go with. */
    enum Kind {
        UINT("an unsigned integer"), INT("an integer"), BOOL("a boolean"),
        REL_TIME("a time in seconds"), ABS_TIME("a date and time"),
        IPV4("an IPv4 address"), IPV6("an IPv6 address"), ETHER("a MAC address"), BYTES("a byte string"),
        STRING("a string"), PROTOCOL("a protocol"), NONE("a header with no value of its own");

        final String phrase;

        Kind(String phrase) {
            this.phrase = phrase;
        }

        boolean isInteger() {
            return this == UINT || this == INT;
        }

        /** Held as a long by {@link #longValue}. */
        boolean isLong() {
            return isInteger() || this == BOOL || this == REL_TIME || this == ABS_TIME || this == IPV4;
        }

        /** Has bytes that a slice can cut. */
        boolean isSliceable() {
            return this == IPV4 || this == IPV6 || this == ETHER || this == BYTES || this == STRING
                    || this == PROTOCOL;
        }

        static Kind of(FieldType type) {
            return switch (type) {
                case UINT8, UINT16, UINT24, UINT32, UINT48, UINT64, FRAMENUM -> UINT;
                case BOOLEAN -> BOOL;
                case RELATIVE_TIME -> REL_TIME;
                case ABSOLUTE_TIME -> ABS_TIME;
                case IPV4 -> IPV4;
                case IPV6 -> IPV6;
                case ETHER -> ETHER;
                case BYTES -> BYTES;
                case STRING -> STRING;
                case PROTOCOL -> PROTOCOL;
                case NONE -> NONE;
            };
        }

        /** Largest value of an unsigned type, as unsigned bits (-1 for 64 bits). */
        static long maxOf(FieldType type) {
            int width = type.byteWidth();
            return width == 0 || width >= 8 ? -1L : (1L << (8 * width)) - 1;
        }
    }

    final Kind kind;
    /** How the operand reads in messages: the field name, {@code eth.src[0:3]}, {@code len(x)}. */
    final String label;
    /** Bytes cut out by a slice: compares with any byte-like value, as in Wireshark. */
    boolean sliced;
    /** Largest value of an unsigned operand (unsigned bits; -1 for 64 bits). */
    long max = -1;
    /** Value names integer literals may use. */
    ValueNames names;
    /** A field, header or protocol named in the filter (what {@code count()} takes). */
    boolean isName;

    private byte[] scratch;
    private ByteBuffer scratchBuffer;
    private final ByteChars chars = new ByteChars();

    Operand(Kind kind, String label) {
        this.kind = kind;
        this.label = label;
    }

    abstract void reset(Dissection d);

    abstract boolean next();

    long longValue() {
        throw new IllegalStateException(label + " has no integer value");
    }

    /** Buffer holding the current value's bytes. */
    ByteBuffer bytes() {
        fillScratch();
        return scratchBuffer;
    }

    /** Absolute index of the current value's first byte in {@link #bytes}. */
    int at() {
        return 0;
    }

    /** Byte length of the current value. */
    int length() {
        fillScratch();
        return scratchLength;
    }

    /** The current value as text; strings only, and bytes viewed one char per byte. */
    CharSequence text() {
        return chars.view(bytes(), at(), length());
    }

    private int scratchLength;

    /**
     * Bytes of values not held as bytes: an IPv4 address from a long, a string as UTF-8. Refilled
     * for every call, which is fine as these paths are off the fast one (slices of strings, provided
     * addresses).
     */
    private void fillScratch() {
        if (kind == Kind.IPV4) {
            ensureScratch(4);
            long v = longValue();
            scratchBuffer.putInt(0, (int) v);
            scratchLength = 4;
        } else if (kind == Kind.STRING) {
            byte[] b = text().toString().getBytes(StandardCharsets.UTF_8);
            ensureScratch(b.length);
            System.arraycopy(b, 0, scratch, 0, b.length);
            scratchLength = b.length;
        } else {
            ensureScratch(0);
            scratchLength = 0;
        }
    }

    /** A scratch array of at least {@code n} bytes, kept between frames. */
    byte[] ensureScratch(int n) {
        if (scratch == null || scratch.length < n) {
            scratch = new byte[Math.max(16, Math.max(n, scratch == null ? 0 : scratch.length * 2))];
            scratchBuffer = ByteBuffer.wrap(scratch);
        }
        return scratch;
    }

    ByteBuffer scratchBuffer() {
        return scratchBuffer;
    }

    /** Bytes seen as chars (ISO-8859-1), without copying: what {@code matches} runs over. */
    static final class ByteChars implements CharSequence {
        private ByteBuffer buffer;
        private int at;
        private int length;

        ByteChars view(ByteBuffer b, int start, int len) {
            this.buffer = b;
            this.at = start;
            this.length = len;
            return this;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            if (index < 0 || index >= length) {
                throw new IndexOutOfBoundsException(index);
            }
            return (char) (buffer.get(at + index) & 0xFF);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().substring(start, end);
        }

        @Override
        public String toString() {
            char[] c = new char[length];
            for (int i = 0; i < length; i++) {
                c[i] = (char) (buffer.get(at + i) & 0xFF);
            }
            return new String(c);
        }
    }
}
