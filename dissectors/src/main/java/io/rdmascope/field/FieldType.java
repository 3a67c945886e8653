package io.rdmascope.field;

/**
 * Value types, named after Wireshark's {@code FT_*} so that a field's type, its text in
 * {@code -T fields} output and what a display filter may compare it with all follow from one word.
 */
public enum FieldType {
    /** A node with no value of its own (Wireshark FT_NONE). */
    NONE(0),
    /** A whole protocol (FT_PROTOCOL): filterable for existence. */
    PROTOCOL(0),
    BOOLEAN(0),
    UINT8(1),
    UINT16(2),
    UINT24(3),
    UINT32(4),
    UINT48(6),
    UINT64(8),
    ETHER(6),
    IPV4(4),
    IPV6(16),
    BYTES(0),
    STRING(0),
    /** A frame number (FT_FRAMENUM). */
    FRAMENUM(4),
    /** Nanoseconds since the epoch (FT_ABSOLUTE_TIME). */
    ABSOLUTE_TIME(8),
    /** A duration in nanoseconds (FT_RELATIVE_TIME). */
    RELATIVE_TIME(8);

    private final int byteWidth;

    FieldType(int byteWidth) {
        this.byteWidth = byteWidth;
    }

    /** Bytes occupied by an integer-like value of this type; 0 where the width is per field. */
    public int byteWidth() {
        return byteWidth;
    }

    /** True for types whose value is an unsigned integer read straight off the wire. */
    public boolean isUnsignedInteger() {
        return switch (this) {
            case UINT8, UINT16, UINT24, UINT32, UINT48, UINT64, FRAMENUM -> true;
            default -> false;
        };
    }
}
