package io.rdmascope.gui.util;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Pos;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;

import java.util.Locale;
import java.util.function.Function;

/** Small helpers for the read-only tables of the RDMA views. */
public final class Tables {
    private Tables() {
    }

    /** A text column. */
    public static <R> TableColumn<R, String> text(String title, double width, Function<R, String> value) {
        TableColumn<R, String> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        return c;
    }

    /** A right-aligned number column that sorts as numbers; null shows as "-". */
    public static <R, N extends Number & Comparable<N>> TableColumn<R, N> number(String title, double width,
                                                                               Function<R, N> value, String format) {
        TableColumn<R, N> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        c.setCellFactory(col -> new TableCell<>() {
            {
                setAlignment(Pos.CENTER_RIGHT);
            }

            @Override
            protected void updateItem(N item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item == null ? "-" : String.format(Locale.ROOT, format, item));
            }
        });
        return c;
    }
}
