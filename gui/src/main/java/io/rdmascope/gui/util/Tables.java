package io.rdmascope.gui.util;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Pos;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;

import java.util.Locale;
import java.util.function.Function;

/** Small helpers for the read-only tables of the RDMA views. */
public final class Tables {
    private Tables() {
    }

    /** Room a column header needs beside its title's text: padding and the sort arrow's gap. */
    private static final double HEADER_PADDING = 14;

    /**
     * The width of {@code title} in the header's font (Modena's headers are bold, 12 px here) plus
     * the header's padding: a column
     * is never made narrower, so no title is cut to "…" when the table fits its columns to its width.
     */
    public static double titleWidth(String title) {
        Text t = new Text(title);
        t.setFont(Font.font(Font.getDefault().getFamily(), FontWeight.BOLD, 12));
        return Math.ceil(t.getLayoutBounds().getWidth() + HEADER_PADDING);
    }

    /** A text column. */
    public static <R> TableColumn<R, String> text(String title, double width, Function<R, String> value) {
        TableColumn<R, String> c = new TableColumn<>(title);
        c.setMinWidth(titleWidth(title));
        c.setPrefWidth(Math.max(width, c.getMinWidth()));
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        return c;
    }

    /** A right-aligned number column that sorts as numbers; null shows as "-". */
    public static <R, N extends Number & Comparable<N>> TableColumn<R, N> number(String title, double width,
                                                                               Function<R, N> value, String format) {
        TableColumn<R, N> c = new TableColumn<>(title);
        c.setMinWidth(titleWidth(title));
        c.setPrefWidth(Math.max(width, c.getMinWidth()));
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
