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
import io.rdmascope.gui.model.TimeFormat;
import io.rdmascope.gui.model.VantageCapture;
import io.rdmascope.gui.vantage.VantagePalette;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
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

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.TreeSet;

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

    /**
     * One column of the list as the user arranged it (View → Column Preferences): a built-in column
     * ({@code key} is the {@link Column}'s name) or a field's ({@code key} is {@value #FIELD_KEY}
     * and the abbreviation), its title, width in pixels and whether it is shown. The list order is
     * the on-screen order.
     */
    public record ColumnSpec(String key, String title, double width, boolean visible) {
        /** The built-in column, or null for a field's. */
        public Column builtIn() {
            for (Column c : Column.values()) {
                if (c.name().equals(key)) {
                    return c;
                }
            }
            return null;
        }

        /** The field of a field's column, or null. */
        public String field() {
            return key.startsWith(FIELD_KEY) ? key.substring(FIELD_KEY.length()) : null;
        }

        /** One settings line: key, title, width, visible, tab-separated. */
        public String encode() {
            return String.join("\t", key, title.replace('\t', ' '), Long.toString(Math.round(width)),
                    Boolean.toString(visible));
        }

        /** Reads {@link #encode()}'s line; null when it is not one. */
        public static ColumnSpec decode(String line) {
            String[] p = line.split("\t", -1);
            if (p.length != 4) {
                return null;
            }
            try {
                return new ColumnSpec(p[0], p[1], Math.max(20, Double.parseDouble(p[2])), Boolean.parseBoolean(p[3]));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** Prefix of a field column's key. */
    public static final String FIELD_KEY = "field:";

    /** A sort order: a built-in column, or an added column by index (column null), up or down. */
    public record SortKey(Column column, int extraIndex, boolean ascending) {
    }

    private final AppExecutors exec;
    private final FrameSelection selection;
    private final FieldRegistry registry;
    private final FrameRows rows = new FrameRows();
    private final ObservableList<ExtraColumn> extraColumns = FXCollections.observableArrayList();
    private final ObservableList<ColumnSpec> columns = FXCollections.observableArrayList(defaultColumns());
    private final ObjectProperty<TimeFormat> timeFormat = new SimpleObjectProperty<>(this, "timeFormat", TimeFormat.RELATIVE);
    private final TreeSet<Integer> timeReferences = new TreeSet<>();
    private final BitSet marked = new BitSet();
    private final ReadOnlyIntegerWrapper markedCount = new ReadOnlyIntegerWrapper(this, "markedCount");
    private ZoneId zone = ZoneId.systemDefault();
    private final ObservableList<ColoringRule> coloringRules = FXCollections.observableArrayList();
    private final ReadOnlyIntegerWrapper totalFrames = new ReadOnlyIntegerWrapper(this, "totalFrames");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyStringWrapper activity = new ReadOnlyStringWrapper(this, "activity", "");
    private final ReadOnlyLongWrapper textRevision = new ReadOnlyLongWrapper(this, "textRevision");
    private final ReadOnlyObjectWrapper<FrameFilter> appliedFilter =
            new ReadOnlyObjectWrapper<>(this, "appliedFilter", FrameFilter.all());
    private final ReadOnlyObjectWrapper<SortKey> sortKey = new ReadOnlyObjectWrapper<>(this, "sortKey");
    private final ReadOnlyObjectWrapper<VantageCapture> vantage = new ReadOnlyObjectWrapper<>(this, "vantage");

    private FrameIndex index;
    private DissectorChain chain = DissectorChain.standard();
    private RowTexts texts;
    private List<FrameFilter> coloring = List.of();
    private boolean loading;
    private boolean sortedOrFiltered;
    private int[] filteredInCaptureOrder; // the filter's matches before any sort; null when every frame is shown
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
        timeFormat.addListener((o, was, now) -> refreshTexts());
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
        this.filteredInCaptureOrder = null;
        vantage.set(null);
        timeReferences.clear();
        marked.clear();
        markedCount.set(0);
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
            filteredInCaptureOrder = null;
            busy.set(false);
            activity.set("");
            rows.showAll(index.count());
            refreshDisplayedDeltas();
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
            int[] captureOrder = filter.matchesEverything() ? null : shown.clone();
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
                filteredInCaptureOrder = captureOrder;
                busy.set(false);
                progress.set(1);
                activity.set("");
                rows.show(result, result.length);
                refreshDisplayedDeltas();
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
        RowTexts fieldTexts = new RowTexts(decoder, frame -> "", List.of(), List.of());
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
        String shown = title == null || title.isBlank() ? field : title;
        extraColumns.add(new ExtraColumn(shown, field));
        if (columnIndex(FIELD_KEY + field) < 0) {
            // before Info, as Wireshark puts an applied column: Info is long and would hide it off-screen
            int info = columnIndex(Column.INFO.name());
            columns.add(info < 0 ? columns.size() : info, new ColumnSpec(FIELD_KEY + field, shown, 110, true));
        }
        rebuildTexts();
        return true;
    }

    /** Removes an added column. */
    public void removeColumn(ExtraColumn column) {
        SortKey key = sortKey.get();
        int i = extraColumns.indexOf(column);
        int spec = columnIndex(FIELD_KEY + column.field());
        if (spec >= 0) {
            columns.remove(spec);
        }
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
        texts = new RowTexts(new FrameDecoder(index, chain), this::timeText, fields, coloring);
        textRevision.set(textRevision.get() + 1);
    }

    // ---- vantage points -------------------------------------------------------------------------------

    /**
     * The union of several vantage points' captures now listed, or null for one capture: while it is set
     * the list shows a Vantage column (after No.), not one of the arranged columns, so it never enters the
     * saved column preferences.
     */
    public ReadOnlyObjectProperty<VantageCapture> vantage() {
        return vantage.getReadOnlyProperty();
    }

    /** The listed capture is the union {@code union} (null: one capture). */
    public void useVantage(VantageCapture union) {
        vantage.set(union);
        textRevision.set(textRevision.get() + 1);
    }

    /** The Vantage column's text of frame {@code number}: every point's frame, "host:12=switch:10" as the CLI's. */
    public String vantageText(int number) {
        VantageCapture v = vantage.get();
        return v == null ? "" : v.text(number);
    }

    /**
     * The Vantage cell's background: the colour of the point that saw the frame first on the first point's
     * clock. Only the cell is painted: the row keeps its colouring rule's (or the selection's, or the mark's)
     * colours, so the colouring rules win the row and the vantage colour is always visible beside them.
     */
    public String vantageBackground(int number) {
        VantageCapture v = vantage.get();
        return v == null ? null : VantagePalette.background(v.firstPoint(number));
    }

    // ---- column preferences ---------------------------------------------------------------------------

    /** The columns as arranged, in screen order, hidden ones included. */
    public ObservableList<ColumnSpec> columns() {
        return columns;
    }

    /** The columns a new user sees: Wireshark's default set. */
    public static List<ColumnSpec> defaultColumns() {
        List<ColumnSpec> out = new ArrayList<>();
        for (Column c : Column.values()) {
            out.add(new ColumnSpec(c.name(), c.title(), defaultWidth(c), true));
        }
        return out;
    }

    private static double defaultWidth(Column c) {
        return switch (c) {
            case NUMBER -> 55;
            case TIME -> 100;
            case SOURCE, DESTINATION -> 120;
            case PROTOCOL -> 70;
            case LENGTH -> 55;
            case INFO -> 420;
        };
    }

    /** Index of the column with {@code key} in {@link #columns()}, or -1. */
    public int columnIndex(String key) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).key().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** Moves a column to position {@code to} of {@link #columns()}. */
    public void moveColumn(String key, int to) {
        int from = columnIndex(key);
        if (from < 0 || to < 0 || to >= columns.size() || from == to) {
            return;
        }
        // one change, not a removal and an insertion: views keep the moved column selected
        List<ColumnSpec> moved = new ArrayList<>(columns);
        moved.add(to, moved.remove(from));
        columns.setAll(moved);
    }

    /**
     * Puts the shown columns in the order of {@code keys} (the user dragged a header); hidden
     * columns keep their places among them.
     */
    public void reorderVisible(List<String> keys) {
        List<ColumnSpec> shown = new ArrayList<>();
        for (String k : keys) {
            int i = columnIndex(k);
            if (i >= 0 && columns.get(i).visible()) {
                shown.add(columns.get(i));
            }
        }
        List<ColumnSpec> out = new ArrayList<>(columns.size());
        int next = 0;
        for (ColumnSpec c : columns) {
            if (c.visible() && next < shown.size() && shown.contains(c)) {
                out.add(shown.get(next++));
            } else {
                out.add(c);
            }
        }
        if (!out.equals(columns)) {
            columns.setAll(out);
        }
    }

    /** Shows or hides a column (built-in columns are hidden, never removed, as in Wireshark). */
    public void setColumnVisible(String key, boolean visible) {
        int i = columnIndex(key);
        if (i >= 0 && columns.get(i).visible() != visible) {
            ColumnSpec c = columns.get(i);
            columns.set(i, new ColumnSpec(c.key(), c.title(), c.width(), visible));
        }
    }

    /** Records a column's width (the user dragged its edge, or the preferences set it). */
    public void setColumnWidth(String key, double width) {
        int i = columnIndex(key);
        if (i >= 0 && Math.abs(columns.get(i).width() - width) >= 1) {
            ColumnSpec c = columns.get(i);
            columns.set(i, new ColumnSpec(c.key(), c.title(), Math.max(20, width), c.visible()));
        }
    }

    /**
     * Removes a column: a field's column goes, a built-in one is hidden. Returns false for an
     * unknown key.
     */
    public boolean removeColumn(String key) {
        int i = columnIndex(key);
        if (i < 0) {
            return false;
        }
        ColumnSpec c = columns.get(i);
        if (c.builtIn() != null) {
            setColumnVisible(key, false);
            return true;
        }
        for (ExtraColumn e : List.copyOf(extraColumns)) {
            if (e.field().equals(c.field())) {
                removeColumn(e);
                return true;
            }
        }
        columns.remove(i);
        return true;
    }

    /**
     * Restores saved columns: built-in columns missing from {@code saved} stay where the defaults
     * put them, field columns that are no longer fields are dropped.
     */
    public void restoreColumns(List<ColumnSpec> saved) {
        List<ColumnSpec> out = new ArrayList<>();
        extraColumns.clear();
        for (ColumnSpec c : saved) {
            if (c == null || out.stream().anyMatch(o -> o.key().equals(c.key()))) {
                continue;
            }
            if (c.builtIn() != null) {
                out.add(c);
            } else if (c.field() != null && registry.lookup(c.field()) != null) {
                out.add(c);
                extraColumns.add(new ExtraColumn(c.title(), c.field()));
            }
        }
        for (ColumnSpec d : defaultColumns()) {
            if (out.stream().noneMatch(o -> o.key().equals(d.key()))) {
                out.add(d);
            }
        }
        columns.setAll(out);
        rebuildTexts();
    }

    // ---- time column ----------------------------------------------------------------------------------

    /** The Time column's display format (View → Time Display Format). */
    public ObjectProperty<TimeFormat> timeFormat() {
        return timeFormat;
    }

    /** The zone of the local time-of-day formats (the system's; tests fix one). */
    public void setZone(ZoneId zone) {
        this.zone = zone;
        refreshTexts();
    }

    /**
     * The Time column's text of frame {@code number}: the chosen format with the capture's
     * precision; a time-reference frame shows {@code *REF*} and relative times count from the last
     * reference at or before a frame, as in Wireshark.
     */
    public String timeText(int number) {
        if (timeReferences.contains(number)) {
            return TimeFormat.REFERENCE_TEXT;
        }
        long t = index.timeNanos(number);
        TimeFormat f = timeFormat.get();
        long origin = switch (f) {
            case RELATIVE -> {
                Integer ref = timeReferences.floor(number);
                yield ref == null ? index.firstTimeNanos() : index.timeNanos(ref);
            }
            case DELTA -> number > 1 ? index.timeNanos(number - 1) : t;
            case DELTA_DISPLAYED -> {
                int previous = previousDisplayed(number);
                yield previous > 0 ? index.timeNanos(previous) : t;
            }
            default -> 0;
        };
        return f.format(t, origin, index.timeDigits(), zone);
    }

    /** The displayed frame before {@code number} in capture order, or 0 (the first displayed). */
    int previousDisplayed(int number) {
        if (filteredInCaptureOrder == null) {
            return number - 1;
        }
        int at = Arrays.binarySearch(filteredInCaptureOrder, number);
        int before = at >= 0 ? at - 1 : -at - 2;
        return before >= 0 ? filteredInCaptureOrder[before] : 0;
    }

    /** Sets or unsets {@code number} as a time reference (Edit → Set/Unset Time Reference, Ctrl+T). */
    public void toggleTimeReference(int number) {
        if (index == null || number < 1 || number > index.count()) {
            return;
        }
        if (!timeReferences.remove(number)) {
            timeReferences.add(number);
        }
        refreshTexts();
    }

    public boolean isTimeReference(int number) {
        return timeReferences.contains(number);
    }

    private void refreshDisplayedDeltas() {
        if (timeFormat.get() == TimeFormat.DELTA_DISPLAYED) {
            refreshTexts();
        }
    }

    // ---- marks ----------------------------------------------------------------------------------------

    /** Marks or unmarks frame {@code number} (Edit → Mark/Unmark Packet, Ctrl+M). */
    public void toggleMark(int number) {
        if (index == null || number < 1 || number > index.count()) {
            return;
        }
        marked.flip(number);
        markedCount.set(marked.cardinality());
        textRevision.set(textRevision.get() + 1);
    }

    public boolean isMarked(int number) {
        return marked.get(number);
    }

    /** How many frames are marked. */
    public ReadOnlyIntegerProperty markedCount() {
        return markedCount.getReadOnlyProperty();
    }

    /** The marked frames in capture order. */
    public int[] markedFrames() {
        return marked.stream().toArray();
    }

    /**
     * The next (or previous) marked frame after (before) {@code from} that the list shows, in
     * display order, wrapping around as Wireshark's Next Mark does; 0 when none is shown.
     */
    public int nextMarked(int from, boolean forward) {
        return nextShown(from, forward, marked::get);
    }

    /**
     * The next (or previous) shown frame after (before) {@code from} in display order that
     * {@code wanted} accepts, wrapping around; 0 when none.
     */
    public int nextShown(int from, boolean forward, java.util.function.IntPredicate wanted) {
        int n = rows.size();
        if (n == 0) {
            return 0;
        }
        int start = rowOf(from);
        if (start < 0) {
            start = forward ? -1 : n;
        }
        for (int k = 1; k <= n; k++) {
            int r = Math.floorMod(start + (forward ? k : -k), n);
            int frame = rows.frameAt(r);
            if (wanted.test(frame)) {
                return frame;
            }
        }
        return 0;
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
