package io.rdmascope.cli;

import io.rdmascope.text.ProtocolHierarchy;
import io.rdmascope.cli.CaptureSummary.Capture;
import io.rdmascope.cli.CaptureSummary.Conversation;
import io.rdmascope.cli.CaptureSummary.OpcodeCount;
import io.rdmascope.cli.CaptureSummary.RuleCount;
import io.rdmascope.ops.ServiceResponseTimes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code summary}'s text: the {@link CaptureSummary} for people, within 100 columns. Exact counts
 * everywhere but in the conversation table, whose byte columns are scaled (kB, MB, …) to fit; the
 * JSON has them exact. The conversation table shows at most {@value #MAX_CONVERSATIONS} rows (those
 * with the most bytes) and the findings the {@value #MAX_RULES} most frequent rules.
 */
final class SummaryText {
    static final int MAX_CONVERSATIONS = 20;
    static final int MAX_RULES = 10;

    private SummaryText() {
    }

    static String render(CaptureSummary s) {
        StringBuilder out = new StringBuilder(4096);
        capture(out, s.capture());
        out.append("\nProtocol hierarchy (frames, bytes on the wire; as tshark -q -z io,phs)\n");
        if (s.protocols().isEmpty()) {
            out.append("(no frames)\n");
        }
        ProtocolHierarchy.print(out, s.protocols());
        opcodes(out, s.opcodes());
        conversations(out, s.conversations());
        serviceResponseTimes(out, s.serviceResponseTimes());
        findings(out, s.findings());
        if (s.vantage() != null) {
            out.append('\n').append(Vantage.text(s.vantage()));
        }
        return out.toString();
    }

    private static void capture(StringBuilder out, Capture c) {
        fact(out, "File", c.file());
        fact(out, "Format", c.format() + (c.compressed() ? ", gzip-compressed" : "")
                + (c.fileBytes() == null ? "" : ", " + c.fileBytes() + " bytes"));
        fact(out, "Link types", c.linkTypes().isEmpty() ? "-" : c.linkTypes().stream()
                .map(l -> l.name() + " (" + l.linkType() + ")" + (c.linkTypes().size() > 1 ? ": " + l.frames()
                        + " frames" : "")).collect(Collectors.joining(", ")));
        fact(out, "Frames", Long.toString(c.frames()));
        fact(out, "Bytes", c.wireBytes() + " on the wire, " + c.capturedBytes() + " captured");
        fact(out, "First frame", c.firstTime() == null ? "-" : c.firstTime());
        fact(out, "Last frame", c.lastTime() == null ? "-" : c.lastTime());
        fact(out, "Duration", Text.seconds(c.durationNanos()) + " s");
        fact(out, "Average rate", c.framesPerSecond() == null ? "-" : String.format(Locale.ROOT,
                "%.1f frames/s, %s on the wire", c.framesPerSecond(),
                scaled(c.wireBitsPerSecond().doubleValue(), "bit/s")));
    }

    private static void fact(StringBuilder out, String name, String value) {
        out.append(name).append(':').append(" ".repeat(14 - name.length())).append(value).append('\n');
    }

    private static void opcodes(StringBuilder out, List<OpcodeCount> opcodes) {
        out.append("\nInfiniBand opcodes (frames by BTH transport and operation)\n");
        if (opcodes.isEmpty()) {
            out.append("(no InfiniBand transport frames)\n");
            return;
        }
        long total = opcodes.stream().mapToLong(OpcodeCount::frames).sum();
        List<String[]> rows = new ArrayList<>();
        for (OpcodeCount o : opcodes) {
            rows.add(new String[] {o.name(), String.format(Locale.ROOT, "0x%02x", o.opcode()),
                    Long.toString(o.frames()), String.format(Locale.ROOT, "%.1f%%", o.frames() * 100.0 / total)});
        }
        table(out, null, new String[] {"Transport and operation", "Opcode", "Frames", "Share"},
                new boolean[] {false, false, true, true}, rows);
    }

    private static void conversations(StringBuilder out, List<Conversation> all) {
        out.append("\nConversations (A sent the first request; rdmascope flows shows every statistic)\n");
        if (all.isEmpty()) {
            out.append("(none)\n");
            return;
        }
        List<Conversation> shown = all;
        if (all.size() > MAX_CONVERSATIONS) {
            shown = all.stream().sorted(Comparator.comparingLong(SummaryText::totalBytes).reversed())
                    .limit(MAX_CONVERSATIONS).toList();
        }
        List<String[]> rows = new ArrayList<>();
        for (Conversation c : shown) {
            rows.add(new String[] {c.conversation(), Text.qp(c.a().qpn()), Text.qp(c.b().qpn()),
                    Long.toString(c.a().messages()), bytes(c.a().bytes()), Long.toString(c.b().messages()),
                    bytes(c.b().bytes()), Text.bitsPerSecond(c.goodputBitsPerSecond().doubleValue()),
                    Long.toString(c.retransmissions()), Long.toString(c.naks()), Text.micros(c.latencyP50Nanos()),
                    Text.micros(c.latencyP99Nanos())});
        }
        String[] groups = {null, null, null, "A\u2192B", null, "B\u2192A", null, null, null, null, null, null};
        table(out, groups, new String[] {"Conv", "QP A", "QP B", "Msgs", "Bytes", "Msgs", "Bytes", "Goodput",
                "Retrans", "NAKs", "p50(\u00b5s)", "p99(\u00b5s)"},
                new boolean[] {true, false, false, true, true, true, true, true, true, true, true, true}, rows);
        if (shown.size() < all.size()) {
            out.append("(the ").append(shown.size()).append(" of ").append(all.size())
                    .append(" conversations with the most bytes; rdmascope flows lists all)\n");
        }
    }

    /** Only when the capture has storage operations: a capture without them summarises as before. */
    private static void serviceResponseTimes(StringBuilder out, List<ServiceResponseTimes.Row> rows) {
        if (rows.isEmpty()) {
            return;
        }
        // Within the 100 columns every summary line keeps (SummaryCommandTest).
        out.append("\nService response time (storage operations per opcode, as tshark -z rpc,srt; see ops)\n");
        List<String[]> cells = new ArrayList<>();
        for (ServiceResponseTimes.Row r : rows) {
            cells.add(new String[] {r.protocol(), r.opcode(), Long.toString(r.calls()), Long.toString(r.failed()),
                    Long.toString(r.unanswered()), Text.micros(r.minNanos()), Text.micros(r.maxNanos()),
                    Text.micros(r.avgNanos())});
        }
        table(out, null, new String[] {"Protocol", "Opcode", "Calls", "Failed", "Unanswered", "Min(\u00b5s)",
                "Max(\u00b5s)", "Avg(\u00b5s)"}, new boolean[] {false, false, true, true, true, true, true, true}, cells);
    }

    private static long totalBytes(Conversation c) {
        return c.a().bytes() + c.b().bytes();
    }

    private static void findings(StringBuilder out, CaptureSummary.Findings f) {
        out.append("\nFindings (default rules): ");
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Integer> e : f.bySeverity().entrySet()) {
            parts.add(e.getValue() + " " + e.getKey() + (e.getValue() == 1 ? "" : "s"));
        }
        out.append(String.join(", ", parts)).append('\n');
        if (f.rules().isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        for (RuleCount r : f.rules().subList(0, Math.min(MAX_RULES, f.rules().size()))) {
            rows.add(new String[] {r.severity(), r.rule(), Integer.toString(r.findings()), r.summary()});
        }
        table(out, null, new String[] {"Severity", "Rule", "Findings", "Summary"},
                new boolean[] {false, false, true, false}, rows);
        if (f.rules().size() > MAX_RULES) {
            out.append("(").append(f.rules().size() - MAX_RULES)
                    .append(" more rules; rdmascope check lists every finding)\n");
        }
    }

    /** Bytes to three significant digits with an SI unit: 999 B, 9.11 kB, 23.7 MB, 237 GB. */
    static String bytes(long n) {
        return n < 1000 ? n + " B" : scaled(n, "B");
    }

    /** A quantity to three significant digits with an SI prefix: 9.11 kB, 59.0 Mbit/s. */
    static String scaled(double value, String unit) {
        String[] prefixes = {"", "k", "M", "G", "T", "P", "E"};
        int p = 0;
        double v = value;
        while (Math.abs(v) >= 999.5 && p < prefixes.length - 1) {
            v /= 1000;
            p++;
        }
        String digits = Math.abs(v) >= 99.95 || p == 0 && v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
                : Math.abs(v) >= 9.995 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        return digits + " " + prefixes[p] + unit;
    }

    /**
     * A table in the style of {@link Table} (two spaces between columns, cells padded to the widest,
     * no trailing spaces), with an optional line of group labels over pairs of columns.
     */
    private static void table(StringBuilder out, String[] groups, String[] headers, boolean[] right,
                              List<String[]> rows) {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = headers[i].length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        if (groups != null) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < headers.length; i++) {
                if (groups[i] != null) {
                    int span = widths[i] + 2 + widths[i + 1];
                    int dashes = span - groups[i].length() - 2;
                    line.append("-".repeat(dashes / 2)).append(' ').append(groups[i]).append(' ')
                            .append("-".repeat(dashes - dashes / 2)).append("  ");
                    i++;
                } else {
                    line.append(" ".repeat(widths[i] + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        row(out, headers, widths, right);
        for (String[] r : rows) {
            row(out, r, widths, right);
        }
    }

    private static void row(StringBuilder out, String[] cells, int[] widths, boolean[] right) {
        int start = out.length();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                out.append("  ");
            }
            int pad = widths[i] - cells[i].length();
            if (right[i]) {
                out.append(" ".repeat(pad)).append(cells[i]);
            } else {
                out.append(cells[i]).append(" ".repeat(pad));
            }
        }
        int end = out.length();
        while (end > start && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        out.append('\n');
    }
}
