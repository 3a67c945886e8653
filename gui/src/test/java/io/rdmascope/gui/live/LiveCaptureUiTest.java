package io.rdmascope.gui.live;

import io.rdmascope.gui.RdmascopeApp;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.main.MainView;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import javafx.application.Platform;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Capture tab with a fake libpcap: choose, start, watch the list grow, stop. */
@ExtendWith(ApplicationExtension.class)
class LiveCaptureUiTest {
    private MainViewModel vm;
    private MainView view;

    @Start
    void start(Stage stage) {
        FakeLiveCaptures fake = new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), -1, true);
        vm = new MainViewModel(AppExecutors.withUi(Platform::runLater), Settings.inMemory(), fake);
        var scene = RdmascopeApp.createScene(vm);
        view = (MainView) scene.getRoot();
        stage.setScene(scene);
        stage.show();
    }

    private static void waitUntil(Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(condition).get());
        } catch (TimeoutException e) {
            throw new AssertionError("timed out waiting", e);
        }
    }

    @Test
    void aLiveCaptureFillsTheListUntilStopped(FxRobot robot) {
        robot.interact(() -> view.showTab("Capture"));
        waitUntil(() -> robot.lookup("#interfacesTable").queryAs(TableView.class).getItems().size() == 3);
        robot.clickOn("#liveStart");
        waitUntil(() -> vm.packetList().rows().size() == 22);
        assertTrue(vm.capturing().get(), "still capturing: the interface is quiet, not closed");
        assertTrue(robot.lookup("#liveStatistics").queryLabeled().getText().startsWith("Captured 22"));
        robot.clickOn("#liveStop");
        waitUntil(() -> !vm.capturing().get() && vm.analysis().get() != null);
        assertEquals(22, vm.packetList().rows().size());
        assertEquals(1, vm.conversations().rows().size());
    }
}
