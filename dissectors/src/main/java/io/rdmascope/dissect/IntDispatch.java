package io.rdmascope.dissect;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable int → dissector table (Wireshark's {@code dissector_add_uint}): ethertypes, IP
 * protocol numbers, UDP ports, link types. A binary search over a handful of sorted keys; no boxing
 * on the per-frame path.
 */
public final class IntDispatch {
    private final int[] keys;
    private final Dissector[] values;

    private IntDispatch(int[] keys, Dissector[] values) {
        this.keys = keys;
        this.values = values;
    }

    public static IntDispatch of(Map<Integer, Dissector> entries) {
        TreeMap<Integer, Dissector> sorted = new TreeMap<>(entries);
        int[] keys = new int[sorted.size()];
        Dissector[] values = new Dissector[sorted.size()];
        int i = 0;
        for (Map.Entry<Integer, Dissector> e : sorted.entrySet()) {
            keys[i] = e.getKey();
            values[i++] = e.getValue();
        }
        return new IntDispatch(keys, values);
    }

    /** The dissector registered for {@code key}, or null. */
    public Dissector get(int key) {
        if (keys.length <= LINEAR_MAX) {
            // A handful of keys (ethertypes, IP protocols): a straight scan beats a binary search's branches.
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] == key) {
                    return values[i];
                }
            }
            return null;
        }
        int i = Arrays.binarySearch(keys, key);
        return i >= 0 ? values[i] : null;
    }

    private static final int LINEAR_MAX = 8;
}
