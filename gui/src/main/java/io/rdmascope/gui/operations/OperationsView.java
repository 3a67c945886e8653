package io.rdmascope.gui.operations;

import io.rdmascope.gui.operations.OperationsViewModel.Row;
import io.rdmascope.gui.util.Tables;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

import java.util.List;

/** The storage view: one row per storage operation; selecting one selects its frames in the packet list. */
public final class OperationsView extends BorderPane {
    private final TableView<Row> table = new TableView<>();

    public OperationsView(OperationsViewModel vm) {
        table.setId("operationsTable");
        table.setPlaceholder(new Label("No storage operations (NVMe-oF, iSER, RPC-over-RDMA, SMB Direct)"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().addAll(List.of(
                Tables.text("Protocol", 80, Row::protocol),
                Tables.text("Queue", 150, Row::queue),
                Tables.text("Opcode", 170, Row::opcode),
                Tables.text("ID", 80, Row::id),
                Tables.number("Size", 60, Row::size, "%,d"),
                Tables.number("Command", 70, Row::commandFrame, "%d"),
                Tables.number("Response", 70, Row::responseFrame, "%d"),
                Tables.number("Data", 45, Row::dataFrameCount, "%d"),
                Tables.number("Latency (µs)", 88, Row::latencyMicros, "%.3f"),
                Tables.number("Delivery (µs)", 88, Row::deliveryMicros, "%.3f"),
                Tables.number("Data (µs)", 75, Row::dataMicros, "%.3f"),
                Tables.number("Completion (µs)", 100, Row::completionMicros, "%.3f"),
                Tables.text("Status", 160, Row::status)));
        table.setItems(vm.rows());
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> vm.choose(now));
        setCenter(table);
    }

    public TableView<Row> table() {
        return table;
    }
}
