package io.rdmascope.gui.main;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.vantage.VantagePalette;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main window given several vantage points' captures (TestFX on Monocle): the Vantage column after No.
 * with each cell in its first point's colour, the sightings table under the list filled by a click on a
 * packet, and both gone when one capture is opened again.
 */
@ExtendWith(ApplicationExtension.class)
class VantageUiTest {
    private MainWindowDriver driver;

    @Start
    void start(Stage stage) {
        driver = new MainWindowDriver(stage);
    }

    private void openAll(FxRobot robot, List<String> arguments) {
        robot.interact(() -> driver.vm.open(arguments));
        MainWindowDriver.waitUntil(() -> !driver.vm.loading().get() && !driver.vm.replaying().get());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static List<String> columnIds(TableView<Integer> table) {
        return table.getColumns().stream().map(TableColumn::getId).toList();
    }

    @Test
    void theListNamesEachPacketsPointsAndTheSightingsFollowTheSelection(FxRobot robot) {
        openAll(robot, Samples.vantage("vantage_rc", "requester", "switch", "responder"));
        TableView<Integer> table = driver.view.packetList().table();
        assertEquals(51, table.getItems().size());
        assertEquals("column-vantage", columnIds(table).get(1), columnIds(table).toString());

        TableCell<?, ?> first = robot.lookup("#packetTable .table-cell").queryAllAs(TableCell.class).stream()
                .filter(c -> "requester:1=switch:1=responder:1".equals(c.getText())).findFirst()
                .orElseThrow(() -> new AssertionError("no Vantage cell for frame 1"));
        assertTrue(first.getStyle().contains(VantagePalette.background(0)), first.getStyle());

        TableView<?> sightings = robot.lookup("#sightings").queryAs(TableView.class);
        assertTrue(sightings.isVisible());
        TableRow<?> row1 = robot.lookup("#packetTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> Integer.valueOf(1).equals(r.getItem())).findFirst().orElseThrow();
        robot.clickOn(row1);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(3, sightings.getItems().size());
        List<String> points = robot.lookup("#sightings .table-cell").queryAllAs(TableCell.class).stream()
                .map(TableCell::getText).filter(t -> t != null && t.matches("requester|switch|responder")).toList();
        assertEquals(List.of("requester", "switch", "responder"), points);
        for (javafx.scene.Node bar : sightings.lookupAll(".scroll-bar")) {
            if (bar instanceof javafx.scene.control.ScrollBar s && s.getOrientation() == javafx.geometry.Orientation.HORIZONTAL) {
                assertFalse(s.isVisible(), "the sightings table scrolls sideways");
            }
        }

        driver.open(robot, Samples.scenario("rc_loss_nak"));
        assertFalse(columnIds(table).contains("column-vantage"), columnIds(table).toString());
        assertFalse(sightings.isVisible());
    }
}
