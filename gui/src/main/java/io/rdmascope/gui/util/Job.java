package io.rdmascope.gui.util;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * A cancellation flag for one background job. Starting a new job of the same kind cancels the old
 * one (a new filter replaces the one still running), and results of a cancelled job are dropped on
 * arrival, so a slow old job can never overwrite a newer answer.
 */
public final class Job implements BooleanSupplier {
    private final AtomicBoolean cancelled = new AtomicBoolean();

    public void cancel() {
        cancelled.set(true);
    }

    public boolean isCancelled() {
        return cancelled.get();
    }

    /** Same as {@link #isCancelled()}, for code that polls a {@link BooleanSupplier}. */
    @Override
    public boolean getAsBoolean() {
        return cancelled.get();
    }

    /** Cancels {@code job} if there is one. */
    public static void cancel(Job job) {
        if (job != null) {
            job.cancel();
        }
    }
}
