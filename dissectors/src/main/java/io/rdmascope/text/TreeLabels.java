package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.Protocols;

import java.nio.ByteBuffer;

/** Detail-tree text in Wireshark's style, derived from the field declarations. */
public final class TreeLabels {
    /** Wireshark shortens long byte fields in the tree to this many bytes, then an ellipsis. */
    private static final int MAX_TREE_BYTES = 36;

    private TreeLabels() {
    }

    /** The line for a header node, e.g. "User Datagram Protocol, Src Port: 49935, Dst Port: 4791". */
    public static String headerLabel(Dissection d, int layer) {
        String label = Protocols.first(m -> m.headerLabel(d, layer));
        if (label != null) {
            return label;
        }
        HeaderType h = d.layerType(layer);
        if (d.isLayerTruncated(layer)) {
            return h.name() + " [truncated: " + d.layerLength(layer) + " of its bytes captured]";
        }
        return h.name();
    }

    /** Whether field {@code f} of header {@code h} stays out of the detail tree (kept for -e and -Y). */
    public static boolean isHidden(Field f, HeaderType h) {
        return Protocols.any(m -> m.isHidden(f, h));
    }

    /** {@link #isHidden(Field, HeaderType)}, plus what depends on the frame (raw TCP numbers). */
    public static boolean isHidden(Field f, Dissection d, int layer) {
        return isHidden(f, d.layerType(layer)) || Protocols.any(m -> m.isHiddenIn(f, d, layer));
    }

    /** Computed fields a package shows as generated items, in brackets as tshark prints those. */
    private static boolean isGenerated(Field f) {
        return Protocols.any(m -> m.isGenerated(f));
    }

    /** tshark's -T fields text of one field in one layer. */
    public static String text(Field f, Dissection d, int layer) {
        AsciiSink s = new AsciiSink(24);
        FieldText.appendValue(s, f, d, layer, 0);
        return s.toString();
    }

    /** The tree line of a field: "..00 .... = Pad Count: 0" or "Opcode: Reliable Connection (RC) - SEND Only (4)". */
    public static String fieldLabel(Field f, Dissection d, int layer, int k) {
        StringBuilder sb = new StringBuilder(64);
        if (f.mask() != 0 && !f.isComputed()) {
            bitPattern(sb, f, d, layer, k);
            sb.append(" = ");
        }
        boolean generated = f.isComputed() && isGenerated(f);
        if (generated) {
            sb.append('[');
        }
        String value = valueText(f, d, layer, k);
        sb.append(f.name());
        if (value != null) {
            sb.append(": ").append(value);
        }
        for (ProtocolModule m : Protocols.ALL) {
            m.appendToFieldLabel(sb, f, d, layer);
        }
        if (generated) {
            sb.append(']');
        }
        return sb.toString();
    }

    /** The value as the tree shows it: names with the raw value, booleans as True/False, units. */
    public static String valueText(Field f, Dissection d, int layer, int k) {
        ByteBuffer b = d.buffer();
        int at = d.layerAt(layer);
        FieldType t = f.type();
        if (t == FieldType.BYTES) {
            int len = f.isComputed() ? 0 : f.lengthIn(d.layerLength(layer));
            AsciiSink s = new AsciiSink(len * 2 + 3);
            s.appendHexBytes(b, at + f.offset(), Math.min(len, MAX_TREE_BYTES), (char) 0);
            return len > MAX_TREE_BYTES ? s + "\u2026" : s.toString();
        }
        if (t == FieldType.STRING || t == FieldType.ETHER || t == FieldType.IPV4 || t == FieldType.IPV6
                || t == FieldType.ABSOLUTE_TIME) {
            AsciiSink s = new AsciiSink(48);
            FieldText.appendValue(s, f, d, layer, k);
            return s.toString();
        }
        if (t == FieldType.NONE) {
            return null; // a subtree's label alone ("DDP control field"), as Wireshark shows FT_NONE items
        }
        long v = f.isComputed() ? f.computation().value(d, layer) : f.read(b, at, k);
        if (t == FieldType.BOOLEAN) {
            // The InfiniBand and iWARP dissectors declare theirs without words, so they read True/False.
            String words = Protocols.first(m -> m.booleanText(f, v));
            return words != null ? words : v != 0 ? "True" : "False";
        }
        if (t == FieldType.RELATIVE_TIME) {
            AsciiSink s = new AsciiSink(24);
            s.appendSeconds(v);
            return s + " seconds";
        }
        AsciiSink raw = new AsciiSink(24);
        if (f.mask() != 0 && (f.base() == io.rdmascope.field.Base.HEX || f.base() == io.rdmascope.field.Base.HEX_DEC)) {
            raw.append("0x").appendHex(v, treeHexDigits(f)); // "OpCode: Send (0x3)", "Flags: 0x2"
        } else {
            FieldText.appendLong(raw, f, v);
        }
        String text;
        ValueNames names = f.valueNames();
        String name = names == null ? null : names.nameOf(v);
        switch (f.base()) {
            case DEC_HEX -> {
                AsciiSink hex = new AsciiSink(20);
                hex.append("0x").appendHex(v, FieldText.hexDigits(f));
                text = raw + " (" + hex + ")";
            }
            case HEX_DEC -> text = raw + " (" + Long.toUnsignedString(v) + ")";
            default -> text = raw.toString();
        }
        if (name != null) {
            text = name + " (" + text + ")";
        }
        if (f.unit() != null) {
            text = text + " " + f.unit();
        }
        return text;
    }

    /**
     * Hex digits of a bitfield in the tree: Wireshark's {@code hfinfo_hex_digits} counts the mask's
     * width, not the container's ("Virtual Lane: 0xf" for a 4-bit mask in a byte), whereas
     * {@code -T fields} pads to the container ({@link FieldText#hexDigits}).
     */
    static int treeHexDigits(Field f) {
        int bits = 64 - Long.numberOfLeadingZeros(f.mask() >>> f.shift());
        return Math.max(1, (bits + 3) / 4);
    }

    /** Wireshark's bit picture, e.g. "..00 ...." for a mask of 0x30 in one byte. */
    private static void bitPattern(StringBuilder sb, Field f, Dissection d, int layer, int k) {
        int bits = f.length() * 8;
        long raw = rawBits(f, d, layer, k);
        for (int i = bits - 1; i >= 0; i--) {
            long bit = 1L << i;
            if ((f.mask() & bit) == 0) {
                sb.append('.');
            } else {
                sb.append((raw & bit) != 0 ? '1' : '0');
            }
            if (i > 0 && i % 4 == 0) {
                sb.append(' ');
            }
        }
    }

    private static long rawBits(Field f, Dissection d, int layer, int k) {
        ByteBuffer b = d.buffer();
        int at = d.layerAt(layer) + f.offsetOf(k);
        long raw = 0;
        for (int i = 0; i < f.length(); i++) {
            int index = f.isLittleEndian() ? f.length() - 1 - i : i; // NVMe's fields are little-endian
            raw = (raw << 8) | (b.get(at + index) & 0xFF);
        }
        return raw;
    }
}
