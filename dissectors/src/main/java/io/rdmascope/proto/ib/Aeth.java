package io.rdmascope.proto.ib;

import io.rdmascope.field.ValueNames;

/** AETH syndrome value tables (IBTA 9.7.5.2; wire-formats.md section 4). */
public final class Aeth {
    /** RNR NAK timer codes → minimum wait, as Wireshark names them. */
    public static final ValueNames RNR_TIMER_NAMES;

    /** Minimum RNR wait per timer code, in nanoseconds (code 0 is the longest, 655.36 ms). */
    private static final long[] RNR_TIMER_NANOS = {
            655_360_000, 10_000, 20_000, 30_000, 40_000, 60_000, 80_000, 120_000, 160_000, 240_000, 320_000,
            480_000, 640_000, 960_000, 1_280_000, 1_920_000, 2_560_000, 3_840_000, 5_120_000, 7_680_000,
            10_240_000, 15_360_000, 20_480_000, 30_720_000, 40_960_000, 61_440_000, 81_920_000, 122_880_000,
            163_840_000, 245_760_000, 327_680_000, 491_520_000};

    public static final ValueNames NAK_CODE_NAMES = ValueNames.of(
            0, "PSN Sequence Error", 1, "Invalid Request", 2, "Remote Access Error",
            3, "Remote Operational Error", 4, "Invalid RD Request");

    static {
        Object[] pairs = new Object[64];
        for (int code = 0; code < 32; code++) {
            pairs[2 * code] = code;
            pairs[2 * code + 1] = formatMillis(RNR_TIMER_NANOS[code]) + " ms";
        }
        RNR_TIMER_NAMES = ValueNames.of(pairs);
    }

    private Aeth() {
    }

    /** The minimum RNR wait that timer code {@code code} (0–31) asks for, in nanoseconds. */
    public static long rnrTimerNanos(int code) {
        return RNR_TIMER_NANOS[code & 0x1F];
    }

    private static String formatMillis(long nanos) {
        long hundredths = nanos / 10_000;
        return (hundredths / 100) + "." + String.format("%02d", hundredths % 100);
    }
}
