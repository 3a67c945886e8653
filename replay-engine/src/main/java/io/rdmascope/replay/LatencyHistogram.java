package io.rdmascope.replay;

/**
 * A bounded latency distribution: exact (nearest-rank percentiles over the samples themselves) up
 * to {@value #EXACT} samples, then log-linear buckets (16 per power of two, so any percentile is
 * within 1/16 = 6.25 % of the true value) from 0 to 2^40 ns (18 minutes), plus the exact minimum and
 * maximum. Bounded size whatever the number of samples.
 */
public final class LatencyHistogram {
    private static final int SUB_BUCKETS = 16;
    private static final int OCTAVES = 41;
    private final long[] counts = new long[OCTAVES * SUB_BUCKETS];
    private long total;
    private long min = Long.MAX_VALUE;
    private long max;
    private static final int EXACT = 4_096;
    private long[] samples = new long[16];

    public void add(long nanos) {
        long v = Math.max(0, nanos);
        if (total < EXACT) {
            if (total == samples.length) {
                samples = java.util.Arrays.copyOf(samples, samples.length * 2);
            }
            samples[(int) total] = v;
        } else {
            samples = null; // past the exact range: the buckets answer from here on
        }
        counts[index(v)]++;
        total++;
        min = Math.min(min, v);
        max = Math.max(max, v);
    }

    private static int index(long v) {
        if (v < 16) {
            return (int) v; // 0..15 exactly
        }
        int octave = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) ((v >>> (octave - 4)) & (SUB_BUCKETS - 1));
        return Math.min(OCTAVES * SUB_BUCKETS - 1, (octave - 3) * SUB_BUCKETS + sub);
    }

    /** Lower bound of bucket {@code i}. */
    private static long lowerBound(int i) {
        if (i < SUB_BUCKETS) {
            return i;
        }
        int octave = i / SUB_BUCKETS + 3;
        int sub = i % SUB_BUCKETS;
        return (long) (SUB_BUCKETS + sub) << (octave - 4);
    }

    public long count() {
        return total;
    }

    /**
     * The value at quantile {@code q} (0..1), nearest rank: exact while there are at most {@value #EXACT}
     * samples, within 6.25 % after; exact max for q = 1; 0 when empty.
     */
    public long percentile(double q) {
        if (total == 0) {
            return 0;
        }
        if (q >= 1) {
            return max;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        if (samples != null) {
            long[] sorted = java.util.Arrays.copyOf(samples, (int) total);
            java.util.Arrays.sort(sorted);
            return sorted[(int) rank - 1];
        }
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank && counts[i] > 0) {
                return Math.min(max, Math.max(min, lowerBound(i)));
            }
        }
        return max;
    }

    public long max() {
        return max;
    }

    public long min() {
        return total == 0 ? 0 : min;
    }
}
