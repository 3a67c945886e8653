package io.rdmascope.gui.main;

import io.rdmascope.gui.RdmascopeApp;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.RowColours;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.model.TimeFormat;
import io.rdmascope.gui.util.AppExecutors;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.Background;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Wireshark habits of issue 17 driven as a user would (TestFX on Monocle): Ctrl+G, Ctrl+F,
 * Ctrl+M, Ctrl+T, the time display formats, Apply as Column, the Statistics windows, Follow, Export,
 * Copy; the layout at 1400 px and the selection's contrast under every colouring rule.
 */
@ExtendWith(ApplicationExtension.class)
class MenusUiTest {
    private MainWindowDriver driver;
    private MainViewModel vm;
    private MainView view;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
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

    private TableRow<?> rowOf(FxRobot robot, int frame) {
        waitUntil(() -> view.packetList().table().lookupAll(".table-row-cell").stream()
                .anyMatch(n -> n instanceof TableRow<?> r && !r.isEmpty() && Integer.valueOf(frame).equals(r.getItem())));
        return robot.lookup("#packetTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> !r.isEmpty() && Integer.valueOf(frame).equals(r.getItem()))
                .findFirst().orElseThrow(() -> new AssertionError("frame " + frame + " is not on screen"));
    }

    /** The text the Time column shows for {@code frame}. */
    private String timeCell(FxRobot robot, int frame) {
        TableRow<?> row = rowOf(robot, frame);
        return row.lookupAll(".table-cell").stream().map(n -> (TableCell<?, ?>) n)
                .filter(c -> c.getTableColumn() != null && "column-time".equals(c.getTableColumn().getId()))
                .map(TableCell::getText).findFirst().orElseThrow();
    }

    /** Waits for the window titled {@code prefix…} (Statistics counts in the background first) and returns it. */
    private static Stage awaitWindow(String prefix) {
        waitUntil(() -> Window.getWindows().stream().anyMatch(w -> w instanceof Stage s && s.isShowing()
                && s.getTitle() != null && s.getTitle().startsWith(prefix)));
        return windowTitled(prefix);
    }

    private static Stage windowTitled(String prefix) {
        return Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                        && s.getTitle().startsWith(prefix) && s.isShowing())
                .map(Stage.class::cast).findFirst().orElseThrow(() -> new AssertionError("no window " + prefix));
    }

    /**
     * Fires the item at the end of a menu-bar path (File, Export Packet Dissections, As CSV…): used
     * for items in submenus, which Monocle's pointer closes while it moves across their parent menu.
     */
    private void fire(FxRobot robot, String... path) {
        robot.interact(() -> {
            javafx.scene.control.MenuBar bar = (javafx.scene.control.MenuBar) view.lookup("#menuBar");
            List<javafx.scene.control.MenuItem> items = List.copyOf(bar.getMenus());
            javafx.scene.control.MenuItem found = null;
            for (String p : path) {
                found = items.stream().filter(i -> p.equals(i.getText())).findFirst()
                        .orElseThrow(() -> new AssertionError("no menu item " + p));
                items = found instanceof javafx.scene.control.Menu m ? List.copyOf(m.getItems()) : List.of();
            }
            assertFalse(found.isDisable(), String.join(" → ", path) + " is disabled");
            found.fire();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Clicks through a menu path; each step's item is the one on screen (menus keep hidden copies). */
    private void menu(FxRobot robot, String... path) {
        for (String p : path) {
            Node item = robot.lookup(org.testfx.matcher.control.LabeledMatchers.hasText(p))
                    .match(n -> n.getScene() != null && n.getScene().getWindow() != null
                            && n.getScene().getWindow().isShowing() && n.isVisible())
                    .query();
            robot.clickOn(item);
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    @Test
    void ctrlGGoesToTheTypedPacketAndSaysWhyWhenItCannot(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 1));
        robot.press(KeyCode.CONTROL, KeyCode.G).release(KeyCode.G, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#goToBar").query().isVisible(), "Ctrl+G shows the bar");
        robot.write("99").type(KeyCode.ENTER);
        assertEquals("There is no frame 99 (the capture has 22)", robot.lookup("#goToError").queryAs(Label.class).getText());
        TextField number = robot.lookup("#goToNumber").queryAs(TextField.class);
        robot.interact(number::clear);
        robot.clickOn(number).write("17").type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(17, vm.selection().current().get());
        assertEquals(17, view.packetList().table().getSelectionModel().getSelectedItem());
        assertFalse(robot.lookup("#goToBar").query().isVisible(), "the bar closes once there");

        // Go → First / Last Packet and Next Packet in Conversation (Ctrl+.)
        robot.press(KeyCode.CONTROL, KeyCode.END).release(KeyCode.END, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(22, vm.selection().current().get());
        robot.press(KeyCode.CONTROL, KeyCode.HOME).release(KeyCode.HOME, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1, vm.selection().current().get());
        menu(robot, "Go", "Next Packet in Conversation");
        assertEquals(2, vm.selection().current().get());
        robot.press(KeyCode.CONTROL, KeyCode.PERIOD).release(KeyCode.PERIOD, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(3, vm.selection().current().get(), "Ctrl+. from the focused list");
        robot.press(KeyCode.CONTROL, KeyCode.COMMA).release(KeyCode.COMMA, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(2, vm.selection().current().get(), "Ctrl+,");
    }

    @Test
    void aDoubleClickOnAnAnalysisFrameLinkGoesToThatFrame(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 9)); // frame 9 resends frame 5's PSN after the NAK in frame 7
        javafx.scene.control.TreeView<io.rdmascope.text.ProtoTree> tree = view.tree().tree();
        robot.interact(() -> {
            var roots = tree.getRoot().getChildren();
            var analysis = roots.get(roots.size() - 1);
            assertEquals("[RDMA analysis]", analysis.getValue().label());
            expandAll(analysis);
            tree.scrollTo(tree.getExpandedItemCount() - 1); // the analysis node is last: bring it into view
        });
        WaitForAsyncUtils.waitForFxEvents();
        var link = robot.lookup(".tree-cell").queryAllAs(javafx.scene.control.TreeCell.class).stream()
                .filter(c -> "[Retransmission of frame: 5]".equals(c.getText())).findFirst().orElseThrow();
        assertTrue(link.isUnderline(), "a frame link looks like one");
        robot.doubleClickOn(link);
        waitUntil(() -> vm.selection().current().get() == 5);
    }

    private static void expandAll(javafx.scene.control.TreeItem<?> item) {
        item.setExpanded(true);
        for (var child : item.getChildren()) {
            expandAll(child);
        }
    }

    @Test
    void ctrlFFindsTheNextFrameAFilterMatches(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 3));
        robot.press(KeyCode.CONTROL, KeyCode.F).release(KeyCode.F, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#findBar").query().isVisible());
        robot.write("infiniband.aeth.syndrome == 0x60").type(KeyCode.ENTER);
        waitUntil(() -> vm.selection().current().get() == 7);
        assertEquals("Found frame 7", robot.lookup("#findMessage").queryAs(Label.class).getText());
    }

    @Test
    void ctrlMMarksARowBlackAndCtrlTMakesItTheTimeReference(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 5));
        robot.press(KeyCode.CONTROL, KeyCode.M).release(KeyCode.M, KeyCode.CONTROL);
        robot.press(KeyCode.CONTROL, KeyCode.T).release(KeyCode.T, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(vm.packetList().isMarked(5));
        assertEquals(TimeFormat.REFERENCE_TEXT, timeCell(robot, 5));
        long t5 = vm.index().timeNanos(5);
        assertEquals(TimeFormat.RELATIVE.format(vm.index().timeNanos(6), t5, 9, java.time.ZoneOffset.UTC),
                timeCell(robot, 6));
        robot.clickOn(rowOf(robot, 8));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(rowOf(robot, 5).getStyle().contains(RowColours.MARKED_BACKGROUND), rowOf(robot, 5).getStyle());
    }

    @Test
    void theTimeDisplayFormatMenuChangesTheTimeColumn(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        fire(robot, "View", "Time Display Format", "UTC Time of Day");
        long t = vm.index().timeNanos(1);
        assertEquals(TimeFormat.UTC_TIME_OF_DAY.format(t, 0, 9, java.time.ZoneOffset.UTC), timeCell(robot, 1));
        assertTrue(timeCell(robot, 1).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{9}"), timeCell(robot, 1));
        robot.press(KeyCode.CONTROL, KeyCode.ALT, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.ALT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(TimeFormat.EPOCH, vm.packetList().timeFormat().get(), "Ctrl+Alt+4, as in Wireshark");
        // the column is wide enough for its text
        TableColumn<Integer, ?> time = view.packetList().table().getColumns().stream()
                .filter(c -> "column-time".equals(c.getId())).findFirst().orElseThrow();
        assertTrue(time.getWidth() >= textWidth(timeCell(robot, 1)), "time column " + time.getWidth());
    }

    private static double textWidth(String s) {
        Text t = new Text(s);
        t.setFont(javafx.scene.text.Font.font(javafx.scene.text.Font.getDefault().getFamily(), 12));
        return t.getLayoutBounds().getWidth();
    }

    @Test
    void applyAsColumnPutsTheFieldBeforeInfoInSight(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.interact(() -> vm.packetList().addColumn("infiniband.bth.psn", "PSN"));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> titles = view.packetList().table().getColumns().stream().map(TableColumn::getText).toList();
        assertEquals(List.of("No.", "Time", "Source", "Destination", "Protocol", "Length", "PSN", "Info"), titles);
        TableColumn<Integer, ?> psn = view.packetList().table().getColumns().get(6);
        var bounds = view.packetList().table().localToScene(view.packetList().table().getBoundsInLocal());
        double left = 0;
        for (int i = 0; i < 6; i++) {
            left += view.packetList().table().getColumns().get(i).getWidth();
        }
        assertTrue(left + psn.getWidth() <= bounds.getWidth(), "the new column is on screen");
    }

    @Test
    void statisticsWindowsShowPropertiesHierarchyConversationsEndpointsAndResponseTimes(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        menu(robot, "Statistics", "Capture File Properties");
        Stage props = windowTitled("Capture File Properties");
        Label packets = (Label) props.getScene().getRoot().lookup("#property-packets");
        assertEquals("22 captured · 22 displayed (100.0 %)", packets.getText());
        robot.interact(props::close);

        // fired: a tab and a window share some of these titles, a click by text could pick either
        fire(robot, "Statistics", "Protocol Hierarchy");
        Stage phs = awaitWindow("Protocol Hierarchy");
        TreeTableView<?> tree = (TreeTableView<?>) phs.getScene().getRoot().lookup("#protocolHierarchy");
        assertEquals("eth", ((io.rdmascope.text.ProtocolHierarchy.Node)
                tree.getRoot().getChildren().get(0).getValue()).protocol());
        robot.interact(phs::close);

        fire(robot, "Statistics", "Endpoints");
        Stage endpoints = awaitWindow("Endpoints");
        assertEquals(2, ((TableView<?>) endpoints.getScene().getRoot().lookup("#endpoints")).getItems().size());
        robot.interact(endpoints::close);

        fire(robot, "Statistics", "Conversations");
        Stage conv = awaitWindow("Conversations");
        assertEquals(1, ((TableView<?>) conv.getScene().getRoot().lookup("#addressConversations")).getItems().size());
        noHorizontalScrolling(conv.getScene().getRoot());
        robot.interact(conv::close);

        fire(robot, "Statistics", "RDMA Service Response Time");
        Stage srt = windowTitled("RDMA Service Response Time");
        assertFalse(((TableView<?>) srt.getScene().getRoot().lookup("#serviceResponseTime")).getItems().isEmpty());
        robot.interact(srt::close);

        fire(robot, "Statistics", "RDMA Conversations (Flows)");
        Stage flows = windowTitled("RDMA Conversations");
        WaitForAsyncUtils.waitForFxEvents();
        noHorizontalScrolling(flows.getScene().getRoot());
        robot.interact(flows::close);

        fire(robot, "Statistics", "RDMA Messages");
        Stage messages = windowTitled("RDMA Messages");
        assertEquals(vm.messages().rows().size(),
                ((TableView<?>) messages.getScene().getRoot().lookup("#messagesTableFull")).getItems().size());
        robot.interact(messages::close);

        fire(robot, "Statistics", "I/O Graph");
        Stage io = awaitWindow("I/O Graph");
        var graph = (io.rdmascope.gui.charts.IoGraphView) io.getScene().getRoot();
        waitUntil(() -> !graph.chart().getData().isEmpty()); // fails the test when the series never comes
        robot.interact(io::close);
    }

    @Test
    void followShowsTheQpConversationsMessagesAndData(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 1));
        fire(robot, "Analyze", "Follow", "RDMA QP Conversation");
        Stage follow = windowTitled("Follow RDMA QP Conversation 1");
        ListView<?> list = (ListView<?>) follow.getScene().getRoot().lookup("#followMessages");
        assertEquals(vm.follow().items().size(), list.getItems().size());
        TextArea data = (TextArea) follow.getScene().getRoot().lookup("#followData");
        assertTrue(data.getText().startsWith("00000000  "), data.getText());
        robot.interact(follow::close);
    }

    @Test
    void exportSpecifiedPacketsWritesTheMarkedFrames(FxRobot robot, @TempDir Path dir) throws Exception {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.interact(() -> {
            vm.packetList().toggleMark(4);
            vm.packetList().toggleMark(8);
            vm.packetList().toggleMark(15);
        });
        menu(robot, "File", "Export Specified Packets…");
        robot.clickOn("#exportMARKED");
        Path out = dir.resolve("marked.pcapng");
        robot.clickOn("#exportPath").write(out.toString());
        robot.clickOn("#exportButton");
        waitUntil(() -> Files.exists(out) && vm.status().get().startsWith("Exported 3 frames"));
        MainViewModel reopened = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        reopened.open(out);
        assertEquals(3, reopened.index().count());
    }

    @Test
    void copyAsHexDumpPutsTheSelectedFramesBytesOnTheClipboard(FxRobot robot) throws Exception {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.clickOn(rowOf(robot, 2));
        fire(robot, "Edit", "Copy", "As Hex Dump");
        String clip = WaitForAsyncUtils.asyncFx(() -> Clipboard.getSystemClipboard().getString()).get();
        assertEquals(vm.copyHexDump(), clip);
        assertTrue(clip.startsWith("0000  "), clip);
    }

    @Test
    void preferencesHideAndMoveColumns(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        menu(robot, "Edit", "Preferences…");
        Stage prefs = windowTitled("Preferences");
        TableView<?> columns = (TableView<?>) prefs.getScene().getRoot().lookup("#prefColumns");
        robot.interact(() -> columns.getSelectionModel().select(5)); // Length
        robot.clickOn("#prefColumnUp");
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(4, vm.packetList().columnIndex("LENGTH"), "moved up before Protocol");
        assertEquals("LENGTH", ((io.rdmascope.gui.packetlist.PacketListViewModel.ColumnSpec)
                columns.getSelectionModel().getSelectedItem()).key(), "still selected");
        robot.clickOn("#prefColumnRemove");
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(vm.packetList().columns().get(4).visible());
        List<String> titles = view.packetList().table().getColumns().stream().map(TableColumn::getText).toList();
        assertEquals(List.of("No.", "Time", "Source", "Destination", "Protocol", "Info"), titles, "Length hidden");
        assertEquals(4, vm.packetList().columnIndex("LENGTH"), "and moved up before Protocol");
        robot.interact(prefs::close);
    }

    /** Every table under {@code root} is as wide as its columns: no horizontal bar, no title cut short. */
    private static void noHorizontalScrolling(Parent root) {
        for (Node n : root.lookupAll(".table-view")) {
            TableView<?> t = (TableView<?>) n;
            for (Node bar : t.lookupAll(".scroll-bar")) {
                if (bar instanceof ScrollBar s && s.getOrientation() == Orientation.HORIZONTAL) {
                    assertFalse(s.isVisible(), t.getId() + " scrolls sideways");
                }
            }
            for (TableColumn<?, ?> c : t.getColumns()) {
                assertTrue(c.getWidth() + 0.5 >= textWidth(c.getText()) + 8,
                        t.getId() + ": column '" + c.getText() + "' is " + c.getWidth() + " px, its title needs "
                                + (textWidth(c.getText()) + 8));
            }
        }
    }

    @Test
    void at1400PixelsEveryTableOfTheMainWindowFitsWithoutScrollingSideways(FxRobot robot) {
        robot.interact(() -> {
            stage.setWidth(1400);
            stage.setHeight(900);
        });
        open(robot, Samples.scenario("rc_loss_nak"));
        for (String tab : List.of("Conversations", "Messages", "Findings")) {
            robot.interact(() -> view.showTab(tab));
            WaitForAsyncUtils.waitForFxEvents();
            noHorizontalScrolling(view);
        }
        // the selected conversation's statistics are on screen, under the table
        Label stats = robot.lookup("#conversationStats").queryAs(Label.class);
        robot.interact(() -> view.showTab("Conversations"));
        assertTrue(stats.getText().contains("retransmissions 5"), stats.getText());
        assertTrue(stats.getText().contains(" · 1.17 Gb/s\n"), "goodput in the unit that fits: " + stats.getText());
        var b = stats.localToScreen(stats.getBoundsInLocal());
        var w = stage.getScene().getRoot().localToScreen(stage.getScene().getRoot().getBoundsInLocal());
        assertTrue(b.getMaxX() <= w.getMaxX() + 1 && b.getWidth() > 0, "on screen: " + b + " in " + w);
    }

    @Test
    void theWindowTakesTheScreensVisualBounds(FxRobot robot) {
        var bounds = Screen.getPrimary().getVisualBounds();
        robot.interact(() -> RdmascopeApp.fitToScreen(stage, bounds));
        assertEquals(bounds.getWidth(), stage.getWidth());
        assertEquals(bounds.getHeight(), stage.getHeight());
        assertEquals(bounds.getMinX(), stage.getX());
    }

    /** The colour a row is painted with: the last background fill (Modena paints borders first). */
    private static Color background(TableRow<?> row) {
        Background bg = row.getBackground();
        assertNotNull(bg, "row has a background");
        return (Color) bg.getFills().get(bg.getFills().size() - 1).getFill();
    }

    @Test
    void aSelectedRowIsReadableUnderEveryColouringRule(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        for (ColoringRule rule : ColoringRule.defaults()) {
            // one rule that matches every frame, in this rule's colours
            robot.interact(() -> vm.packetList().setColoring(
                    List.of(new ColoringRule(rule.name(), "frame", rule.background(), rule.foreground(), true)),
                    List.of(FrameFilter.all())));
            robot.clickOn(rowOf(robot, 2));
            WaitForAsyncUtils.waitForFxEvents();
            for (int frame : new int[]{2, 3}) {
                TableRow<?> row = rowOf(robot, frame);
                TableCell<?, ?> cell = (TableCell<?, ?>) row.lookup(".table-cell");
                Color text = (Color) cell.getTextFill();
                Color back = background(row);
                double contrast = RowColours.contrast(text, back);
                assertTrue(contrast >= RowColours.MIN_CONTRAST, rule.name() + (frame == 2 ? " selected" : "")
                        + ": text " + text + " on " + back + " is " + contrast + ":1");
            }
        }
    }

    @Test
    void aSelectedWarningFindingIsReadable(FxRobot robot) {
        open(robot, Samples.scenario("rc_loss_nak"));
        robot.interact(() -> view.showTab("Findings"));
        var rows = vm.findings().rows();
        int warning = -1;
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).severity().id().equals("warning")) {
                warning = i;
            }
        }
        assertTrue(warning >= 0, "the loss case has a warning");
        int w = warning;
        robot.interact(() -> {
            view.findings().table().requestFocus();
            view.findings().table().getSelectionModel().select(w);
        });
        WaitForAsyncUtils.waitForFxEvents();
        TableRow<?> row = robot.lookup("#findingsTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> r.getIndex() == w).findFirst().orElseThrow();
        TableCell<?, ?> severity = (TableCell<?, ?>) row.lookup(".severity-warning");
        double contrast = RowColours.contrast((Color) severity.getTextFill(), background(row));
        assertTrue(contrast >= RowColours.MIN_CONTRAST, "warning text on the selection: " + contrast + ":1");
    }
}
