package io.rdmascope.gui.packetlist;

import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.PacketRow;
import io.rdmascope.gui.model.RowColours;
import io.rdmascope.gui.packetlist.PacketListViewModel.ColumnSpec;
import io.rdmascope.gui.packetlist.PacketListViewModel.Column;
import io.rdmascope.gui.packetlist.PacketListViewModel.ExtraColumn;
import io.rdmascope.gui.packetlist.PacketListViewModel.SortKey;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The packet list: a virtual table over the view model's rows (only visible rows are ever made),
 * coloured by the colouring rules, with the legend of those rules underneath. Sorting asks the view
 * model, which sorts in the background; the selection is the shared frame selection.
 */
public final class PacketListView extends BorderPane {
    private final PacketListViewModel vm;
    private final TableView<Integer> table = new TableView<>();
    private final FlowPane legend = new FlowPane(6, 4);
    private final Map<Column, TableColumn<Integer, String>> builtIn = new EnumMap<>(Column.class);
    private final TableColumn<Integer, String> vantageColumn = vantageColumn();
    private boolean syncing;
    private boolean syncingColumns;
    private Runnable onLegendClicked = () -> { };

    public PacketListView(PacketListViewModel vm) {
        this.vm = vm;
        getStyleClass().add("packet-list");
        table.setId("packetTable");
        table.setItems(vm.rows());
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setFixedCellSize(22);
        table.setPlaceholder(new Label("No frames"));
        // Info (last unless moved) takes the width the others leave: no horizontal scrolling for a long Info
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);

        for (Column c : Column.values()) {
            builtIn.put(c, column(c, c == Column.NUMBER || c == Column.TIME || c == Column.LENGTH));
        }
        rebuildColumns();
        vm.extraColumns().addListener((ListChangeListener<ExtraColumn>) c -> rebuildColumns());
        vm.vantage().addListener((o, was, now) -> {
            if ((was == null) != (now == null)) {
                rebuildColumns();
            }
        });
        vm.columns().addListener((ListChangeListener<ColumnSpec>) c -> {
            if (!syncingColumns) {
                rebuildColumns();
            }
        });
        // the user dragged a header to another place: keep the order in the view model (and the settings)
        table.getColumns().addListener((ListChangeListener<TableColumn<Integer, ?>>) c -> {
            if (syncingColumns) {
                return;
            }
            syncingColumns = true;
            try {
                vm.reorderVisible(table.getColumns().stream().map(PacketListView::keyOf).toList());
            } finally {
                syncingColumns = false;
            }
        });

        table.setRowFactory(t -> new ColouredRow());
        table.setSortPolicy(t -> {
            applySortFromTable();
            return true;
        });

        // selection: table → shared selection
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<Integer>) c -> {
            if (syncing) {
                return;
            }
            List<Integer> selected = new ArrayList<>(table.getSelectionModel().getSelectedItems());
            selected.removeIf(java.util.Objects::isNull);
            if (selected.isEmpty()) {
                return;
            }
            Integer focused = table.getSelectionModel().getSelectedItem();
            syncing = true;
            try {
                if (selected.size() == 1 || focused == null) {
                    vm.selection().select(selected.get(0));
                } else {
                    selected.remove(focused);
                    selected.add(0, focused);
                    vm.selection().selectAll(selected);
                }
            } finally {
                syncing = false;
            }
        });
        // shared selection → table
        vm.selection().current().addListener((o, was, now) -> showSelection());
        vm.selection().frames().addListener((o, was, now) -> showSelection());
        vm.rows().addListener((ListChangeListener<Integer>) c -> {
            if (!vm.rows().isAll() || vm.rows().size() <= 1) {
                Platform.runLater(this::showSelection);
            }
        });
        vm.textRevision().addListener((o, was, now) -> table.refresh());
        // widths to content, as Wireshark sizes its columns when a capture opens or the time format changes
        vm.totalFrames().addListener((o, was, now) -> {
            if (was.intValue() == 0 && now.intValue() > 0) { // the first rows of a newly opened capture
                Platform.runLater(this::fitColumnsToContent);
            }
        });
        vm.timeFormat().addListener((o, was, now) -> Platform.runLater(this::fitColumnsToContent));

        legend.getStyleClass().add("coloring-legend");
        legend.setAlignment(Pos.CENTER_LEFT);
        vm.coloringRules().addListener((ListChangeListener<ColoringRule>) c -> rebuildLegend());
        rebuildLegend();

        setCenter(table);
        setBottom(legend);
    }

    public TableView<Integer> table() {
        return table;
    }

    /** Rows sampled from the top of the list when widths are fitted to content. */
    private static final int FIT_SAMPLE = 200;
    /** Cell padding and a little air around the text. */
    private static final double FIT_PADDING = 18;

    /**
     * Sizes every shown column except the last (Info, which takes the rest) to the wider of its
     * title and its text in the first rows, as Wireshark does.
     */
    public void fitColumnsToContent() {
        List<TableColumn<Integer, ?>> cols = table.getColumns();
        if (cols.isEmpty() || vm.index() == null) {
            return;
        }
        javafx.scene.text.Text probe = new javafx.scene.text.Text();
        probe.setFont(javafx.scene.text.Font.font(javafx.scene.text.Font.getDefault().getFamily(), 12)); // the stylesheet's size
        int n = Math.min(vm.rows().size(), FIT_SAMPLE);
        for (int i = 0; i < cols.size() - 1; i++) {
            TableColumn<Integer, ?> col = cols.get(i);
            double w = io.rdmascope.gui.util.Tables.titleWidth(col.getText()) - FIT_PADDING;
            for (int r = 0; r < n; r++) {
                Object v = col.getCellObservableValue(vm.rows().get(r)).getValue();
                if (v != null) {
                    probe.setText(v.toString());
                    w = Math.max(w, probe.getLayoutBounds().getWidth());
                }
            }
            double width = Math.ceil(w + FIT_PADDING);
            syncingColumns = true;
            try {
                col.setPrefWidth(width);
                vm.setColumnWidth(keyOf(col), width);
            } finally {
                syncingColumns = false;
            }
        }
    }

    /** What a click on the legend does (the main view opens the colouring-rules editor). */
    public void setOnLegendClicked(Runnable action) {
        onLegendClicked = action;
    }

    private TableColumn<Integer, String> column(Column c, boolean rightAligned) {
        TableColumn<Integer, String> col = new TableColumn<>(c.title());
        col.setId("column-" + c.name().toLowerCase(java.util.Locale.ROOT));
        col.setUserData(c);
        Function<PacketRow, String> text = switch (c) {
            case NUMBER -> r -> Integer.toString(r.number());
            case TIME -> PacketRow::time;
            case SOURCE -> PacketRow::source;
            case DESTINATION -> PacketRow::destination;
            case PROTOCOL -> PacketRow::protocol;
            case LENGTH -> r -> Integer.toString(r.length());
            case INFO -> PacketRow::info;
        };
        col.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(text.apply(vm.row(f.getValue()))));
        col.setCellFactory(t -> new TextCell(rightAligned));
        MenuItem hide = new MenuItem("Hide this column");
        hide.setOnAction(a -> vm.setColumnVisible(c.name(), false));
        col.setContextMenu(new ContextMenu(hide));
        trackWidth(col, c.name());
        return col;
    }

    private void trackWidth(TableColumn<Integer, ?> col, String key) {
        col.widthProperty().addListener((o, was, now) -> {
            // only a user's drag is a preference; the flexible last column follows the window
            if (!syncingColumns && col != lastVisible()) {
                syncingColumns = true;
                try {
                    vm.setColumnWidth(key, now.doubleValue());
                } finally {
                    syncingColumns = false;
                }
            }
        });
    }

    private TableColumn<Integer, ?> lastVisible() {
        List<TableColumn<Integer, ?>> cols = table.getColumns();
        return cols.isEmpty() ? null : cols.get(cols.size() - 1);
    }

    private static String keyOf(TableColumn<Integer, ?> col) {
        if (col.getUserData() instanceof Column c) {
            return c.name();
        }
        if (col.getUserData() instanceof String key) {
            return key; // the Vantage column: no arranged column has its key, reordering passes it by
        }
        return PacketListViewModel.FIELD_KEY + ((ExtraColumn) col.getUserData()).field();
    }

    /** The table's columns from the view model's arrangement: order, widths, hidden ones left out. */
    private void rebuildColumns() {
        List<TableColumn<Integer, ?>> cols = new ArrayList<>();
        List<ExtraColumn> extras = vm.extraColumns();
        for (ColumnSpec spec : vm.columns()) {
            if (!spec.visible()) {
                continue;
            }
            TableColumn<Integer, String> col;
            if (spec.builtIn() != null) {
                col = builtIn.get(spec.builtIn());
            } else {
                int at = -1;
                for (int i = 0; i < extras.size(); i++) {
                    if (extras.get(i).field().equals(spec.field())) {
                        at = i;
                    }
                }
                if (at < 0) {
                    continue;
                }
                col = fieldColumn(extras.get(at), at);
            }
            col.setText(spec.title());
            col.setPrefWidth(spec.width());
            cols.add(col);
        }
        if (vm.vantage().get() != null) {
            // after No. when that is shown first, else first: which points saw a frame reads with its number
            boolean numberFirst = !cols.isEmpty() && cols.get(0).getUserData() == Column.NUMBER;
            cols.add(numberFirst ? 1 : 0, vantageColumn);
        }
        syncing = true;
        syncingColumns = true;
        try {
            table.getSortOrder().clear();
            table.getColumns().setAll(cols);
        } finally {
            syncing = false;
            syncingColumns = false;
        }
    }

    /**
     * The Vantage column, shown while several vantage points' captures are open: every point's frame of the
     * row's packet, its cell in the colour of the point that saw it first (the row keeps its rule's colours).
     */
    private TableColumn<Integer, String> vantageColumn() {
        TableColumn<Integer, String> col = new TableColumn<>("Vantage");
        col.setId("column-vantage");
        col.setUserData("VANTAGE");
        col.setSortable(false);
        col.setPrefWidth(190);
        col.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(vm.vantageText(f.getValue())));
        col.setCellFactory(t -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                Integer frame = empty || getTableRow() == null ? null : getTableRow().getItem();
                String background = frame == null ? null : vm.vantageBackground(frame);
                setStyle(background == null ? "" : "-fx-background-color: " + background + "; -fx-text-fill: "
                        + io.rdmascope.gui.vantage.VantagePalette.TEXT + ";");
            }
        });
        return col;
    }

    private TableColumn<Integer, String> fieldColumn(ExtraColumn e, int at) {
        TableColumn<Integer, String> col = new TableColumn<>(e.title());
        col.setId("column-field-" + e.field());
        col.setUserData(e);
        col.setCellValueFactory(f -> {
            PacketRow r = vm.row(f.getValue());
            return new ReadOnlyObjectWrapper<>(at < r.extra().size() ? r.extra().get(at) : "");
        });
        col.setCellFactory(t -> new TextCell(false));
        MenuItem remove = new MenuItem("Remove this column");
        remove.setOnAction(a -> vm.removeColumn(e));
        col.setContextMenu(new ContextMenu(remove));
        trackWidth(col, PacketListViewModel.FIELD_KEY + e.field());
        return col;
    }

    private void applySortFromTable() {
        if (syncing) {
            return;
        }
        SortKey key = null;
        if (!table.getSortOrder().isEmpty()) {
            TableColumn<Integer, ?> col = table.getSortOrder().get(0);
            boolean up = col.getSortType() == TableColumn.SortType.ASCENDING;
            if (col.getUserData() instanceof Column c) {
                key = c == Column.NUMBER && up ? null : new SortKey(c, -1, up);
            } else if (col.getUserData() instanceof ExtraColumn e) {
                key = new SortKey(null, vm.extraColumns().indexOf(e), up);
            }
        }
        if (!java.util.Objects.equals(key, vm.sortKey().get())) {
            vm.sort(key);
        }
    }

    private void showSelection() {
        if (syncing) {
            return;
        }
        List<Integer> frames = vm.selection().frames().get();
        int current = vm.selection().current().get();
        syncing = true;
        try {
            var sm = table.getSelectionModel();
            if (current == 0) {
                sm.clearSelection();
                return;
            }
            int focusRow = vm.rowOf(current);
            List<Integer> rowsToSelect = new ArrayList<>();
            for (int f : frames) {
                int r = vm.rowOf(f);
                if (r >= 0) {
                    rowsToSelect.add(r);
                }
            }
            if (rowsToSelect.isEmpty()) {
                sm.clearSelection();
                return;
            }
            boolean same = sm.getSelectedIndices().size() == rowsToSelect.size()
                    && sm.getSelectedIndices().containsAll(rowsToSelect) && sm.getSelectedIndex() == focusRow;
            if (!same) {
                sm.clearSelection();
                int first = rowsToSelect.get(0);
                int[] rest = rowsToSelect.subList(1, rowsToSelect.size()).stream().mapToInt(Integer::intValue).toArray();
                sm.selectIndices(first, rest);
                if (focusRow >= 0) {
                    sm.select(focusRow);
                    table.getFocusModel().focus(focusRow);
                }
            }
            int target = focusRow >= 0 ? focusRow : rowsToSelect.get(0);
            scrollIntoView(target);
        } finally {
            syncing = false;
        }
    }

    private void scrollIntoView(int row) {
        // Only scroll when the row is not already on screen: scrollTo would put it at the top.
        var flow = (javafx.scene.control.skin.VirtualFlow<?>) table.lookup(".virtual-flow");
        if (flow != null) {
            var first = flow.getFirstVisibleCell();
            var last = flow.getLastVisibleCell();
            if (first != null && last != null && row > first.getIndex() && row < last.getIndex()) {
                return;
            }
        }
        table.scrollTo(Math.max(0, row - 3));
    }

    private void rebuildLegend() {
        legend.getChildren().clear();
        Label title = new Label("Colours:");
        title.getStyleClass().add("legend-title");
        legend.getChildren().add(title);
        for (ColoringRule r : vm.coloringRules()) {
            if (!r.enabled()) {
                continue;
            }
            Label chip = new Label(r.name());
            chip.getStyleClass().add("legend-chip");
            chip.setStyle("-fx-background-color: " + r.background() + "; -fx-text-fill: " + r.foreground() + ";");
            chip.setOnMouseClicked(e -> onLegendClicked.run());
            legend.getChildren().add(chip);
        }
    }

    /** A cell that shows text, numbers right-aligned. */
    private static final class TextCell extends TableCell<Integer, String> {
        TextCell(boolean right) {
            if (right) {
                setAlignment(Pos.CENTER_RIGHT);
            }
        }

        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty ? null : item);
        }
    }

    /** A row painted with its colouring rule, or as marked, or with the selection's colours while selected. */
    private final class ColouredRow extends TableRow<Integer> {
        ColouredRow() {
            selectedProperty().addListener((o, was, now) -> paint());
        }

        @Override
        protected void updateItem(Integer item, boolean empty) {
            super.updateItem(item, empty);
            paint();
        }

        private void paint() {
            Integer n = getItem();
            if (n == null || isEmpty()) {
                setStyle("");
                return;
            }
            setStyle(RowColours.style(RowColours.of(vm.coloringOf(vm.row(n)), vm.isMarked(n), isSelected())));
        }
    }
}
