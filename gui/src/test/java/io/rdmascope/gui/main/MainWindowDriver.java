package io.rdmascope.gui.main;

import io.rdmascope.gui.RdmascopeApp;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** What the main window's UI tests share: the window as the app builds it, opening a capture, waiting. */
final class MainWindowDriver {
    final MainViewModel vm;
    final MainView view;

    /** Builds the main window in {@code stage} with in-memory settings and shows it. */
    MainWindowDriver(Stage stage) {
        vm = new MainViewModel(AppExecutors.withUi(Platform::runLater), Settings.inMemory());
        var scene = RdmascopeApp.createScene(vm);
        view = (MainView) scene.getRoot();
        stage.setScene(scene);
        stage.show();
    }

    /** Opens {@code file} and waits until it is loaded and replayed. */
    void open(FxRobot robot, Path file) {
        robot.interact(() -> vm.open(file));
        waitUntil(() -> !vm.loading().get() && !vm.replaying().get());
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Waits (at most 30 s) until {@code condition}, checked on the FX thread, holds. */
    static void waitUntil(Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(condition).get());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("timed out waiting", e);
        }
    }
}
