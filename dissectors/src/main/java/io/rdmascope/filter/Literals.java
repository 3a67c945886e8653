package io.rdmascope.filter;

import java.io.ByteArrayOutputStream;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads unquoted literals once the type they are compared with is known, by tshark 4.0's rules
 * (each checked against tshark 4.0.17, see docs/filters.md). Every reader throws
 * {@link IllegalArgumentException} whose message completes "'TEXT' …" for the compiler to place
 * at a column.
 */
final class Literals {
    private Literals() {
    }

    /**
     * An unsigned integer: decimal, {@code 0x} hex, {@code 0b} binary, or octal with a leading 0,
     * up to 2^64-1 (returned as the unsigned bits of a long).
     */
    static long integer(String text) {
        String t = text;
        int radix = 10;
        if (t.length() > 2 && (t.startsWith("0x") || t.startsWith("0X"))) {
            radix = 16;
            t = t.substring(2);
        } else if (t.length() > 2 && (t.startsWith("0b") || t.startsWith("0B"))) {
            radix = 2;
            t = t.substring(2);
        } else if (t.length() > 1 && t.startsWith("0")) {
            radix = 8;
            t = t.substring(1);
        }
        for (int i = 0; i < t.length(); i++) {
            if (Character.digit(t.charAt(i), radix) < 0 || t.charAt(i) > 127) {
                throw new IllegalArgumentException(radix == 8 && Character.isDigit(t.charAt(i))
                        ? "is not a number (a leading 0 makes it octal)" : "is not a number");
            }
        }
        if (t.isEmpty()) {
            throw new IllegalArgumentException("is not a number");
        }
        try {
            return Long.parseUnsignedLong(t, radix);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("is too big for any field (more than 64 bits)");
        }
    }

    static boolean looksNumeric(String text) {
        return !text.isEmpty() && Character.isDigit(text.charAt(0));
    }

    /** {@code a.b.c.d} or {@code a.b.c.d/n}: {value, prefix length} (32 without a prefix). */
    static long[] ipv4(String text) {
        String addr = text;
        int prefix = 32;
        int slash = text.indexOf('/');
        if (slash >= 0) {
            addr = text.substring(0, slash);
            prefix = prefixLength(text.substring(slash + 1), 32);
        }
        String[] parts = addr.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("is not an IPv4 address (a.b.c.d, or a.b.c.d/n for a network)");
        }
        long v = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("is not an IPv4 address (a.b.c.d, or a.b.c.d/n for a network)");
            }
            int octet = Integer.parseInt(p);
            if (octet > 255) {
                throw new IllegalArgumentException("is not an IPv4 address (" + octet + " is more than 255)");
            }
            v = (v << 8) | octet;
        }
        return new long[]{v, prefix};
    }

    private static int prefixLength(String bits, int max) {
        if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("has no valid prefix length after '/'");
        }
        int n = Integer.parseInt(bits);
        if (n > max) {
            throw new IllegalArgumentException("has a prefix of " + n + " bits, more than " + max);
        }
        return n;
    }

    /** An IPv6 address (RFC 4291 text, IPv4 tail allowed), optionally {@code /n}: 16 bytes, then the prefix. */
    static byte[] ipv6(String text, int[] prefixOut) {
        String addr = text;
        int prefix = 128;
        int slash = text.indexOf('/');
        if (slash >= 0) {
            addr = text.substring(0, slash);
            prefix = prefixLength(text.substring(slash + 1), 128);
        }
        prefixOut[0] = prefix;
        byte[] out = new byte[16];
        String bad = "is not an IPv6 address";
        if (addr.indexOf(':') < 0) {
            boolean v4 = addr.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
            throw new IllegalArgumentException(bad + (v4 ? " (an IPv4-mapped one is written ::ffff:" + addr + ")"
                    : ""));
        }
        int doubleColon = addr.indexOf("::");
        if (doubleColon >= 0 && addr.indexOf("::", doubleColon + 1) >= 0) {
            throw new IllegalArgumentException(bad + " ('::' may appear once)");
        }
        String head = doubleColon >= 0 ? addr.substring(0, doubleColon) : addr;
        String tail = doubleColon >= 0 ? addr.substring(doubleColon + 2) : "";
        int[] headGroups = groups(head, doubleColon < 0, bad);
        int[] tailGroups = doubleColon >= 0 ? groups(tail, true, bad) : new int[0];
        int total = headGroups.length + tailGroups.length;
        if (doubleColon < 0 ? total != 8 : total > 7) {
            throw new IllegalArgumentException(bad + " (it needs eight groups, or '::')");
        }
        for (int i = 0; i < headGroups.length; i++) {
            out[2 * i] = (byte) (headGroups[i] >> 8);
            out[2 * i + 1] = (byte) headGroups[i];
        }
        for (int i = 0; i < tailGroups.length; i++) {
            int g = 8 - tailGroups.length + i;
            out[2 * g] = (byte) (tailGroups[i] >> 8);
            out[2 * g + 1] = (byte) tailGroups[i];
        }
        return out;
    }

    /** Hex groups separated by ':', the last may be a dotted IPv4 address (two groups). */
    private static int[] groups(String s, boolean mayEndInIpv4, String bad) {
        if (s.isEmpty()) {
            return new int[0];
        }
        String[] parts = s.split(":", -1);
        int n = parts.length;
        boolean v4 = mayEndInIpv4 && parts[n - 1].contains(".");
        int[] out = new int[v4 ? n + 1 : n];
        for (int i = 0; i < n; i++) {
            String p = parts[i];
            if (i == n - 1 && v4) {
                long v4value = ipv4(p)[0];
                out[i] = (int) (v4value >>> 16);
                out[i + 1] = (int) (v4value & 0xFFFF);
                break;
            }
            if (p.isEmpty() || p.length() > 4) {
                throw new IllegalArgumentException(bad);
            }
            int g = 0;
            for (int j = 0; j < p.length(); j++) {
                int digit = Character.digit(p.charAt(j), 16);
                if (digit < 0) {
                    throw new IllegalArgumentException(bad);
                }
                g = g * 16 + digit;
            }
            out[i] = g;
        }
        return out;
    }

    /**
     * A byte string as tshark 4.0 reads one: {@code 0xNN} (exactly one byte), hex pairs joined by
     * ':' ({@code 02:1e:67}), groups joined by '-' or '.' ({@code 02-1e-67}, {@code 021e.6700.0001}),
     * or contiguous hex ({@code 021e67}). Within a group digits pair up from the left and an odd last
     * digit is a byte of its own ({@code a} is 0a, {@code 21e} is 21 0e).
     */
    static byte[] bytes(String text) {
        String bad = "is not a byte string (hex such as 02:1e:67, 02-1e-67 or 021e67)";
        if (text.length() == 4 && (text.startsWith("0x") || text.startsWith("0X"))) {
            int hi = Character.digit(text.charAt(2), 16);
            int lo = Character.digit(text.charAt(3), 16);
            if (hi >= 0 && lo >= 0) {
                return new byte[]{(byte) (hi * 16 + lo)};
            }
        }
        if (text.startsWith("0x") || text.startsWith("0X")) {
            throw new IllegalArgumentException("is not a byte string (0x introduces exactly one byte, as 0x1e)");
        }
        char separator = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ':' || c == '-' || c == '.') {
                if (separator != 0 && separator != c) {
                    throw new IllegalArgumentException(bad + "; use one kind of separator");
                }
                separator = c;
            } else if (Character.digit(c, 16) < 0 || c > 127) {
                throw new IllegalArgumentException(bad);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] groups = separator == 0 ? new String[]{text} : text.split(Pattern.quote(String.valueOf(separator)), -1);
        for (String g : groups) {
            if (g.isEmpty()) {
                throw new IllegalArgumentException(bad);
            }
            if (separator == ':' && g.length() != 2) {
                throw new IllegalArgumentException(bad + "; with ':' every byte has two hex digits");
            }
            for (int i = 0; i < g.length(); i += 2) {
                int hi = Character.digit(g.charAt(i), 16);
                out.write(i + 1 < g.length() ? hi * 16 + Character.digit(g.charAt(i + 1), 16) : hi);
            }
        }
        return out.toByteArray();
    }

    /** A duration in seconds with up to nine decimals ({@code 0.000020}, {@code 2}): nanoseconds. */
    static long seconds(String text) {
        boolean negative = text.startsWith("-");
        String t = negative ? text.substring(1) : text;
        int dot = t.indexOf('.');
        String whole = dot < 0 ? t : t.substring(0, dot);
        String fraction = dot < 0 ? "" : t.substring(dot + 1);
        if (whole.isEmpty() || !whole.chars().allMatch(c -> c >= '0' && c <= '9')
                || !fraction.chars().allMatch(c -> c >= '0' && c <= '9') || (dot >= 0 && fraction.isEmpty())
                || whole.length() > 10) {
            throw new IllegalArgumentException("is not a time in seconds (such as 2 or 0.000020)");
        }
        if (fraction.length() > 9) {
            throw new IllegalArgumentException("has more than nine decimals (nanoseconds are the finest unit)");
        }
        long nanos = Long.parseLong(whole) * 1_000_000_000L
                + (fraction.isEmpty() ? 0 : Long.parseLong((fraction + "000000000").substring(0, 9)));
        return negative ? -nanos : nanos;
    }

    private static final Pattern MONTH_FORM = Pattern.compile(
            "([A-Za-z]{3})\\s+(\\d{1,2}),\\s*(\\d{4})\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?\\s*(UTC|GMT|Z)?");
    private static final Pattern ISO_FORM = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?\\s*(UTC|GMT|Z)?");
    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
        "nov", "dec"};

    /**
     * An absolute time, as Wireshark writes it ({@code "Jun 16, 2026 14:56:01.226"}) or ISO 8601
     * ({@code "2026-06-16 14:56:01"}, a {@code T} allowed): local time unless it ends in Z or UTC.
     * Nanoseconds since the epoch.
     */
    static long absoluteTime(String text, ZoneId zone) {
        String t = text.strip();
        int year;
        int month;
        int day;
        String hour;
        String minute;
        String second;
        String fraction;
        String utc;
        Matcher m = MONTH_FORM.matcher(t);
        Matcher iso = ISO_FORM.matcher(t);
        if (m.matches()) {
            month = monthOf(m.group(1));
            day = Integer.parseInt(m.group(2));
            year = Integer.parseInt(m.group(3));
            hour = m.group(4);
            minute = m.group(5);
            second = m.group(6);
            fraction = m.group(7);
            utc = m.group(8);
        } else if (iso.matches()) {
            year = Integer.parseInt(iso.group(1));
            month = Integer.parseInt(iso.group(2));
            day = Integer.parseInt(iso.group(3));
            hour = iso.group(4);
            minute = iso.group(5);
            second = iso.group(6);
            fraction = iso.group(7);
            utc = iso.group(8);
        } else {
            throw new IllegalArgumentException("is not a date and time (\"Jun 16, 2026 14:56:01.5\" or "
                    + "\"2026-06-16 14:56:01\")");
        }
        try {
            LocalDateTime local = LocalDateTime.of(year, month, day, hour == null ? 0 : Integer.parseInt(hour),
                    minute == null ? 0 : Integer.parseInt(minute), second == null ? 0 : Integer.parseInt(second));
            long epoch = local.atZone(utc != null ? ZoneOffset.UTC : zone).toEpochSecond();
            long nanos = fraction == null ? 0 : Long.parseLong((fraction + "000000000").substring(0, 9));
            return Math.multiplyExact(epoch, 1_000_000_000L) + nanos;
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("is not a valid date and time");
        }
    }

    private static int monthOf(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < MONTHS.length; i++) {
            if (MONTHS[i].equals(lower)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("is not a date and time ('" + name + "' is not a month)");
    }
}
