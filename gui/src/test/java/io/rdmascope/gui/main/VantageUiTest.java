package io.rdmascope.gui.main;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.findings.FindingsViewModel;
import io.rdmascope.gui.ladder.LadderView;
import io.rdmascope.gui.ladder.LadderViewModel;
import io.rdmascope.gui.vantage.VantagePalette;
import javafx.scene.input.MouseButton;
import javafx.scene.paint.Color;
import javafx.scene.control.Hyperlink;
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

    @Test
    void theLadderDrawsALanePerPointAndEachSightingOnIt(FxRobot robot) {
        openAll(robot, Samples.vantage("vantage_rc", "requester", "switch", "responder"));
        robot.interact(() -> {
            driver.view.showTab("Ladder");
            driver.vm.conversations().selected().set("1");
            driver.vm.ladder().rowHeight().set(LadderViewModel.MIN_ROW * 1.6); // every row in sight
        });
        MainWindowDriver.waitUntil(() -> driver.vm.ladder().diagram().get().lanes().size() == 3);
        WaitForAsyncUtils.waitForFxEvents();
        LadderView ladder = driver.view.ladder();
        LadderViewModel.Diagram d = driver.vm.ladder().diagram().get();
        assertEquals(d.arrows().size(), ladder.paintedArrows().size(), "every arrow in sight");
        double x0 = ladder.laneX(0);
        double x1 = ladder.laneX(1);
        double x2 = ladder.laneX(2);
        assertTrue(x0 < x1 && x1 < x2, x0 + " " + x1 + " " + x2);

        javafx.scene.image.Image shot = snapshot(robot, ladder);
        Color switchColour = Color.web(VantagePalette.background(1));
        Color requesterColour = Color.web(VantagePalette.background(0));
        // a packet seen at all three points: a dot in each point's colour on its lane, lower the later it was seen
        int row = -1;
        for (int r = 0; r < d.arrows().size() && row < 0; r++) {
            row = d.arrows().get(r).path().size() == 3 && d.arrows().get(r).fromA() ? r : -1;
        }
        LadderViewModel.Arrow through = d.arrows().get(row);
        double yAtSwitch = ladder.stopY(row, through.path().get(1));
        assertTrue(ladder.stopY(row, through.path().get(0)) < yAtSwitch, "slanted by the delay");
        assertTrue(yAtSwitch < ladder.stopY(row, through.path().get(2)), "slanted by the delay");
        assertColour(switchColour, shot, x1, yAtSwitch);
        assertColour(requesterColour, shot, x0, ladder.stopY(row, through.path().get(0)));

        // the request lost between requester and switch: a dot on the requester's lane, none on the switch's
        int lostFrame = driver.vm.packetList().vantage().get().unionFrameOf("requester", 20);
        int lostRow = driver.vm.ladder().rowOf(lostFrame);
        LadderViewModel.Arrow lost = d.arrows().get(lostRow);
        assertTrue(lost.stopsShort());
        assertColour(requesterColour, shot, x0, ladder.stopY(lostRow, lost.path().get(0)));
        Color atSwitch = shot.getPixelReader().getColor((int) Math.round(x1), (int) Math.round(ladder.rowCenterY(lostRow)));
        assertFalse(close(switchColour, atSwitch), "the lost request reached the switch's lane: " + atSwitch);

        // a click on the lost packet's row selects its union frame, and the sightings show requester:20 alone
        var p = ladder.canvas().localToScreen(x0 - 20, ladder.rowCenterY(lostRow));
        robot.clickOn(p.getX(), p.getY(), MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(lostFrame, driver.vm.selection().current().get());
        assertEquals(1, driver.vm.sightings().rows().size());
        assertEquals(20, driver.vm.sightings().rows().get(0).frame());

        driver.open(robot, Samples.scenario("rc_loss_nak"));
        MainWindowDriver.waitUntil(() -> driver.vm.ladder().diagram().get().arrows().size() == 22);
        assertTrue(driver.vm.ladder().diagram().get().lanes().isEmpty());
        assertTrue(Double.isNaN(ladder.laneX(0)));
    }

    @Test
    void theFindingsNameEachPointsFramesAndALinkSelectsThePacket(FxRobot robot) {
        openAll(robot, Samples.vantage("vantage_rc", "requester", "switch", "responder"));
        robot.interact(() -> driver.view.showTab("Findings"));
        WaitForAsyncUtils.waitForFxEvents();
        TableView<FindingsViewModel.Row> findings = driver.view.findings().table();
        TableColumn<?, ?> points = findings.getColumns().stream().filter(c -> "findingsVantage".equals(c.getId()))
                .findFirst().orElseThrow();
        assertTrue(points.isVisible());
        FindingsViewModel.Row atomicAck = findings.getItems().stream()
                .filter(r -> r.rule().equals("IB-VP-LOSS-001") && r.vantageText().equals("switch:45=responder:44"))
                .findFirst().orElseThrow(() -> new AssertionError("no IB-VP-LOSS-001 at switch:45=responder:44"));
        robot.interact(() -> findings.getSelectionModel().select(atomicAck));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> links = robot.lookup("#findingPointFrames .hyperlink").queryAllAs(Hyperlink.class).stream()
                .map(Hyperlink::getText).toList();
        assertEquals(List.of("switch:45", "responder:44"), links);
        robot.interact(() -> driver.vm.selection().select(1));
        Hyperlink responder = robot.lookup("#findingPointFrames .hyperlink").queryAllAs(Hyperlink.class).stream()
                .filter(h -> h.getText().equals("responder:44")).findFirst().orElseThrow();
        robot.clickOn(responder);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals((int) atomicAck.frame(), driver.vm.selection().current().get());
        assertEquals("switch:45=responder:44", driver.vm.packetList().vantageText((int) atomicAck.frame()));

        driver.open(robot, Samples.scenario("rc_loss_nak"));
        assertFalse(points.isVisible());
        assertFalse(robot.lookup("#findingPointFrames").query().isVisible());
    }

    private static javafx.scene.image.Image snapshot(FxRobot robot, LadderView ladder) {
        javafx.scene.image.Image[] out = new javafx.scene.image.Image[1];
        robot.interact(() -> out[0] = ladder.canvas().snapshot(null, null));
        return out[0];
    }

    private static void assertColour(Color want, javafx.scene.image.Image shot, double x, double y) {
        Color got = shot.getPixelReader().getColor((int) Math.round(x), (int) Math.round(y));
        assertTrue(close(want, got), "at " + x + "," + y + ": " + got + ", not " + want);
    }

    private static boolean close(Color a, Color b) {
        return Math.abs(a.getRed() - b.getRed()) < 0.06 && Math.abs(a.getGreen() - b.getGreen()) < 0.06
                && Math.abs(a.getBlue() - b.getBlue()) < 0.06;
    }
}
