package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.replay.AnalysisTree;
import io.rdmascope.replay.FrameAnalysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The first of {@code dissect}'s two passes (like {@code tshark -2}): the whole replay, made only when
 * {@code -Y}, {@code -e} or {@code -V} asks for analysis, then read frame by frame during the second
 * pass. It also remembers each RDMA frame's PSN as the second pass goes by, so that the analysis node
 * of a retransmission can name the earlier frame it repeats.
 */
final class AnalysisPass {
    private final FrameAnalysis analysis;
    private int[] psnByFrame = new int[0];

    private AnalysisPass(FrameAnalysis analysis) {
        this.analysis = analysis;
    }

    static AnalysisPass replay(Path file, ReplayOptions input) throws IOException {
        return new AnalysisPass(input.firstPass(file));
    }

    FrameAnalysis analysis() {
        return analysis;
    }

    /** Notes frame {@code d}'s PSN; call for every frame of the second pass, shown or not. */
    void saw(Dissection d) {
        long n = d.frame().number();
        int psn = AnalysisTree.bthPsn(d);
        if (n <= 0 || n > Integer.MAX_VALUE - 8 || psn < 0) {
            return;
        }
        if (n >= psnByFrame.length) {
            int size = (int) Math.max(n + 1, Math.max(1024L, psnByFrame.length * 2L));
            int old = psnByFrame.length;
            psnByFrame = Arrays.copyOf(psnByFrame, size);
            Arrays.fill(psnByFrame, old, size, -1);
        }
        psnByFrame[(int) n] = psn;
    }

    /** Appends the frame's {@code [RDMA analysis]} node to {@code -V} text (nothing when it has none). */
    void appendTree(Dissection d, StringBuilder out) {
        AnalysisTree.print(AnalysisTree.of(analysis, d.frame().number(),
                f -> f > 0 && f < psnByFrame.length ? psnByFrame[(int) f] : -1), out);
    }
}
