package io.rdmascope.build;

import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One header instance being built: its {@link HeaderType}, its length and the values assigned to
 * its fields. Fields not assigned stay zero. Assignments are applied in the order they were last
 * made, so a later assignment of an overlapping field (the IPv4 DS field after its ECN bits) wins
 * over an earlier one, as the caller would expect.
 */
public final class Header {
    private final HeaderType type;
    private final int length;
    private final Map<Field, Object> values = new LinkedHashMap<>();

    public Header(HeaderType type, int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length + " for " + type.abbrev());
        }
        this.type = type;
        this.length = length;
    }

    /** Assigns a numeric value (integers, booleans as 0/1, IPv4 and MAC as numbers). */
    public Header set(Field field, long value) {
        checkOwn(field);
        // Checked now, where the mistake is made, rather than when the bytes are written.
        HeaderWriter.write(new byte[length], 0, field, value);
        values.remove(field);
        values.put(field, value);
        return this;
    }

    /** Assigns a byte-string value (MAC, IPv4, IPv6, raw bytes) in wire order. */
    public Header set(Field field, byte[] value) {
        checkOwn(field);
        byte[] copy = value.clone();
        HeaderWriter.writeBytes(new byte[length], 0, field, copy);
        values.remove(field);
        values.put(field, copy);
        return this;
    }

    /** Assigns a boolean field. */
    public Header set(Field field, boolean value) {
        return set(field, value ? 1L : 0L);
    }

    /** Whether {@code field} belongs to this header's type. */
    public boolean declares(Field field) {
        for (Field f : type.fields()) {
            if (f == field) {
                return true;
            }
        }
        return false;
    }

    public boolean isSet(Field field) {
        return values.containsKey(field);
    }

    public HeaderType type() {
        return type;
    }

    public int length() {
        return length;
    }

    /** Writes this header's bytes (zeros where nothing was assigned) at {@code at} in {@code buf}. */
    public void writeTo(byte[] buf, int at) {
        java.util.Arrays.fill(buf, at, at + length, (byte) 0);
        for (Map.Entry<Field, Object> e : values.entrySet()) {
            if (e.getValue() instanceof byte[] bytes) {
                HeaderWriter.writeBytes(buf, at, e.getKey(), bytes);
            } else {
                HeaderWriter.write(buf, at, e.getKey(), (Long) e.getValue());
            }
        }
    }

    /** This header's bytes on their own. */
    public byte[] toBytes() {
        byte[] out = new byte[length];
        writeTo(out, 0);
        return out;
    }

    private void checkOwn(Field field) {
        if (!declares(field)) {
            throw new IllegalArgumentException(field.abbrev() + " is not a field of " + type.abbrev());
        }
        if (!field.isComputed() && field.length() != Field.REST_OF_HEADER
                && field.offset() + field.length() > length) {
            throw new IllegalArgumentException(field.abbrev() + " lies outside this " + length + "-byte "
                    + type.abbrev());
        }
    }

    @Override
    public String toString() {
        return type.abbrev() + "(" + length + " bytes)";
    }
}
