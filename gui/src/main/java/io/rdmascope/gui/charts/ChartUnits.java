package io.rdmascope.gui.charts;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

/**
 * Units and ticks chosen to the data a chart shows, so that an axis reads "1.5 Mb/s" and "20 µs"
 * rather than "0.0015 Gb/s" and "0.02 ms". Pure functions; the charts and the I/O graph share them.
 *
 * <p>Prefixes are SI (k = 1000), as Wireshark's I/O graph and statistics write bit rates.
 */
public final class ChartUnits {
    /** A unit: its symbol and how many base units (bits per second, nanoseconds) one of it holds. */
    public record Unit(String symbol, double size) {
        /** {@code base} expressed in this unit. */
        public double of(double base) {
            return base / size;
        }
    }

    /** Bit rates, base unit bits per second. */
    static final List<Unit> RATES = List.of(new Unit("b/s", 1), new Unit("kb/s", 1e3), new Unit("Mb/s", 1e6),
            new Unit("Gb/s", 1e9));
    /** Durations, base unit nanoseconds. */
    static final List<Unit> DURATIONS = List.of(new Unit("ns", 1), new Unit("µs", 1e3), new Unit("ms", 1e6),
            new Unit("s", 1e9));
    /** Significant digits a value is written with: enough to tell 1.5 from 1.6, few enough to read. */
    private static final MathContext DIGITS = new MathContext(3);

    private ChartUnits() {
    }

    /** The unit for a bit rate: the largest in which it is at least 1 (b/s for 0 and below). */
    public static Unit rateUnit(double bitsPerSecond) {
        return unitFor(RATES, bitsPerSecond);
    }

    /** The unit for a duration: the largest in which it is at least 1 (ns for 0 and below). */
    public static Unit durationUnit(double nanos) {
        return unitFor(DURATIONS, nanos);
    }

    /** A bit rate with three significant digits in its own unit: "1.5 Mb/s", "100 Gb/s", "0 b/s". */
    public static String rate(double bitsPerSecond) {
        return format(RATES, bitsPerSecond);
    }

    /** A duration with three significant digits in its own unit: "200 ns", "1.5 ms", "10 s". */
    public static String duration(double nanos) {
        return format(DURATIONS, nanos);
    }

    /**
     * A plain count with at most three significant digits and SI prefix: "7", "120", "1.5 k", "2 M"
     * (axis labels of packets per second and message counts).
     */
    public static String count(double value) {
        List<Unit> counts = List.of(new Unit("", 1), new Unit("k", 1e3), new Unit("M", 1e6), new Unit("G", 1e9));
        return format(counts, value).strip();
    }

    private static String format(List<Unit> units, double value) {
        // Round before choosing the unit, so that 999,999 b/s reads "1 Mb/s" and not "1000 kb/s".
        double rounded = round(value);
        Unit u = unitFor(units, rounded);
        return plain(round(u.of(rounded))) + " " + u.symbol();
    }

    private static Unit unitFor(List<Unit> units, double value) {
        Unit chosen = units.get(0);
        for (Unit u : units) {
            if (value >= u.size()) {
                chosen = u;
            }
        }
        return chosen;
    }

    private static double round(double value) {
        if (value == 0 || !Double.isFinite(value)) {
            return value;
        }
        return new BigDecimal(value).round(DIGITS).doubleValue();
    }

    private static String plain(double value) {
        if (value == 0) {
            return "0";
        }
        return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
    }

    /**
     * A tick spacing of 1, 2 or 5 times a power of ten that puts at most {@code maxTicks} intervals on
     * {@code span} (the usual "nice numbers" of axis labelling).
     */
    public static double niceStep(double span, int maxTicks) {
        if (!(span > 0) || maxTicks < 1) {
            return 1;
        }
        double raw = span / maxTicks;
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * decade >= raw * (1 - 1e-9)) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    /** Decimals a label needs so that ticks {@code step} apart read differently: 0.02 → 2, 5 → 0. */
    public static int decimalsFor(double step) {
        if (!(step > 0)) {
            return 0;
        }
        return (int) Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
    }

    /** Seconds with the decimals the tick step needs: "17.52" for ticks 0.01 s apart. */
    public static String seconds(double seconds, double step) {
        return String.format(Locale.ROOT, "%." + decimalsFor(step) + "f", seconds);
    }
}
