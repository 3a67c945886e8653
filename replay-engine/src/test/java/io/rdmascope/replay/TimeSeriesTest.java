package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimeSeriesTest {
    @Test
    void bucketsWidenToStayBoundedAndKeepEveryByte() {
        TimeSeries t = new TimeSeries();
        long total = 0;
        for (int i = 0; i < 100_000; i++) {
            t.add(1_000_000_000L + i * 37_000L, 100 + i % 7);
            total += 100 + i % 7;
        }
        Flow.Series s = t.snapshot();
        assertTrue(s.bytes().length <= TimeSeries.MAX_BUCKETS, "buckets: " + s.bytes().length);
        assertEquals(total, Arrays.stream(s.bytes()).sum());
        assertEquals(1_000_000_000L, s.startNanos());
        assertTrue(s.bucketNanos() * s.bytes().length >= 99_999L * 37_000L, "covers the whole span");
    }

    @Test
    void shortSeriesKeepMicrosecondBuckets() {
        TimeSeries t = new TimeSeries();
        t.add(5_000, 10);
        t.add(7_500, 20);
        Flow.Series s = t.snapshot();
        assertEquals(1_000, s.bucketNanos());
        assertEquals(3, s.bytes().length);
        assertEquals(20, s.bytes()[2]);
    }

    @Test
    void everyByteLandsInTheBucketItsOffsetDividedByTheFinalWidthNames() {
        // The index is computed as (offset / 1000) >>> widenings, not offset / width: the two must agree on
        // every offset, including ones just below and at a bucket boundary, after any number of widenings.
        java.util.Random random = new java.util.Random(18);
        for (int run = 0; run < 20; run++) {
            TimeSeries t = new TimeSeries();
            long start = 1_000_000L + random.nextInt(1_000);
            long span = 1L << (10 + random.nextInt(40));
            long[] times = new long[2_000];
            long[] bytes = new long[times.length];
            t.add(start, 1);
            for (int i = 0; i < times.length; i++) {
                long offset = Math.floorMod(random.nextLong(), span);
                if (i % 3 == 0) {
                    offset = Math.max(0, offset - offset % 1_000 - (i % 2)); // at and just below a boundary
                }
                times[i] = start + offset;
                bytes[i] = 1 + random.nextInt(100);
                t.add(times[i], bytes[i]);
            }
            Flow.Series s = t.snapshot();
            long[] expected = new long[s.bytes().length];
            expected[0] += 1;
            for (int i = 0; i < times.length; i++) {
                expected[(int) ((times[i] - start) / s.bucketNanos())] += bytes[i];
            }
            assertEquals(Arrays.toString(expected), Arrays.toString(s.bytes()), "span " + span);
        }
    }
}
