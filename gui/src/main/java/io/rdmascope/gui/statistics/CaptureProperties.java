package io.rdmascope.gui.statistics;

import io.rdmascope.gui.model.CaptureInfo;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.TimeFormat;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Statistics → Capture File Properties: the file, its format and encapsulation, first and last
 * packet times, elapsed time, packet and byte counts and average rates, in the order and words of
 * Wireshark's dialog and {@code capinfos} (with the displayed counts beside the captured ones).
 */
public final class CaptureProperties {

    /** One line of the dialog: a section title (value null) or a name and its value. */
    public record Line(String name, String value) {
    }

    private CaptureProperties() {
    }

    /**
     * @param file      the capture file, or null for a live capture
     * @param fileBytes its size on disk (0 when unknown)
     * @param displayed the frames the packet list shows
     */
    public static List<Line> of(Path file, long fileBytes, FrameIndex index, int[] displayed, ZoneId zone) {
        List<Line> out = new ArrayList<>();
        CaptureInfo info = index.info();
        int digits = index.timeDigits();
        out.add(new Line("File", null));
        out.add(new Line("Name", file == null ? "(live capture)" : file.toAbsolutePath().normalize().toString()));
        out.add(new Line("Length", String.format(Locale.ROOT, "%,d bytes", fileBytes)));
        out.add(new Line("Format", info == null ? "unknown" : info.format()));
        out.add(new Line("Encapsulation", encapsulations(index)));
        out.add(new Line("Time precision", digits >= CaptureInfo.NANOSECONDS ? "nanoseconds (9)"
                : digits == CaptureInfo.MICROSECONDS ? "microseconds (6)" : digits + " digits"));
        int n = index.count();
        out.add(new Line("Time", null));
        if (n > 0) {
            long first = index.timeNanos(1);
            long last = index.timeNanos(n);
            out.add(new Line("First packet", TimeFormat.DATE_AND_TIME.format(first, 0, digits, zone)));
            out.add(new Line("Last packet", TimeFormat.DATE_AND_TIME.format(last, 0, digits, zone)));
            out.add(new Line("Elapsed", TimeFormat.RELATIVE.format(last, first, digits, zone) + " s"));
        }
        long bytes = 0;
        for (int i = 1; i <= n; i++) {
            bytes += index.wireLength(i);
        }
        long shownBytes = 0;
        long shownFirst = Long.MAX_VALUE;
        long shownLast = Long.MIN_VALUE;
        for (int f : displayed) {
            shownBytes += index.wireLength(f);
            shownFirst = Math.min(shownFirst, index.timeNanos(f));
            shownLast = Math.max(shownLast, index.timeNanos(f));
        }
        out.add(new Line("Statistics", null));
        long span = n > 1 ? index.timeNanos(n) - index.timeNanos(1) : 0;
        long shownSpan = displayed.length > 1 ? shownLast - shownFirst : 0;
        out.add(new Line("Packets", String.format(Locale.ROOT, "%,d captured · %,d displayed (%.1f %%)", n,
                displayed.length, n == 0 ? 0.0 : 100.0 * displayed.length / n)));
        out.add(new Line("Bytes", String.format(Locale.ROOT, "%,d captured · %,d displayed", bytes, shownBytes)));
        out.add(new Line("Average packets/s", rate(n, span) + " captured · " + rate(displayed.length, shownSpan)
                + " displayed"));
        out.add(new Line("Average packet size", String.format(Locale.ROOT, "%.1f bytes captured · %.1f bytes displayed",
                n == 0 ? 0.0 : (double) bytes / n, displayed.length == 0 ? 0.0 : (double) shownBytes / displayed.length)));
        out.add(new Line("Average bytes/s", byteRate(bytes, span) + " captured · " + byteRate(shownBytes, shownSpan)
                + " displayed"));
        out.add(new Line("Average bits/s", bitRate(bytes, span) + " captured · " + bitRate(shownBytes, shownSpan)
                + " displayed"));
        return out;
    }

    /** Units per second with k/M/G prefixes as Wireshark's dialog writes them; "n/a" for no time span. */
    static String rate(long count, long spanNanos) {
        if (spanNanos <= 0) {
            return "n/a";
        }
        return prefixed(count / (spanNanos / 1e9));
    }

    static String bitRate(long bytes, long spanNanos) {
        return spanNanos <= 0 ? "n/a" : withUnit(prefixed(bytes * 8 / (spanNanos / 1e9)), "b");
    }

    static String byteRate(long bytes, long spanNanos) {
        return spanNanos <= 0 ? "n/a" : withUnit(prefixed(bytes / (spanNanos / 1e9)), "B");
    }

    /** "584.8 k" and "b" make "584.8 kb"; "730" and "B" make "730 B". */
    private static String withUnit(String prefixedValue, String unit) {
        return prefixedValue + (Character.isDigit(prefixedValue.charAt(prefixedValue.length() - 1)) ? " " : "") + unit;
    }

    private static String prefixed(double v) {
        String[] units = {"", " k", " M", " G", " T"};
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, u == 0 ? "%.0f%s" : "%.1f%s", v, units[u]).trim();
    }

    /** The link types of the frames, by Wireshark's names ("Ethernet"; several when mixed, as capinfos). */
    static String encapsulations(FrameIndex index) {
        Set<String> names = new TreeSet<>();
        int n = index.count();
        int lastLink = -1;
        for (int i = 1; i <= n; i++) {
            int link = index.linkType(i);
            if (link != lastLink) {
                names.add(linkTypeName(link));
                lastLink = link;
            }
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /** Wireshark's name of a LINKTYPE_ value (tcpdump.org/linktypes.html) for the link types rdmascope reads. */
    static String linkTypeName(int linkType) {
        return switch (linkType) {
            case 1 -> "Ethernet";
            case 101, 12, 14 -> "Raw IP";
            case 113 -> "Linux cooked-mode capture v1";
            case 276 -> "Linux cooked-mode capture v2";
            case 197 -> "Extensible Record Format";
            case 247 -> "InfiniBand";
            default -> "link type " + linkType;
        };
    }
}
