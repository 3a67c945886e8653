package io.rdmascope.gui.conversations;

import io.rdmascope.gui.conversations.ConversationsViewModel.Row;
import io.rdmascope.gui.util.Tables;
import javafx.collections.ListChangeListener;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.Node;
import javafx.scene.control.TableColumn;
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
        this(vm, applyFilter, false);
    }

    /**
     * @param full every statistic of {@code rdmascope flows} as a column (the Statistics window,
     *             wide); otherwise the columns that fit the main window's tab beside the packet
     *             list, the rest shown for the selected conversation under the table
     */
    public ConversationsView(ConversationsViewModel vm, Consumer<String> applyFilter, boolean full) {
        this.vm = vm;
        table.setId(full ? "conversationsTableFull" : "conversationsTable");
        table.setPlaceholder(new Label("No RDMA conversations (yet: the replay runs after loading)"));
        if (full) {
            table.getColumns().addAll(fullColumns());
        } else {
            table.getColumns().addAll(java.util.List.of(
                    Tables.text("Conv", 42, Row::id),
                    Tables.text("Transport", 62, Row::transport),
                    Tables.text("A", 150, r -> r.addressA() + " " + r.qpA()),
                    Tables.text("B", 150, r -> r.addressB() + " " + r.qpB()),
                    Tables.number("Msgs", 50, Row::messages, "%,d"),
                    Tables.number("Retr", 40, Row::retransmissions, "%,d"),
                    Tables.number("NAKs", 42, Row::naks, "%,d"),
                    Tables.text("State", 70, Row::state)));
        }
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
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
        if (!full) {
            setBottom(statisticsOfSelected());
        }
        showSelected();
    }

    /** The selected conversation's statistics, all of them, in lines that wrap to the pane's width. */
    private Node statisticsOfSelected() {
        Label stats = new Label();
        stats.setId("conversationStats");
        stats.getStyleClass().add("conversation-stats");
        stats.setWrapText(true);
        stats.setMaxWidth(Double.MAX_VALUE);
        Runnable update = () -> {
            Row r = vm.rows().stream().filter(x -> x.id().equals(vm.selected().get())).findFirst().orElse(null);
            stats.setText(r == null ? "" : ConversationsViewModel.statistics(r));
        };
        vm.selected().addListener((o, was, now) -> update.run());
        vm.rows().addListener((ListChangeListener<Row>) c -> update.run());
        update.run();
        return stats;
    }

    private static java.util.List<TableColumn<Row, ?>> fullColumns() {
        return java.util.List.of(
                Tables.text("Conv", 42, Row::id),
                Tables.text("Transport", 62, Row::transport),
                Tables.text("Address A", 110, Row::addressA),
                Tables.text("QP A", 68, Row::qpA),
                Tables.text("Address B", 110, Row::addressB),
                Tables.text("QP B", 68, Row::qpB),
                Tables.text("State", 70, Row::state),
                Tables.number("Pkts A→B", 68, Row::packetsAtoB, "%,d"),
                Tables.number("Pkts B→A", 68, Row::packetsBtoA, "%,d"),
                Tables.number("Msgs", 55, Row::messages, "%,d"),
                Tables.number("Bytes", 90, Row::bytes, "%,d"),
                Tables.number("Duration (s)", 82, Row::durationSeconds, "%.6f"),
                Tables.number("Gb/s", 60, Row::goodputGbps, "%.3f"),
                Tables.number("p50 (µs)", 68, Row::p50Micros, "%.3f"),
                Tables.number("p99 (µs)", 68, Row::p99Micros, "%.3f"),
                Tables.number("Retrans", 58, Row::retransmissions, "%,d"),
                Tables.number("NAKs", 46, Row::naks, "%,d"),
                Tables.number("RNR NAKs", 68, Row::rnrNaks, "%,d"),
                Tables.number("CNPs", 50, Row::cnps, "%,d"));
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
