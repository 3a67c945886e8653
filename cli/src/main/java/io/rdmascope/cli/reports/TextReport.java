package io.rdmascope.cli.reports;

import io.rdmascope.rules.Expectations;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Severity;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code check --report text}: what a person reads in a CI log. The verdict first, then per capture
 * the counts, the findings grouped by rule (most severe first, then by first frame) with their first
 * frames and conversations, then the expectations. Lines never pass {@value #WIDTH} columns: long
 * text wraps at spaces under its indent.
 */
public final class TextReport implements Report {
    static final int WIDTH = 100;
    /** Frames and conversations listed per rule before "(+N more)". */
    static final int LISTED = 10;
    private static final String DETAIL_INDENT = "    ";

    @Override
    public void write(CheckRun run, OutputStream out) throws IOException {
        StringBuilder sb = new StringBuilder(4096);
        long failed = run.captures().stream().filter(c -> !c.passed(run.failOn())).count();
        String scope = run.captures().size() == 1 ? ""
                : "; " + failed + " of " + run.captures().size() + " captures failed";
        line(sb, "verdict: " + (run.passed() ? "PASS" : "FAIL") + " (fails on " + run.failOn().id()
                + (run.failOn() == Severity.ERROR ? "" : " or worse") + scope + ")", "");
        for (CaptureCheck c : run.captures()) {
            sb.append('\n');
            capture(sb, c, run.failOn());
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void capture(StringBuilder sb, CaptureCheck c, Severity failOn) {
        line(sb, "== " + c.capture() + ": " + (c.passed(failOn) ? "PASS" : "FAIL"), "   ");
        Map<Severity, Integer> counts = c.counts();
        line(sb, "findings: " + count(counts.get(Severity.ERROR), "error") + ", "
                + count(counts.get(Severity.WARNING), "warning") + ", " + count(counts.get(Severity.NOTE), "note"), "");
        firstAnomalies(sb, c);
        List<List<Finding>> groups = groups(c.findings());
        if (!groups.isEmpty()) {
            int idWidth = "rule".length();
            int countWidth = "count".length();
            for (List<Finding> g : groups) {
                idWidth = Math.max(idWidth, g.get(0).rule().length());
                countWidth = Math.max(countWidth, Integer.toString(g.size()).length());
            }
            String format = "%-" + idWidth + "s  %-8s  %" + countWidth + "s  %s";
            String summaryIndent = " ".repeat(idWidth + 2 + 8 + 2 + countWidth + 2);
            sb.append('\n');
            line(sb, String.format(format, "rule", "severity", "count", "summary"), summaryIndent);
            for (List<Finding> g : groups) {
                Finding first = g.get(0);
                line(sb, String.format(format, first.rule(), first.severity(), g.size(), first.summary()),
                        summaryIndent);
                line(sb, DETAIL_INDENT + frames(g, c::frameText) + "; " + conversations(g), DETAIL_INDENT + "  ");
            }
        }
        if (!c.expectations().isEmpty()) {
            long passed = c.expectations().stream().filter(Expectations.Result::passed).count();
            sb.append('\n');
            line(sb, "expectations: " + passed + " passed, " + (c.expectations().size() - passed) + " failed", "");
            for (Expectations.Result r : c.expectations()) {
                line(sb, (r.passed() ? "pass  " : "FAIL  ") + r.name(), "      ");
                line(sb, "      " + r.detail(), "      ");
            }
        }
        if (c.readError() != null) {
            sb.append('\n');
            line(sb, "read error (the report covers the frames before it): " + c.readError(), DETAIL_INDENT);
        }
    }

    /**
     * Root cause first: per conversation, the first anomaly that is an error or that other findings
     * follow from, with how many follow, and the command that tells the whole story.
     */
    private static void firstAnomalies(StringBuilder sb, CaptureCheck c) {
        Map<Long, Integer> following = new LinkedHashMap<>();
        for (Finding f : c.findings()) {
            if (f.causedBy() != null) {
                following.merge(f.causedBy(), 1, Integer::sum);
            }
        }
        List<String> lines = new ArrayList<>();
        Set<String> explained = new LinkedHashSet<>();
        for (Finding f : c.findings()) {
            int n = f.frames().isEmpty() ? 0 : following.getOrDefault(f.firstFrame(), 0);
            boolean error = Severity.parse(f.severity()) == Severity.ERROR;
            if (!f.rootCause() || f.conversation() == null || (n == 0 && !error)) {
                continue;
            }
            if (!explained.add(f.conversation())) {
                continue; // one first anomaly per conversation: the earliest
            }
            lines.add("conversation " + f.conversation() + ", frame " + c.frameText(f.firstFrame()) + ": " + f.rule() + " "
                    + f.severity() + ": " + f.detail() + (n == 0 ? "" : " (" + n + " later finding" + (n == 1 ? "" : "s")
                    + " follow from it)"));
        }
        if (lines.isEmpty()) {
            return;
        }
        sb.append('\n');
        line(sb, "first anomalies (what went wrong first; `rdmascope explain " + c.capture()
                + " --conversation ID` tells the story):", "");
        for (int i = 0; i < lines.size() && i < LISTED; i++) {
            line(sb, DETAIL_INDENT + lines.get(i), DETAIL_INDENT + "  ");
        }
        if (lines.size() > LISTED) {
            line(sb, DETAIL_INDENT + "(+" + (lines.size() - LISTED) + " more)", DETAIL_INDENT);
        }
    }

    /** Findings by rule: most severe first, then by the rule's first frame (then id, for frameless rules). */
    static List<List<Finding>> groups(List<Finding> findings) {
        Map<String, List<Finding>> byRule = new LinkedHashMap<>();
        for (Finding f : findings) {
            byRule.computeIfAbsent(f.rule(), r -> new ArrayList<>()).add(f);
        }
        List<List<Finding>> groups = new ArrayList<>(byRule.values());
        groups.sort(Comparator.comparing((List<Finding> g) -> Severity.parse(g.get(0).severity()))
                .thenComparingLong(g -> g.get(0).firstFrame()).thenComparing(g -> g.get(0).rule()));
        return groups;
    }

    static String frames(List<Finding> group) {
        return frames(group, Long::toString);
    }

    /** @param frameText how a frame is named: its number, or a union's "NAME:frame"s (issue 20) */
    static String frames(List<Finding> group, java.util.function.LongFunction<String> frameText) {
        List<String> frames = new ArrayList<>();
        int frameless = 0;
        for (Finding f : group) {
            if (f.frames().isEmpty()) {
                frameless++;
            } else {
                frames.add(frameText.apply(f.frames().get(0)));
            }
        }
        String text = frames.isEmpty() ? "" : (frames.size() == 1 ? "frame " : "frames ") + listed(frames);
        if (frameless > 0) {
            text += (text.isEmpty() ? "" : ", ") + frameless + " with no frame";
        }
        return text;
    }

    static String conversations(List<Finding> group) {
        Set<String> ids = new LinkedHashSet<>();
        for (Finding f : group) {
            if (f.conversation() != null) {
                ids.add(f.conversation());
            }
        }
        if (ids.isEmpty()) {
            return "no conversation";
        }
        return (ids.size() == 1 ? "conversation " : "conversations ") + listed(new ArrayList<>(ids));
    }

    private static String listed(List<String> items) {
        String shown = String.join(", ", items.subList(0, Math.min(LISTED, items.size())));
        return items.size() > LISTED ? shown + " (+" + (items.size() - LISTED) + " more)" : shown;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /**
     * Appends {@code text} as lines of at most {@link #WIDTH} columns, breaking at spaces; continuation
     * lines start with {@code indent}. A word longer than a line (a path, say) is cut rather than
     * let through.
     */
    static void line(StringBuilder sb, String text, String indent) {
        String rest = text;
        boolean first = true;
        while (true) {
            String prefix = first ? "" : indent;
            if (prefix.length() + rest.length() <= WIDTH) {
                sb.append(prefix).append(rest).append('\n');
                return;
            }
            int room = WIDTH - prefix.length();
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= 0 || rest.substring(0, cut).isBlank()) {
                cut = room; // no space to break at: hard cut
                sb.append(prefix).append(rest, 0, cut).append('\n');
                rest = rest.substring(cut);
            } else {
                sb.append(prefix).append(rest.substring(0, cut).stripTrailing()).append('\n');
                rest = rest.substring(cut + 1).stripLeading();
            }
            first = false;
            if (rest.isEmpty()) {
                return;
            }
        }
    }
}
