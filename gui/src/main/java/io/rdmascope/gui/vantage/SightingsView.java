package io.rdmascope.gui.vantage;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Label;

import java.util.function.Function;

/**
 * The selected packet's sightings at every vantage point: point (in its colour), the point's own frame
 * number, the time on the first point's clock, and the delay after the earliest sighting. Shown only while
 * several captures are open.
 */
public final class SightingsView extends TableView<SightingsViewModel.Row> {
    public SightingsView(SightingsViewModel vm) {
        setId("sightings");
        setItems(vm.rows());
        setPlaceholder(new Label("Select a packet to see it at every vantage point"));
        setColumnResizePolicy(CONSTRAINED_RESIZE_POLICY);
        TableColumn<SightingsViewModel.Row, String> point = column("Vantage point", 110, SightingsViewModel.Row::point);
        point.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                SightingsViewModel.Row r = empty || getTableRow() == null ? null : getTableRow().getItem();
                setText(empty ? null : item);
                setStyle(r == null ? "" : "-fx-background-color: " + VantagePalette.background(r.pointIndex())
                        + "; -fx-text-fill: " + VantagePalette.TEXT + ";");
            }
        });
        getColumns().add(point);
        getColumns().add(column("Frame", 60, r -> Integer.toString(r.frame())));
        getColumns().add(column("Time (first point's clock)", 200, SightingsViewModel.Row::correctedTime));
        getColumns().add(column("After first", 100, SightingsViewModel.Row::afterFirst));
        setPrefHeight(130); // a header and a few points' rows: the detail tree keeps the rest
        setMinHeight(USE_PREF_SIZE); // the tree below grows; this table must not be squeezed to one row
        visibleProperty().bind(vm.active());
        managedProperty().bind(vm.active());
    }

    /** A column at least {@code minWidth} wide: its title and its widest text fit, shown or hidden. */
    private static TableColumn<SightingsViewModel.Row, String> column(String title, double minWidth,
                                                                      Function<SightingsViewModel.Row, String> text) {
        TableColumn<SightingsViewModel.Row, String> c = new TableColumn<>(title);
        c.setMinWidth(minWidth);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(text.apply(f.getValue())));
        return c;
    }
}
