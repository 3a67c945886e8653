package io.rdmascope.gui.diagnosis;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.rules.Diagnosis;
import io.rdmascope.rules.DiagnosisText;
import io.rdmascope.rules.Finding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Diagnosis pane: the account {@code rdmascope explain} gives of the selected conversation
 * ({@link Diagnosis.Account}, built once by the background replay), as lines in its words
 * ({@link DiagnosisText}):
 * the message before it went wrong, the first anomaly, what followed (a stall or teardown last),
 * other findings, the state at the end. A quiet conversation is one line. Every "frame N" in a line
 * is a link; following it selects that frame, as choosing a finding does.
 */
public final class DiagnosisViewModel {
    /** What a line tells; the view styles by it. */
    public enum Kind { HEADER, QUIET, BEFORE, FIRST, THEN, ALSO, END }

    /** A run of a line's text; {@code frame} is the frame it links to, 0 for plain text. */
    public record Part(String text, int frame) {
        public boolean isLink() {
            return frame > 0;
        }
    }

    /**
     * One line of the account.
     *
     * @param label    "before it", "first", "then", "also", "at the end" on a group's first line, else ""
     * @param severity the finding's severity ("error", "warning", "note") on finding lines, else null
     */
    public record Line(Kind kind, String label, List<Part> parts, String severity) {
        public Line {
            parts = List.copyOf(parts);
        }

        /** The line's text without its label, as {@code rdmascope explain} prints it. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            for (Part p : parts) {
                sb.append(p.text());
            }
            return sb.toString();
        }

        /** The frames the line links to, in order. */
        public List<Integer> frames() {
            List<Integer> out = new ArrayList<>();
            for (Part p : parts) {
                if (p.isLink()) {
                    out.add(p.frame());
                }
            }
            return out;
        }
    }

    private static final Pattern FRAME = Pattern.compile("\\bframe (\\d{1,10})\\b");

    private final FrameSelection selection;
    private final ObservableList<Line> lines = FXCollections.observableArrayList();
    private final ObjectProperty<String> conversation = new SimpleObjectProperty<>(this, "conversation");
    private final ReadOnlyStringWrapper placeholder = new ReadOnlyStringWrapper(this, "placeholder", "");
    private CaptureAnalysis analysis;

    public DiagnosisViewModel(FrameSelection selection) {
        this.selection = selection;
        conversation.addListener((o, was, now) -> refresh());
        refresh();
    }

    /** The account's lines, for the selected conversation. */
    public ObservableList<Line> lines() {
        return lines;
    }

    /** The conversation whose account is shown (the main view model follows the conversations table). */
    public ObjectProperty<String> conversation() {
        return conversation;
    }

    /** What the pane says when it has no lines. */
    public ReadOnlyStringProperty placeholder() {
        return placeholder.getReadOnlyProperty();
    }

    /** Shows a finished replay's accounts (null: none yet). */
    public void show(CaptureAnalysis analysis) {
        this.analysis = analysis;
        refresh();
    }

    /** The account as {@code rdmascope explain} prints it (the pane's Copy Account). */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (Line l : lines) {
            if (l.kind() != Kind.HEADER && l.kind() != Kind.QUIET) {
                sb.append(String.format(Locale.ROOT, "  %-11s ", l.label()));
            }
            sb.append(l.text()).append('\n');
        }
        return sb.toString();
    }

    /** The user followed a frame link: select that frame in the packet list. */
    public void choose(int frame) {
        if (frame > 0) {
            selection.select(frame);
        }
    }

    private void refresh() {
        Diagnosis.Account account = analysis == null || conversation.get() == null
                ? null : analysis.account(conversation.get());
        if (analysis == null) {
            placeholder.set("No diagnosis yet: it is made when the replay ends");
        } else if (analysis.flows().isEmpty()) {
            placeholder.set("No RDMA conversations in this capture");
        } else {
            placeholder.set("Select a conversation to see what went wrong in it");
        }
        lines.setAll(account == null ? List.of() : lines(account, analysis.frameCount()));
    }

    /** The lines of {@code a}, linking the frames 1 to {@code frames}. */
    static List<Line> lines(Diagnosis.Account a, int frames) {
        List<Line> out = new ArrayList<>();
        if (a.quiet()) {
            out.add(new Line(Kind.QUIET, "", parts(DiagnosisText.quiet(a), frames), null));
            return out;
        }
        out.add(new Line(Kind.HEADER, "", parts(DiagnosisText.heading(a), frames), null));
        group(out, Kind.BEFORE, "before it", a.before().stream().map(DiagnosisText::message).toList(),
                List.of(), frames);
        out.add(new Line(Kind.FIRST, "first", parts(DiagnosisText.finding(a.firstAnomaly()), frames),
                a.firstAnomaly().severity()));
        findings(out, Kind.THEN, "then", a.consequences(), frames);
        findings(out, Kind.ALSO, "also", a.otherFindings(), frames);
        out.add(new Line(Kind.END, "at the end", parts(DiagnosisText.end(a.end()), frames), null));
        return out;
    }

    private static void findings(List<Line> out, Kind kind, String label, List<Finding> findings, int frames) {
        group(out, kind, label, findings.stream().map(DiagnosisText::finding).toList(),
                findings.stream().map(Finding::severity).toList(), frames);
    }

    private static void group(List<Line> out, Kind kind, String label, List<String> texts, List<String> severities,
                              int frames) {
        for (int i = 0; i < texts.size(); i++) {
            out.add(new Line(kind, i == 0 ? label : "", parts(texts.get(i), frames),
                    severities.isEmpty() ? null : severities.get(i)));
        }
    }

    /** {@code text} split into plain runs and "frame N" links (N within the capture). */
    static List<Part> parts(String text, int frames) {
        List<Part> out = new ArrayList<>();
        Matcher m = FRAME.matcher(text);
        int from = 0;
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            if (n < 1 || n > frames) {
                continue;
            }
            if (m.start() > from) {
                out.add(new Part(text.substring(from, m.start()), 0));
            }
            out.add(new Part(m.group(), (int) n));
            from = m.end();
        }
        if (from < text.length()) {
            out.add(new Part(text.substring(from), 0));
        }
        return out;
    }
}
