package io.rdmascope.gui.vantage;

import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.model.VantageCapture;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;
import java.util.Locale;

/**
 * The selected frame's sightings when several vantage points' captures are open (issue 20, item 6): the
 * same packet as each point saw it, with that point's own frame number and its time on the first point's
 * clock, and how much later than the earliest sighting it was (the measured one-way delay between them).
 * Empty for a single capture.
 */
public final class SightingsViewModel {
    /** One row: a point's sighting of the selected packet. */
    public record Row(String point, int pointIndex, int frame, String correctedTime, String afterFirst) {
    }

    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper active = new ReadOnlyBooleanWrapper(this, "active");
    private VantageCapture capture;

    public SightingsViewModel(FrameSelection selection) {
        selection.current().addListener((o, was, now) -> show(now.intValue()));
    }

    /** The selected frame's sightings, earliest first (ties: the point named first). */
    public ObservableList<Row> rows() {
        return rows;
    }

    /** Whether a union of several points is open (the pane shows only then). */
    public ReadOnlyBooleanProperty active() {
        return active.getReadOnlyProperty();
    }

    /** The union now shown, or null for a single capture. */
    public void use(VantageCapture union, int selected) {
        this.capture = union;
        active.set(union != null);
        show(selected);
    }

    private void show(int frame) {
        if (capture == null || frame < 1) {
            rows.clear();
            return;
        }
        List<VantageCapture.Sighting> seen = capture.sightings(frame).stream()
                .sorted(java.util.Comparator.comparingLong(VantageCapture.Sighting::correctedNanos)).toList();
        long first = seen.isEmpty() ? 0 : seen.get(0).correctedNanos();
        rows.setAll(seen.stream().map(s -> new Row(s.point(), s.pointIndex(), s.frame(), seconds(s.correctedNanos()),
                String.format(Locale.ROOT, "+%.3f µs", (s.correctedNanos() - first) / 1_000.0))).toList());
    }

    /** Seconds with nanosecond digits, as the Time column's absolute format prints epoch times. */
    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%d.%09d", Math.floorDiv(nanos, 1_000_000_000L),
                Math.floorMod(nanos, 1_000_000_000L));
    }
}
