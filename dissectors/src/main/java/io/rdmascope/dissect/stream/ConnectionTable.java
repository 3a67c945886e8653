package io.rdmascope.dissect.stream;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TCP connections a stream decoder follows, at most {@link #capacity()} of them: past that the one
 * idle longest is given up (its stream no longer decodes; a decoder notices through {@link
 * #evictions()}). Lookups take a reused {@link ConnectionKey} probe, so a frame costs no allocation.
 *
 * @param <C> what the decoder keeps per connection
 */
public final class ConnectionTable<C> {
    /** Connections followed at once per dissection, unless told otherwise. */
    public static final int DEFAULT_CAPACITY = 4_096;

    private final int capacity;
    private long evictions;
    private final LinkedHashMap<ConnectionKey, C> map;

    public ConnectionTable() {
        this(DEFAULT_CAPACITY);
    }

    public ConnectionTable(int capacity) {
        this.capacity = capacity;
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ConnectionKey, C> eldest) {
                if (size() > ConnectionTable.this.capacity) {
                    evictions++;
                    return true;
                }
                return false;
            }
        };
    }

    /** The connection {@code probe} names, or null. */
    public C get(ConnectionKey probe) {
        return map.get(probe);
    }

    /** Starts following a connection; {@code probe} is copied. */
    public void put(ConnectionKey probe, C connection) {
        map.put(probe.copy(), connection);
    }

    /** Stops following the connection {@code probe} names (a new connection reuses its ports). */
    public C remove(ConnectionKey probe) {
        return map.remove(probe);
    }

    public int size() {
        return map.size();
    }

    public int capacity() {
        return capacity;
    }

    /** Connections given up so far to stay within the capacity. */
    public long evictions() {
        return evictions;
    }

    /** Every connection followed, oldest activity first. */
    public Iterable<C> values() {
        return map.values();
    }
}
