package io.rdmascope.gui.charts;

import io.rdmascope.gui.charts.ChartsViewModel.Histogram;
import io.rdmascope.gui.charts.ChartsViewModel.Point;
import io.rdmascope.gui.charts.ChartsViewModel.Series;
import io.rdmascope.replay.MessageKind;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.CheckBox;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The three charts: goodput per conversation over time, latency histogram per message kind, retransmissions/NAKs/CNPs over time. */
public final class ChartsView extends BorderPane {
    private final LineChart<Number, Number> throughput;
    private final BarChart<String, Number> latency;
    private final LineChart<Number, Number> events;

    public ChartsView(ChartsViewModel vm, ObservableValue<String> selectedConversation) {
        setId("chartsView");
        NumberAxis tx = new NumberAxis();
        tx.setLabel("Time since the first frame (ms)");
        tx.setForceZeroInRange(false);
        NumberAxis ty = new NumberAxis();
        ty.setLabel("Goodput (Gb/s)");
        throughput = new LineChart<>(tx, ty);
        throughput.setId("throughputChart");
        throughput.setTitle("Goodput per conversation over time");
        throughput.setCreateSymbols(false);
        throughput.setAnimated(false);
        throughput.setLegendSide(javafx.geometry.Side.RIGHT);

        CategoryAxis lx = new CategoryAxis();
        lx.setLabel("Message latency (first request to completion)");
        NumberAxis ly = new NumberAxis();
        ly.setLabel("Messages");
        latency = new BarChart<>(lx, ly);
        latency.setId("latencyChart");
        latency.setTitle("Latency histogram per message kind");
        latency.setAnimated(false);
        latency.setCategoryGap(4);
        latency.setBarGap(1);
        latency.setLegendSide(javafx.geometry.Side.RIGHT);

        NumberAxis ex = new NumberAxis();
        ex.setLabel("Time since the first frame (ms)");
        ex.setForceZeroInRange(false);
        NumberAxis ey = new NumberAxis();
        ey.setLabel("Events per interval");
        events = new LineChart<>(ex, ey);
        events.setId("eventsChart");
        events.setTitle("Retransmissions, NAKs and CNPs over time");
        events.setCreateSymbols(false);
        events.setAnimated(false);
        events.setLegendSide(javafx.geometry.Side.RIGHT);

        vm.throughput().addListener((o, was, now) -> fill(throughput, now));
        vm.latency().addListener((o, was, now) -> fill(latency, now));
        vm.events().addListener((o, was, now) -> fill(events, now));
        fill(throughput, vm.throughput().get());
        fill(latency, vm.latency().get());
        fill(events, vm.events().get());

        CheckBox onlySelected = new CheckBox("Only the selected conversation");
        onlySelected.setId("chartsOnlySelected");
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
        SplitPane split = new SplitPane(throughput, latency, events);
        split.setOrientation(Orientation.VERTICAL);
        setCenter(split);
    }

    public LineChart<Number, Number> throughputChart() {
        return throughput;
    }

    public BarChart<String, Number> latencyChart() {
        return latency;
    }

    public LineChart<Number, Number> eventsChart() {
        return events;
    }

    private static void fill(LineChart<Number, Number> chart, List<Series> series) {
        List<XYChart.Series<Number, Number>> out = new ArrayList<>();
        for (Series s : series) {
            XYChart.Series<Number, Number> xy = new XYChart.Series<>();
            xy.setName(s.name());
            List<XYChart.Data<Number, Number>> data = new ArrayList<>(s.points().size());
            for (Point p : s.points()) {
                data.add(new XYChart.Data<>(p.x(), p.y()));
            }
            xy.getData().setAll(data);
            out.add(xy);
        }
        chart.getData().setAll(out);
    }

    private static void fill(BarChart<String, Number> chart, Histogram h) {
        List<XYChart.Series<String, Number>> out = new ArrayList<>();
        CategoryAxis axis = (CategoryAxis) chart.getXAxis();
        axis.getCategories().setAll(h.bins());
        for (Map.Entry<MessageKind, long[]> e : h.counts().entrySet()) {
            XYChart.Series<String, Number> xy = new XYChart.Series<>();
            xy.setName(e.getKey().name());
            long[] counts = e.getValue();
            for (int b = 0; b < counts.length; b++) {
                xy.getData().add(new XYChart.Data<>(h.bins().get(b), counts[b]));
            }
            out.add(xy);
        }
        chart.getData().setAll(out);
    }
}
