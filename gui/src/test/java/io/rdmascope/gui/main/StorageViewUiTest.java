package io.rdmascope.gui.main;

import io.rdmascope.gui.operations.OperationsViewModel;
import io.rdmascope.samples.IserSession;
import javafx.scene.Node;
import javafx.scene.control.TableRow;
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

/** The Storage tab on screen: its rows, and a click selecting the operation's frames in the packet list. */
@ExtendWith(ApplicationExtension.class)
class StorageViewUiTest {
    private MainWindowDriver driver;

    @Start
    void start(Stage stage) {
        driver = new MainWindowDriver(stage);
    }

    @Test
    void clickingAnOperationSelectsItsFrames(FxRobot robot, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("iser.pcap");
        IserSession.write(file);
        driver.open(robot, file);
        MainWindowDriver.waitUntil(() -> driver.vm.operations().rows().size() == 6);
        robot.interact(() -> driver.view.showTab("Storage"));
        WaitForAsyncUtils.waitForFxEvents();
        OperationsViewModel.Row write = driver.vm.operations().rows().get(2);
        Node cell = robot.lookup("#operationsTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> r.getItem() == write).findFirst()
                .orElseThrow(() -> new AssertionError("the Write(10) row is not on screen"));
        robot.clickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(OperationsViewModel.framesOf(write.operation()), driver.vm.selection().frames().get());
        assertEquals((int) write.commandFrame(), driver.view.packetList().table().getSelectionModel().getSelectedItem());
    }
}
