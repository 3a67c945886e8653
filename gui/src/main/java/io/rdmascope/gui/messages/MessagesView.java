package io.rdmascope.gui.messages;

import io.rdmascope.gui.messages.MessagesViewModel.Row;
import io.rdmascope.gui.util.Tables;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * The messages table: kind, PSN range, bytes, frames, latency and status of every reassembled
 * message, and the storage operation it belongs to; selecting one selects its frames in the packet list.
 */
public final class MessagesView extends BorderPane {
    private final TableView<Row> table = new TableView<>();

    /**
     * @param selectedConversation the conversation the "only the selected conversation" box follows
     */
    public MessagesView(MessagesViewModel vm, ObservableValue<String> selectedConversation) {
        this(vm, selectedConversation, false);
    }

    /**
     * @param full every column (the Statistics window); otherwise those that fit the main
     *             window's tab: the conversation names the two ends, the first frame is a click away
     */
    public MessagesView(MessagesViewModel vm, ObservableValue<String> selectedConversation, boolean full) {
        table.setId(full ? "messagesTableFull" : "messagesTable");
        table.setPlaceholder(new Label("No messages"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        if (!full) {
            table.getColumns().addAll(java.util.List.of(
                    Tables.number("#", 45, r -> r.index() + 1, "%d"),
                    Tables.text("Conv", 42, Row::conversation),
                    Tables.text("Kind", 100, Row::kind),
                    Tables.text("PSN", 120, Row::psns),
                    Tables.number("Bytes", 70, Row::bytes, "%,d"),
                    Tables.number("Frames", 52, Row::frameCount, "%d"),
                    Tables.number("Latency (µs)", 88, Row::latencyMicros, "%.3f"),
                    Tables.text("Status", 75, Row::status),
                    Tables.text("Operation", 160, Row::operation)));
        } else {
            table.getColumns().addAll(java.util.List.of(
                Tables.number("#", 50, r -> r.index() + 1, "%d"),
                Tables.text("Conv", 45, Row::conversation),
                Tables.text("Kind", 110, Row::kind),
                Tables.text("Source", 110, Row::source),
                Tables.text("QP", 75, Row::srcQp),
                Tables.text("Destination", 110, Row::destination),
                Tables.text("QP", 75, Row::destQp),
                Tables.text("PSN", 140, Row::psns),
                Tables.number("Bytes", 80, Row::bytes, "%,d"),
                Tables.number("Frames", 60, Row::frameCount, "%d"),
                Tables.number("First", 60, Row::firstFrame, "%d"),
                Tables.number("Completion", 80, Row::completionFrame, "%d"),
                Tables.number("Latency (µs)", 90, Row::latencyMicros, "%.3f"),
                Tables.text("Status", 80, Row::status),
                Tables.text("Operation", 200, Row::operation)));
        }
        table.setItems(vm.rows());
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> vm.choose(now));

        CheckBox onlySelected = new CheckBox("Only the selected conversation");
        onlySelected.setId("messagesOnlySelected");
        onlySelected.selectedProperty().addListener((o, was, now) ->
                vm.conversation().set(now ? selectedConversation.getValue() : null));
        selectedConversation.addListener((o, was, now) -> {
            if (onlySelected.isSelected()) {
                vm.conversation().set(now);
            }
        });
        HBox top = new HBox(8, onlySelected);
        top.setPadding(new Insets(4));
        setTop(top);
        setCenter(table);
    }

    public TableView<Row> table() {
        return table;
    }
}
