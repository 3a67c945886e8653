package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md's fast path: numeric, address and byte comparisons read the frame's buffer in place and
 * allocate nothing per frame, whatever the filter's shape (sets, slices, quantifiers, value names,
 * computed fields, protocols).
 */
class FastPathAllocationTest {
    @Test
    void numericAddressAndByteFiltersAllocateNothingPerFrame() throws Exception {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean,
                "SKIPPED: this JVM cannot count a thread's allocations");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported(), "SKIPPED: allocation counting off");

        DisplayFilter filter = DisplayFilter.compile("(infiniband.bth.opcode in {0..5, 6, 0x0c} && ip.src == "
                + "10.0.0.0/24 && eth.src[0:3] == 02:1e:67 && infiniband.bth.psn > 100) || ip.addr != 10.9.9.9 "
                + "&& infiniband.aeth.syndrome.opcode == Nak || frame.len > 1000 && udp.dstport == 4791 "
                + "|| infiniband contains 00:00:10:00 || len(infiniband) == 20 && infiniband.bth.a == False "
                + "|| frame.time_relative > 0.5 || infiniband.bth.opcode & 0x10 == 0x10 && ip.dsfield.ecn == 3");
        List<Frame> frames = Captures.read(Captures.sample("captures/roce_v2_mixed.pcapng"));
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        long sink = run(filter, frames, chain, d, 200); // warm up: the JIT settles
        long dissectOnly = measure(threads, () -> dissect(frames, chain, d, 50));
        long[] matched = new long[1];
        long withFilter = measure(threads, () -> matched[0] = run(filter, frames, chain, d, 50));
        long evaluations = 50L * frames.size();
        long perFrame = (withFilter - dissectOnly) / evaluations;
        assertTrue(matched[0] > 0 && sink > 0, "the filter should pass some frames");
        assertTrue(perFrame < 1, "filtering allocated " + (withFilter - dissectOnly) + " bytes over "
                + evaluations + " frames");
    }

    private static long run(DisplayFilter filter, List<Frame> frames, DissectorChain chain, Dissection d, int rounds) {
        long passed = 0;
        for (int r = 0; r < rounds; r++) {
            for (Frame f : frames) {
                chain.dissect(f, d);
                if (filter.matches(d)) {
                    passed++;
                }
            }
        }
        return passed;
    }

    private static void dissect(List<Frame> frames, DissectorChain chain, Dissection d, int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (Frame f : frames) {
                chain.dissect(f, d);
            }
        }
    }

    private static long measure(com.sun.management.ThreadMXBean threads, Runnable work) {
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        work.run();
        return threads.getThreadAllocatedBytes(id) - before;
    }
}
