package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.ValueNames;

/**
 * A field supplied by a {@link FilterFieldProvider}: its type (which decides the literals it is
 * compared with, as for a declared field) and its values in a frame.
 */
public interface ProvidedField {
    /**
     * The value type: an unsigned integer type, BOOLEAN, RELATIVE_TIME or ABSOLUTE_TIME
     * (nanoseconds), IPV4, IPV6, ETHER, BYTES or STRING. PROTOCOL or NONE make a field that can
     * only be tested for presence (give it one value, of any kind, when present).
     */
    FieldType type();

    /** Names for integer values, which filters may then use instead of numbers; null if none. */
    default ValueNames valueNames() {
        return null;
    }

    /**
     * Adds this field's values in the frame dissected into {@code d} to {@code out}, which is empty
     * on entry; adds nothing when the frame does not have the field. Integers, booleans (0 or 1),
     * times and IPv4 addresses go in as longs, MAC and IPv6 addresses and byte strings as bytes,
     * strings as text. Called at most once per filter operand per frame, on the filtering thread.
     */
    void values(Dissection d, FilterValues out);
}
