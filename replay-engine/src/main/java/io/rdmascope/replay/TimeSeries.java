package io.rdmascope.replay;

import java.util.Arrays;

/**
 * Bytes over time in equal buckets, bounded: it starts at 1 µs buckets and doubles the bucket width
 * (merging neighbours) whenever the series would exceed {@value #MAX_BUCKETS} buckets, so a
 * conversation of any length costs at most that many longs.
 */
final class TimeSeries {
    static final int MAX_BUCKETS = 1_024;
    private long startNanos = -1;
    private long bucketNanos = FIRST_BUCKET_NANOS;
    private static final long FIRST_BUCKET_NANOS = 1_000;
    /**
     * {@code bucketNanos} is {@code FIRST_BUCKET_NANOS << widenings}, so a bucket index is a division by
     * the constant (which the JIT makes a multiplication) and a shift, not a 64-bit division per message:
     * for offsets of zero and up, floor(floor(o / 1000) / 2^k) = floor(o / (1000 * 2^k)).
     */
    private int widenings;
    private long[] buckets = new long[16];
    private int used;

    void add(long timeNanos, long bytes) {
        if (startNanos < 0) {
            startNanos = timeNanos;
        }
        long offset = Math.max(0, timeNanos - startNanos);
        long index = offset / FIRST_BUCKET_NANOS >>> widenings;
        while (index >= MAX_BUCKETS) {
            coarsen();
            index = offset / FIRST_BUCKET_NANOS >>> widenings;
        }
        int i = (int) index;
        if (i >= buckets.length) {
            buckets = Arrays.copyOf(buckets, Math.min(MAX_BUCKETS, Math.max(i + 1, buckets.length * 2)));
        }
        buckets[i] += bytes;
        used = Math.max(used, i + 1);
    }

    private void coarsen() {
        for (int i = 0; i < (used + 1) / 2; i++) {
            long a = buckets[2 * i];
            long b = 2 * i + 1 < used ? buckets[2 * i + 1] : 0;
            buckets[i] = a + b;
        }
        Arrays.fill(buckets, (used + 1) / 2, buckets.length, 0);
        used = (used + 1) / 2;
        bucketNanos *= 2;
        widenings++;
    }

    Flow.Series snapshot() {
        return new Flow.Series(Math.max(0, startNanos), bucketNanos, Arrays.copyOf(buckets, used));
    }
}
