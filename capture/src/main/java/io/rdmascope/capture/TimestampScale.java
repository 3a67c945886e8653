package io.rdmascope.capture;

/**
 * A pcapng interface's timestamp unit ({@code if_tsresol}), converting raw 64-bit unit counts to
 * nanoseconds. The option byte's top bit picks the base: clear means 10^-n seconds, set means
 * 2^-n seconds; an interface without the option counts microseconds.
 *
 * <p>Raw counts are unsigned 64-bit values; arithmetic that could wrap for real dates is done
 * unsigned. Absurd timestamps (past year 2262 in nanoseconds) wrap rather than fail: a wrong time
 * on one frame is no reason to stop reading the capture.
 */
sealed interface TimestampScale {

    TimestampScale MICROSECONDS = decimal(6);

    long toNanos(long units);

    /**
     * The digits of a second Wireshark shows for an {@code if_tsresol}: the decimal digits the unit
     * resolves (10^-n: n; 2^-n: the largest d with 10^-d no finer than 2^-n), taken down to the
     * nearest of Wireshark's precision classes 0, 1, 2, 3, 6 and 9 digits (wiretap's tsprecision; checked
     * with tshark 4.0: if_tsresol 4 and 5 show 3 digits, 7 and 8 show 6, 2^-14 shows 3, 2^-30 shows 9).
     */
    static int digits(int tsresol) {
        int exponent = tsresol & 0x7F;
        int decimal = (tsresol & 0x80) == 0 ? exponent : (int) Math.floor(exponent * Math.log10(2));
        return decimal <= 3 ? decimal : decimal < 6 ? 3 : decimal < 9 ? 6 : 9;
    }

    /**
     * The scale for an {@code if_tsresol} option byte, or null when it is too fine to represent
     * (10^-19 s and below, 2^-64 s and below), which the caller reports as a format error.
     */
    static TimestampScale of(int tsresol) {
        int exponent = tsresol & 0x7F;
        if ((tsresol & 0x80) == 0) {
            return exponent <= 18 ? decimal(exponent) : null;
        }
        return exponent <= 63 ? new Binary(exponent) : null;
    }

    private static TimestampScale decimal(int exponent) {
        long factor = 1;
        for (int i = 0; i < Math.abs(9 - exponent); i++) {
            factor *= 10;
        }
        return new Decimal(exponent, factor);
    }

    /**
     * 10^-exponent seconds per unit; {@code factor} = 10^|9 - exponent|, multiplied for units
     * coarser than a nanosecond and divided for finer ones.
     */
    record Decimal(int exponent, long factor) implements TimestampScale {
        @Override
        public long toNanos(long units) {
            return exponent <= 9 ? units * factor : Long.divideUnsigned(units, factor);
        }
    }

    /** 2^-exponent seconds per unit. */
    record Binary(int exponent) implements TimestampScale {
        @Override
        public long toNanos(long units) {
            if (exponent == 0) {
                return units * 1_000_000_000L;
            }
            long seconds = units >>> exponent;
            long fraction = units & ((1L << exponent) - 1);
            // fraction / 2^n as a 64-bit binary fraction, times 10^9, keeping the integer part:
            // exact for every n, where fraction * 10^9 alone would overflow beyond n = 33.
            long scaled = fraction << (64 - exponent);
            long nanos = Math.multiplyHigh(scaled, 1_000_000_000L) + ((scaled >> 63) & 1_000_000_000L);
            return seconds * 1_000_000_000L + nanos;
        }
    }
}
