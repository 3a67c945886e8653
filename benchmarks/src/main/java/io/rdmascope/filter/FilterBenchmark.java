package io.rdmascope.filter;

import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Display-filter evaluation on one dissected RoCEv2 frame (an RDMA WRITE First), for filters of
 * increasing weight. Run: {@code java -jar benchmarks/target/benchmarks.jar FilterBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FilterBenchmark {
    @Param({"infiniband.bth.opcode == 17", "ip.src == 10.0.0.0/24 && infiniband.bth.psn in {5..9}",
            "infiniband.aeth || (udp.dstport == 4791 && infiniband.reth.dmalen > 64 && eth.src[0:3] == 02:00:00)"})
    public String expression;

    private DisplayFilter filter;
    private final Dissection dissection = new Dissection();

    @Setup
    public void compile() throws FilterException {
        byte[] bytes = RocePacket.v2Ipv4(new byte[]{2, 0, 0, 0, 0, 1}, new byte[]{2, 0, 0, 0, 0, 2},
                new byte[]{10, 0, 0, 1}, new byte[]{10, 0, 0, 2}).opcode(0x06).destQp(0x11).psn(7)
                .set(InfiniBand.RETH_DMALEN, 1024).payload(new byte[1024]).build();
        DissectorChain.standard().dissect(Frame.of(1, 0, 1, bytes), dissection);
        filter = DisplayFilter.compile(expression);
    }

    @Benchmark
    public boolean matches() {
        return filter.matches(dissection);
    }
}
