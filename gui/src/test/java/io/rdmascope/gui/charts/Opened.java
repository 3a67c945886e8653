package io.rdmascope.gui.charts;

import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** What the charts' tests share: a capture opened and replayed, and waiting for the FX thread. */
final class Opened {
    private Opened() {
    }

    /** {@code file} opened in a main view model running every job on the calling thread: replayed on return. */
    static MainViewModel capture(Path file) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(file);
        return vm;
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
