package io.rdmascope.gui.model;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * The Time column's display formats, as Wireshark's View → Time Display Format and tshark's
 * {@code -t} name them. Every format prints the capture's precision ({@link #format}'s
 * {@code digits}: 6 for a microsecond capture, 9 for nanoseconds), truncating as tshark does.
 */
public enum TimeFormat {
    /** {@code -t ad}: local date and time of day. */
    DATE_AND_TIME("Date and Time of Day", "ad"),
    /** {@code -t a}: local time of day. */
    TIME_OF_DAY("Time of Day", "a"),
    /** {@code -t ud}: UTC date and time of day. */
    UTC_DATE_AND_TIME("UTC Date and Time of Day", "ud"),
    /** {@code -t u}: UTC time of day. */
    UTC_TIME_OF_DAY("UTC Time of Day", "u"),
    /** {@code -t e}: seconds since 1970-01-01 00:00:00 UTC. */
    EPOCH("Seconds Since Epoch (1970-01-01)", "e"),
    /** {@code -t r}, the default: seconds since the first frame (or the last time reference before). */
    RELATIVE("Seconds Since Beginning of Capture", "r"),
    /** {@code -t d}: seconds since the previous captured frame. */
    DELTA("Seconds Since Previous Captured Packet", "d"),
    /** {@code -t dd}: seconds since the previous displayed frame. */
    DELTA_DISPLAYED("Seconds Since Previous Displayed Packet", "dd");

    /** What Wireshark shows in the Time column of a time-reference frame. */
    public static final String REFERENCE_TEXT = "*REF*";

    private final String title;
    private final String tsharkFlag;

    TimeFormat(String title, String tsharkFlag) {
        this.title = title;
        this.tsharkFlag = tsharkFlag;
    }

    public String title() {
        return title;
    }

    /** The letter(s) tshark's {@code -t} takes for this format. */
    public String tsharkFlag() {
        return tsharkFlag;
    }

    /** The format tshark's {@code -t} letter names, or null. */
    public static TimeFormat ofFlag(String flag) {
        for (TimeFormat f : values()) {
            if (f.tsharkFlag.equals(flag)) {
                return f;
            }
        }
        return null;
    }

    /** Whether this format counts from another frame (and so changes with time references or the filter). */
    public boolean isRelative() {
        return this == RELATIVE || this == DELTA || this == DELTA_DISPLAYED;
    }

    /**
     * The Time column text of a frame.
     *
     * @param timeNanos the frame's time, nanoseconds since the epoch
     * @param originNanos what a relative format counts from: the first frame or the time reference
     *                    before (RELATIVE), the previous captured frame (DELTA) or the previous
     *                    displayed frame (DELTA_DISPLAYED); ignored by absolute formats
     * @param digits      fraction digits, 1 to 9 (the capture's precision)
     * @param zone        the local zone of the local formats
     */
    public String format(long timeNanos, long originNanos, int digits, ZoneId zone) {
        StringBuilder sb = new StringBuilder(32);
        switch (this) {
            case RELATIVE, DELTA, DELTA_DISPLAYED -> seconds(sb, timeNanos - originNanos, digits);
            case EPOCH -> seconds(sb, timeNanos, digits);
            default -> {
                boolean utc = this == UTC_DATE_AND_TIME || this == UTC_TIME_OF_DAY;
                ZonedDateTime t = Instant.ofEpochSecond(Math.floorDiv(timeNanos, 1_000_000_000L))
                        .atZone(utc ? ZoneOffset.UTC : zone);
                if (this == DATE_AND_TIME || this == UTC_DATE_AND_TIME) {
                    sb.append(t.toLocalDate()).append(' ');
                }
                two(sb, t.getHour()).append(':');
                two(sb, t.getMinute()).append(':');
                two(sb, t.getSecond());
                fraction(sb, Math.floorMod(timeNanos, 1_000_000_000L), digits);
            }
        }
        return sb.toString();
    }

    private static StringBuilder two(StringBuilder sb, int v) {
        return sb.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** Signed seconds with {@code digits} fraction digits, truncated toward zero like tshark's column. */
    private static void seconds(StringBuilder sb, long nanos, int digits) {
        if (nanos < 0) {
            sb.append('-');
            nanos = -nanos;
        }
        sb.append(nanos / 1_000_000_000L);
        fraction(sb, nanos % 1_000_000_000L, digits);
    }

    private static void fraction(StringBuilder sb, long nanosOfSecond, int digits) {
        int d = Math.max(1, Math.min(9, digits));
        String nine = Long.toString(1_000_000_000L + nanosOfSecond).substring(1);
        sb.append('.').append(nine, 0, d);
    }
}
