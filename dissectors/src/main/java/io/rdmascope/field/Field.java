package io.rdmascope.field;

import io.rdmascope.dissect.Dissection;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One field, declared once: display name, filter abbreviation, type, where it sits in its header
 * (byte offset, byte length, bit mask) and how its values are named. Decoding, the detail tree with
 * byte spans, {@code -T fields}/JSON text, display-filter lookup and the packet builder all read
 * this one declaration (DESIGN.md, "The field model").
 *
 * <p>Most fields sit at a fixed offset from the start of their header. Two other kinds exist:
 * <ul>
 *   <li>{@linkplain #restOfHeader rest-of-header} byte fields (payloads, private data) whose length
 *       is what the header instance has left;</li>
 *   <li>{@linkplain #computed computed} fields (ICRC status, frame times) whose value the dissector
 *       derives rather than reads.</li>
 * </ul>
 * A field may also carry a {@link Presence} test: Wireshark shows the AETH credit count only for an
 * ACK syndrome, the RNR timer only for an RNR NAK, and so must we to print the same fields.
 *
 * <p>Instances are immutable; the {@code with…} methods return modified copies and are meant for
 * the declaration site only.
 */
public final class Field {
    /** Length marker for byte fields that run to the end of their header instance. */
    public static final int REST_OF_HEADER = -1;

    private final String abbrev;
    private final String name;
    private final FieldType type;
    private final Base base;
    private final int offset;
    private final int length;
    private final long mask;
    private final int shift;
    private final boolean littleEndian;
    private final ValueNames valueNames;
    private final String unit;
    private final Presence presence;
    private final Computation computation;
    private final int[] alsoAt;

    private Field(String abbrev, String name, FieldType type, Base base, int offset, int length, long mask,
                  boolean littleEndian, ValueNames valueNames, String unit, Presence presence,
                  Computation computation) {
        this(Objects.requireNonNull(abbrev), Objects.requireNonNull(name), type, base, offset, length, mask,
                littleEndian, valueNames, unit, presence, computation, NO_OFFSETS);
    }

    private Field(Field f, int[] alsoAt) {
        this(f.abbrev, f.name, f.type, f.base, f.offset, f.length, f.mask, f.littleEndian, f.valueNames, f.unit,
                f.presence, f.computation, alsoAt);
    }

    private Field(String abbrev, String name, FieldType type, Base base, int offset, int length, long mask,
                  boolean littleEndian, ValueNames valueNames, String unit, Presence presence,
                  Computation computation, int[] alsoAt) {
        this.abbrev = abbrev;
        this.name = name;
        this.type = type;
        this.base = base;
        this.offset = offset;
        this.length = length;
        this.mask = mask;
        this.shift = mask == 0 ? 0 : Long.numberOfTrailingZeros(mask);
        this.littleEndian = littleEndian;
        this.valueNames = valueNames;
        this.unit = unit;
        this.presence = presence;
        this.computation = computation;
        this.alsoAt = alsoAt;
    }

    private static final int[] NO_OFFSETS = new int[0];

    // ---- declaration factories -------------------------------------------------------------

    public static Field uint8(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.UINT8, Base.DEC, offset, 1, 0, false, null, null, null, null);
    }

    public static Field uint16(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.UINT16, Base.DEC, offset, 2, 0, false, null, null, null, null);
    }

    public static Field uint24(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.UINT24, Base.DEC, offset, 3, 0, false, null, null, null, null);
    }

    public static Field uint32(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.UINT32, Base.DEC, offset, 4, 0, false, null, null, null, null);
    }

    public static Field uint48(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.UINT48, Base.DEC, offset, 6, 0, false, null, null, null, null);
    }

    public static Field uint64(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.UINT64, Base.DEC, offset, 8, 0, false, null, null, null, null);
    }

    /** A boolean bit (or bits) inside an integer of {@code byteWidth} bytes, as FT_BOOLEAN with a bitmask. */
    public static Field bool(String abbrev, String name, int offset, int byteWidth, long mask) {
        return new Field(abbrev, name, FieldType.BOOLEAN, Base.NONE, offset, byteWidth, mask, false, null, null,
                null, null);
    }

    public static Field ether(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.ETHER, Base.NONE, offset, 6, 0, false, null, null, null, null);
    }

    public static Field ipv4(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.IPV4, Base.NONE, offset, 4, 0, false, null, null, null, null);
    }

    public static Field ipv6(String abbrev, String name, int offset) {
        return new Field(abbrev, name, FieldType.IPV6, Base.NONE, offset, 16, 0, false, null, null, null, null);
    }

    public static Field bytes(String abbrev, String name, int offset, int length) {
        return new Field(abbrev, name, FieldType.BYTES, Base.NONE, offset, length, 0, false, null, null, null, null);
    }

    /** Bytes from {@code offset} to the end of the header instance (payloads, private data). */
    public static Field restOfHeader(String abbrev, String name, int offset) {
        return bytes(abbrev, name, offset, REST_OF_HEADER);
    }

    /** A value the dissector derives; {@code type} says how it prints and compares. */
    public static Field computed(String abbrev, String name, FieldType type, Base base, Computation computation) {
        return new Field(abbrev, name, type, base, 0, 0, 0, false, null, null, null,
                Objects.requireNonNull(computation));
    }

    // ---- declaration modifiers --------------------------------------------------------------

    /**
     * A subtree with no value of its own (FT_NONE), which Wireshark shows (and {@code -e} prints as 1)
     * wherever it is present: always when {@code when} is null. Its fields nest under it through the
     * protocol's {@code ProtocolModule#subtreeMembers}.
     */
    public static Field node(String abbrev, String name, Presence when) {
        return computed(abbrev, name, FieldType.NONE, Base.NONE, new Computation() {
            @Override
            public long value(Dissection d, int layer) {
                return 1;
            }

            @Override
            public boolean isPresent(Dissection d, int layer) {
                return when == null || when.test(d, layer);
            }
        });
    }

    public Field mask(long newMask) {
        return new Field(abbrev, name, type, base, offset, length, newMask, littleEndian, valueNames, unit,
                presence, computation);
    }

    public Field base(Base newBase) {
        return new Field(abbrev, name, type, newBase, offset, length, mask, littleEndian, valueNames, unit,
                presence, computation);
    }

    public Field hex() {
        return base(Base.HEX);
    }

    public Field names(ValueNames names) {
        return new Field(abbrev, name, type, base, offset, length, mask, littleEndian, names, unit, presence,
                computation);
    }

    public Field unit(String newUnit) {
        return new Field(abbrev, name, type, base, offset, length, mask, littleEndian, valueNames, newUnit,
                presence, computation);
    }

    public Field littleEndian() {
        return new Field(abbrev, name, type, base, offset, length, mask, true, valueNames, unit, presence,
                computation);
    }

    public Field presentWhen(Presence test) {
        return new Field(abbrev, name, type, base, offset, length, mask, littleEndian, valueNames, unit, test,
                computation);
    }

    /** The same field placed at another offset: for headers that repeat a layout (alternate paths). */
    public Field at(String newAbbrev, String newName, int newOffset) {
        return new Field(newAbbrev, newName, type, base, newOffset, length, mask, littleEndian, valueNames, unit,
                presence, computation);
    }

    /**
     * Makes this field also occur at other offsets of the same header: Wireshark's "either" fields
     * such as {@code ip.addr} (source and destination) print both occurrences, comma-joined.
     */
    public Field alsoAt(int... offsets) {
        return new Field(this, offsets.clone());
    }

    /** A copy printed as another integer type: Wireshark declares some 4-byte wire values as FT_UINT64. */
    public Field printedAs(FieldType printedType) {
        return new Field(abbrev, name, printedType, base, offset, length, mask, littleEndian, valueNames, unit,
                presence, computation);
    }

    /** Number of places this field occurs in one header instance (1 for ordinary fields). */
    public int occurrences() {
        return 1 + alsoAt.length;
    }

    /** Offset of occurrence {@code k} (0 = the declared offset). */
    public int offsetOf(int k) {
        return k == 0 ? offset : alsoAt[k - 1];
    }

    // ---- reading ----------------------------------------------------------------------------

    /**
     * The unsigned value of a fixed-position integer, boolean, IPv4 or MAC field whose header starts
     * at absolute buffer index {@code headerAt}, masked and shifted as declared.
     */
    public long read(ByteBuffer buffer, int headerAt) {
        return readAt(buffer, headerAt + offset);
    }

    /** As {@link #read} for occurrence {@code k} of a field that {@linkplain #alsoAt also occurs} elsewhere. */
    public long read(ByteBuffer buffer, int headerAt, int k) {
        return readAt(buffer, headerAt + offsetOf(k));
    }

    private long readAt(ByteBuffer buffer, int at) {
        long raw;
        switch (length) {
            case 1 -> raw = buffer.get(at) & 0xFFL;
            case 2 -> raw = littleEndian ? Short.reverseBytes(buffer.getShort(at)) & 0xFFFFL
                    : buffer.getShort(at) & 0xFFFFL;
            case 4 -> raw = littleEndian ? Integer.reverseBytes(buffer.getInt(at)) & 0xFFFFFFFFL
                    : buffer.getInt(at) & 0xFFFFFFFFL;
            case 8 -> raw = littleEndian ? Long.reverseBytes(buffer.getLong(at)) : buffer.getLong(at);
            default -> {
                raw = 0;
                if (littleEndian) {
                    for (int i = length - 1; i >= 0; i--) {
                        raw = (raw << 8) | (buffer.get(at + i) & 0xFF);
                    }
                } else {
                    for (int i = 0; i < length; i++) {
                        raw = (raw << 8) | (buffer.get(at + i) & 0xFF);
                    }
                }
            }
        }
        return mask == 0 ? raw : (raw & mask) >>> shift;
    }

    /** Bytes this field occupies in a header instance of {@code headerLength} bytes. */
    public int lengthIn(int headerLength) {
        return length == REST_OF_HEADER ? Math.max(0, headerLength - offset) : length;
    }

    // ---- accessors --------------------------------------------------------------------------

    public String abbrev() {
        return abbrev;
    }

    public String name() {
        return name;
    }

    public FieldType type() {
        return type;
    }

    public Base base() {
        return base;
    }

    /** Byte offset from the start of the header; meaningless for computed fields. */
    public int offset() {
        return offset;
    }

    /** Byte length, or {@link #REST_OF_HEADER}; 0 for computed fields. */
    public int length() {
        return length;
    }

    public long mask() {
        return mask;
    }

    public int shift() {
        return shift;
    }

    public boolean isLittleEndian() {
        return littleEndian;
    }

    public ValueNames valueNames() {
        return valueNames;
    }

    public String unit() {
        return unit;
    }

    public boolean isComputed() {
        return computation != null;
    }

    public Computation computation() {
        return computation;
    }

    /** Whether this field appears in layer {@code layer} of {@code d} (its presence test, if any). */
    public boolean isPresent(Dissection d, int layer) {
        if (computation != null) {
            return computation.isPresent(d, layer);
        }
        if (length != REST_OF_HEADER && offset + length > d.layerLength(layer)) {
            return false; // header cut short by the capture: the field was not captured
        }
        if (length == REST_OF_HEADER && offset >= d.layerLength(layer)) {
            return false;
        }
        return presence == null || presence.test(d, layer);
    }

    /**
     * How many of this field's occurrences the layer holds: 0 when absent, 1 for a computed field,
     * else the occurrences whose bytes were all captured (a header cut short keeps only the leading
     * ones; found by fuzzing).
     */
    public int capturedOccurrences(Dissection d, int layer) {
        if (!isPresent(d, layer)) {
            return 0;
        }
        if (computation != null || length == REST_OF_HEADER) {
            return 1;
        }
        int n = 0;
        for (int k = 0; k < occurrences() && offsetOf(k) + length <= d.layerLength(layer); k++) {
            n++;
        }
        return n;
    }

    /** Number of bits a masked field spans, for the bit-pattern display of the detail tree. */
    public int bitWidth() {
        return mask == 0 ? length * 8 : Long.bitCount(mask);
    }

    @Override
    public String toString() {
        return abbrev;
    }

    /** Decides whether a field appears in a given header instance. */
    @FunctionalInterface
    public interface Presence {
        boolean test(Dissection d, int layer);
    }

    /** Derives the value of a computed field from a dissection. */
    public interface Computation {
        /** The value as a long (integers, booleans, times); for STRING/BYTES fields use {@link #text}. */
        long value(Dissection d, int layer);

        default boolean isPresent(Dissection d, int layer) {
            return true;
        }

        /** Text of STRING fields; null for other types. */
        default CharSequence text(Dissection d, int layer) {
            return null;
        }
    }
}
