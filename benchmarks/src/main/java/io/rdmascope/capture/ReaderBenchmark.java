package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.samples.Scenarios;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The readers alone, per frame: the mapped pcap and pcapng paths over the same 200,000-frame
 * mixed capture (seed 1), frame lengths summed so nothing is optimised away.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar ReaderBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReaderBenchmark {
    static final int FRAMES = 200_000;
    private Path dir;
    private Path pcap;
    private Path pcapng;

    @Setup(Level.Trial)
    public void generate() throws IOException {
        dir = Files.createTempDirectory("rdmascope-bench");
        pcap = Scenarios.writeMixedLarge(dir, 1, FRAMES, 64, false);
        pcapng = Scenarios.writeMixedLarge(dir, 1, FRAMES, 64, true);
    }

    @TearDown(Level.Trial)
    public void clean() throws IOException {
        Files.deleteIfExists(pcap);
        Files.deleteIfExists(pcapng);
        Files.deleteIfExists(dir);
    }

    private static long readAll(Path file) throws IOException {
        long sum = 0;
        try (PacketSource source = CaptureFiles.open(file)) {
            Frame f;
            while ((f = source.next()) != null) {
                sum += f.capturedLength();
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long pcap() throws IOException {
        return readAll(pcap);
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long pcapng() throws IOException {
        return readAll(pcapng);
    }
}
