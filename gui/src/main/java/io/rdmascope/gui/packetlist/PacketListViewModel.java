package io.rdmascope.gui.packetlist;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.FilterRunner;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.model.PacketRow;
import io.rdmascope.gui.model.RowTexts;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.IntSort;
import io.rdmascope.gui.util.Job;
import io.rdmascope.text.PacketSummary;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The packet list: which frames are shown (all, or a display filter's matches), in which order,
 * with which added columns and colours, and the text of each visible row. Rows are made only when a
 * view asks for them ({@link #row(int)}), so the list costs nothing per frame beyond the index.
 *
 * <p>Filtering and sorting run in the background and replace the rows when done; the newest
 * request wins. While a file is still loading, an unfiltered list grows with it, and a filter or
 * sort made meanwhile is redone over the whole file once loading ends.
 */
public final class PacketListViewModel {

    /** The built-in columns, as Wireshark and {@code rdmascope dissect} show them. */
    public enum Column {
        NUMBER("No."), TIME("Time"), SOURCE("Source"), DESTINATION("Destination"), PROTOCOL("Protocol"),
        LENGTH("Length"), INFO("Info");

        private final String title;

        Column(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /** A column added from a field ("Apply as column"). */
    public record ExtraColumn(String title, String field) {
    }

    /** A sort order: a built-in column, or an added column by index (column null), up or down. */
    public record SortKey(Column column, int extraIndex, boolean ascending) {
    }

    private final AppExecutors exec;
    private final FrameSelection selection;
    private final FieldRegistry registry;
    private final FrameRows rows = new FrameRows();
    private final ObservableList<ExtraColumn> extraColumns = FXCollections.observableArrayList();
    private final ObservableList<ColoringRule> coloringRules = FXCollections.observableArrayList();
    private final ReadOnlyIntegerWrapper totalFrames = new ReadOnlyIntegerWrapper(this, "totalFrames");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyStringWrapper activity = new ReadOnlyStringWrapper(this, "activity", "");
    private final ReadOnlyLongWrapper textRevision = new ReadOnlyLongWrapper(this, "textRevision");
    private final ReadOnlyObjectWrapper<FrameFilter> appliedFilter =
            new ReadOnlyObjectWrapper<>(this, "appliedFilter", FrameFilter.all());
    private final ReadOnlyObjectWrapper<SortKey> sortKey = new ReadOnlyObjectWrapper<>(this, "sortKey");

    private FrameIndex index;
    private DissectorChain chain = DissectorChain.standard();
    private RowTexts texts;
    private List<FrameFilter> coloring = List.of();
    private boolean loading;
    private boolean sortedOrFiltered;
    private int[] inverse; // frame number -> row, for sorted rows; built on demand
    private Job filterJob;
    private Job sortJob;

    public PacketListViewModel(AppExecutors exec, FrameSelection selection) {
        this(exec, selection, FieldRegistry.standard());
    }

    public PacketListViewModel(AppExecutors exec, FrameSelection selection, FieldRegistry registry) {
        this.exec = exec;
        this.selection = selection;
        this.registry = registry;
    }

    // ---- state the view binds to ----------------------------------------------------------------

    /** The shown rows, as frame numbers. */
    public FrameRows rows() {
        return rows;
    }

    public ObservableList<ExtraColumn> extraColumns() {
        return extraColumns;
    }

    /** The colouring rules in force (the legend shows the enabled ones). */
    public ObservableList<ColoringRule> coloringRules() {
        return coloringRules;
    }

    public ReadOnlyIntegerProperty totalFrames() {
        return totalFrames.getReadOnlyProperty();
    }

    /** True while a filter or sort runs. */
    public ReadOnlyBooleanProperty busy() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyDoubleProperty progress() {
        return progress.getReadOnlyProperty();
    }

    /** What the list is doing ("Filtering…", "Sorting…"), or empty. */
    public ReadOnlyStringProperty activity() {
        return activity.getReadOnlyProperty();
    }

    /** Goes up whenever row texts or colours change, so the view redraws the visible rows. */
    public ReadOnlyLongProperty textRevision() {
        return textRevision.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<FrameFilter> appliedFilter() {
        return appliedFilter.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<SortKey> sortKey() {
        return sortKey.getReadOnlyProperty();
    }

    public FrameSelection selection() {
        return selection;
    }

    // ---- the capture ------------------------------------------------------------------------------

    /** Shows a new (possibly still loading) capture: no rows yet, filter and sort kept as set. */
    public void open(FrameIndex newIndex, DissectorChain newChain) {
        Job.cancel(filterJob);
        Job.cancel(sortJob);
        busy.set(false);
        activity.set("");
        this.index = newIndex;
        this.chain = newChain;
        this.loading = true;
        this.inverse = null;
        this.sortedOrFiltered = false;
        rebuildTexts();
        totalFrames.set(0);
        rows.showAll(0);
    }

    /** The loader has indexed {@code count} frames so far. */
    public void indexed(int count) {
        totalFrames.set(count);
        if (!sortedOrFiltered && appliedFilter.get().matchesEverything() && sortKey.get() == null) {
            rows.showAll(count);
        }
    }

    /** Loading has ended: redo a filter or sort made while it ran, now over every frame. */
    public void loadingFinished(int count) {
        loading = false;
        indexed(count);
        if (!appliedFilter.get().matchesEverything() || sortKey.get() != null) {
            refilter();
        }
    }

    public FrameIndex index() {
        return index;
    }

    // ---- rows ---------------------------------------------------------------------------------------

    /** The text and colour of frame {@code number}'s row (made on demand, for visible rows). */
    public PacketRow row(int number) {
        return texts.row(number);
    }

    /** The colouring rule of {@code row}, or null. */
    public ColoringRule coloringOf(PacketRow row) {
        int i = row.coloringRule();
        return i >= 0 && i < coloringRules.size() ? coloringRules.get(i) : null;
    }

    /** The row showing frame {@code number}, or -1 when the filter hides it. */
    public int rowOf(int number) {
        if (index == null || number < 1) {
            return -1;
        }
        if (rows.isAll()) {
            return number <= rows.size() ? number - 1 : -1;
        }
        if (sortKey.get() == null) {
            int[] shown = rows.toArrayView();
            int r = Arrays.binarySearch(shown, 0, rows.size(), number);
            return r >= 0 ? r : -1;
        }
        if (inverse == null) {
            int[] inv = new int[index.count() + 1];
            Arrays.fill(inv, -1);
            for (int r = 0; r < rows.size(); r++) {
                inv[rows.frameAt(r)] = r;
            }
            inverse = inv;
        }
        return number < inverse.length ? inverse[number] : -1;
    }

    /** The frames shown, in the order shown (what "Save displayed frames" writes, in capture order). */
    public int[] displayedFrames() {
        int[] out = rows.frameNumbers();
        if (sortKey.get() != null) {
            Arrays.sort(out);
        }
        return out;
    }

    // ---- filter -------------------------------------------------------------------------------------

    /** Shows only frames {@code filter} passes (every frame for the blank filter). */
    public void applyFilter(FrameFilter filter) {
        appliedFilter.set(filter);
        refilter();
    }

    private void refilter() {
        Job.cancel(filterJob);
        Job.cancel(sortJob);
        if (index == null) {
            return;
        }
        FrameFilter filter = appliedFilter.get();
        SortKey sort = sortKey.get();
        if (filter.matchesEverything() && sort == null) {
            sortedOrFiltered = false;
            inverse = null;
            busy.set(false);
            activity.set("");
            rows.showAll(index.count());
            return;
        }
        Job job = new Job();
        filterJob = job;
        busy.set(true);
        progress.set(0);
        activity.set(filter.matchesEverything() ? "Sorting…" : "Filtering…");
        int frames = index.count();
        FrameIndex idx = index;
        DissectorChain ch = chain;
        // resolved here, on the UI thread: the background job must not read the observable column list
        FieldRegistry.Entry sortField = sort != null && sort.column() == null && sort.extraIndex() < extraColumns.size()
                ? registry.lookup(extraColumns.get(sort.extraIndex()).field()) : null;
        exec.background().execute(() -> {
            int[] shown;
            if (filter.matchesEverything()) {
                shown = new int[frames];
                for (int i = 0; i < frames; i++) {
                    shown[i] = i + 1;
                }
            } else {
                shown = FilterRunner.run(idx, frames, ch, filter, job, (done, total) ->
                        exec.ui().execute(() -> {
                            if (!job.isCancelled()) {
                                progress.set(sort == null ? (double) done / total : 0.5 * done / total);
                            }
                        }));
            }
            if (shown == null || job.isCancelled()) {
                return;
            }
            if (sort != null) {
                shown = sorted(idx, ch, shown, sort, sortField, job);
                if (shown == null) {
                    return;
                }
            }
            int[] result = shown;
            exec.ui().execute(() -> {
                if (job.isCancelled() || idx != index) {
                    return;
                }
                sortedOrFiltered = true;
                inverse = null;
                busy.set(false);
                progress.set(1);
                activity.set("");
                rows.show(result, result.length);
                keepSelectionVisible();
            });
        });
    }

    private void keepSelectionVisible() {
        // Nothing to change in the selection itself: the view re-selects the current frame's row.
        textRevision.set(textRevision.get() + 1);
    }

    // ---- sort ---------------------------------------------------------------------------------------

    /** Sorts the shown rows by {@code key}; null returns to capture order. */
    public void sort(SortKey key) {
        sortKey.set(key);
        refilter();
    }

    private int[] sorted(FrameIndex idx, DissectorChain ch, int[] frames, SortKey key, FieldRegistry.Entry entry,
                         Job job) {
        int n = frames.length;
        int dir = key.ascending() ? 1 : -1;
        if (key.column() == Column.NUMBER) {
            if (!key.ascending()) {
                for (int i = 0; i < n / 2; i++) {
                    int t = frames[i];
                    frames[i] = frames[n - 1 - i];
                    frames[n - 1 - i] = t;
                }
            }
            return frames;
        }
        if (key.column() == Column.TIME || key.column() == Column.LENGTH) {
            boolean time = key.column() == Column.TIME;
            IntSort.sort(frames, n, (a, b) -> dir * (time ? Long.compare(idx.timeNanos(a), idx.timeNanos(b))
                    : Integer.compare(idx.wireLength(a), idx.wireLength(b))));
            return frames;
        }
        // Text columns: make the text of every shown row once, then sort positions by it.
        FrameDecoder decoder = new FrameDecoder(idx, ch);
        RowTexts fieldTexts = new RowTexts(decoder, List.of(), List.of());
        String[] keys = new String[n];
        long lastReport = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Dissection d = decoder.dissect(frames[i]);
            if (key.column() == null) {
                keys[i] = entry == null ? "" : fieldTexts.fieldText(entry, d);
            } else {
                PacketSummary.Columns c = PacketSummary.of(d);
                keys[i] = switch (key.column()) {
                    case SOURCE -> c.source();
                    case DESTINATION -> c.destination();
                    case PROTOCOL -> c.protocol();
                    default -> c.info();
                };
            }
            if ((i & 4095) == 0) {
                if (job.isCancelled()) {
                    return null;
                }
                long now = System.nanoTime();
                if (now - lastReport > 100_000_000L) {
                    lastReport = now;
                    double p = 0.5 + 0.5 * i / n;
                    exec.ui().execute(() -> {
                        if (!job.isCancelled()) {
                            progress.set(p);
                        }
                    });
                }
            }
        }
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
            positions[i] = i;
        }
        boolean numeric = entry instanceof FieldRegistry.FieldEntry;
        IntSort.sort(positions, n, (a, b) -> dir * compareText(keys[a], keys[b], numeric));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = frames[positions[i]];
        }
        return out;
    }

    /** Numbers compare as numbers where both texts are plain decimal; everything else as text. */
    static int compareText(String a, String b, boolean numeric) {
        if (numeric && isDecimal(a) && isDecimal(b)) {
            int c = Integer.compare(a.length(), b.length());
            return c != 0 ? c : a.compareTo(b);
        }
        return a.compareTo(b);
    }

    private static boolean isDecimal(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return s.charAt(0) != '0' || s.length() == 1;
    }

    // ---- columns and colours ------------------------------------------------------------------------

    /**
     * Adds a column showing {@code field} ("Apply as column"); false when the name is not a field or
     * the column is already there.
     */
    public boolean addColumn(String field, String title) {
        if (registry.lookup(field) == null) {
            return false;
        }
        for (ExtraColumn c : extraColumns) {
            if (c.field().equals(field)) {
                return false;
            }
        }
        extraColumns.add(new ExtraColumn(title == null || title.isBlank() ? field : title, field));
        rebuildTexts();
        return true;
    }

    /** Removes an added column. */
    public void removeColumn(ExtraColumn column) {
        SortKey key = sortKey.get();
        int i = extraColumns.indexOf(column);
        if (extraColumns.remove(column)) {
            if (key != null && key.column() == null && key.extraIndex() >= i) {
                sortKey.set(null);
            }
            rebuildTexts();
        }
    }

    /**
     * Sets the colouring rules and their compiled filters (same order; null for a rule that is
     * disabled or does not compile).
     */
    public void setColoring(List<ColoringRule> rules, List<FrameFilter> compiled) {
        if (rules.size() != compiled.size()) {
            throw new IllegalArgumentException("one compiled filter per rule");
        }
        coloringRules.setAll(rules);
        List<FrameFilter> enabled = new ArrayList<>(compiled.size());
        for (int i = 0; i < rules.size(); i++) {
            enabled.add(rules.get(i).enabled() ? compiled.get(i) : null);
        }
        coloring = enabled;
        rebuildTexts();
    }

    /** Row texts may read new facts (the replay finished): forget the made rows. */
    public void refreshTexts() {
        if (texts != null) {
            texts.clear();
        }
        textRevision.set(textRevision.get() + 1);
    }

    private void rebuildTexts() {
        if (index == null) {
            return;
        }
        List<FieldRegistry.Entry> fields = new ArrayList<>();
        for (ExtraColumn c : extraColumns) {
            FieldRegistry.Entry e = registry.lookup(c.field());
            if (e != null) {
                fields.add(e);
            }
        }
        texts = new RowTexts(new FrameDecoder(index, chain), fields, coloring);
        textRevision.set(textRevision.get() + 1);
    }

    /** The current frame is the selection's; see {@link FrameSelection}. */
    public void select(int frame) {
        selection.select(frame);
    }

    /** Whether a filter or sort made while loading will be redone when loading ends. */
    boolean isLoading() {
        return loading;
    }
}
