package io.rdmascope.gui.charts;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.charts.IoGraphViewModel.Graph;
import io.rdmascope.gui.charts.IoGraphViewModel.Interval;
import io.rdmascope.gui.charts.IoGraphViewModel.Line;
import io.rdmascope.gui.charts.IoGraphViewModel.Metric;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.util.AppExecutors;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.Side;
import javafx.scene.Scene;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.StringConverter;

import java.util.ArrayList;
import java.util.List;

/**
 * The I/O graph window (Statistics → I/O Graph): interval, packets/s or bits/s, an optional display
 * filter drawn as a second line, and a click anywhere on the plot selecting the first frame of the
 * interval under the pointer in the packet list (each point is such an interval, so every point
 * leads to its frames).
 */
public final class IoGraphView extends BorderPane {
    /** Points drawn with a symbol at most: beyond that the symbols hide the line, and clicks on the plot still work. */
    static final int MAX_SYMBOLS = 400;

    private final IoGraphViewModel vm;
    private final LineChart<Number, Number> chart;
    private final NumberAxis values = new NumberAxis();

    public IoGraphView(IoGraphViewModel vm) {
        this.vm = vm;
        setId("ioGraphView");
        values.setForceZeroInRange(true);
        values.setMinorTickVisible(false);
        chart = new LineChart<>(new TimeAxis(), values);
        chart.setId("ioGraphChart");
        chart.setAnimated(false);
        chart.setLegendSide(Side.BOTTOM);
        chart.setMinHeight(300);
        chart.addEventHandler(MouseEvent.MOUSE_CLICKED, this::clicked);

        ComboBox<Interval> interval = new ComboBox<>();
        interval.setId("ioGraphInterval");
        interval.getItems().setAll(Interval.values());
        interval.valueProperty().bindBidirectional(vm.interval());
        ComboBox<Metric> metric = new ComboBox<>();
        metric.setId("ioGraphMetric");
        metric.getItems().setAll(Metric.values());
        metric.valueProperty().bindBidirectional(vm.metric());
        TextField filter = new TextField();
        filter.setId("ioGraphFilter");
        filter.setPromptText("Display filter for a second line, e.g. infiniband.bth.opcode == 17");
        Button apply = new Button("Apply");
        apply.setId("ioGraphApply");
        apply.setOnAction(e -> vm.applyFilter(filter.getText()));
        filter.setOnAction(e -> vm.applyFilter(filter.getText()));
        HBox.setHgrow(filter, Priority.ALWAYS);
        HBox controls = new HBox(8, new Label("Interval:"), interval, metric, new Label("Filter:"), filter, apply);
        controls.setAlignment(Pos.CENTER_LEFT);
        controls.setPadding(new Insets(6));
        Label error = new Label();
        error.setId("ioGraphError");
        error.setStyle("-fx-text-fill: #b00020;");
        error.textProperty().bind(vm.error());
        error.managedProperty().bind(error.textProperty().isNotEmpty());
        Label hint = new Label("Click a point to select the first frame of its interval in the packet list.");
        setTop(new javafx.scene.layout.VBox(controls, error));
        setCenter(chart);
        setBottom(hint);
        BorderPane.setMargin(hint, new Insets(2, 6, 6, 6));

        vm.graph().addListener((o, was, now) -> draw());
        vm.metric().addListener((o, was, now) -> draw());
        draw();
    }

    public LineChart<Number, Number> chart() {
        return chart;
    }

    /**
     * Opens the I/O graph of {@code main}'s open capture in a window of its own, owned by {@code owner}
     * (the Statistics menu's entry point). A click on a point selects its first frame in {@code main}'s
     * packet list.
     */
    public static Stage open(MainViewModel main, Window owner) {
        IoGraphViewModel vm = new IoGraphViewModel(AppExecutors.withUi(Platform::runLater), main.index(),
                DissectorChain.standard(), main.compiler(), main.selection());
        Stage stage = new Stage();
        stage.initOwner(owner);
        stage.setTitle("I/O Graph" + (main.file().get() == null ? "" : " — " + main.file().get().getFileName()));
        stage.setScene(new Scene(new IoGraphView(vm), 1000, 620));
        stage.show();
        return stage;
    }

    private void clicked(MouseEvent e) {
        if (e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        TimeAxis time = (TimeAxis) chart.getXAxis();
        double x = time.sceneToLocal(e.getSceneX(), e.getSceneY()).getX();
        if (x < 0 || x > time.getWidth()) {
            return;
        }
        // the interval under the pointer: points sit at their interval's start, so round to the nearest start
        Graph g = vm.graph().get();
        double seconds = time.getValueForDisplay(x).doubleValue();
        double width = g.intervalNanos() / 1e9;
        if (width > 0) {
            vm.select(Math.max(0, Math.round(seconds / width)) * width + width / 2);
        }
    }

    private void draw() {
        Graph g = vm.graph().get();
        Metric metric = vm.metric().get();
        values.setLabel(metric.toString());
        values.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number v) {
                return metric == Metric.BITS ? ChartUnits.rate(v.doubleValue()) : ChartUnits.count(v.doubleValue());
            }

            @Override
            public Number fromString(String s) {
                return Double.valueOf(s);
            }
        });
        List<XYChart.Series<Number, Number>> out = new ArrayList<>();
        for (Line line : g.lines()) {
            double[] rates = line.rates(metric, g.intervalNanos());
            XYChart.Series<Number, Number> s = new XYChart.Series<>();
            s.setName(line.name());
            List<XYChart.Data<Number, Number>> data = new ArrayList<>(rates.length);
            for (int i = 0; i < rates.length; i++) {
                data.add(new XYChart.Data<>(i * g.intervalNanos() / 1e9, rates[i]));
            }
            s.getData().setAll(data);
            out.add(s);
        }
        chart.setCreateSymbols(g.intervals() <= MAX_SYMBOLS);
        chart.getData().setAll(out);
        chart.setTitle(g.lines().isEmpty() ? "No frames" : metric + " in " + ChartUnits.duration(g.intervalNanos())
                + " intervals");
        ((TimeAxis) chart.getXAxis()).show(0, Math.max(0, g.intervals() - 1) * g.intervalNanos() / 1e9,
                Math.max(g.intervalNanos(), 1) / 1e9);
    }
}
