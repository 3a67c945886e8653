package io.rdmascope.gui.util;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where view models run work: {@code background} for reading, replaying, filtering and sorting;
 * {@code ui} for changing the state views bind to (the FX thread in the application). View-model
 * tests pass {@link #sameThread()}, so every job runs to its end inside the call that starts it and
 * the test needs no FX thread and no waiting.
 */
public record AppExecutors(Executor background, Executor ui) {

    /** Everything on the caller's thread, at once: for view-model tests. */
    public static AppExecutors sameThread() {
        return new AppExecutors(Runnable::run, Runnable::run);
    }

    /** Daemon background threads, and {@code ui} for the FX thread (Platform::runLater). */
    public static AppExecutors withUi(Executor ui) {
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "rdmascope-background-" + n.incrementAndGet());
            t.setDaemon(true);
            t.setPriority(Thread.NORM_PRIORITY - 1); // the FX thread stays responsive on two cores
            return t;
        });
        return new AppExecutors(pool, ui);
    }
}
