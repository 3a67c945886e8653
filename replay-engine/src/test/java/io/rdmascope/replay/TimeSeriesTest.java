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
}
