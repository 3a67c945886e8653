package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
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
 * Read + dissect + replay per frame over the generated mixed_large capture (seed 1, 64 QPs,
 * 200,000 frames), every message streamed to a counting listener: what {@code messages} pays per
 * frame before printing ({@code readDissectAndReplay}), and what {@code summary} and {@code check} pay
 * with no message built ({@code readDissectAndCount}). Subtract {@code ReadDissectBenchmark.readAndDissect} for the replay alone.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar Replay}. Scores are per frame.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReplayBenchmark {
    static final int FRAMES = 200_000;

    private Path dir;
    private Path capture;
    private final DissectorChain chain = DissectorChain.standard();
    private final Dissection dissection = new Dissection();

    /** Counts what the engine reports, so none of its work can be optimised away. */
    private static final class Counter implements ReplayListener {
        /** Handed each message as a {@link Message} ({@code messages}), or only told of it (summary, check). */
        private final boolean keeps;
        long messages;
        long observations;

        Counter(boolean keeps) {
            this.keeps = keeps;
        }

        @Override
        public boolean keepsMessages() {
            return keeps;
        }

        @Override
        public void message(Message message) {
            messages += message.bytes();
        }

        @Override
        public void messageCounted() {
            messages++;
        }

        @Override
        public void observation(Observation observation) {
            observations++;
        }
    }

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

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long readDissectAndReplay() throws IOException {
        return replay(new Counter(true));
    }

    /**
     * The same replay into a listener that only counts messages, as {@code summary}, {@code check} and
     * {@code flows} replay ({@code ReplayResult.withoutMessages()}): no {@code Message} is built.
     */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long readDissectAndCount() throws IOException {
        return replay(new Counter(false));
    }

    private long replay(Counter counter) throws IOException {
        ReplayEngine engine = new ReplayEngine(counter);
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, dissection);
                engine.accept(dissection);
            }
        }
        engine.finish();
        return counter.messages + counter.observations;
    }
}
