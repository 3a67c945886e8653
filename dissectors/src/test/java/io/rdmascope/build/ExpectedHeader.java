package io.rdmascope.build;

import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a test expects one header to hold: distinctive random values in a set of fields that do not
 * share bits ("leaves"), laid into a byte image by a deliberately plain model of big-endian bit
 * fields, so that every declared field — leaves and the wider fields over them, like the AETH
 * syndrome over its kind and value bits — has an expected value to read back.
 */
final class ExpectedHeader {
    final HeaderType type;
    final byte[] image;
    /** Fields given random values, in the order to set them. */
    final Map<Field, Object> randomized = new LinkedHashMap<>();

    private final BitSet used = new BitSet();

    private ExpectedHeader(HeaderType type, int size) {
        this.type = type;
        this.image = new byte[size];
    }

    /**
     * @param fixed values decided by the caller (opcode, pad count, a QPN that must not be 0 or 1),
     *              laid down first and not randomized
     */
    static ExpectedHeader random(HeaderType type, int size, Random rng, Map<Field, Long> fixed) {
        ExpectedHeader h = new ExpectedHeader(type, size);
        fixed.forEach(h::lay);
        List<Field> candidates = new ArrayList<>();
        for (Field f : type.fields()) {
            if (!f.isComputed() && f.length() != Field.REST_OF_HEADER && !fixed.containsKey(f)) {
                candidates.add(f);
            }
        }
        // Narrowest first, so bit fields become leaves and the bytes that hold them do not.
        candidates.sort(Comparator.comparingInt(Field::bitWidth));
        for (Field f : candidates) {
            if (h.footprint(f).intersects(h.used)) {
                continue;
            }
            if (f.type() == FieldType.BYTES || f.type() == FieldType.IPV6 || f.length() > 8) {
                byte[] v = new byte[f.length()];
                rng.nextBytes(v);
                System.arraycopy(v, 0, h.image, f.offset(), v.length);
                h.used.or(h.footprint(f));
                h.randomized.put(f, v);
            } else {
                long max = HeaderWriter.maxValue(f);
                long v = max == -1L ? rng.nextLong() : (rng.nextLong() & max);
                if (v == 0 && max != 0) {
                    v = 1; // a zero would not show that the field was written at all
                }
                h.lay(f, v);
                h.randomized.put(f, v);
            }
        }
        return h;
    }

    /** The value the image holds for {@code f}, decoded by this class's own plain model. */
    long expected(Field f) {
        long raw = 0;
        for (int j = 0; j < f.length(); j++) {
            int index = f.isLittleEndian() ? f.offset() + f.length() - 1 - j : f.offset() + j;
            raw = (raw << 8) | (image[index] & 0xFF);
        }
        return f.mask() == 0 ? raw : (raw & f.mask()) >>> Long.numberOfTrailingZeros(f.mask());
    }

    byte[] expectedBytes(Field f) {
        return java.util.Arrays.copyOfRange(image, f.offset(), f.offset() + f.length());
    }

    /** Applies the random values to a packet builder. */
    void applyTo(RocePacket p) {
        randomized.forEach((f, v) -> {
            if (v instanceof byte[] bytes) {
                p.set(f, bytes);
            } else {
                p.set(f, (Long) v);
            }
        });
    }

    private void lay(Field f, long value) {
        int shift = f.mask() == 0 ? 0 : Long.numberOfTrailingZeros(f.mask());
        long bits = f.mask() == 0 ? value : (value << shift) & f.mask();
        for (int j = 0; j < f.length(); j++) {
            int index = f.isLittleEndian() ? f.offset() + j : f.offset() + f.length() - 1 - j;
            long byteMask = f.mask() == 0 ? 0xFF : (f.mask() >>> (8 * j)) & 0xFF;
            image[index] = (byte) ((image[index] & ~byteMask) | ((bits >>> (8 * j)) & byteMask));
        }
        used.or(footprint(f));
    }

    /** The bits of the header a field occupies, bit 0 = most significant bit of byte 0. */
    private BitSet footprint(Field f) {
        BitSet bits = new BitSet();
        for (int j = 0; j < f.length(); j++) {
            int index = f.isLittleEndian() ? f.offset() + j : f.offset() + f.length() - 1 - j;
            long byteMask = f.mask() == 0 ? 0xFF : (f.mask() >>> (8 * j)) & 0xFF;
            for (int bit = 0; bit < 8; bit++) {
                if ((byteMask & (0x80 >>> bit)) != 0) {
                    bits.set(index * 8 + bit);
                }
            }
        }
        return bits;
    }
}
