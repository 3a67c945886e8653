package io.rdmascope.dissect;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
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
 * Read + dissect per frame on the fast path, over the generated mixed_large capture (seed 1,
 * 64 QPs, 200,000 frames): the cost {@code dissect -T fields} pays per frame before printing.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar ReadDissect}. Scores are per frame.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReadDissectBenchmark {
    static final int FRAMES = 200_000;

    private Path dir;
    private Path capture;
    private final DissectorChain chain = DissectorChain.standard();
    private final Dissection dissection = new Dissection();

    @Setup(Level.Trial)
    public void generate() throws IOException {
        dir = Files.createTempDirectory("rdmascope-bench");
        capture = Scenarios.writeMixedLarge(dir, 1, FRAMES, 64, false);
    }

    @TearDown(Level.Trial)
    public void clean() throws IOException {
        Files.deleteIfExists(capture);
        Files.deleteIfExists(dir);
    }

    /** Reader and dissector only; the PSNs are summed so the work cannot be optimised away. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long readAndDissect() throws IOException {
        long sum = 0;
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, dissection);
                int bth = dissection.rdma().bthLayer;
                if (bth >= 0) {
                    sum += InfiniBand.BTH_PSN.read(dissection.buffer(), dissection.layerAt(bth));
                }
            }
        }
        return sum;
    }

    /** As above plus ICRC verification of every RDMA frame. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long readDissectAndVerifyIcrc() throws IOException {
        long good = 0;
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, dissection);
                if (dissection.rdma().isRdma() && Crcs.icrcStatus(dissection) == Crcs.STATUS_GOOD) {
                    good++;
                }
            }
        }
        return good;
    }
}
