package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyHistogramTest {

    @Test
    void fewSamplesGiveExactNearestRankPercentiles() {
        LatencyHistogram h = new LatencyHistogram();
        h.add(3_450);
        h.add(2_587);
        h.add(3_545);
        assertEquals(3_450, h.percentile(0.5));
        assertEquals(3_545, h.percentile(0.99));
        assertEquals(3_545, h.max());
        assertEquals(2_587, h.min());
        LatencyHistogram zero = new LatencyHistogram();
        zero.add(0);
        assertEquals(0, zero.percentile(0.5), "UD and UC messages take 0 ns and must show 0");
    }

    @Test
    void manySamplesStayWithinOneSixteenth() {
        LatencyHistogram h = new LatencyHistogram();
        Random r = new Random(3);
        long[] values = new long[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 1_000 + (long) (r.nextDouble() * r.nextDouble() * 5_000_000);
            h.add(values[i]);
        }
        java.util.Arrays.sort(values);
        for (double q : new double[]{0.5, 0.9, 0.99}) {
            long exact = values[(int) Math.ceil(q * values.length) - 1];
            long approx = h.percentile(q);
            assertTrue(Math.abs(approx - exact) <= exact / 16 + 1, q + ": " + approx + " vs " + exact);
        }
        assertEquals(values[values.length - 1], h.max());
    }

    /**
     * The histogram as it was before its buckets were made lazily and its samples sorted in place: every
     * sample in the buckets from the first, percentiles from a sorted copy. The oracle for the compact one.
     */
    private static final class EagerHistogram {
        private final long[] counts = new long[41 * 16];
        private final long[] samples = new long[4_096];
        private long total;
        private long min = Long.MAX_VALUE;
        private long max;

        void add(long nanos) {
            long v = Math.max(0, nanos);
            if (total < samples.length) {
                samples[(int) total] = v;
            }
            counts[LatencyHistogram.index(v)]++;
            total++;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }

        long percentile(double q) {
            if (total == 0) {
                return 0;
            }
            if (q >= 1) {
                return max;
            }
            long rank = Math.max(1, (long) Math.ceil(q * total));
            if (total <= samples.length) {
                long[] sorted = java.util.Arrays.copyOf(samples, (int) total);
                java.util.Arrays.sort(sorted);
                return sorted[(int) rank - 1];
            }
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank && counts[i] > 0) {
                    long lower = i < 16 ? i : (long) (16 + i % 16) << (i / 16 + 3 - 4);
                    return Math.min(max, Math.max(min, lower));
                }
            }
            return max;
        }
    }

    @Test
    void answersAsWhenEverySampleWentIntoTheBucketsAtOnce() {
        Random r = new Random(18);
        double[] qs = {0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1};
        for (int round = 0; round < 40; round++) {
            LatencyHistogram compact = new LatencyHistogram();
            EagerHistogram eager = new EagerHistogram();
            int n = r.nextInt(3) == 0 ? r.nextInt(40) : 3_000 + r.nextInt(3_000); // both sides of the exact range
            int scale = 1 + r.nextInt(40);
            for (int i = 0; i < n; i++) {
                long v = switch (r.nextInt(10)) {
                    case 0 -> -r.nextInt(1_000); // clock skew: counted as 0
                    case 1 -> r.nextInt(16);
                    case 2 -> Long.MAX_VALUE >>> r.nextInt(30); // past the last bucket
                    default -> (long) (r.nextDouble() * (1L << scale));
                };
                compact.add(v);
                eager.add(v);
                if (r.nextInt(500) == 0) { // asked mid-way: the in-place sort must not lose a later sample
                    for (double q : qs) {
                        assertEquals(eager.percentile(q), compact.percentile(q), "round " + round + " at " + i);
                    }
                }
            }
            for (double q : qs) {
                assertEquals(eager.percentile(q), compact.percentile(q), "round " + round + ", " + n + " samples, q " + q);
            }
            assertEquals(eager.total, compact.count());
            assertEquals(eager.max, compact.max());
            assertEquals(n == 0 ? 0 : eager.min, compact.min());
        }
    }

    @Test
    void aHistogramMergedFromPartsAnswersAsOneFedEverySample() {
        Random r = new Random(1818);
        double[] qs = {0, 0.01, 0.5, 0.9, 0.99, 0.999, 1};
        for (int round = 0; round < 60; round++) {
            int partCount = r.nextInt(5); // none at all: a conversation without completed messages
            java.util.List<LatencyHistogram> parts = new java.util.ArrayList<>();
            for (int i = 0; i < partCount; i++) {
                parts.add(new LatencyHistogram());
            }
            EagerHistogram whole = new EagerHistogram();
            // Totals below, at and above the exact range, and single parts past it on their own.
            int n = partCount == 0 ? 0 : switch (r.nextInt(4)) {
                case 0 -> r.nextInt(100);
                case 1 -> 4_096;
                case 2 -> 4_097 + r.nextInt(50);
                default -> 2_000 + r.nextInt(9_000);
            };
            for (int i = 0; i < n; i++) {
                long v = r.nextInt(8) == 0 ? -5 : (long) (r.nextDouble() * (1L << (1 + r.nextInt(36))));
                // Unevenly spread, as message kinds are: the first part takes most.
                parts.get(r.nextInt(3) == 0 ? r.nextInt(partCount) : 0).add(v);
                whole.add(v);
            }
            LatencyHistogram merged = LatencyHistogram.merged(parts);
            for (double q : qs) {
                assertEquals(whole.percentile(q), merged.percentile(q), "round " + round + ", " + n + " samples, q " + q);
            }
            assertEquals(whole.total, merged.count());
            assertEquals(whole.max, merged.max());
            assertEquals(n == 0 ? 0 : whole.min, merged.min());
        }
    }
}
