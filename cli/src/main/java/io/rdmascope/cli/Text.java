package io.rdmascope.cli;

import java.math.BigDecimal;
import java.util.Locale;

/** Cell formats shared by the replay tables. */
final class Text {
    private Text() {
    }

    /** A QP number as Wireshark shows it (0x%06x), or '-' when the wire never showed it. */
    static String qp(Integer qpn) {
        return qpn == null ? "-" : String.format(Locale.ROOT, "0x%06x", qpn);
    }

    /** Nanoseconds as microseconds with three decimals (exact), or '-'. */
    static String micros(Long nanos) {
        return nanos == null ? "-" : BigDecimal.valueOf(nanos, 3).toPlainString();
    }

    /** Nanoseconds as seconds with six decimals (exact to the microsecond, as dissect's time column). */
    static String seconds(long nanos) {
        return BigDecimal.valueOf(nanos / 1000, 6).toPlainString();
    }

    /** A rate in the unit that fits it (b/s, kb/s, Mb/s, Gb/s), three significant digits: a slow flow is not "0.000 Gb/s". */
    static String bitsPerSecond(double bitsPerSecond) {
        return SummaryText.scaled(bitsPerSecond, "b/s");
    }

    /**
     * Lines longer than {@code width} broken at spaces; a continuation is indented by {@code indent}
     * characters more than its line's own leading spaces, so it reads as part of the line above.
     */
    static String wrap(String text, int width, int indent) {
        if (width <= 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + text.length() / 16);
        for (String line : text.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            int lead = 0;
            while (lead < line.length() && line.charAt(lead) == ' ') {
                lead++;
            }
            String hang = " ".repeat(Math.min(lead + indent, width / 2));
            String rest = line;
            while (rest.length() > width) {
                int cut = rest.lastIndexOf(' ', width);
                if (cut <= hang.length()) {
                    cut = width; // one word wider than the line: break it
                }
                out.append(rest, 0, cut).append('\n');
                rest = hang + rest.substring(rest.charAt(cut) == ' ' ? cut + 1 : cut);
            }
            out.append(rest);
        }
        return out.toString();
    }
}
