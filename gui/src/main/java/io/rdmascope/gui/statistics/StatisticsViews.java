package io.rdmascope.gui.statistics;

import io.rdmascope.gui.util.Tables;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;

import java.util.List;
import java.util.Locale;

/**
 * The contents of the Statistics windows, built from the statistics the view model computed:
 * Capture File Properties (a name/value sheet), Protocol Hierarchy (a tree table with Wireshark's
 * columns), Conversations, Endpoints and Service Response Time (tables). Every table fits its
 * window without horizontal scrolling (the last column takes what is left).
 */
public final class StatisticsViews {
    private StatisticsViews() {
    }

    public static Parent properties(List<CaptureProperties.Line> lines) {
        GridPane grid = new GridPane();
        grid.setId("captureProperties");
        grid.setHgap(12);
        grid.setVgap(2);
        grid.setPadding(new Insets(8));
        int row = 0;
        for (CaptureProperties.Line l : lines) {
            if (l.value() == null) {
                Label section = new Label(l.name());
                section.getStyleClass().add("properties-section");
                grid.add(section, 0, row++, 2, 1);
            } else {
                Label value = new Label(l.value());
                value.setId("property-" + l.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z]+", "-"));
                grid.add(new Label(l.name()), 0, row);
                grid.add(value, 1, row++);
            }
        }
        ScrollPane scroll = new ScrollPane(grid);
        scroll.setFitToWidth(true);
        return new BorderPane(scroll);
    }

    public static Parent protocolHierarchy(TrafficStatistics.Result r) {
        TreeTableView<io.rdmascope.text.ProtocolHierarchy.Node> tree = new TreeTableView<>();
        tree.setId("protocolHierarchy");
        TreeItem<io.rdmascope.text.ProtocolHierarchy.Node> root = new TreeItem<>(
                new io.rdmascope.text.ProtocolHierarchy.Node("Frame", r.frames(), r.bytes(), r.hierarchy()));
        add(root, r.hierarchy());
        root.setExpanded(true);
        tree.setRoot(root);
        tree.setShowRoot(false);
        TreeTableColumn<io.rdmascope.text.ProtocolHierarchy.Node, String> name = new TreeTableColumn<>("Protocol");
        name.setPrefWidth(220);
        name.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue().getValue().protocol()));
        tree.getColumns().add(name);
        tree.getColumns().add(number("Percent Packets", 110,
                n -> String.format(Locale.ROOT, "%.1f", r.frames() == 0 ? 0.0 : 100.0 * n.frames() / r.frames())));
        tree.getColumns().add(number("Packets", 90, n -> String.format(Locale.ROOT, "%,d", n.frames())));
        tree.getColumns().add(number("Percent Bytes", 110,
                n -> String.format(Locale.ROOT, "%.1f", r.bytes() == 0 ? 0.0 : 100.0 * n.bytes() / r.bytes())));
        tree.getColumns().add(number("Bytes", 110, n -> String.format(Locale.ROOT, "%,d", n.bytes())));
        tree.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        return new BorderPane(tree);
    }

    private static void add(TreeItem<io.rdmascope.text.ProtocolHierarchy.Node> parent, List<io.rdmascope.text.ProtocolHierarchy.Node> nodes) {
        for (io.rdmascope.text.ProtocolHierarchy.Node n : nodes) {
            TreeItem<io.rdmascope.text.ProtocolHierarchy.Node> item = new TreeItem<>(n);
            item.setExpanded(true);
            add(item, n.children());
            parent.getChildren().add(item);
        }
    }

    private static TreeTableColumn<io.rdmascope.text.ProtocolHierarchy.Node, String> number(String title, double width,
            java.util.function.Function<io.rdmascope.text.ProtocolHierarchy.Node, String> text) {
        TreeTableColumn<io.rdmascope.text.ProtocolHierarchy.Node, String> c = new TreeTableColumn<>(title);
        c.setPrefWidth(width);
        c.setStyle("-fx-alignment: center-right;");
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(text.apply(f.getValue().getValue())));
        return c;
    }

    public static TableView<TrafficStatistics.Conversation> conversations(TrafficStatistics.Result r) {
        TableView<TrafficStatistics.Conversation> t = new TableView<>();
        t.setId("addressConversations");
        t.getColumns().addAll(List.of(
                Tables.text("Address A", 150, TrafficStatistics.Conversation::addressA),
                Tables.text("Address B", 150, TrafficStatistics.Conversation::addressB),
                Tables.number("Packets", 80, TrafficStatistics.Conversation::frames, "%,d"),
                Tables.number("Bytes", 100, TrafficStatistics.Conversation::bytes, "%,d"),
                Tables.number("Packets A → B", 100, TrafficStatistics.Conversation::framesAtoB, "%,d"),
                Tables.number("Bytes A → B", 100, TrafficStatistics.Conversation::bytesAtoB, "%,d"),
                Tables.number("Packets B → A", 100, TrafficStatistics.Conversation::framesBtoA, "%,d"),
                Tables.number("Bytes B → A", 100, TrafficStatistics.Conversation::bytesBtoA, "%,d"),
                Tables.number("Rel Start", 100, c -> c.startNanos() / 1e9, "%.6f"),
                Tables.number("Duration", 100, c -> c.durationNanos() / 1e9, "%.6f")));
        t.getItems().setAll(r.conversations());
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        return t;
    }

    public static Parent endpoints(TrafficStatistics.Result r) {
        TableView<TrafficStatistics.Endpoint> t = new TableView<>();
        t.setId("endpoints");
        t.getColumns().addAll(List.of(
                Tables.text("Address", 200, TrafficStatistics.Endpoint::address),
                Tables.number("Packets", 90, TrafficStatistics.Endpoint::frames, "%,d"),
                Tables.number("Bytes", 110, TrafficStatistics.Endpoint::bytes, "%,d"),
                Tables.number("Tx Packets", 90, TrafficStatistics.Endpoint::txFrames, "%,d"),
                Tables.number("Tx Bytes", 110, TrafficStatistics.Endpoint::txBytes, "%,d"),
                Tables.number("Rx Packets", 90, TrafficStatistics.Endpoint::rxFrames, "%,d"),
                Tables.number("Rx Bytes", 110, TrafficStatistics.Endpoint::rxBytes, "%,d")));
        t.getItems().setAll(r.endpoints());
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        return new BorderPane(t);
    }

    public static Parent serviceResponseTime(List<ServiceResponseTime.Row> rows) {
        TableView<ServiceResponseTime.Row> t = new TableView<>();
        t.setId("serviceResponseTime");
        t.setPlaceholder(new Label("No completed messages (the replay has not finished, or nothing was answered)"));
        t.getColumns().addAll(List.of(
                Tables.text("Operation", 160, ServiceResponseTime.Row::operation),
                Tables.number("Calls", 80, ServiceResponseTime.Row::calls, "%,d"),
                Tables.number("Min SRT (µs)", 110, x -> x.minNanos() / 1000.0, "%.3f"),
                Tables.number("Max SRT (µs)", 110, x -> x.maxNanos() / 1000.0, "%.3f"),
                Tables.number("Avg SRT (µs)", 110, x -> x.averageNanos() / 1000.0, "%.3f"),
                Tables.number("Sum SRT (µs)", 130, x -> x.sumNanos() / 1000.0, "%,.3f")));
        t.getItems().setAll(rows);
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        return new BorderPane(t);
    }
}
