package io.rdmascope.field;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Names for integer values (Wireshark's {@code value_string}), e.g. 4791 → "RoCEv2".
 * Immutable; lookups are a binary search over sorted keys, no boxing.
 */
public final class ValueNames {
    private final long[] keys;
    private final String[] names;

    private ValueNames(long[] keys, String[] names) {
        this.keys = keys;
        this.names = names;
    }

    /** Alternating value, name pairs: {@code of(0, "Ack", 1, "RNR Nak")}. */
    public static ValueNames of(Object... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("value/name pairs expected");
        }
        TreeMap<Long, String> sorted = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            sorted.put(((Number) pairs[i]).longValue(), (String) pairs[i + 1]);
        }
        return fromMap(sorted);
    }

    public static ValueNames fromMap(Map<Long, String> map) {
        TreeMap<Long, String> sorted = new TreeMap<>(map);
        long[] keys = new long[sorted.size()];
        String[] names = new String[sorted.size()];
        int i = 0;
        for (Map.Entry<Long, String> e : sorted.entrySet()) {
            keys[i] = e.getKey();
            names[i++] = e.getValue();
        }
        return new ValueNames(keys, names);
    }

    /** The name of {@code value}, or null when it has none. */
    public String nameOf(long value) {
        int i = Arrays.binarySearch(keys, value);
        return i >= 0 ? names[i] : null;
    }

    /** The value named {@code name} (case-insensitive), or null: display filters accept names. */
    public Long valueOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return keys[i];
            }
        }
        return null;
    }

    public int size() {
        return keys.length;
    }
}
