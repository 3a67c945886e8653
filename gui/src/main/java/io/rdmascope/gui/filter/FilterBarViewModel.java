package io.rdmascope.gui.filter;

import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FilterSyntaxException;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.Settings;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The display filter bar: the text being typed, whether it compiles (checked on every change, as
 * Wireshark turns the bar green or red while you type), the error with its column, the history of
 * applied filters, and applying one. "Prepare as filter" puts text in the bar without applying it.
 */
public final class FilterBarViewModel {
    /** How the bar looks: no filter, a filter that compiles, one that does not. */
    public enum State { EMPTY, VALID, INVALID }

    static final int HISTORY = 30;
    private static final String HISTORY_KEY = "filter.history";

    private final FilterCompiler compiler;
    private final Settings settings;
    private final Consumer<FrameFilter> onApply;
    private final StringProperty text = new SimpleStringProperty(this, "text", "");
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.EMPTY);
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyIntegerWrapper errorColumn = new ReadOnlyIntegerWrapper(this, "errorColumn");
    private final ReadOnlyStringWrapper appliedText = new ReadOnlyStringWrapper(this, "appliedText", "");
    private final ObservableList<String> history = FXCollections.observableArrayList();

    /**
     * @param onApply receives each filter applied (the packet list filters with it)
     */
    public FilterBarViewModel(FilterCompiler compiler, Settings settings, Consumer<FrameFilter> onApply) {
        this.compiler = compiler;
        this.settings = settings;
        this.onApply = onApply;
        history.setAll(settings.list(HISTORY_KEY));
        text.addListener((o, was, now) -> validate());
    }

    /** The text in the bar (the view binds it both ways). */
    public StringProperty text() {
        return text;
    }

    public ReadOnlyObjectProperty<State> state() {
        return state.getReadOnlyProperty();
    }

    /** Why the text does not compile ("column 26: expected a value after '=='"), or empty. */
    public ReadOnlyStringProperty error() {
        return error.getReadOnlyProperty();
    }

    /** 1-based column of the mistake, 0 when there is none. */
    public ReadOnlyIntegerProperty errorColumn() {
        return errorColumn.getReadOnlyProperty();
    }

    /** The filter in force (its text as applied). */
    public ReadOnlyStringProperty appliedText() {
        return appliedText.getReadOnlyProperty();
    }

    /** Filters applied before, newest first. */
    public ObservableList<String> history() {
        return history;
    }

    private FrameFilter validate() {
        String t = text.get() == null ? "" : text.get();
        if (t.isBlank()) {
            state.set(State.EMPTY);
            error.set("");
            errorColumn.set(0);
            return FrameFilter.all();
        }
        try {
            FrameFilter f = compiler.compile(t);
            state.set(State.VALID);
            error.set("");
            errorColumn.set(0);
            return f;
        } catch (FilterSyntaxException e) {
            state.set(State.INVALID);
            error.set(e.getMessage());
            errorColumn.set(e.column());
            return null;
        }
    }

    /** Applies the text in the bar; false (and nothing changes) when it does not compile. */
    public boolean apply() {
        FrameFilter f = validate();
        if (f == null) {
            return false;
        }
        String t = f.matchesEverything() ? "" : text.get().strip();
        appliedText.set(t);
        if (!t.isEmpty()) {
            remember(t);
        }
        onApply.accept(f);
        return true;
    }

    /** Puts {@code filter} in the bar and applies it ("Apply as Filter"). */
    public boolean apply(String filter) {
        text.set(filter);
        return apply();
    }

    /** Puts {@code filter} in the bar without applying it ("Prepare as Filter"). */
    public void prepare(String filter) {
        text.set(filter);
    }

    /**
     * Combines {@code filter} with what the bar holds ("Prepare as Filter → … and Selected"):
     * {@code (current) && filter}, or just {@code filter} when the bar is empty.
     */
    public void prepareAnd(String filter) {
        String current = text.get() == null ? "" : text.get().strip();
        text.set(current.isEmpty() ? filter : "(" + current + ") && " + filter);
    }

    /** Empties the bar and shows every frame. */
    public void clear() {
        apply("");
    }

    private void remember(String t) {
        List<String> h = new ArrayList<>(history);
        h.remove(t);
        h.add(0, t);
        while (h.size() > HISTORY) {
            h.remove(h.size() - 1);
        }
        history.setAll(h);
        settings.putList(HISTORY_KEY, h);
    }
}
