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
    /**
     * The buckets, made only when the samples pass {@value #EXACT} and filled from them then: until that
     * point the samples answer every percentile, and a conversation's histograms (one overall, one per
     * kind) are updated at every completed message, interleaved with every other conversation's, so a
     * 5 KB array written at a random line per sample was a cache miss per message for nothing.
     */
    private long[] counts;
    private long total;
    private long min = Long.MAX_VALUE;
    private long max;
    private static final int EXACT = 4_096;
    private long[] samples = new long[16];
    /**
     * {@code samples[0, total)} is in ascending order: sorted in place by the first percentile asked and
     * kept until the next sample (a flow asks for three percentiles of each histogram; the order the
     * samples came in answers nothing).
     */
    private boolean samplesSorted;

    public void add(long nanos) {
        long v = Math.max(0, nanos);
        if (total < EXACT) {
            if (total == samples.length) {
                samples = java.util.Arrays.copyOf(samples, samples.length * 2);
            }
            samples[(int) total] = v;
            samplesSorted = false;
        } else {
            if (samples != null) {
                counts = new long[OCTAVES * SUB_BUCKETS]; // past the exact range: the buckets answer from here on
                for (int i = 0; i < EXACT; i++) {
                    counts[index(samples[i])]++;
                }
                samples = null;
            }
            counts[index(v)]++;
        }
        total++;
        min = Math.min(min, v);
        max = Math.max(max, v);
    }

    /**
     * The histogram that every sample of {@code parts} would have made fed to one: the same count, minimum,
     * maximum and percentiles, since none of them depends on the order the samples came in (exact
     * percentiles sort the samples; past the exact range a bucket's count is the parts' counts summed, each
     * part's from its buckets or, still exact, from its samples). A conversation keeps one histogram per
     * message kind and makes its overall one from them, so a completed message updates one histogram, not two.
     */
    static LatencyHistogram merged(java.util.List<LatencyHistogram> parts) {
        LatencyHistogram all = new LatencyHistogram();
        for (LatencyHistogram p : parts) {
            all.total += p.total;
            all.min = Math.min(all.min, p.min);
            all.max = Math.max(all.max, p.max);
        }
        if (all.total <= EXACT) {
            all.samples = new long[Math.max(16, (int) all.total)];
            int at = 0;
            for (LatencyHistogram p : parts) {
                System.arraycopy(p.samples, 0, all.samples, at, (int) p.total);
                at += (int) p.total;
            }
            return all;
        }
        all.samples = null;
        all.counts = new long[OCTAVES * SUB_BUCKETS];
        for (LatencyHistogram p : parts) {
            if (p.counts != null) {
                for (int i = 0; i < p.counts.length; i++) {
                    all.counts[i] += p.counts[i];
                }
            } else {
                for (int i = 0; i < p.total; i++) {
                    all.counts[index(p.samples[i])]++;
                }
            }
        }
        return all;
    }

    /** Bucket of value {@code v} (package-visible for the test that holds the buckets to their old layout). */
    static int index(long v) {
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
            if (!samplesSorted) {
                java.util.Arrays.sort(samples, 0, (int) total);
                samplesSorted = true;
            }
            return samples[(int) rank - 1];
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
