package io.rdmascope.replay;

/**
 * Values keyed by a packet's direction: address kind, source and destination address, destination QP
 * and (UD only, else -1) source QP. Looked up once per frame straight from the packet's primitive
 * fields, so no key object is made per frame (open addressing, linear probing; entries are never
 * removed, and the engine's conversation limit bounds how many there are).
 */
final class RouteTable<V> {
    private int[] kinds;
    private long[] sourceHi;
    private long[] sourceLo;
    private long[] destinationHi;
    private long[] destinationLo;
    private int[] queuePairs;
    private int[] sourceQueuePairs;
    private Object[] values;
    private int size;

    RouteTable() {
        allocate(64);
    }

    private void allocate(int capacity) {
        kinds = new int[capacity];
        sourceHi = new long[capacity];
        sourceLo = new long[capacity];
        destinationHi = new long[capacity];
        destinationLo = new long[capacity];
        queuePairs = new int[capacity];
        sourceQueuePairs = new int[capacity];
        values = new Object[capacity];
    }

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    V get(int kind, long srcHi, long srcLo, long dstHi, long dstLo, int destQp, int udSourceQp) {
        int mask = values.length - 1;
        for (int i = slot(kind, srcHi, srcLo, dstHi, dstLo, destQp, udSourceQp, mask); values[i] != null; i = (i + 1) & mask) {
            if (queuePairs[i] == destQp && sourceLo[i] == srcLo && destinationLo[i] == dstLo && kinds[i] == kind
                    && sourceHi[i] == srcHi && destinationHi[i] == dstHi && sourceQueuePairs[i] == udSourceQp) {
                return (V) values[i];
            }
        }
        return null;
    }

    V get(Address source, Address destination, int destQp, int udSourceQp) {
        return get(source.kind(), source.hi(), source.lo(), destination.hi(), destination.lo(), destQp, udSourceQp);
    }

    /** Adds or replaces the value of a direction. */
    void put(Address source, Address destination, int destQp, int udSourceQp, V value) {
        if ((size + 1) * 2 > values.length) {
            grow();
        }
        insert(source.kind(), source.hi(), source.lo(), destination.hi(), destination.lo(), destQp, udSourceQp, value);
    }

    private void insert(int kind, long srcHi, long srcLo, long dstHi, long dstLo, int destQp, int udSourceQp, Object value) {
        int mask = values.length - 1;
        int i = slot(kind, srcHi, srcLo, dstHi, dstLo, destQp, udSourceQp, mask);
        for (; values[i] != null; i = (i + 1) & mask) {
            if (queuePairs[i] == destQp && sourceLo[i] == srcLo && destinationLo[i] == dstLo && kinds[i] == kind
                    && sourceHi[i] == srcHi && destinationHi[i] == dstHi && sourceQueuePairs[i] == udSourceQp) {
                values[i] = value;
                return;
            }
        }
        kinds[i] = kind;
        sourceHi[i] = srcHi;
        sourceLo[i] = srcLo;
        destinationHi[i] = dstHi;
        destinationLo[i] = dstLo;
        queuePairs[i] = destQp;
        sourceQueuePairs[i] = udSourceQp;
        values[i] = value;
        size++;
    }

    private void grow() {
        int[] oldKinds = kinds;
        long[] oldSourceHi = sourceHi;
        long[] oldSourceLo = sourceLo;
        long[] oldDestinationHi = destinationHi;
        long[] oldDestinationLo = destinationLo;
        int[] oldQueuePairs = queuePairs;
        int[] oldSourceQueuePairs = sourceQueuePairs;
        Object[] oldValues = values;
        allocate(oldValues.length * 2);
        size = 0;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                insert(oldKinds[i], oldSourceHi[i], oldSourceLo[i], oldDestinationHi[i], oldDestinationLo[i],
                        oldQueuePairs[i], oldSourceQueuePairs[i], oldValues[i]);
            }
        }
    }

    private static int slot(int kind, long srcHi, long srcLo, long dstHi, long dstLo, int destQp, int udSourceQp, int mask) {
        long h = srcLo * 0x9E3779B97F4A7C15L;
        h = (h ^ dstLo) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ srcHi ^ Long.rotateLeft(dstHi, 17)) * 0x9E3779B97F4A7C15L;
        h = (h ^ destQp ^ ((long) udSourceQp << 24) ^ ((long) kind << 56)) * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
