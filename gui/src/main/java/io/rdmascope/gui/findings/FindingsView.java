package io.rdmascope.gui.findings;

import io.rdmascope.gui.findings.FindingsViewModel.Row;
import io.rdmascope.gui.util.Tables;
import io.rdmascope.gui.vantage.VantagePalette;
import io.rdmascope.rules.Severity;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;

import java.util.Locale;

/**
 * The findings table (severity, rule, summary, frame, conversation, what it is a consequence of,
 * detail) and the selected finding's explanation; clicking a finding selects its frame.
 */
public final class FindingsView extends BorderPane {
    private final TableView<Row> table = new TableView<>();

    public FindingsView(FindingsViewModel vm) {
        table.setId("findingsTable");
        table.setPlaceholder(new Label("No findings"));
        TableColumn<Row, Severity> severity = new TableColumn<>("Severity");
        severity.setMinWidth(Tables.titleWidth("Severity"));
        severity.setPrefWidth(70);
        severity.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue().severity()));
        severity.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Severity item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("severity-error", "severity-warning", "severity-note");
                if (empty || item == null) {
                    setText(null);
                } else {
                    setText(item.id());
                    getStyleClass().add("severity-" + item.id());
                }
            }
        });
        // the columns that fit beside the packet list; the detail is in the explanation under the table
        // with several vantage points, each point's own frames beside the union's
        TableColumn<Row, String> points = Tables.text("Vantage", 150, Row::vantageText);
        points.setId("findingsVantage");
        points.visibleProperty().bind(vm.vantage());
        table.getColumns().addAll(java.util.List.of(severity,
                Tables.text("Rule", 120, Row::rule),
                Tables.number("Frame", 55, Row::frame, "%d"),
                points,
                Tables.text("Conv", 42, Row::conversation),
                Tables.text("Caused by", 80, Row::cause),
                Tables.text("Summary", 240, Row::summary)));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setItems(vm.rows());

        TextArea explanation = new TextArea();
        explanation.setId("findingExplanation");
        explanation.setEditable(false);
        explanation.setWrapText(true);
        explanation.setPrefRowCount(4);
        // the selected finding's frames at each vantage point, each a link to the packet it is a sighting of
        FlowPane pointLinks = new FlowPane(6, 2);
        pointLinks.setId("findingPointFrames");
        pointLinks.setPadding(new Insets(2, 4, 2, 4));
        pointLinks.visibleProperty().bind(vm.vantage());
        pointLinks.managedProperty().bind(vm.vantage());
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            explanation.setText(now == null ? "" : String.format(Locale.ROOT, "%s (%s) — %s%n%s%n%s%nReference: %s",
                    now.rule(), now.severity().id(), now.summary(), now.detail(), now.explanation(), now.reference()));
            pointLinks.getChildren().setAll(new Label(now == null || now.points().isEmpty() ? "" : "At the vantage points:"));
            for (FindingsViewModel.PointFrame p : now == null ? java.util.List.<FindingsViewModel.PointFrame>of() : now.points()) {
                Hyperlink link = new Hyperlink(p.text());
                link.setStyle("-fx-background-color: " + VantagePalette.background(p.pointIndex()) + "; -fx-text-fill: "
                        + VantagePalette.TEXT + ";");
                link.setDisable(p.unionFrame() <= 0);
                link.setOnAction(e -> vm.choose(p));
                pointLinks.getChildren().add(link);
            }
            vm.choose(now);
        });
        // a click on the row already selected jumps to its frame again
        table.setOnMouseClicked(e -> vm.choose(table.getSelectionModel().getSelectedItem()));

        SplitPane split = new SplitPane(table, new BorderPane(explanation, pointLinks, null, null, null));
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.72);
        BorderPane.setMargin(split, new Insets(0));
        setCenter(split);
    }

    public TableView<Row> table() {
        return table;
    }
}
