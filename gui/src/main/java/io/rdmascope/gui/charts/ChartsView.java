package io.rdmascope.gui.charts;

import io.rdmascope.gui.charts.ChartsViewModel.Events;
import io.rdmascope.gui.charts.ChartsViewModel.Goodput;
import io.rdmascope.gui.charts.ChartsViewModel.Histogram;
import io.rdmascope.gui.charts.ChartsViewModel.Point;
import io.rdmascope.gui.charts.ChartsViewModel.Series;
import io.rdmascope.gui.charts.ChartsViewModel.TimeGrid;
import io.rdmascope.replay.MessageKind;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Side;
import javafx.scene.Node;
import javafx.geometry.Point2D;
import javafx.scene.chart.Axis;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The three charts, one above the other, each with a minimum height (the pane scrolls rather than
 * squash a chart to a strip): goodput per conversation over time on a log axis, the latency
 * histogram per message kind, and retransmissions, NAKs and CNPs over time. A chart with nothing to
 * draw gives its place to a sentence saying so. A click on a point of a time chart selects the
 * frame behind it ({@link ChartsViewModel#useSelection}).
 *
 * <p>Goodput on a log axis: conversations of one capture differ by orders of magnitude (a 100 Gb/s
 * all-reduce ring next to a 1.5 Mb/s control QP); on a linear axis the small one is a line on the
 * zero, on a per-conversation scale the lines cannot be compared, and a table alone loses the shape
 * over time. The log axis keeps every line visible and comparable, and each line's legend entry
 * carries its mean in its own unit.
 */
public final class ChartsView extends BorderPane {
    /**
     * Minimum chart heights (title, axes and plot; the goodput legend comes on top): below these a
     * chart stops being readable, and the pane scrolls instead.
     */
    static final double GOODPUT_MIN_HEIGHT = 260;
    static final double LATENCY_MIN_HEIGHT = 250;
    static final double EVENTS_MIN_HEIGHT = 250;
    /** Widest bar group of the histogram: one bin alone is a bar, not a wall. */
    static final double MAX_BIN_WIDTH = 90;
    /** How far from a point (in height) a click still picks it. */
    static final double PICK_PIXELS = 12;
    /** Decades the goodput axis spans at most below its largest value. */
    static final int GOODPUT_DECADES = 7;

    private final LineChart<Number, Number> goodput;
    private final BarChart<String, Number> latency;
    private final LineChart<Number, Number> events;
    private final Label noGoodput = sentence("noGoodput", "");
    private final Label noLatency = sentence("noLatency", "");
    private final Label noEvents = sentence("noEvents", "");
    private final ChartsViewModel vm;

    public ChartsView(ChartsViewModel vm, ObservableValue<String> selectedConversation) {
        this.vm = vm;
        setId("chartsView");
        LogAxis rate = new LogAxis(ChartUnits::rate);
        rate.setLabel("Goodput (log scale)");
        goodput = new LineChart<>(new TimeAxis(), rate);
        goodput.setId("goodputChart");
        goodput.setTitle("Goodput per conversation over time");
        goodput.setCreateSymbols(false);
        goodput.setAnimated(false);
        goodput.setLegendSide(Side.BOTTOM);
        goodput.setMinHeight(GOODPUT_MIN_HEIGHT);
        // the legend grows a line per conversation in a narrow pane: the plot keeps its own minimum above it
        Node legend = goodput.lookup(".chart-legend");
        if (legend != null) {
            legend.layoutBoundsProperty().addListener((o, was, now) ->
                    goodput.setMinHeight(GOODPUT_MIN_HEIGHT + now.getHeight()));
        }

        CategoryAxis bins = new CategoryAxis();
        bins.setLabel("Latency, first request to completion (a bin starts at its label)");
        bins.setTickLabelRotation(0);
        LogAxis messages = new LogAxis(ChartUnits::count);
        messages.setLabel("Messages (log scale)");
        latency = new BarChart<>(bins, messages);
        latency.setId("latencyChart");
        latency.setTitle("Latency histogram per message kind");
        latency.setAnimated(false);
        latency.setCategoryGap(6);
        latency.setBarGap(1);
        latency.setLegendSide(Side.RIGHT);
        latency.setMinHeight(LATENCY_MIN_HEIGHT);
        latency.widthProperty().addListener((o, was, now) -> fitBins());

        NumberAxis count = new NumberAxis();
        count.setMinorTickVisible(false);
        events = new LineChart<>(new TimeAxis(), count);
        events.setId("eventsChart");
        events.setTitle("Retransmissions, NAKs and CNPs over time");
        events.setAnimated(false);
        events.setLegendSide(Side.RIGHT);
        events.setMinHeight(EVENTS_MIN_HEIGHT);


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

        VBox stack = new VBox(4, section(goodput, noGoodput), section(latency, noLatency), section(events, noEvents));
        stack.setPadding(new Insets(0, 4, 4, 4));
        goodput.addEventHandler(MouseEvent.MOUSE_CLICKED,
                e -> pick(goodput, vm.goodput().get().grid(), vm.goodput().get().lines(), e));
        events.addEventHandler(MouseEvent.MOUSE_CLICKED,
                e -> pick(events, vm.events().get().grid(), vm.events().get().series(), e));
        vm.goodput().addListener((o, was, now) -> fill(now));
        vm.latency().addListener((o, was, now) -> fill(now));
        vm.events().addListener((o, was, now) -> fill(now));
        fill(vm.goodput().get());
        fill(vm.latency().get());
        fill(vm.events().get());
        ScrollPane scroll = new ScrollPane(stack);
        scroll.setId("chartsScroll");
        scroll.setFitToWidth(true);
        scroll.setFitToHeight(true);
        setCenter(scroll);
    }

    public LineChart<Number, Number> goodputChart() {
        return goodput;
    }

    public BarChart<String, Number> latencyChart() {
        return latency;
    }

    public LineChart<Number, Number> eventsChart() {
        return events;
    }

    private static Label sentence(String id, String text) {
        Label l = new Label(text);
        l.setId(id);
        l.setWrapText(true);
        l.setPadding(new Insets(8));
        l.setStyle("-fx-font-size: 1.1em;");
        return l;
    }

    /** A chart and the sentence that replaces it when it has nothing to draw; the chart grows, the sentence does not. */
    private static Node section(XYChart<?, ?> chart, Label sentence) {
        StackPane pane = new StackPane(chart, sentence);
        StackPane.setAlignment(sentence, javafx.geometry.Pos.TOP_LEFT);
        pane.minHeightProperty().bind(javafx.beans.binding.Bindings.when(chart.visibleProperty())
                .then(chart.minHeightProperty()).otherwise(sentence.heightProperty()));
        VBox.setVgrow(pane, Priority.ALWAYS);
        return pane;
    }

    /** Shows {@code chart}, or {@code sentence} in its place when {@code why} is not null. */
    private static void showOrSay(XYChart<?, ?> chart, Label sentence, String why) {
        chart.setVisible(why == null);
        chart.setManaged(why == null);
        sentence.setVisible(why != null);
        sentence.setManaged(why != null);
        if (why != null) {
            sentence.setText(why);
        }
        // an empty section takes only its sentence's height, leaving the room to the charts that draw
        VBox.setVgrow(chart.getParent(), why == null ? Priority.ALWAYS : Priority.NEVER);
    }

    private String scope() {
        return vm.conversation().get() == null ? "this capture" : "conversation " + vm.conversation().get();
    }

    private void fill(Goodput g) {
        goodput.getData().setAll(xySeries(g.lines()));
        if (g.lines().isEmpty()) {
            showOrSay(goodput, noGoodput, "No RDMA conversation in " + scope() + ": no goodput to draw.");
            return;
        }
        showOrSay(goodput, noGoodput, null);
        showTime(goodput, g.grid());
        // the floor a decade under the smallest value: a quiet conversation's peaks stand off the floor,
        // where its silent intervals lie
        double smallest = g.smallestPositive() > 0 ? g.smallestPositive() : g.largest();
        ((LogAxis) goodput.getYAxis()).showRange(smallest / 10, g.largest(), GOODPUT_DECADES);
    }

    private void fill(Events e) {
        events.getData().setAll(xySeries(e.series()));
        if (e.series().isEmpty()) {
            showOrSay(events, noEvents, "No retransmissions, NAKs or CNPs in " + scope() + ".");
            return;
        }
        showOrSay(events, noEvents, null);
        showTime(events, e.grid());
        events.getYAxis().setLabel("Events / " + ChartUnits.duration(e.grid().intervalNanos()));
    }

    private static void showTime(XYChart<Number, Number> chart, TimeGrid grid) {
        ((TimeAxis) chart.getXAxis()).show(grid.firstSeconds(), grid.lastSeconds(), grid.intervalNanos() / 1e9);
    }

    private void fill(Histogram h) {
        List<XYChart.Series<String, Number>> out = new ArrayList<>();
        CategoryAxis axis = (CategoryAxis) latency.getXAxis();
        axis.getCategories().setAll(h.labels());
        for (Map.Entry<MessageKind, long[]> e : h.counts().entrySet()) {
            XYChart.Series<String, Number> xy = new XYChart.Series<>();
            xy.setName(e.getKey().name());
            long[] counts = e.getValue();
            for (int b = 0; b < counts.length; b++) {
                xy.getData().add(new XYChart.Data<>(h.labels().get(b), counts[b]));
            }
            out.add(xy);
        }
        latency.getData().setAll(out);
        if (h.labels().isEmpty()) {
            showOrSay(latency, noLatency, "No acknowledged message in " + scope() + ": no latency to chart (a latency"
                    + " needs a request and the response completing it; UD and UC messages get none).");
            return;
        }
        showOrSay(latency, noLatency, null);
        fitBins();
        // a decade of headroom at least, so that the tallest bar never touches the title
        double top = Math.max(10, Math.pow(10, Math.ceil(Math.log10(h.largestCount() * 1.5))));
        ((LogAxis) latency.getYAxis()).showBounds(0.5, top);
    }

    /**
     * A click on a time chart selects the frame behind the point nearest the pointer: the interval
     * under it, and of the lines the one whose point there is nearest in height (within
     * {@link #PICK_PIXELS}); nothing when that point has no frame (a silent interval).
     */
    private void pick(XYChart<Number, Number> chart, TimeGrid grid, List<Series> series, MouseEvent e) {
        if (e.getButton() != MouseButton.PRIMARY || series.isEmpty() || grid.intervalNanos() <= 0) {
            return;
        }
        Axis<Number> x = chart.getXAxis();
        Axis<Number> y = chart.getYAxis();
        Point2D alongX = x.sceneToLocal(e.getSceneX(), e.getSceneY());
        Point2D alongY = y.sceneToLocal(e.getSceneX(), e.getSceneY());
        if (alongX.getX() < 0 || alongX.getX() > x.getWidth() || alongY.getY() < 0 || alongY.getY() > y.getHeight()) {
            return;
        }
        double seconds = x.getValueForDisplay(alongX.getX()).doubleValue();
        int i = (int) Math.round((seconds - grid.firstSeconds()) / (grid.intervalNanos() / 1e9));
        Point best = null;
        double nearest = PICK_PIXELS;
        for (Series s : series) {
            if (i >= 0 && i < s.points().size() && s.points().get(i).frame() != 0) {
                Point p = s.points().get(i);
                double distance = Math.abs(y.getDisplayPosition(p.y()) - alongY.getY());
                if (distance <= nearest) {
                    best = p;
                    nearest = distance;
                }
            }
        }
        if (best != null) {
            vm.select(best.frame());
        }
    }

    /** Keeps each bin's bars at most {@link #MAX_BIN_WIDTH} wide, whatever the pane's width. */
    private void fitBins() {
        int bins = ((CategoryAxis) latency.getXAxis()).getCategories().size();
        double plot = latency.getXAxis().getWidth() > 0 ? latency.getXAxis().getWidth() : latency.getWidth() - 150;
        if (bins > 0 && plot > 0) {
            latency.setCategoryGap(Math.max(6, plot / bins - MAX_BIN_WIDTH));
        }
    }

    private static List<XYChart.Series<Number, Number>> xySeries(List<Series> series) {
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
        return out;
    }
}
