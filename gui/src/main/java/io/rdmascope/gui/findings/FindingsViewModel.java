package io.rdmascope.gui.findings;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.model.VantageCapture;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ObservationKind;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.Severity;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
                      String detail, String reference, String explanation, Long causedBy, Finding finding,
                      List<PointFrame> points) {
        /** "↳ frame 12" for a consequence, "" for a root cause. */
        public String cause() {
            return causedBy == null ? "" : "\u21b3 frame " + causedBy;
        }

        /** The points' own frames the finding rests on, "switch:45=responder:44" ("" for one capture). */
        public String vantageText() {
            return String.join("=", points.stream().map(PointFrame::text).toList());
        }
    }

    /**
     * With several vantage points: a point's own frame a finding rests on, and the union frame it is a sighting
     * of (the frame the packet list shows).
     */
    public record PointFrame(String point, int pointIndex, int frame, int unionFrame) {
        /** "NAME:frame", as the command line names a frame of a vantage point. */
        public String text() {
            return point + ":" + frame;
        }
    }

    private final FrameSelection selection;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper counts = new ReadOnlyStringWrapper(this, "counts", "");
    private final ReadOnlyBooleanWrapper vantage = new ReadOnlyBooleanWrapper(this, "vantage");
    private CaptureAnalysis analysis;
    private VantageCapture union;

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

    /** Whether several vantage points are open: the findings then name every point's frames. */
    public ReadOnlyBooleanProperty vantage() {
        return vantage.getReadOnlyProperty();
    }

    /**
     * Several vantage points' union (null: one capture). It may come before or after the replay's findings;
     * the rows are made again either way.
     */
    public void useVantage(VantageCapture newUnion) {
        union = newUnion;
        vantage.set(newUnion != null);
        show(analysis);
    }

    public void show(CaptureAnalysis newAnalysis) {
        analysis = newAnalysis;
        List<Finding> findings = analysis == null ? List.of() : analysis.findings();
        Map<Long, List<Observation>> disagreements = union == null || analysis == null ? Map.of()
                : disagreementsByFrame(analysis.observations());
        List<Row> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Rule r = RuleCatalog.byId(f.rule());
            out.add(new Row(Severity.parse(f.severity()), f.rule(), f.summary(),
                    f.frames().isEmpty() ? 0 : f.frames().get(0), f.conversation(), f.detail(), f.reference(),
                    r == null ? "" : r.explanation(), f.rootCause() ? null : f.causedBy(), f,
                    union == null ? List.of() : pointFrames(f, disagreements)));
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

    /** The observations where the points disagree, by union frame. */
    private static Map<Long, List<Observation>> disagreementsByFrame(List<Observation> observations) {
        Map<Long, List<Observation>> out = new HashMap<>();
        for (Observation o : observations) {
            if (o instanceof Observation.SenderSideDuplicate || o instanceof Observation.ResponseNotDownstream) {
                out.computeIfAbsent(o.frame(), k -> new ArrayList<>()).add(o);
            }
        }
        return out;
    }

    /**
     * Every point's own frame finding {@code f} rests on: the sightings of each of its union frames, and for
     * a disagreement the frames its observation names (a sender-side duplicate's two copies at the upstream
     * point are two union frames; the one the downstream point saw is the other copy's).
     */
    private List<PointFrame> pointFrames(Finding f, Map<Long, List<Observation>> disagreements) {
        Set<String> named = new LinkedHashSet<>();
        List<PointFrame> out = new ArrayList<>();
        Rule rule = RuleCatalog.byId(f.rule());
        List<ObservationKind> judged = rule == null ? List.of() : rule.observations();
        for (long u : f.frames()) {
            for (VantageCapture.Sighting s : union.sightings((int) u)) {
                add(out, named, s.point(), s.frame());
            }
            for (Observation o : disagreements.getOrDefault(u, List.of())) {
                if (o instanceof Observation.SenderSideDuplicate d && judged.contains(d.kind())) {
                    add(out, named, d.copiesAt(), d.firstCopyFrame());
                    add(out, named, d.copiesAt(), d.secondCopyFrame());
                    add(out, named, d.onceAt(), d.onceFrame());
                } else if (o instanceof Observation.ResponseNotDownstream r && judged.contains(r.kind())) {
                    add(out, named, r.seenAt(), r.seenFrame());
                }
            }
        }
        return List.copyOf(out);
    }

    private void add(List<PointFrame> out, Set<String> named, String point, long frame) {
        if (named.add(point + ":" + frame)) {
            out.add(new PointFrame(point, union.names().indexOf(point), (int) frame,
                    union.unionFrameOf(point, frame)));
        }
    }

    /** The user picked a point's frame of a finding: select the union frame it is a sighting of. */
    public void choose(PointFrame point) {
        if (point != null && point.unionFrame() > 0) {
            selection.select(point.unionFrame());
        }
    }

    /** The user picked {@code row}: select its frame. */
    public void choose(Row row) {
        if (row != null && row.frame() > 0) {
            selection.select((int) row.frame());
        }
    }
}
