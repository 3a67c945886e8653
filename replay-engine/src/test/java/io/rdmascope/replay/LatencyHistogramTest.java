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
}
