package io.rdmascope.gui.conversations;

import io.rdmascope.gui.conversations.ConversationsViewModel.Row;
import io.rdmascope.gui.util.Tables;
import javafx.collections.ListChangeListener;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

import java.util.function.Consumer;

/** The conversations table (QP pairs with their statistics); selecting one draws its ladder. */
public final class ConversationsView extends BorderPane {
    private final ConversationsViewModel vm;
    private final TableView<Row> table = new TableView<>();
    private boolean syncing;

    /**
     * @param applyFilter applies a display filter (the context menu's "Filter on this conversation")
     */
    public ConversationsView(ConversationsViewModel vm, Consumer<String> applyFilter) {
        this.vm = vm;
        table.setId("conversationsTable");
        table.setPlaceholder(new Label("No RDMA conversations (yet: the replay runs after loading)"));
        table.getColumns().addAll(java.util.List.of(
                Tables.text("Conv", 50, Row::id),
                Tables.text("Transport", 70, Row::transport),
                Tables.text("Address A", 120, Row::addressA),
                Tables.text("QP A", 80, Row::qpA),
                Tables.text("Address B", 120, Row::addressB),
                Tables.text("QP B", 80, Row::qpB),
                Tables.text("State", 80, Row::state),
                Tables.number("Packets A→B", 90, Row::packetsAtoB, "%,d"),
                Tables.number("Packets B→A", 90, Row::packetsBtoA, "%,d"),
                Tables.number("Messages", 80, Row::messages, "%,d"),
                Tables.number("Bytes", 100, Row::bytes, "%,d"),
                Tables.number("Duration (s)", 90, Row::durationSeconds, "%.6f"),
                Tables.number("Goodput (Gb/s)", 100, Row::goodputGbps, "%.3f"),
                Tables.number("p50 (µs)", 80, Row::p50Micros, "%.3f"),
                Tables.number("p99 (µs)", 80, Row::p99Micros, "%.3f"),
                Tables.number("Retrans", 70, Row::retransmissions, "%,d"),
                Tables.number("NAKs", 60, Row::naks, "%,d"),
                Tables.number("RNR NAKs", 70, Row::rnrNaks, "%,d"),
                Tables.number("CNPs", 60, Row::cnps, "%,d")));
        table.setItems(vm.rows());
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (!syncing && now != null) {
                vm.selected().set(now.id());
            }
        });
        vm.selected().addListener((o, was, now) -> showSelected());
        vm.rows().addListener((ListChangeListener<Row>) c -> showSelected());
        MenuItem filter = new MenuItem("Filter on this conversation");
        filter.setOnAction(e -> applyFilter.accept(vm.filterForSelected()));
        table.setContextMenu(new ContextMenu(filter));
        setCenter(table);
    }

    public TableView<Row> table() {
        return table;
    }

    private void showSelected() {
        syncing = true;
        try {
            String id = vm.selected().get();
            for (Row r : table.getItems()) {
                if (r.id().equals(id)) {
                    table.getSelectionModel().select(r);
                    return;
                }
            }
            table.getSelectionModel().clearSelection();
        } finally {
            syncing = false;
        }
    }
}
