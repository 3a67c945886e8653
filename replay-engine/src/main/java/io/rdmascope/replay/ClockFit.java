package io.rdmascope.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two points' clocks as a line: {@code θ(t) = θ0 + r·(t − t0)}, θ the second point's clock minus the
 * first's at the first point's time t, r their relative drift (issue 20). Clocks drift: two free-running
 * host clocks differ by some ppm, and over a capture of a second a drift of 10 ppm moves the offset by
 * 10 µs, more than a fabric's one-way delay, so a fixed offset cannot be assumed.
 *
 * <p>Every packet seen once at both points bounds the line: one whose direction passes the first point
 * first arrived at the second later ({@code tB − tA = θ(tA) + d}, {@code d ≥ 0}), so the line lies on or
 * below its point {@code (tA, tB − tA)}; one the other way lies on or above. The lines that do are a convex
 * set of (θ0, r), cut to |r| ≤ {@link #MAX_DRIFT}; its vertices give everything. The fitted line has no
 * drift when the set holds lines of rate 0 (the NTP midpoint of the offsets a fixed clock allows), else it
 * is the vertices' mean (inside the set); the bound is how far any vertex strays from it over the span of
 * the packets, so the true offset at any moment of that span lies within the fit ± the bound, provided
 * each clock runs at a constant rate. A drift the packets cannot rule out widens the bound: a few ns on a
 * capture whose packets cluster at one end. Only the lower hull of the upper points and the upper hull of
 * the lower points can bind, which keeps the vertices few.
 */
final class ClockFit {
    /**
     * No clock drifts more than this (1000 ppm): twice the 500 ppm NTP takes as the most a computer clock's
     * frequency may be off (RFC 5905, 11.3, MAXFREQ). It bounds the drift when the packets alone cannot.
     */
    static final double MAX_DRIFT = 1e-3;
    /** Drift is reported in steps of 10⁻⁶ ppm (this many to the ppm): over an hour that is 3.6 ns. */
    private static final double DRIFT_STEPS_PER_PPM = 1e6;

    /** The fitted line: offset at {@code referenceNs} (the first point's time), drift, and the bound. */
    record Fit(long offsetNs, long boundNs, double driftPpm, long referenceNs) {
    }

    /** (first point's time, second's minus first's) of packets of one kind. */
    static final class Samples {
        private long[] x = new long[16];
        private long[] y = new long[16];
        private int n;

        void add(long time, long difference) {
            if (n == x.length) {
                x = Arrays.copyOf(x, n * 2);
                y = Arrays.copyOf(y, n * 2);
            }
            x[n] = time;
            y[n++] = difference;
        }

        int size() {
            return n;
        }

        long time(int i) {
            return x[i];
        }

        long difference(int i) {
            return y[i];
        }
    }

    private ClockFit() {
    }

    /**
     * The line below every {@code above} point and above every {@code below} point, or null when none is
     * (timestamps out of order, a clock stepped, or the points do not lie on the hosts' path). The samples
     * are used up (sorted and shifted in place).
     */
    static Fit fit(Samples above, Samples below) {
        long reference = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (Samples s : List.of(above, below)) {
            for (int i = 0; i < s.n; i++) {
                reference = Math.min(reference, s.x[i]);
                end = Math.max(end, s.x[i]);
            }
        }
        // Differences are taken from one of them, so the doubles below hold delays and drift, not epochs.
        long base = above.y[0];
        double[][] upper = hull(above, reference, base, true);  // the line is at most each of these
        double[][] lower = hull(below, reference, base, false); // and at least each of these
        // Where the binding point changes: the slopes of the hulls' edges, the drift limits, and where the
        // highest and lowest allowed offsets cross.
        List<Double> rates = new ArrayList<>(List.of(-MAX_DRIFT, MAX_DRIFT));
        for (double[][] h : List.of(upper, lower)) {
            for (int i = 1; i < h[0].length; i++) {
                double slope = (h[1][i] - h[1][i - 1]) / (h[0][i] - h[0][i - 1]);
                if (Math.abs(slope) < MAX_DRIFT) {
                    rates.add(slope);
                }
            }
        }
        rates.sort(null);
        List<Double> candidates = new ArrayList<>(rates);
        for (int i = 1; i < rates.size(); i++) {
            double r1 = rates.get(i - 1);
            double r2 = rates.get(i);
            double d1 = highest(upper, r1) - lowest(lower, r1);
            double d2 = highest(upper, r2) - lowest(lower, r2);
            if ((d1 < 0) != (d2 < 0)) {
                candidates.add(r1 + (r2 - r1) * d1 / (d1 - d2)); // the gap is linear between two breakpoints
            }
        }
        List<double[]> vertices = new ArrayList<>();
        for (double r : candidates) {
            double hi = highest(upper, r);
            double lo = lowest(lower, r);
            if (hi >= lo - 1e-6) {
                vertices.add(new double[]{r, hi});
                vertices.add(new double[]{r, Math.min(lo, hi)});
            }
        }
        if (vertices.isEmpty()) {
            return null;
        }
        double slowest = Double.POSITIVE_INFINITY;
        double fastest = Double.NEGATIVE_INFINITY;
        double meanRate = 0;
        double meanOffset = 0;
        for (double[] v : vertices) {
            slowest = Math.min(slowest, v[0]);
            fastest = Math.max(fastest, v[0]);
            meanRate += v[0] / vertices.size();
            meanOffset += v[1] / vertices.size();
        }
        double driftPpm;
        long offset;
        if (slowest <= 0 && fastest >= 0) {
            // The packets allow clocks at one rate: no drift is claimed, and the offset is the NTP midpoint of
            // the offsets a fixed clock allows (the bound below still covers every drift they allow).
            long high = (long) Math.floor(highest(upper, 0));
            long low = (long) Math.ceil(lowest(lower, 0));
            driftPpm = 0;
            offset = low + (high - low) / 2;
        } else {
            driftPpm = Math.round(meanRate * 1e6 * DRIFT_STEPS_PER_PPM) / DRIFT_STEPS_PER_PPM;
            offset = Math.round(meanOffset);
        }
        double rate = driftPpm / 1e6;
        double span = end - reference;
        double stray = 0;
        for (double[] v : vertices) {
            for (double x : new double[]{0, span}) {
                stray = Math.max(stray, Math.abs(v[1] + v[0] * x - offset - rate * x));
            }
        }
        // The fit is applied rounded to the nanosecond: half a nanosecond more wherever it drifts.
        long bound = (long) Math.ceil(stray - 1e-6 + (driftPpm == 0 ? 0 : 0.5));
        return new Fit(base + offset, Math.max(0, bound), driftPpm, reference);
    }

    /** The highest offset at the reference a line of rate {@code r} may have under every upper point. */
    private static double highest(double[][] upper, double r) {
        double h = Double.POSITIVE_INFINITY;
        for (int i = 0; i < upper[0].length; i++) {
            h = Math.min(h, upper[1][i] - r * upper[0][i]);
        }
        return h;
    }

    /** The lowest offset at the reference a line of rate {@code r} may have over every lower point. */
    private static double lowest(double[][] lower, double r) {
        double l = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < lower[0].length; i++) {
            l = Math.max(l, lower[1][i] - r * lower[0][i]);
        }
        return l;
    }

    /**
     * The points that can bind a line, as {x[], y[]} relative to the reference time and base difference: the
     * lower hull of points the line must stay under ({@code under}), else the upper hull (Andrew's monotone
     * chain, with exact 128-bit turns so nearly collinear points are judged right).
     */
    private static double[][] hull(Samples s, long reference, long base, boolean under) {
        // In place: the samples are the packets' own (a correlation may hold millions), and used once.
        long[] x = s.x;
        long[] y = s.y;
        int n = s.n;
        int sign = under ? 1 : -1; // the upper hull is the lower hull of the points mirrored
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            x[i] -= reference;
            y[i] = sign * (y[i] - base);
            sorted &= i == 0 || x[i] >= x[i - 1];
        }
        if (!sorted) { // a capture read in order usually is
            sortByX(x, y, n);
        }
        long[] hx = new long[Math.min(n, 1 << 10)];
        long[] hy = new long[hx.length];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (k > 0 && hx[k - 1] == x[i]) {
                if (y[i] >= hy[k - 1]) {
                    continue; // the same time: only the lowest can bind
                }
                k--;
            }
            while (k >= 2 && !turnsLeft(hx[k - 2], hy[k - 2], hx[k - 1], hy[k - 1], x[i], y[i])) {
                k--;
            }
            if (k == hx.length) {
                hx = Arrays.copyOf(hx, k * 2);
                hy = Arrays.copyOf(hy, k * 2);
            }
            hx[k] = x[i];
            hy[k++] = y[i];
        }
        double[][] out = new double[2][k];
        for (int i = 0; i < k; i++) {
            out[0][i] = hx[i];
            out[1][i] = sign * (double) hy[i];
        }
        return out;
    }

    /** Whether o → a → b turns counter-clockwise (strictly), compared exactly in 128 bits. */
    private static boolean turnsLeft(long ox, long oy, long ax, long ay, long bx, long by) {
        long p1 = ax - ox;
        long p2 = by - oy;
        long q1 = ay - oy;
        long q2 = bx - ox;
        // p1·p2 > q1·q2, both products as signed 128-bit numbers (high word, then unsigned low word).
        long hiP = Math.multiplyHigh(p1, p2);
        long hiQ = Math.multiplyHigh(q1, q2);
        return hiP != hiQ ? hiP > hiQ : Long.compareUnsigned(p1 * p2, q1 * q2) > 0;
    }

    /** Heapsort of both arrays by {@code x}: in place, no boxing (a correlation may hold millions of packets). */
    private static void sortByX(long[] x, long[] y, int n) {
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(x, y, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            swap(x, y, 0, end);
            siftDown(x, y, 0, end);
        }
    }

    private static void siftDown(long[] x, long[] y, int i, int n) {
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                return;
            }
            if (child + 1 < n && x[child + 1] > x[child]) {
                child++;
            }
            if (x[i] >= x[child]) {
                return;
            }
            swap(x, y, i, child);
            i = child;
        }
    }

    private static void swap(long[] x, long[] y, int i, int j) {
        long t = x[i];
        x[i] = x[j];
        x[j] = t;
        t = y[i];
        y[i] = y[j];
        y[j] = t;
    }
}
