package io.rdmascope.cli;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * tshark's {@code -t} time formats for the Time column, printed to the precision of the capture's
 * timestamps (tshark's default "automatic" precision): 9 digits for a nanosecond pcap, pcapng
 * {@code if_tsresol} 9 or ERF, 6 for a microsecond pcap, and so on. Digits beyond the precision are cut,
 * not rounded, as Wireshark's nstime-to-text does. Local time is the JVM's zone (TZ), as tshark's is the
 * C library's.
 */
enum TimeFormat {
    /** Absolute local time of day. */
    A("a"),
    /** Absolute local date and time. */
    AD("ad"),
    /** Absolute local year, day of year and time. */
    ADOY("adoy"),
    /** Since the previous captured frame. */
    D("d"),
    /** Since the previous displayed frame. */
    DD("dd"),
    /** Seconds since the Unix epoch. */
    E("e"),
    /** Since the first frame (tshark's default). */
    R("r"),
    /** UTC time of day. */
    U("u"),
    /** UTC date and time. */
    UD("ud"),
    /** UTC year, day of year and time. */
    UDOY("udoy");

    private final String option;

    TimeFormat(String option) {
        this.option = option;
    }

    static TimeFormat parse(String text) {
        for (TimeFormat f : values()) {
            if (f.option.equals(text)) {
                return f;
            }
        }
        throw new DissectCommand.UsageError("-t takes a, ad, adoy, d, dd, e, r, u, ud or udoy (got '" + text + "')");
    }

    /**
     * The Time column of one frame.
     *
     * @param time          the frame's time, ns since the epoch
     * @param digits        digits of a second the capture resolves (0..9)
     * @param first         the first frame's time
     * @param prevCaptured  the previous frame's time (this frame's for the first)
     * @param prevDisplayed the previous displayed frame's time (this frame's for the first displayed)
     */
    String format(long time, int digits, long first, long prevCaptured, long prevDisplayed) {
        return switch (this) {
            case R -> seconds(time - first, digits);
            case D -> seconds(time - prevCaptured, digits);
            case DD -> seconds(time - prevDisplayed, digits);
            case E -> seconds(time, digits);
            case A, AD, ADOY -> clock(time, digits, ZoneId.systemDefault());
            case U, UD, UDOY -> clock(time, digits, ZoneOffset.UTC);
        };
    }

    /** Signed seconds with {@code digits} decimals, cut toward zero. */
    static String seconds(long nanos, int digits) {
        StringBuilder sb = new StringBuilder(24);
        if (nanos < 0) {
            sb.append('-');
        }
        long magnitude = Math.abs(nanos);
        sb.append(magnitude / 1_000_000_000L);
        fraction(sb, magnitude % 1_000_000_000L, digits);
        return sb.toString();
    }

    private String clock(long time, int digits, ZoneId zone) {
        long secs = Math.floorDiv(time, 1_000_000_000L);
        ZonedDateTime t = Instant.ofEpochSecond(secs).atZone(zone);
        StringBuilder sb = new StringBuilder(32);
        switch (this) {
            case AD, UD -> sb.append(String.format(Locale.ROOT, "%04d-%02d-%02d ", t.getYear(), t.getMonthValue(),
                    t.getDayOfMonth()));
            case ADOY, UDOY -> sb.append(String.format(Locale.ROOT, "%04d/%03d ", t.getYear(), t.getDayOfYear()));
            default -> {
                // time of day only
            }
        }
        sb.append(String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond()));
        fraction(sb, Math.floorMod(time, 1_000_000_000L), digits);
        return sb.toString();
    }

    private static void fraction(StringBuilder sb, long nanos, int digits) {
        if (digits <= 0) {
            return;
        }
        // By hand rather than String.format: this runs once per printed frame.
        sb.append('.');
        long divisor = 100_000_000L;
        for (int i = 0; i < Math.min(9, digits); i++) {
            sb.append((char) ('0' + (nanos / divisor) % 10));
            divisor /= 10;
        }
    }
}
