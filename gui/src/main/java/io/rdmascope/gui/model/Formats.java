package io.rdmascope.gui.model;

import java.util.Locale;

/** Number formats shared by the RDMA views, as the CLI's tables print them. */
public final class Formats {
    private Formats() {
    }

    /** A QP number as the Info column writes it: {@code 0x00678c}; "-" when unknown. */
    public static String qp(Integer qpn) {
        if (qpn == null) {
            return "-";
        }
        String h = Integer.toHexString(qpn);
        return "0x" + "000000".substring(Math.min(6, h.length())) + h;
    }

    /** Nanoseconds as microseconds with three decimals; "-" for null. */
    public static String micros(Long nanos) {
        return nanos == null ? "-" : String.format(Locale.ROOT, "%.3f", nanos / 1000.0);
    }

    /** Seconds with six decimals. */
    public static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.6f", nanos / 1e9);
    }

    /** A PSN range: "15278828" or "15278828-15278832". */
    public static String psnRange(int first, int last) {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }
}
