package io.rdmascope.gui.main;

import io.rdmascope.gui.model.TimeFormat;
import io.rdmascope.gui.packetlist.PacketListViewModel;
import io.rdmascope.gui.packetlist.PacketListViewModel.ColumnSpec;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * Edit → Preferences and View → Column Preferences: the Time column's display format and the
 * packet list's columns (shown or hidden, order, width, a field's column added or removed).
 * Every change applies at once and is saved through the settings, as Wireshark's Apply.
 */
final class PreferencesView extends BorderPane {
    private final TableView<ColumnSpec> table = new TableView<>();
    private String selectedKey;

    PreferencesView(PacketListViewModel list) {
        setId("preferences");
        setPadding(new Insets(8));
        ChoiceBox<TimeFormat> time = new ChoiceBox<>();
        time.setId("prefTimeFormat");
        time.getItems().setAll(TimeFormat.values());
        time.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(TimeFormat f) {
                return f == null ? "" : f.title();
            }

            @Override
            public TimeFormat fromString(String s) {
                return null;
            }
        });
        time.valueProperty().bindBidirectional(list.timeFormat());
        HBox timeRow = new HBox(8, new Label("Time display format:"), time);
        timeRow.setAlignment(Pos.CENTER_LEFT);

        table.setId("prefColumns");
        table.setEditable(true);
        table.setItems(list.columns());
        // a column's spec is replaced when its width or visibility changes: keep the row selected by key
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null) {
                selectedKey = now.key();
            }
        });
        list.columns().addListener((javafx.collections.ListChangeListener<ColumnSpec>) c -> {
            int i = selectedKey == null ? -1 : list.columnIndex(selectedKey);
            if (i >= 0 && table.getSelectionModel().getSelectedIndex() != i) {
                table.getSelectionModel().select(i);
            }
        });
        TableColumn<ColumnSpec, Boolean> shown = new TableColumn<>("Shown");
        shown.setPrefWidth(60);
        shown.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue().visible()));
        shown.setCellFactory(c -> new TableCell<>() {
            private final CheckBox box = new CheckBox();

            {
                box.setOnAction(e -> {
                    ColumnSpec spec = getTableRow() == null ? null : getTableRow().getItem();
                    if (spec != null) {
                        list.setColumnVisible(spec.key(), box.isSelected());
                    }
                });
            }

            @Override
            protected void updateItem(Boolean item, boolean empty) {
                super.updateItem(item, empty);
                setGraphic(empty || item == null ? null : box);
                if (item != null) {
                    box.setSelected(item);
                }
            }
        });
        TableColumn<ColumnSpec, String> title = new TableColumn<>("Title");
        title.setPrefWidth(160);
        title.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue().title()));
        TableColumn<ColumnSpec, String> field = new TableColumn<>("Field");
        field.setPrefWidth(220);
        field.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue().field() == null ? "(built in)"
                : f.getValue().field()));
        TableColumn<ColumnSpec, String> width = new TableColumn<>("Width");
        width.setPrefWidth(70);
        width.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(Long.toString(Math.round(f.getValue().width()))));
        width.setCellFactory(javafx.scene.control.cell.TextFieldTableCell.forTableColumn());
        width.setOnEditCommit(e -> {
            try {
                list.setColumnWidth(e.getRowValue().key(), Double.parseDouble(e.getNewValue().trim()));
            } catch (NumberFormatException ex) {
                table.refresh();
            }
        });
        width.setEditable(true);
        table.getColumns().addAll(java.util.List.of(shown, title, field, width));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);

        Button up = new Button("Move Up");
        up.setId("prefColumnUp");
        up.setOnAction(e -> move(list, -1));
        Button down = new Button("Move Down");
        down.setId("prefColumnDown");
        down.setOnAction(e -> move(list, +1));
        Button remove = new Button("Remove");
        remove.setId("prefColumnRemove");
        remove.setOnAction(e -> {
            ColumnSpec c = table.getSelectionModel().getSelectedItem();
            if (c != null) {
                list.removeColumn(c.key());
            }
        });
        TextField newField = new TextField();
        newField.setId("prefNewField");
        newField.setPromptText("field, e.g. infiniband.bth.psn");
        Label error = new Label();
        error.getStyleClass().addAll("find-message", "error");
        Button add = new Button("Add Column");
        add.setId("prefColumnAdd");
        add.setOnAction(e -> {
            String f = newField.getText().trim();
            if (list.addColumn(f, f)) {
                newField.clear();
                error.setText("");
            } else {
                error.setText(f.isEmpty() ? "Name a field" : "Not a field, or already a column: " + f);
            }
        });
        HBox buttons = new HBox(6, up, down, remove, newField, add, error);
        buttons.setAlignment(Pos.CENTER_LEFT);
        VBox top = new VBox(8, timeRow, new Label("Packet list columns (drag a header in the list to reorder too):"));
        top.setPadding(new Insets(0, 0, 6, 0));
        setTop(top);
        setCenter(table);
        BorderPane.setMargin(buttons, new Insets(6, 0, 0, 0));
        setBottom(buttons);
    }

    private void move(PacketListViewModel list, int by) {
        ColumnSpec c = table.getSelectionModel().getSelectedItem();
        if (c == null) {
            return;
        }
        int to = list.columnIndex(c.key()) + by;
        list.moveColumn(c.key(), to);
    }

    TableView<ColumnSpec> table() {
        return table;
    }
}
