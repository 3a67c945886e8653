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

    static String decimal3(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
