package io.rdmascope.gui.findings;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.Severity;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The findings table: every rule that fired (severity, rule id, summary, frames, conversation,
 * detail) with the rule's explanation, like {@code rdmascope check}, and for a consequence the first
 * frame of the anomaly it follows from. Clicking a finding selects its first frame.
 */
public final class FindingsViewModel {
    /**
     * One finding as the table shows it.
     *
     * @param causedBy for a consequence of an earlier anomaly in its conversation, that anomaly's first
     *                 frame ({@link Finding#causedBy()}); null for a root cause
     */
    public record Row(Severity severity, String rule, String summary, long frame, String conversation,
                      String detail, String reference, String explanation, Long causedBy, Finding finding) {
        /** "↳ frame 12" for a consequence, "" for a root cause. */
        public String cause() {
            return causedBy == null ? "" : "\u21b3 frame " + causedBy;
        }
    }

    private final FrameSelection selection;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper counts = new ReadOnlyStringWrapper(this, "counts", "");

    public FindingsViewModel(FrameSelection selection) {
        this.selection = selection;
    }

    public ObservableList<Row> rows() {
        return rows;
    }

    /** "2 errors, 10 warnings, 0 notes", for the tab title and status bar. */
    public ReadOnlyStringProperty counts() {
        return counts.getReadOnlyProperty();
    }

    public void show(CaptureAnalysis analysis) {
        List<Finding> findings = analysis == null ? List.of() : analysis.findings();
        List<Row> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Rule r = RuleCatalog.byId(f.rule());
            out.add(new Row(Severity.parse(f.severity()), f.rule(), f.summary(),
                    f.frames().isEmpty() ? 0 : f.frames().get(0), f.conversation(), f.detail(), f.reference(),
                    r == null ? "" : r.explanation(), f.rootCause() ? null : f.causedBy(), f));
        }
        rows.setAll(out);
        if (analysis == null) {
            counts.set("");
        } else {
            Map<Severity, Integer> c = Rules.counts(findings);
            counts.set(plural(c.get(Severity.ERROR), "error") + ", " + plural(c.get(Severity.WARNING), "warning")
                    + ", " + plural(c.get(Severity.NOTE), "note"));
        }
    }

    private static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /** The user picked {@code row}: select its frame. */
    public void choose(Row row) {
        if (row != null && row.frame() > 0) {
            selection.select((int) row.frame());
        }
    }
}
