package io.rdmascope.dissect;

import io.rdmascope.build.RocePacket;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Crcs;
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
 * One frame through each dissector path the chain has: RoCEv2 over IPv4, IPv6 and VLAN, RoCEv1,
 * native IB with and without a GRH — an RDMA WRITE First with RETH and 1 KiB of payload, built once
 * by the packet builder. {@code dissect} is the fast path; {@code dissectAndVerifyIcrc} adds the ICRC.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar DissectPaths}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DissectPathsBenchmark {
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] V4_A = {10, 0, 0, 1};
    private static final byte[] V4_B = {10, 0, 0, 2};

    @Param({"roce_v2_ipv4", "roce_v2_ipv6", "roce_v2_vlan", "roce_v1", "ib_local", "ib_global"})
    public String path;

    private Frame frame;
    private final DissectorChain chain = DissectorChain.standard();
    private final Dissection dissection = new Dissection();

    @Setup
    public void build() {
        byte[] gidA = new byte[16];
        byte[] gidB = new byte[16];
        gidA[15] = 1;
        gidB[15] = 2;
        RocePacket p = switch (path) {
            case "roce_v2_ipv4" -> RocePacket.v2Ipv4(MAC_A, MAC_B, V4_A, V4_B);
            case "roce_v2_ipv6" -> RocePacket.v2Ipv6(MAC_A, MAC_B, gidA, gidB);
            case "roce_v2_vlan" -> RocePacket.v2Ipv4(MAC_A, MAC_B, V4_A, V4_B).vlan(100, 3);
            case "roce_v1" -> RocePacket.v1(MAC_A, MAC_B, gidA, gidB);
            case "ib_local" -> RocePacket.nativeIb(1, 2);
            case "ib_global" -> RocePacket.nativeIb(1, 2).grh(gidA, gidB);
            default -> throw new IllegalArgumentException(path);
        };
        p.opcode(0x06).destQp(0x11).psn(42).set(InfiniBand.RETH_DMALEN, 4096).payload(new byte[1024]);
        frame = Frame.of(1, 0, p.linkType(), p.build());
    }

    @Benchmark
    public int dissect() {
        chain.dissect(frame, dissection);
        return dissection.rdma().opcode;
    }

    @Benchmark
    public int dissectAndVerifyIcrc() {
        chain.dissect(frame, dissection);
        return Crcs.icrcStatus(dissection);
    }
}
