package io.rdmascope.gui.charts;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.charts.ChartsViewModel.Goodput;
import io.rdmascope.gui.charts.ChartsViewModel.Series;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import javafx.application.Platform;
import javafx.beans.property.SimpleStringProperty;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.chart.Axis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The charts as drawn (TestFX, headless), in a pane the size the main window gives them at
 * 1400x900: a plot area of real height, time axes starting at the data, labels upright and apart,
 * the quiet conversation off the floor, and a sentence where a chart would be empty.
 */
@ExtendWith(ApplicationExtension.class)
class ChartsUiTest {
    /** The Charts tab's size in the 1400x900 main window. */
    static final double PANE_WIDTH = 600;
    static final double PANE_HEIGHT = 760;
    /** A plot area lower than this is the "3-pixel strip" of issue 17. */
    static final double MIN_PLOT_HEIGHT = 150;

    private MainViewModel vm;
    private ChartsView view;

    @Start
    void start(Stage stage) {
        vm = new MainViewModel(AppExecutors.withUi(Platform::runLater), Settings.inMemory());
        view = new ChartsView(vm.charts(), new SimpleStringProperty());
        stage.setScene(new Scene(view, PANE_WIDTH, PANE_HEIGHT));
        stage.show();
    }

    private void open(FxRobot robot, Path file) {
        robot.interact(() -> vm.open(file));
        Opened.waitUntil(() -> !vm.loading().get() && !vm.replaying().get() && vm.analysis().get() != null);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> view.applyCss());
        robot.interact(() -> view.layout());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }

    private static Region plot(XYChart<?, ?> chart) {
        return (Region) chart.lookup(".chart-plot-background");
    }

    /** The axis's tick labels on screen, in axis coordinates. */
    private static List<Bounds> tickLabels(Axis<?> axis) {
        return axis.getChildrenUnmodifiable().stream().filter(n -> n instanceof Text && n.isVisible())
                .map(Node::getBoundsInParent).sorted(Comparator.comparingDouble(Bounds::getMinX)).toList();
    }

    private static void assertReadable(Axis<?> axis, int atLeast) {
        List<Bounds> labels = tickLabels(axis);
        assertTrue(labels.size() >= atLeast, "labels: " + labels.size());
        // the property says what was asked; a crowded category axis turns its labels by itself
        assertTrue(axis.getChildrenUnmodifiable().stream().filter(n -> n instanceof Text)
                .allMatch(n -> n.getRotate() == 0), "upright labels");
        for (int i = 1; i < labels.size(); i++) {
            assertTrue(labels.get(i).getMinX() >= labels.get(i - 1).getMaxX(),
                    "tick labels " + (i - 1) + " and " + i + " overlap: " + labels);
        }
    }

    @Test
    void theNcclLikeRunDrawsReadableChartsFromItsOwnData(FxRobot robot, @TempDir Path dir) throws Exception {
        open(robot, NcclLikeRun.write(dir));
        Goodput g = vm.charts().goodput().get();
        fx(() -> {
            // goodput: a real plot area, the time axis from the first data point (after the 17.5 s bootstrap)
            assertTrue(view.goodputChart().isVisible());
            assertTrue(plot(view.goodputChart()).getHeight() >= MIN_PLOT_HEIGHT, "goodput plot "
                    + plot(view.goodputChart()).getHeight());
            TimeAxis time = (TimeAxis) view.goodputChart().getXAxis();
            assertEquals(g.grid().firstSeconds(), time.getLowerBound(), 1e-12);
            assertEquals(g.grid().lastSeconds(), time.getUpperBound(), 1e-12);
            assertTrue(time.getLowerBound() > 17.4);
            assertReadable(time, 3);
            // the quiet control conversation's peak stands well off the floor of the log axis
            LogAxis rate = assertInstanceOf(LogAxis.class, view.goodputChart().getYAxis());
            Series quiet = g.lines().stream().min(Comparator.comparingDouble(Series::maxY)).orElseThrow();
            double floor = rate.getDisplayPosition(rate.getLowerBound());
            double peak = rate.getDisplayPosition(quiet.maxY());
            assertTrue(floor - peak >= 20, quiet.name() + " peaks " + (floor - peak) + " px above the floor");
            assertTrue(rate.getUpperBound() >= g.largest());

            // latency: a real plot area, upright short labels
            assertTrue(plot(view.latencyChart()).getHeight() >= MIN_PLOT_HEIGHT, "latency plot "
                    + plot(view.latencyChart()).getHeight());
            assertReadable(view.latencyChart().getXAxis(), 2);

            // no loss in the run: the sentence, not an empty chart
            assertFalse(view.eventsChart().isVisible());
            Label none = (Label) view.lookup("#noEvents");
            assertTrue(none.isVisible());
            assertEquals("No retransmissions, NAKs or CNPs in this capture.", none.getText());
            assertTrue(none.getHeight() < 60, "the sentence takes a line, not the chart's room");
            return null;
        });
    }

    @Test
    void retransmissionsAndNaksAreChartedOnTheTrafficTimeAxis(FxRobot robot) throws Exception {
        open(robot, Samples.scenario("rc_loss_nak"));
        fx(() -> {
            assertTrue(view.eventsChart().isVisible());
            assertFalse(view.lookup("#noEvents").isVisible());
            assertEquals(List.of("Retransmissions", "NAKs"),
                    view.eventsChart().getData().stream().map(XYChart.Series::getName).toList());
            assertTrue(plot(view.eventsChart()).getHeight() >= MIN_PLOT_HEIGHT, "events plot "
                    + plot(view.eventsChart()).getHeight());
            TimeAxis events = (TimeAxis) view.eventsChart().getXAxis();
            TimeAxis goodput = (TimeAxis) view.goodputChart().getXAxis();
            assertEquals(goodput.getLowerBound(), events.getLowerBound(), 0.0, "the two time charts line up");
            assertEquals(vm.charts().events().get().grid().firstSeconds(), events.getLowerBound(), 0.0);
            assertReadable(events, 2);
            return null;
        });
        // a click on the first NAK point selects the NAK's frame
        Series naks = vm.charts().events().get().series().get(1);
        ChartsViewModel.Point nak = naks.points().stream().filter(p -> p.frame() != 0).findFirst().orElseThrow();
        javafx.geometry.Point2D onScreen = fx(() -> {
            var x = view.eventsChart().getXAxis();
            var y = view.eventsChart().getYAxis();
            return new javafx.geometry.Point2D(x.localToScreen(x.getDisplayPosition(nak.x()), 0).getX(),
                    y.localToScreen(0, y.getDisplayPosition(nak.y())).getY());
        });
        robot.clickOn(onScreen);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(nak.frame(), vm.selection().current().get());
    }

    @Test
    void eachRealCaptureGetsChartsWithRealPlotAreas(FxRobot robot) throws Exception {
        for (Path capture : SharedCaptures.all()) {
            open(robot, capture);
            fx(() -> {
                for (XYChart<?, ?> chart : List.of(view.goodputChart(), view.latencyChart(), view.eventsChart())) {
                    if (chart.isVisible()) {
                        assertTrue(plot(chart).getHeight() >= MIN_PLOT_HEIGHT, capture + " " + chart.getId()
                                + " plot " + plot(chart).getHeight());
                        assertReadable(chart.getXAxis(), 1);
                    }
                }
                if (view.goodputChart().isVisible()) {
                    TimeAxis time = (TimeAxis) view.goodputChart().getXAxis();
                    assertEquals(vm.charts().goodput().get().grid().firstSeconds(), time.getLowerBound(), 0.0);
                }
                return null;
            });
        }
    }
}
