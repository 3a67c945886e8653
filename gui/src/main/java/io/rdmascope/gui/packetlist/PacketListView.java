package io.rdmascope.gui.packetlist;

import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.PacketRow;
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
import java.util.List;
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
    private final List<TableColumn<Integer, ?>> builtIn = new ArrayList<>();
    private boolean syncing;
    private Runnable onLegendClicked = () -> { };

    public PacketListView(PacketListViewModel vm) {
        this.vm = vm;
        getStyleClass().add("packet-list");
        table.setId("packetTable");
        table.setItems(vm.rows());
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setFixedCellSize(22);
        table.setPlaceholder(new Label("No frames"));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);

        builtIn.add(column(Column.NUMBER, 60, r -> Integer.toString(r.number()), true));
        builtIn.add(column(Column.TIME, 85, PacketRow::time, true));
        builtIn.add(column(Column.SOURCE, 110, PacketRow::source, false));
        builtIn.add(column(Column.DESTINATION, 110, PacketRow::destination, false));
        builtIn.add(column(Column.PROTOCOL, 70, PacketRow::protocol, false));
        builtIn.add(column(Column.LENGTH, 60, r -> Integer.toString(r.length()), true));
        builtIn.add(column(Column.INFO, 520, PacketRow::info, false));
        table.getColumns().setAll(builtIn);
        vm.extraColumns().addListener((ListChangeListener<ExtraColumn>) c -> rebuildExtraColumns());

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

    /** What a click on the legend does (the main view opens the colouring-rules editor). */
    public void setOnLegendClicked(Runnable action) {
        onLegendClicked = action;
    }

    private TableColumn<Integer, String> column(Column c, double width, Function<PacketRow, String> text,
                                                boolean rightAligned) {
        TableColumn<Integer, String> col = new TableColumn<>(c.title());
        col.setId("column-" + c.name().toLowerCase(java.util.Locale.ROOT));
        col.setUserData(c);
        col.setPrefWidth(width);
        col.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(text.apply(vm.row(f.getValue()))));
        col.setCellFactory(t -> new TextCell(rightAligned));
        return col;
    }

    private void rebuildExtraColumns() {
        List<TableColumn<Integer, ?>> cols = new ArrayList<>(builtIn);
        List<ExtraColumn> extras = vm.extraColumns();
        for (int i = 0; i < extras.size(); i++) {
            ExtraColumn e = extras.get(i);
            int at = i;
            TableColumn<Integer, String> col = new TableColumn<>(e.title());
            col.setUserData(e);
            col.setPrefWidth(120);
            col.setCellValueFactory(f -> {
                PacketRow r = vm.row(f.getValue());
                return new ReadOnlyObjectWrapper<>(at < r.extra().size() ? r.extra().get(at) : "");
            });
            col.setCellFactory(t -> new TextCell(false));
            MenuItem remove = new MenuItem("Remove this column");
            remove.setOnAction(a -> vm.removeColumn(e));
            col.setContextMenu(new ContextMenu(remove));
            cols.add(col);
        }
        syncing = true;
        try {
            table.getSortOrder().clear();
            table.getColumns().setAll(cols);
        } finally {
            syncing = false;
        }
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

    /** A row painted with its colouring rule, except while selected. */
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
            if (n == null || isEmpty() || isSelected()) {
                setStyle("");
                return;
            }
            ColoringRule r = vm.coloringOf(vm.row(n));
            setStyle(r == null ? "" : "-fx-background: " + r.background() + "; -fx-text-background-color: "
                    + r.foreground() + ";");
        }
    }
}
