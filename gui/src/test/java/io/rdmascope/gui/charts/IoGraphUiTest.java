package io.rdmascope.gui.charts;

import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import javafx.application.Platform;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.ComboBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The I/O graph window as the Statistics menu opens it: a click on a point selects its first frame. */
@ExtendWith(ApplicationExtension.class)
class IoGraphUiTest {
    private MainViewModel main;
    private Stage owner;

    @Start
    void start(Stage stage) {
        main = new MainViewModel(AppExecutors.withUi(Platform::runLater), Settings.inMemory());
        owner = stage;
        stage.setScene(new javafx.scene.Scene(new javafx.scene.layout.StackPane(), 200, 100));
        stage.show();
    }

    @SuppressWarnings("unchecked")
    @Test
    void clickingAPointSelectsTheFirstFrameOfItsInterval(FxRobot robot, @TempDir Path dir) throws Exception {
        Path capture = NcclLikeRun.write(dir);
        robot.interact(() -> main.open(capture));
        Opened.waitUntil(() -> !main.loading().get() && !main.replaying().get());
        Stage[] window = new Stage[1];
        robot.interact(() -> window[0] = IoGraphView.open(main, owner));
        LineChart<Number, Number> chart = robot.lookup("#ioGraphChart").queryAs(LineChart.class);
        Opened.waitUntil(() -> !chart.getData().isEmpty() && chart.getData().get(0).getData().get(0).getNode() != null);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(window[0].getTitle().endsWith("nccl_like_3node.pcapng"), window[0].getTitle());

        // the point of the interval where the all-reduce starts (17.5 s, 100 ms intervals: index 175)
        XYChart.Data<Number, Number> start = chart.getData().get(0).getData().get(175);
        assertTrue(start.getYValue().doubleValue() > 0);
        robot.clickOn(start.getNode());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(10, main.selection().current().get(), "the first RDMA frame");
        robot.clickOn(chart.getData().get(0).getData().get(0).getNode());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1, main.selection().current().get());

        // bits per second, and a filter line
        ComboBox<IoGraphViewModel.Metric> metric = robot.lookup("#ioGraphMetric").queryAs(ComboBox.class);
        robot.interact(() -> metric.setValue(IoGraphViewModel.Metric.BITS));
        assertEquals("Bits/s", chart.getYAxis().getLabel());
        robot.clickOn("#ioGraphFilter").write("infiniband.bth.opcode == 17").clickOn("#ioGraphApply");
        Opened.waitUntil(() -> chart.getData().size() == 2);
        assertEquals("infiniband.bth.opcode == 17", chart.getData().get(1).getName());
        assertEquals(0, ((TimeAxis) chart.getXAxis()).getLowerBound(), 0.0, "the capture's first frame");
        robot.interact(() -> window[0].close());
    }
}
