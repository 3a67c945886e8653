package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * Field values as {@code tshark -T fields} prints them (tshark 4.0): integers in their declared
 * base (hex zero-padded to the type's width), raw numbers rather than value names, booleans as
 * 1/0, bytes as contiguous lowercase hex, times as seconds with nine decimals.
 */
public final class FieldText {
    private FieldText() {
    }

    /** How several occurrences of one field are printed (tshark's {@code -E occurrence}). */
    public enum Occurrence { ALL, FIRST, LAST }

    /**
     * Appends every occurrence of {@code entry} in {@code d}, joined by {@code aggregator}.
     *
     * @return the number of occurrences written
     */
    public static int appendOccurrences(AsciiSink out, FieldRegistry.Entry entry, Dissection d, char aggregator,
                                        Occurrence which) {
        int written = 0;
        int lastStart = -1;
        int count = d.layerCount();
        for (int layer = 0; layer < count; layer++) {
            if (headerIndex(entry, d.layerType(layer)) < 0) {
                continue;
            }
            if (entry instanceof FieldRegistry.FieldEntry fe) {
                Field f = fe.field();
                int n = occurrencesIn(f, d, layer);
                for (int k = 0; k < n; k++) {
                    if (which == Occurrence.FIRST && written > 0) {
                        return written;
                    }
                    int mark = out.length();
                    if (written > 0) {
                        out.append(aggregator);
                    }
                    if (which == Occurrence.LAST && written > 0) {
                        out.truncate(lastStart);
                        mark = lastStart;
                    }
                    lastStart = mark;
                    appendValue(out, f, d, layer, k);
                    written++;
                }
            } else if (entry instanceof FieldRegistry.HeaderEntry he) {
                if (which == Occurrence.FIRST && written > 0) {
                    return written;
                }
                if (which == Occurrence.LAST && written > 0) {
                    out.truncate(lastStart);
                } else if (written > 0) {
                    out.append(aggregator);
                }
                lastStart = out.length();
                if (he.header().selfType() == FieldType.NONE) {
                    out.append('1'); // tshark -e prints a present FT_NONE item as 1 (iwarp_mpa.fpdu, iwarp_ddp)
                } else {
                    appendHeader(out, he.header(), d, layer);
                }
                written++;
            } else {
                // A protocol: present once, printed as its name (tshark prints the protocol's label).
                out.append(entry.abbrev());
                return 1;
            }
        }
        return written;
    }

    /**
     * Position of {@code type} among the headers {@code entry} occurs in, or -1: whether a layer of
     * that type can hold the entry. With {@link #occurrencesIn} this is how every occurrence of a
     * field in a frame is enumerated, here and by display filters.
     */
    public static int headerIndex(FieldRegistry.Entry entry, HeaderType type) {
        java.util.List<HeaderType> headers = entry.headers();
        for (int i = 0, n = headers.size(); i < n; i++) {
            if (headers.get(i) == type) {
                return i;
            }
        }
        return -1;
    }

    /**
     * How many values field {@code f} has in layer {@code layer} of {@code d} (a layer of one of its
     * headers): none when its presence test fails or the capture cut it, one for a computed field,
     * else one per place it {@linkplain Field#alsoAt occurs}.
     */
    public static int occurrencesIn(Field f, Dissection d, int layer) {
        return f.capturedOccurrences(d, layer);
    }

    /** A header named by its own abbreviation: bytes as hex, a protocol as its tree label. */
    public static void appendHeader(AsciiSink out, HeaderType header, Dissection d, int layer) {
        switch (header.selfType()) {
            case BYTES -> out.appendHexBytes(d.buffer(), d.layerAt(layer), d.layerLength(layer), (char) 0);
            case PROTOCOL -> out.append(TreeLabels.headerLabel(d, layer));
            default -> {
                // FT_NONE has no value text
            }
        }
    }

    /** Appends occurrence {@code k} of field {@code f} in layer {@code layer}. */
    public static void appendValue(AsciiSink out, Field f, Dissection d, int layer, int k) {
        ByteBuffer b = d.buffer();
        int at = d.layerAt(layer);
        if (f.isComputed()) {
            if (f.type() == FieldType.STRING || f.type() == FieldType.BYTES) {
                CharSequence text = f.computation().text(d, layer);
                if (text != null) {
                    out.append(text);
                }
                return;
            }
            appendLong(out, f, f.computation().value(d, layer));
            return;
        }
        switch (f.type()) {
            case BYTES -> out.appendHexBytes(b, at + f.offset(), f.lengthIn(d.layerLength(layer)), (char) 0);
            case ETHER -> Addresses.appendMac(out, b, at + f.offsetOf(k));
            case IPV6 -> Addresses.appendIpv6(out, b, at + f.offsetOf(k));
            case IPV4 -> Addresses.appendIpv4(out, f.read(b, at, k));
            default -> appendLong(out, f, f.read(b, at, k));
        }
    }

    /** An integer-like value in the field's tshark text. */
    public static void appendLong(AsciiSink out, Field f, long v) {
        switch (f.type()) {
            case BOOLEAN -> out.append(v != 0 ? '1' : '0');
            case IPV4 -> Addresses.appendIpv4(out, v);
            case RELATIVE_TIME -> out.appendSeconds(v);
            case ABSOLUTE_TIME -> out.append(absoluteTime(v));
            default -> {
                switch (f.base()) {
                    case HEX, HEX_DEC -> out.append('0').append('x').appendHex(v, hexDigits(f));
                    case OCT -> out.append('0').append(Long.toOctalString(v));
                    default -> out.appendUnsignedDecimal(v);
                }
            }
        }
    }

    /** Hex digits tshark pads to: the declared type's width (FT_UINT24 → 6). */
    public static int hexDigits(Field f) {
        int width = f.type().byteWidth();
        return width == 0 ? Math.max(2, f.length() * 2) : width * 2;
    }

    /** "Jun 16, 2026 14:56:01.226451000 UTC" in the local zone, as Wireshark prints frame.time. */
    public static String absoluteTime(long nanos) {
        ZonedDateTime t = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                Math.floorMod(nanos, 1_000_000_000L)).atZone(ZoneId.systemDefault());
        AsciiSink s = new AsciiSink(48);
        s.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH)).append(' ');
        if (t.getDayOfMonth() < 10) {
            s.append(' ');
        }
        s.appendDecimal(t.getDayOfMonth()).append(", ").appendDecimal(t.getYear()).append(' ');
        two(s, t.getHour());
        s.append(':');
        two(s, t.getMinute());
        s.append(':');
        two(s, t.getSecond());
        s.append('.');
        String nanosText = Integer.toString(t.getNano());
        s.append("000000000".substring(nanosText.length())).append(nanosText).append(' ');
        s.append(t.getZone().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
        return s.toString();
    }

    private static void two(AsciiSink s, int v) {
        if (v < 10) {
            s.append('0');
        }
        s.appendDecimal(v);
    }
}
