package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ClockFit}: a line between two sets of points, with a bound that holds over their whole span. */
class ClockFitTest {
    private static final long START = 1_767_225_600_000_000_000L;
    private static final long THETA = 5_000_000_123L;

    /** θ(t) of a clock pair drifting {@code ppm} from THETA at START. */
    private static double truth(double ppm, long t) {
        return THETA + ppm * (t - START) / 1e6;
    }

    /** Packets both ways over a second, each way delayed 600–1600 ns at random, the offset drifting {@code ppm}. */
    private static ClockFit.Samples[] packets(double ppm, long seed) {
        Random random = new Random(seed);
        ClockFit.Samples above = new ClockFit.Samples();
        ClockFit.Samples below = new ClockFit.Samples();
        for (int i = 0; i < 2_000; i++) {
            long t = START + (long) i * 500_000 + random.nextInt(1_000);
            long theta = Math.round(truth(ppm, t));
            if (i % 2 == 0) {
                above.add(t, theta + 600 + random.nextInt(1_000)); // passes the first point first: θ plus a delay
            } else {
                below.add(t, theta - 600 - random.nextInt(1_000));
            }
        }
        return new ClockFit.Samples[]{above, below};
    }

    @Test
    void aDriftingOffsetIsWithinTheBoundOverTheWholeSpanAndItsDriftIsFound() {
        for (double ppm : new double[]{-40, -3.5, 12, 250}) {
            for (long seed = 1; seed <= 3; seed++) {
                ClockFit.Samples[] p = packets(ppm, seed);
                ClockFit.Fit fit = ClockFit.fit(p[0], p[1]);
                assertTrue(fit != null);
                for (long t = START; t <= START + 1_000_000_000L; t += 10_000_000L) {
                    long at = fit.offsetNs() + Math.round(fit.driftPpm() * (t - fit.referenceNs()) / 1e6);
                    assertTrue(Math.abs(at - truth(ppm, t)) <= fit.boundNs(), ppm + " ppm, seed " + seed + ": " + fit);
                }
                // 600 ns of delay both ways at best: the bound is near that; the drift is within what two lines
                // that close at both ends of the second can differ by.
                assertTrue(fit.boundNs() >= 600 && fit.boundNs() < 700, fit.toString());
                assertEquals(ppm, fit.driftPpm(), 2.0 * fit.boundNs() / 1e9 * 1e6, fit.toString());
                assertTrue(fit.driftPpm() != 0, fit.toString());
            }
        }
    }

    @Test
    void packetsInAnyOrderGiveTheSameFit() {
        ClockFit.Samples[] inOrder = packets(12, 4);
        ClockFit.Samples[] again = packets(12, 4);
        ClockFit.Samples[] shuffled = {new ClockFit.Samples(), new ClockFit.Samples()};
        Random random = new Random(9);
        for (int k = 0; k < 2; k++) {
            long[][] pairs = new long[again[k].size()][];
            for (int i = 0; i < pairs.length; i++) {
                pairs[i] = new long[]{again[k].time(i), again[k].difference(i)};
            }
            java.util.Collections.shuffle(java.util.Arrays.asList(pairs), random);
            for (long[] p : pairs) {
                shuffled[k].add(p[0], p[1]);
            }
        }
        assertEquals(ClockFit.fit(inOrder[0], inOrder[1]), ClockFit.fit(shuffled[0], shuffled[1]));
    }

    @Test
    void withoutDriftTheOffsetIsTheNtpMidpointAndNoDriftIsClaimed() {
        ClockFit.Samples above = new ClockFit.Samples();
        ClockFit.Samples below = new ClockFit.Samples();
        for (int i = 0; i < 100; i++) {
            above.add(START + i * 1_000_000L, THETA + 1_300);
            below.add(START + i * 1_000_000L + 500, THETA - 900);
        }
        ClockFit.Fit fit = ClockFit.fit(above, below);
        assertEquals(0.0, fit.driftPpm());
        assertEquals(THETA + 200, fit.offsetNs());
        // Half the round trip, and the little drift a span this short cannot rule out.
        assertTrue(fit.boundNs() >= 1_100 && fit.boundNs() <= 1_111, fit.toString());
    }

    @Test
    void theSameClockTwiceIsExact() {
        ClockFit.Samples above = new ClockFit.Samples();
        ClockFit.Samples below = new ClockFit.Samples();
        for (int i = 0; i < 10; i++) {
            above.add(START + i * 7_000L, 0);
            below.add(START + i * 7_000L + 3_000, 0);
        }
        assertEquals(new ClockFit.Fit(0, 0, 0.0, START), ClockFit.fit(above, below));
    }

    @Test
    void pointsNoLineSeparatesGiveNoFit() {
        ClockFit.Samples above = new ClockFit.Samples();
        ClockFit.Samples below = new ClockFit.Samples();
        // The offset steps by 5 µs half-way (a clock set), far more than the delays: no constant rate explains it.
        for (int i = 0; i < 100; i++) {
            long t = START + i * 1_000_000L;
            long step = i < 50 ? 0 : 5_000;
            above.add(t, THETA + step + 500);
            below.add(t + 100, THETA + step - 500);
        }
        assertNull(ClockFit.fit(above, below));
    }
}
