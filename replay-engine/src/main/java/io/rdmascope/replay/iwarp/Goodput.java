package io.rdmascope.replay.iwarp;

import io.rdmascope.replay.Flow;

import java.util.Arrays;

/**
 * Bytes of completed messages over time in at most 1,024 equal buckets (1 µs wide at first, doubled
 * as needed), as the RoCE conversations keep them for {@link Flow#goodputOverTime()}.
 */
final class Goodput {
    private static final int MAX_BUCKETS = 1_024;
    private long startNanos = -1;
    private long bucketNanos = 1_000;
    private long[] buckets = new long[16];
    private int used;

    void add(long timeNanos, long bytes) {
        if (startNanos < 0) {
            startNanos = timeNanos;
        }
        long offset = Math.max(0, timeNanos - startNanos);
        while (offset / bucketNanos >= MAX_BUCKETS) {
            for (int i = 0; i < (used + 1) / 2; i++) {
                buckets[i] = buckets[2 * i] + (2 * i + 1 < used ? buckets[2 * i + 1] : 0);
            }
            Arrays.fill(buckets, (used + 1) / 2, buckets.length, 0);
            used = (used + 1) / 2;
            bucketNanos *= 2;
        }
        int i = (int) (offset / bucketNanos);
        if (i >= buckets.length) {
            buckets = Arrays.copyOf(buckets, Math.min(MAX_BUCKETS, Math.max(i + 1, buckets.length * 2)));
        }
        buckets[i] += bytes;
        used = Math.max(used, i + 1);
    }

    Flow.Series snapshot() {
        return new Flow.Series(Math.max(0, startNanos), bucketNanos, Arrays.copyOf(buckets, used));
    }
}
