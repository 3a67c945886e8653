package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.HeaderType;
import io.rdmascope.text.FieldText;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/** The operand cursors: fields, headers, protocols, provided fields, slices, functions, arithmetic. */
final class Operands {
    private Operands() {
    }

    /**
     * A declared field: every occurrence in the frame, found as {@link FieldText} finds the ones it
     * prints, and read straight from the buffer (computed fields through their computation).
     */
    static final class FieldValue extends Operand {
        private final FieldRegistry.FieldEntry entry;
        /** The declaration per header of {@code entry.headers()}: SLL and SLL2 place a name differently. */
        private final Field[] fields;
        private final int layerFrom;
        private final int layerTo;
        private Dissection d;
        private Field field;
        private int layer;
        private int k;
        private int n;
        private int ordinal;

        FieldValue(FieldRegistry.FieldEntry entry, Ast.Word name) {
            super(Kind.of(entry.field().type()), entry.abbrev() + name.layerSuffix());
            this.entry = entry;
            this.layerFrom = name.layerFrom();
            this.layerTo = name.layerTo();
            List<HeaderType> headers = entry.headers();
            this.fields = new Field[headers.size()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = entry.field();
                for (Field f : headers.get(i).fields()) {
                    if (f.abbrev().equals(entry.abbrev())) {
                        fields[i] = f;
                        break;
                    }
                }
            }
            this.max = Kind.maxOf(entry.field().type());
            this.names = entry.field().valueNames();
            this.isName = true;
        }

        @Override
        void reset(Dissection dissection) {
            d = dissection;
            layer = -1;
            k = 0;
            n = 0;
            ordinal = 0;
        }

        @Override
        boolean next() {
            if (++k < n) {
                return true;
            }
            n = 0;
            int count = d.layerCount();
            while (++layer < count) {
                int h = FieldText.headerIndex(entry, d.layerType(layer));
                if (h < 0) {
                    continue;
                }
                ordinal++;
                if (layerFrom != 0 && (ordinal < layerFrom || ordinal > layerTo)) {
                    continue;
                }
                Field f = fields[h];
                int occurrences = FieldText.occurrencesIn(f, d, layer);
                if (occurrences > 0) {
                    field = f;
                    n = occurrences;
                    k = 0;
                    return true;
                }
            }
            return false;
        }

        @Override
        long longValue() {
            return field.isComputed() ? field.computation().value(d, layer)
                    : field.read(d.buffer(), d.layerAt(layer), k);
        }

        @Override
        ByteBuffer bytes() {
            return field.isComputed() ? super.bytes() : d.buffer();
        }

        @Override
        int at() {
            return field.isComputed() ? super.at() : d.layerAt(layer) + field.offsetOf(k);
        }

        @Override
        int length() {
            if (field.isComputed()) {
                return super.length();
            }
            return switch (kind) {
                case IPV4 -> 4;
                case ETHER -> 6;
                case IPV6 -> 16;
                default -> field.lengthIn(d.layerLength(layer));
            };
        }

        @Override
        CharSequence text() {
            if (field.isComputed()) {
                CharSequence t = field.computation().text(d, layer);
                return t != null ? t : "";
            }
            return super.text();
        }
    }

    /** A header by its own name ({@code ip}, {@code infiniband.bth}): its bytes, once per instance. */
    static final class HeaderValue extends Operand {
        private final HeaderType[] types;
        private final int layerFrom;
        private final int layerTo;
        private Dissection d;
        private int layer;
        private int ordinal;

        HeaderValue(Kind kind, Ast.Word name, List<HeaderType> types) {
            super(kind, name.text() + name.layerSuffix());
            this.types = types.toArray(new HeaderType[0]);
            this.layerFrom = name.layerFrom();
            this.layerTo = name.layerTo();
            this.isName = true;
        }

        @Override
        void reset(Dissection dissection) {
            d = dissection;
            layer = -1;
            ordinal = 0;
        }

        @Override
        boolean next() {
            int count = d.layerCount();
            while (++layer < count) {
                HeaderType t = d.layerType(layer);
                for (HeaderType type : types) {
                    if (t == type) {
                        ordinal++;
                        if (layerFrom == 0 || (ordinal >= layerFrom && ordinal <= layerTo)) {
                            return true;
                        }
                        break;
                    }
                }
            }
            return false;
        }

        @Override
        ByteBuffer bytes() {
            return d.buffer();
        }

        @Override
        int at() {
            return d.layerAt(layer);
        }

        @Override
        int length() {
            return d.layerLength(layer);
        }
    }

    /**
     * A protocol made of several headers ({@code infiniband}): present when any of them is; its
     * bytes run from its first header to the end of its last, as Wireshark's protocol item does
     * (for RoCEv2: BTH to ICRC, payload included).
     */
    static final class ProtocolValue extends Operand {
        private final HeaderType[] headers;
        private Dissection d;
        private boolean done;
        private int first;
        private int last;

        ProtocolValue(String name, List<HeaderType> headers) {
            super(Kind.PROTOCOL, name);
            this.headers = headers.toArray(new HeaderType[0]);
            this.isName = true;
        }

        @Override
        void reset(Dissection dissection) {
            d = dissection;
            done = false;
        }

        @Override
        boolean next() {
            if (done) {
                return false;
            }
            done = true;
            first = -1;
            for (int i = 0, count = d.layerCount(); i < count; i++) {
                HeaderType t = d.layerType(i);
                for (HeaderType h : headers) {
                    if (t == h) {
                        if (first < 0) {
                            first = i;
                        }
                        last = i;
                        break;
                    }
                }
            }
            return first >= 0;
        }

        @Override
        ByteBuffer bytes() {
            return d.buffer();
        }

        @Override
        int at() {
            return d.layerAt(first);
        }

        @Override
        int length() {
            return d.layerStart(last) + d.layerLength(last) - d.layerStart(first);
        }
    }

    /** A field from a {@link FilterFieldProvider}: its values are asked for once per frame. */
    static final class ProvidedValue extends Operand {
        private final ProvidedField field;
        private final FilterValues values = new FilterValues();
        private ByteBuffer wrapped;
        private byte[] wrappedArray;
        private int i;

        ProvidedValue(String name, ProvidedField field, Kind kind) {
            super(kind, name);
            this.field = field;
            this.max = Kind.maxOf(field.type());
            this.names = field.valueNames();
            this.isName = true;
        }

        @Override
        void reset(Dissection d) {
            values.clear();
            field.values(d, values);
            i = -1;
        }

        @Override
        boolean next() {
            return ++i < values.size();
        }

        @Override
        long longValue() {
            return values.longAt(i);
        }

        @Override
        ByteBuffer bytes() {
            if (kind == Kind.IPV4 || kind == Kind.STRING) {
                return super.bytes();
            }
            byte[] array = values.bytesArray();
            if (array != wrappedArray) {
                wrappedArray = array;
                wrapped = ByteBuffer.wrap(array);
            }
            return wrapped;
        }

        @Override
        int at() {
            return kind == Kind.IPV4 || kind == Kind.STRING ? super.at() : values.bytesStart(i);
        }

        @Override
        int length() {
            return kind == Kind.IPV4 || kind == Kind.STRING ? super.length() : values.bytesLength(i);
        }

        @Override
        CharSequence text() {
            return kind == Kind.STRING ? values.textAt(i) : super.text();
        }
    }

    /**
     * {@code base[ranges]}: the bytes of each value of {@code base}, cut. A range that does not fit
     * a value drops that value, as in Wireshark ({@code eth.src[6]} has no value). One range is a
     * view of the base's bytes; several are concatenated into scratch space.
     */
    static final class SliceValue extends Operand {
        private final Operand base;
        private final Ast.Range[] ranges;
        private ByteBuffer viewBuffer;
        private int viewAt;
        private int viewLength;

        SliceValue(Operand base, List<Ast.Range> ranges, String label) {
            super(Kind.BYTES, label);
            this.base = base;
            this.ranges = ranges.toArray(new Ast.Range[0]);
            this.sliced = true;
        }

        @Override
        void reset(Dissection d) {
            base.reset(d);
        }

        @Override
        boolean next() {
            while (base.next()) {
                if (cut()) {
                    return true;
                }
            }
            return false;
        }

        private boolean cut() {
            ByteBuffer b = base.bytes();
            int at = base.at();
            int len = base.length();
            if (ranges.length == 1) {
                long r = resolve(ranges[0], len);
                if (r < 0) {
                    return false;
                }
                viewBuffer = b;
                viewAt = at + (int) (r >>> 32);
                viewLength = (int) r;
                return true;
            }
            int total = 0;
            for (Ast.Range range : ranges) {
                long r = resolve(range, len);
                if (r < 0) {
                    return false;
                }
                total += (int) r;
            }
            byte[] out = ensureScratch(total);
            int w = 0;
            for (Ast.Range range : ranges) {
                long r = resolve(range, len);
                int start = at + (int) (r >>> 32);
                for (int i = 0; i < (int) r; i++) {
                    out[w++] = b.get(start + i);
                }
            }
            viewBuffer = scratchBuffer();
            viewAt = 0;
            viewLength = total;
            return true;
        }

        /** (start << 32) | length of {@code range} in a value of {@code len} bytes, or -1 when it does not fit. */
        private static long resolve(Ast.Range range, int len) {
            int start = range.start() < 0 ? len + range.start() : range.start();
            if (start < 0 || start >= len) {
                return -1;
            }
            int length = range.length() == Ast.Range.TO_END ? len - start : range.length();
            if (length <= 0 || start + length > len) {
                return -1;
            }
            return ((long) start << 32) | length;
        }

        @Override
        ByteBuffer bytes() {
            return viewBuffer;
        }

        @Override
        int at() {
            return viewAt;
        }

        @Override
        int length() {
            return viewLength;
        }
    }

    /** {@code len(x)}: the byte length of each value (a string's in UTF-8). */
    static final class LengthValue extends Operand {
        private final Operand base;

        LengthValue(Operand base) {
            super(Kind.UINT, "len(" + base.label + ")");
            this.base = base;
            this.max = 0xFFFFFFFFL;
        }

        @Override
        void reset(Dissection d) {
            base.reset(d);
        }

        @Override
        boolean next() {
            return base.next();
        }

        @Override
        long longValue() {
            if (base.kind == Kind.STRING && !base.sliced) {
                CharSequence t = base.text();
                long bytes = 0;
                for (int i = 0; i < t.length(); i++) {
                    char c = t.charAt(i);
                    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
                }
                return bytes;
            }
            return base.length();
        }
    }

    /** {@code count(x)}: how many values x has; no value at all when it has none (as in tshark). */
    static final class CountValue extends Operand {
        private final Operand base;
        private boolean done;
        private long count;

        CountValue(Operand base) {
            super(Kind.UINT, "count(" + base.label + ")");
            this.base = base;
            this.max = 0xFFFFFFFFL;
        }

        @Override
        void reset(Dissection d) {
            base.reset(d);
            done = false;
        }

        @Override
        boolean next() {
            if (done) {
                return false;
            }
            done = true;
            count = 0;
            while (base.next()) {
                count++;
            }
            return count > 0;
        }

        @Override
        long longValue() {
            return count;
        }
    }

    /** {@code upper(x)}, {@code lower(x)} of a string. */
    static final class CaseValue extends Operand {
        private final Operand base;
        private final boolean upper;

        CaseValue(Operand base, boolean upper) {
            super(Kind.STRING, (upper ? "upper(" : "lower(") + base.label + ")");
            this.base = base;
            this.upper = upper;
        }

        @Override
        void reset(Dissection d) {
            base.reset(d);
        }

        @Override
        boolean next() {
            return base.next();
        }

        @Override
        CharSequence text() {
            String t = base.text().toString();
            return upper ? t.toUpperCase(Locale.ROOT) : t.toLowerCase(Locale.ROOT);
        }
    }

    /** A constant inside arithmetic ({@code frame.len + 4}): one value. */
    static final class ConstantValue extends Operand {
        private final long value;
        private boolean done;

        ConstantValue(Kind kind, long value, String label) {
            super(kind, label);
            this.value = value;
        }

        @Override
        void reset(Dissection d) {
            done = false;
        }

        @Override
        boolean next() {
            if (done) {
                return false;
            }
            done = true;
            return true;
        }

        @Override
        long longValue() {
            return value;
        }
    }

    /** Integer arithmetic and bitwise AND over every pair of values; a division by zero gives no value. */
    static final class ArithmeticValue extends Operand {
        private final Token.Kind op;
        private final Operand left;
        private final Operand right;
        private Dissection d;
        private boolean haveLeft;
        private long leftValue;
        private long value;

        ArithmeticValue(Kind kind, Token.Kind op, Operand left, Operand right, String label) {
            super(kind, label);
            this.op = op;
            this.left = left;
            this.right = right;
            this.max = left.max;
            this.names = op == Token.Kind.BITAND ? left.names : null;
        }

        @Override
        void reset(Dissection dissection) {
            d = dissection;
            left.reset(dissection);
            haveLeft = false;
        }

        @Override
        boolean next() {
            while (true) {
                if (!haveLeft) {
                    if (!left.next()) {
                        return false;
                    }
                    haveLeft = true;
                    leftValue = left.longValue();
                    right.reset(d);
                }
                if (!right.next()) {
                    haveLeft = false;
                    continue;
                }
                long r = right.longValue();
                switch (op) {
                    case PLUS -> value = leftValue + r;
                    case MINUS -> value = leftValue - r;
                    case STAR -> value = leftValue * r;
                    case SLASH, PERCENT -> {
                        if (r == 0) {
                            continue;
                        }
                        value = op == Token.Kind.SLASH ? leftValue / r : leftValue % r;
                    }
                    default -> value = leftValue & r;
                }
                return true;
            }
        }

        @Override
        long longValue() {
            return value;
        }
    }

    /** {@code -x}. */
    static final class NegatedValue extends Operand {
        private final Operand base;

        NegatedValue(Operand base) {
            super(Kind.INT, "-" + base.label);
            this.base = base;
        }

        @Override
        void reset(Dissection d) {
            base.reset(d);
        }

        @Override
        boolean next() {
            return base.next();
        }

        @Override
        long longValue() {
            return -base.longValue();
        }
    }

    /** {@code bytes & mask}: byte by byte, the value's bytes beyond the mask cleared. */
    static final class MaskedBytesValue extends Operand {
        private final Operand base;
        private final byte[] mask;

        MaskedBytesValue(Operand base, byte[] mask, String label) {
            super(Kind.BYTES, label);
            this.base = base;
            this.mask = mask;
            this.sliced = base.sliced;
        }

        @Override
        void reset(Dissection d) {
            base.reset(d);
        }

        @Override
        boolean next() {
            if (!base.next()) {
                return false;
            }
            int len = base.length();
            byte[] out = ensureScratch(len);
            ByteBuffer b = base.bytes();
            int at = base.at();
            for (int i = 0; i < len; i++) {
                out[i] = (byte) (i < mask.length ? b.get(at + i) & mask[i] : 0);
            }
            lengthNow = len;
            return true;
        }

        private int lengthNow;

        @Override
        ByteBuffer bytes() {
            return scratchBuffer();
        }

        @Override
        int at() {
            return 0;
        }

        @Override
        int length() {
            return lengthNow;
        }
    }
}
