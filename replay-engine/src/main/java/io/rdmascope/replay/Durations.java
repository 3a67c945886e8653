package io.rdmascope.replay;

import java.util.Locale;

/** Durations for people: the largest unit that keeps the number at least 1, three significant decimals. */
public final class Durations {
    private Durations() {
    }

    public static String text(long nanos) {
        double abs = Math.abs((double) nanos);
        if (abs >= 1e9) {
            return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
        }
        if (abs >= 1e6) {
            return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
        }
        if (abs >= 1e3) {
            return String.format(Locale.ROOT, "%.3f µs", nanos / 1e3);
        }
        return nanos + " ns";
    }
}
