package io.rdmascope.build;

import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;

/**
 * Encodes one field value into header bytes, straight from the field's declaration: the same
 * offset, byte length, mask and byte order that {@link Field#read} decodes with. There is no second
 * table of offsets in the builder; if a declaration moves, encoding moves with it (DESIGN.md, "The
 * field model").
 *
 * <p>Masked fields are written read-modify-write, so fields sharing bytes (BTH byte 1: SE, M,
 * PadCnt, TVer) can be written one after another in any order. Values are checked against the
 * field's width: a value that would spill into a neighbour is a bug in the caller, not something to
 * truncate silently.
 *
 * <p>Pitfalls:
 * <ul>
 *   <li>Computed fields (ICRC status, {@code ip.hdr_len}) have no bytes and are refused.</li>
 *   <li>Fields declared at several places ({@code ip.addr}, {@code eth.addr}) are refused: they
 *       name "either address", not a place; write {@code ip.src}/{@code ip.dst} instead.</li>
 *   <li>Byte-array values (MAC, IPv6, raw bytes) are copied in wire order; {@code littleEndian}
 *       only concerns integer fields.</li>
 * </ul>
 */
public final class HeaderWriter {
    private HeaderWriter() {
    }

    /**
     * Writes an unsigned integer, boolean, IPv4 or MAC value (as a number) into the header that
     * starts at {@code headerAt} in {@code buf}.
     *
     * @throws IllegalArgumentException when the field has no fixed integer position or the value does
     *                                  not fit its width
     */
    public static void write(byte[] buf, int headerAt, Field field, long value) {
        checkPlaced(field);
        int length = field.length();
        if (length < 1 || length > 8) {
            throw new IllegalArgumentException(field.abbrev() + " is " + describeLength(field)
                    + ", not an integer; write it as bytes");
        }
        long max = maxValue(field);
        if (Long.compareUnsigned(value, max) > 0) {
            throw new IllegalArgumentException(field.abbrev() + " holds at most 0x" + Long.toHexString(max)
                    + ", got 0x" + Long.toHexString(value));
        }
        int at = headerAt + field.offset();
        checkBounds(buf, at, length, field);
        long raw;
        if (field.mask() == 0) {
            raw = value;
        } else {
            long old = readRaw(buf, at, length, field.isLittleEndian());
            raw = (old & ~field.mask()) | ((value << field.shift()) & field.mask());
        }
        writeRaw(buf, at, length, field.isLittleEndian(), raw);
    }

    /**
     * Writes a byte-string value (MAC, IPv4, IPv6, fixed or rest-of-header bytes) in wire order.
     * For a rest-of-header field the value's length decides how many bytes are written.
     *
     * @throws IllegalArgumentException when the field is masked or the length does not match
     */
    public static void writeBytes(byte[] buf, int headerAt, Field field, byte[] value) {
        checkPlaced(field);
        if (field.mask() != 0) {
            throw new IllegalArgumentException(field.abbrev() + " is a bit field; write it as a number");
        }
        int length = field.length() == Field.REST_OF_HEADER ? value.length : field.length();
        if (value.length != length) {
            throw new IllegalArgumentException(field.abbrev() + " is " + length + " bytes, got " + value.length);
        }
        int at = headerAt + field.offset();
        checkBounds(buf, at, length, field);
        System.arraycopy(value, 0, buf, at, length);
    }

    /** Largest value {@code field} can hold: its mask shifted down, or all ones over its bytes. */
    public static long maxValue(Field field) {
        if (field.mask() != 0) {
            return field.mask() >>> field.shift();
        }
        int length = field.length();
        return length >= 8 ? -1L : (1L << (8 * length)) - 1;
    }

    /** True when the field can be written with {@link #write} (a number of 1–8 bytes at a fixed place). */
    public static boolean isNumeric(Field field) {
        return !field.isComputed() && field.length() >= 1 && field.length() <= 8
                && field.type() != FieldType.BYTES;
    }

    private static void checkPlaced(Field field) {
        if (field.isComputed()) {
            throw new IllegalArgumentException(field.abbrev() + " is computed by the dissector and has no bytes");
        }
        if (field.occurrences() > 1) {
            throw new IllegalArgumentException(field.abbrev() + " names " + field.occurrences()
                    + " places; write each place's own field");
        }
    }

    private static void checkBounds(byte[] buf, int at, int length, Field field) {
        if (at < 0 || at + length > buf.length) {
            throw new IllegalArgumentException(field.abbrev() + " at " + at + "+" + length
                    + " lies outside a " + buf.length + "-byte buffer");
        }
    }

    private static String describeLength(Field field) {
        return field.length() == Field.REST_OF_HEADER ? "rest-of-header bytes" : field.length() + " bytes";
    }

    private static long readRaw(byte[] buf, int at, int length, boolean littleEndian) {
        long raw = 0;
        for (int i = 0; i < length; i++) {
            int index = littleEndian ? at + length - 1 - i : at + i;
            raw = (raw << 8) | (buf[index] & 0xFF);
        }
        return raw;
    }

    private static void writeRaw(byte[] buf, int at, int length, boolean littleEndian, long raw) {
        for (int i = 0; i < length; i++) {
            byte b = (byte) (raw >>> (8 * (length - 1 - i)));
            buf[littleEndian ? at + length - 1 - i : at + i] = b;
        }
    }
}
