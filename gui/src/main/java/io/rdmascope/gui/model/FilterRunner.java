package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;

import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * Applies a display filter to every frame of an index, in order through one {@link Dissection} (so
 * {@code frame.time_delta} and friends read as in a full pass), on a background thread. A million
 * frames take about a second.
 */
public final class FilterRunner {
    /** Progress: frames tested so far. */
    public interface Progress {
        void update(int tested, int total);
    }

    private FilterRunner() {
    }

    /**
     * The numbers of the frames 1..{@code frames} that pass {@code filter} (a copy of which this
     * thread uses), ascending; null when cancelled.
     */
    public static int[] run(FrameIndex index, int frames, DissectorChain chain, FrameFilter filter,
                            BooleanSupplier cancelled, Progress progress) {
        FrameFilter mine = filter.copy();
        Dissection d = new Dissection();
        int[] out = new int[Math.max(16, Math.min(frames, 1 << 16))];
        int n = 0;
        long lastReport = System.nanoTime();
        for (int f = 1; f <= frames; f++) {
            chain.dissect(index.frame(f), d);
            if (mine.matches(d)) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, Math.min(frames, out.length * 2));
                }
                out[n++] = f;
            }
            if ((f & 4095) == 0) {
                if (cancelled.getAsBoolean()) {
                    return null;
                }
                long now = System.nanoTime();
                if (now - lastReport > CaptureLoader.REPORT_NANOS) {
                    lastReport = now;
                    progress.update(f, frames);
                }
            }
        }
        progress.update(frames, frames);
        return Arrays.copyOf(out, n);
    }
}
