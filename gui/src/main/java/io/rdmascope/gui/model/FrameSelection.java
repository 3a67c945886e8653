package io.rdmascope.gui.model;

import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

import java.util.List;

/**
 * The selected frame, shared by every view that can select one: the packet list, the message and
 * finding tables, the ladder diagram. {@link #current()} is the frame the detail and hex panes show;
 * {@link #frames()} is the whole selection (all frames of a selected message).
 */
public final class FrameSelection {
    private final ReadOnlyIntegerWrapper current = new ReadOnlyIntegerWrapper(this, "current", 0);
    private final ReadOnlyObjectWrapper<List<Integer>> frames = new ReadOnlyObjectWrapper<>(this, "frames", List.of());

    /** The frame shown in detail, 0 for none. */
    public ReadOnlyIntegerProperty current() {
        return current.getReadOnlyProperty();
    }

    /** Every selected frame in capture order; contains {@link #current()} when that is not 0. */
    public ReadOnlyObjectProperty<List<Integer>> frames() {
        return frames.getReadOnlyProperty();
    }

    /** Selects one frame (0 clears the selection). */
    public void select(int frame) {
        frames.set(frame == 0 ? List.of() : List.of(frame));
        current.set(frame);
    }

    /** Selects several frames and shows the first in detail. */
    public void selectAll(List<Integer> selected) {
        List<Integer> copy = List.copyOf(selected);
        frames.set(copy);
        current.set(copy.isEmpty() ? 0 : copy.get(0));
    }
}
