package io.rdmascope.ops;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

/**
 * The storage-operation tracker's cost a frame by thread CPU time, which a loaded machine disturbs far
 * less than wall time (issue 18): passes of read + dissect over a capture, alternately without and with
 * the tracker and its rules as {@code summary} and {@code check} feed them, each timed by
 * {@link ThreadMXBean#getCurrentThreadCpuTime()}. Uses only API that builds before this class had, so
 * the same file compiled against an older {@code cli/target/rdmascope.jar} measures that build:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.rdmascope.ops.TrackerCpuTime FILE [ROUNDS]
 * javac -cp OLD/rdmascope.jar -d /tmp/tc benchmarks/src/main/java/io/rdmascope/ops/TrackerCpuTime.java
 * java -XX:+UseSerialGC -cp OLD/rdmascope.jar:/tmp/tc io.rdmascope.ops.TrackerCpuTime FILE [ROUNDS]
 * </pre>
 */
public final class TrackerCpuTime {
    private TrackerCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: TrackerCpuTime CAPTURE [ROUNDS]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= rounds; round++) {
            long plain = pass(file, false, threads);
            long tracked = pass(file, true, threads);
            System.out.printf("round %d: dissect %.1f ns/frame, dissect + tracker %.1f ns/frame, tracker %.1f ns/frame%n",
                    round, plain / 1e3, tracked / 1e3, (tracked - plain) / 1e3);
        }
    }

    /** Thread CPU picoseconds a frame (nanoseconds times 1000, to keep a decimal) of one pass. */
    private static long pass(Path file, boolean track, ThreadMXBean threads) throws Exception {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        OperationRules rules = new OperationRules();
        OperationTracker tracker = rules.tracker(o -> { });
        long frames = 0;
        long start = threads.getCurrentThreadCpuTime();
        try (PacketSource source = CaptureFiles.open(file)) {
            for (Frame f; (f = source.next()) != null; frames++) {
                chain.dissect(f, d);
                if (track) {
                    tracker.accept(d);
                }
            }
        }
        tracker.finish();
        long nanos = threads.getCurrentThreadCpuTime() - start;
        return frames == 0 ? 0 : nanos * 1000 / frames;
    }
}
