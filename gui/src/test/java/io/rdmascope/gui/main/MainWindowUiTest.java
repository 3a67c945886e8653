package io.rdmascope.gui.main;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.conversations.ConversationsViewModel;
import io.rdmascope.gui.details.HexView;
import io.rdmascope.gui.diagnosis.DiagnosisViewModel;
import io.rdmascope.gui.filter.FilterBarView;
import io.rdmascope.gui.findings.FindingsViewModel;
import io.rdmascope.gui.ladder.LadderViewModel;
import io.rdmascope.text.ProtoTree;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main window driven like a user would (TestFX, headless with Monocle): open a capture, filter
 * it, select frames and fields, follow a finding, read the ladder diagram.
 */
@ExtendWith(ApplicationExtension.class)
class MainWindowUiTest {
    private MainWindowDriver driver;
    private MainViewModel vm;
    private MainView view;

    @Start
    void start(Stage stage) {
        driver = new MainWindowDriver(stage);
        vm = driver.vm;
        view = driver.view;
    }

    private void open(FxRobot robot, Path file) {
        driver.open(robot, file);
    }

    private static void waitUntil(java.util.concurrent.Callable<Boolean> condition) {
        MainWindowDriver.waitUntil(condition);
    }

    /** The packet-list rows on screen, as frame numbers. */
    private Set<Integer> visibleFrames(FxRobot robot) {
        return robot.lookup("#packetTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> !r.isEmpty() && r.getItem() != null)
                .map(r -> (Integer) r.getItem())
                .collect(Collectors.toSet());
    }

    private Node rowOf(FxRobot robot, int frame) {
        return robot.lookup("#packetTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> !r.isEmpty() && Integer.valueOf(frame).equals(r.getItem()))
                .findFirst().orElseThrow(() -> new AssertionError("frame " + frame + " is not on screen"));
    }

    @Test
    void openingASampleCaptureListsItsFrames(FxRobot robot) {
        open(robot, Samples.mixed());
        assertEquals(300, view.packetList().table().getItems().size());
        Set<Integer> shown = visibleFrames(robot);
        assertTrue(shown.contains(1) && shown.contains(5), "first rows on screen: " + shown);
        // the cells hold the same text as rdmascope dissect
        Set<String> texts = robot.lookup("#packetTable .table-cell").queryAllAs(javafx.scene.control.TableCell.class)
                .stream().map(c -> c.getText()).filter(t -> t != null).collect(Collectors.toSet());
        assertTrue(texts.contains("RRoCE"), "cells: " + texts);
        assertTrue(robot.lookup("#statusText").queryAs(Label.class).getText().contains("Frames: 300"));
    }

    @Test
    void applyingTheAckFilterLeavesOnlyAcks(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        TextField field = robot.lookup("#filterText").queryAs(TextField.class);
        robot.clickOn(field).write("infiniband.bth.opcode == 17");
        assertTrue(field.getPseudoClassStates().contains(FilterBarView.VALID), "green while valid");
        robot.type(KeyCode.ENTER);
        waitUntil(() -> view.packetList().table().getItems().size() == 7 && !vm.packetList().busy().get());
        for (Integer frame : view.packetList().table().getItems()) {
            assertTrue(vm.packetList().row(frame).info().startsWith("RC Acknowledge"), "frame " + frame);
        }
        assertEquals(List.of(2, 7, 11, 15, 18, 20, 22), List.copyOf(view.packetList().table().getItems()));
        assertEquals("infiniband.bth.opcode == 17", vm.filterBar().history().get(0));
    }

    @Test
    void aFilterThatDoesNotCompileTurnsRedAndSaysWhereAndWhy(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        TextField field = robot.lookup("#filterText").queryAs(TextField.class);
        robot.clickOn(field).write("infiniband.bth.opcode ==");
        assertTrue(field.getPseudoClassStates().contains(FilterBarView.INVALID), "red while invalid");
        robot.type(KeyCode.ENTER);
        Label error = robot.lookup("#filterError").queryAs(Label.class);
        assertTrue(error.isVisible());
        assertTrue(error.getText().startsWith("column 25:"), error.getText());
        assertEquals(22, view.packetList().table().getItems().size(), "nothing was filtered");
        assertEquals(24, field.getCaretPosition(), "the caret goes to the error's column");
    }

    @Test
    void selectingAFrameFillsTheTreeAndSelectingAFieldHighlightsItsBytes(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 7));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(7, vm.selection().current().get());
        var tree = view.tree().tree();
        assertEquals(6, tree.getRoot().getChildren().size(), "Frame, Ethernet, IPv4, UDP, InfiniBand, analysis");
        assertTrue(tree.getRoot().getChildren().get(4).getValue().label().startsWith("InfiniBand"));
        assertEquals("[RDMA analysis]", tree.getRoot().getChildren().get(5).getValue().label(),
                "the replay's node last, as dissect -V prints it");
        assertFalse(view.hex().lines().getItems().isEmpty());

        // open InfiniBand and the AETH, click the syndrome
        robot.interact(() -> {
            TreeItem<ProtoTree> ib = tree.getRoot().getChildren().get(4);
            ib.setExpanded(true);
            ib.getChildren().forEach(c -> c.setExpanded(true));
            TreeItem<ProtoTree> aeth = ib.getChildren().stream()
                    .filter(c -> c.getValue().header() != null && c.getValue().header().abbrev().equals("infiniband.aeth"))
                    .findFirst().orElseThrow();
            tree.scrollTo(tree.getRow(aeth));
        });
        WaitForAsyncUtils.waitForFxEvents();
        Node syndrome = robot.lookup(".tree-cell").match(n -> n instanceof javafx.scene.control.TreeCell<?> c
                && c.getItem() instanceof ProtoTree p && p.field() != null
                && p.field().abbrev().equals("infiniband.aeth.syndrome")).query();
        robot.clickOn(syndrome);
        WaitForAsyncUtils.waitForFxEvents();
        ProtoTree selected = vm.details().selectedNode().get();
        assertEquals("infiniband.aeth.syndrome", selected.field().abbrev());
        assertEquals(new io.rdmascope.gui.details.PacketDetailsViewModel.Span(selected.start(), 1),
                vm.details().highlight().get());
        long lit = robot.lookup("#hexLines .hex-row").queryAll().stream()
                .filter(n -> n.getPseudoClassStates().contains(HexView.HIGHLIGHTED)).count();
        assertEquals(1, lit, "one hex line holds the syndrome byte");
    }

    @Test
    void clickingAByteSelectsTheFieldThatCoversIt(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 2));
        WaitForAsyncUtils.waitForFxEvents();
        // line 0x0020 holds frame bytes 32..47; byte 34 is the first byte of the UDP source port
        Node line = robot.lookup("#hexLines .hex-row").queryAll().stream()
                .filter(n -> n instanceof javafx.scene.control.ListCell<?> c && Integer.valueOf(2).equals(c.getItem()))
                .findFirst().orElseThrow();
        var canvas = ((javafx.scene.control.ListCell<?>) line).getGraphic();
        var bounds = canvas.localToScreen(canvas.getBoundsInLocal());
        double charWidth = bounds.getWidth() / (HexViewGeometry.ASCII_START + 17);
        double x = bounds.getMinX() + (HexViewGeometry.HEX_START + 2 * 3 + 0.5) * charWidth;
        robot.clickOn(x, bounds.getMinY() + bounds.getHeight() / 2, MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        ProtoTree node = vm.details().selectedNode().get();
        assertNotNull(node);
        assertEquals("udp.srcport", node.field().abbrev());
        assertEquals("udp.srcport", view.tree().tree().getSelectionModel().getSelectedItem().getValue().field().abbrev());
    }

    @Test
    void clickingAFindingSelectsItsFrame(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.interact(() -> view.showTab("Findings"));
        FindingsViewModel.Row nak = vm.findings().rows().stream().filter(r -> r.rule().equals("IB-RC-NAK-001"))
                .findFirst().orElseThrow();
        Node cell = robot.lookup("#findingsTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> r.getItem() == nak).findFirst().orElseThrow();
        robot.clickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(7, vm.selection().current().get());
        assertEquals(7, view.packetList().table().getSelectionModel().getSelectedItem());
        assertEquals(7, vm.details().frame().get());
    }

    private void selectConversation(FxRobot robot, String id) {
        robot.interact(() -> view.showTab("Conversations"));
        Node row = robot.lookup("#conversationsTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> r.getItem() instanceof ConversationsViewModel.Row c && c.id().equals(id))
                .findFirst().orElseThrow(() -> new AssertionError("conversation " + id + " is not on screen"));
        robot.clickOn(row);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(id, vm.conversations().selected().get());
    }

    /** The Diagnosis pane's lines as drawn: each cell's label and text, in list order. */
    private List<String> diagnosisShown(FxRobot robot) {
        return robot.lookup("#diagnosisLines .list-cell").queryAllAs(ListCell.class).stream()
                .filter(c -> !c.isEmpty() && c.getItem() != null)
                .sorted(java.util.Comparator.comparingInt(ListCell::getIndex))
                .map(c -> {
                    TextFlow flow = (TextFlow) c.getGraphic().lookup(".diagnosis-flow");
                    StringBuilder sb = new StringBuilder();
                    for (Node n : flow.getChildren()) {
                        sb.append(n instanceof Hyperlink h ? h.getText() : ((Text) n).getText());
                    }
                    return sb.toString();
                })
                .collect(Collectors.toList());
    }

    private static int indexContaining(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line with '" + text + "' in " + lines);
    }

    @Test
    void theDiagnosisOfASelectedConversationTellsTheStoryWithFramesToFollow(FxRobot robot) {
        open(robot, Samples.scenario("broken_psn_reuse"));
        selectConversation(robot, "2");
        List<String> shown = diagnosisShown(robot);
        assertEquals(vm.diagnosis().lines().size(), shown.size(), "every line of the account is on screen: " + shown);
        int read = indexContaining(shown, "READ PSN 1-3");
        int reuse = indexContaining(shown, "IB-RC-PSN-004");
        int ack = indexContaining(shown, "IB-RC-MATCH-002");
        int stall = indexContaining(shown, "IB-RC-STALL-001");
        assertTrue(read < reuse && reuse < ack && ack < stall, shown.toString());
        assertTrue(shown.get(stall).contains("3.000 s"), shown.get(stall));
        assertEquals(DiagnosisViewModel.Kind.FIRST, vm.diagnosis().lines().get(reuse).kind());

        // the first anomaly's frame link selects frame 12 in the packet list
        Hyperlink link = robot.lookup("#diagnosisLines .list-cell").queryAllAs(ListCell.class).stream()
                .filter(c -> c.getIndex() == reuse)
                .flatMap(c -> c.getGraphic().lookupAll(".diagnosis-link").stream())
                .map(Hyperlink.class::cast).findFirst().orElseThrow();
        assertEquals("frame 12", link.getText());
        robot.clickOn(link);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(12, vm.selection().current().get());
        assertEquals(12, view.packetList().table().getSelectionModel().getSelectedItem());
        assertTrue(visibleFrames(robot).contains(12), "frame 12 is scrolled into sight");

        // a quiet conversation is one line
        selectConversation(robot, "1");
        List<String> quiet = diagnosisShown(robot);
        assertEquals(1, quiet.size(), quiet.toString());
        assertTrue(quiet.get(0).startsWith("Conversation 1: RC 10.0.0.3"), quiet.get(0));
        assertTrue(quiet.get(0).endsWith("nothing to report; 2 messages: 2 completed."), quiet.get(0));
    }

    @Test
    void theLadderHasOneArrowPerFrameWithRetransmissionsMarked(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.interact(() -> {
            view.showTab("Ladder");
            vm.ladder().rowHeight().set(LadderViewModel.MIN_ROW * 1.5); // all 22 rows in sight
        });
        waitUntil(() -> vm.ladder().diagram().get().arrows().size() == 22);
        WaitForAsyncUtils.waitForFxEvents();
        List<LadderViewModel.Arrow> painted = view.ladder().paintedArrows();
        assertEquals(22, painted.size(), "one arrow per frame of the conversation");
        for (int i = 0; i < 22; i++) {
            assertEquals(i + 1, painted.get(i).frame());
        }
        Set<Integer> retransmitted = painted.stream().filter(a -> a.is(LadderViewModel.Mark.RETRANSMISSION))
                .map(LadderViewModel.Arrow::frame).collect(Collectors.toSet());
        assertEquals(Set.of(8, 9, 10, 16, 17), retransmitted);
        assertEquals(LadderViewModel.Kind.NAK, painted.get(6).kind());
        assertTrue(painted.get(20).is(LadderViewModel.Mark.DUPLICATE));

        // a click on an arrow selects its frame
        var canvas = view.ladder().canvas();
        double y = view.ladder().rowCenterY(14);
        var p = canvas.localToScreen(canvas.getWidth() / 2, y);
        robot.clickOn(p.getX(), p.getY(), MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(15, vm.selection().current().get());
    }

    @Test
    void applyAsFilterFromTheTreeFiltersOnTheSelectedField(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 7));
        robot.interact(() -> {
            ProtoTree opcode = find(vm.details().tree().get(), "infiniband.bth.opcode");
            vm.details().selectNode(opcode);
        });
        WaitForAsyncUtils.waitForFxEvents();
        Node cell = robot.lookup(".tree-cell").match(n -> n instanceof javafx.scene.control.TreeCell<?> c
                && c.isSelected()).queryAs(Node.class);
        // Monocle's headless platform turns no right click into a ContextMenuEvent: open the menu as one would.
        robot.interact(() -> view.tree().tree().getContextMenu().show(cell, javafx.geometry.Side.BOTTOM, 20, 0));
        robot.clickOn("Apply as Filter");
        waitUntil(() -> view.packetList().table().getItems().size() == 7 && !vm.packetList().busy().get());
        assertEquals("infiniband.bth.opcode == 17", vm.filterBar().appliedText().get());
    }

    private static ProtoTree find(List<ProtoTree> nodes, String field) {
        for (ProtoTree n : nodes) {
            if (n.field() != null && n.field().abbrev().equals(field)) {
                return n;
            }
            ProtoTree f = find(n.children(), field);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** The hex pane's character layout, as the view draws it. */
    private static final class HexViewGeometry {
        static final int HEX_START = 6;
        static final int ASCII_START = HEX_START + 16 * 3 + 1 + 2;
    }
}
