package io.rdmascope.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@link ReplayBenchmark}'s replay timed by thread CPU time, which a loaded machine disturbs far less than
 * JMH's wall time (issue 18): 24 rounds of read + dissect + replay of the same 200,000-frame capture in one
 * fresh JVM, the median of the last 16 printed in ns a frame ({@code count}: what {@code summary} and
 * {@code check} replay, no {@code Message} built; {@code replay}: every message kept, as {@code messages}).
 * Uses only what {@code ReplayBenchmark} had before this class, so the same file compiled against an older
 * benchmarks jar measures that build; alternate fresh JVMs of the two builds:
 * <pre>
 * java -XX:+UseSerialGC -cp benchmarks/target/benchmarks.jar io.rdmascope.replay.ReplayCpuTime count|replay
 * javac -cp OLD/benchmarks.jar -d /tmp/rc benchmarks/src/main/java/io/rdmascope/replay/ReplayCpuTime.java
 * java -XX:+UseSerialGC -cp OLD/benchmarks.jar:/tmp/rc io.rdmascope.replay.ReplayCpuTime count|replay
 * </pre>
 */
public final class ReplayCpuTime {
    private static final int ROUNDS = 24;
    private static final int COUNTED = 16;

    private ReplayCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !(args[0].equals("count") || args[0].equals("replay"))) {
            System.err.println("usage: ReplayCpuTime count|replay");
            System.exit(2);
        }
        boolean count = args[0].equals("count");
        ReplayBenchmark benchmark = new ReplayBenchmark();
        benchmark.generate();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] nanos = new long[ROUNDS];
        long reported = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                long start = threads.getCurrentThreadCpuTime();
                reported += count ? benchmark.readDissectAndCount() : benchmark.readDissectAndReplay();
                nanos[round] = threads.getCurrentThreadCpuTime() - start;
            }
        } finally {
            benchmark.clean();
        }
        // The first rounds include the JIT's warm-up; the median of the rest resists a busy neighbour.
        long[] last = Arrays.copyOfRange(nanos, ROUNDS - COUNTED, ROUNDS);
        Arrays.sort(last);
        double median = (last[COUNTED / 2 - 1] + last[COUNTED / 2]) / 2.0;
        System.out.printf("%s: %.1f ns/frame (thread CPU, median of the last %d of %d rounds; %d reported)%n",
                args[0], median / ReplayBenchmark.FRAMES, COUNTED, ROUNDS, reported);
    }
}
