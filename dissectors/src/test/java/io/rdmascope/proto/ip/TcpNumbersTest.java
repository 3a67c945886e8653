package io.rdmascope.proto.ip;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TCP's relative numbers on hand-made connections (the tshark comparison on real captures is the
 * CLI's TcpSequenceNumbersTsharkTest): tshark 4.0's choice of bases in the cases the captures lack,
 * and no allocation per frame once a connection is known.
 */
class TcpNumbersTest {
    private static final int A = 0x0a000001;
    private static final int B = 0x0a000002;

    /** Ethernet, IPv4 and a 20-byte TCP header with {@code payload} zero bytes, from A:1000 or B:2000. */
    private static byte[] segment(boolean fromA, int seq, int ack, int flags, int payload) {
        ByteBuffer b = ByteBuffer.allocate(54 + payload);
        b.put(new byte[]{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (40 + payload)).putInt(0).put((byte) 64).put((byte) 6)
                .putShort((short) 0).putInt(fromA ? A : B).putInt(fromA ? B : A);
        b.putShort((short) (fromA ? 1000 : 2000)).putShort((short) (fromA ? 2000 : 1000)).putInt(seq).putInt(ack)
                .putShort((short) (0x5000 | flags)).putShort((short) 1024).putInt(0);
        return b.array();
    }

    private record Shown(long seq, long ack, long nextSeq) {
    }

    private static List<Shown> dissect(DissectorChain chain, byte[]... segments) {
        Dissection d = new Dissection();
        List<Shown> out = new ArrayList<>();
        for (int i = 0; i < segments.length; i++) {
            chain.dissect(Frame.of(i + 1, i * 1000L, LinkTypes.ETHERNET, segments[i]), d);
            out.add(new Shown(d.tcpSeq(), d.tcpAck(), d.tcpNextSeq()));
        }
        return out;
    }

    @Test
    @DisplayName("mid-way: the first segment reads 1, an ACK fixes the other side's base before it sends")
    void midwayConnection() {
        List<Shown> s = dissect(DissectorChain.standard(),
                segment(true, 5000, 9000, 0x18, 10), // A sends first: seq 1, B's base from the ack
                segment(false, 9100, 5010, 0x10, 0), // B's first segment: 9100 - 8999
                segment(true, 5010, 9100, 0x11, 0)); // A's FIN takes one number
        assertEquals(List.of(new Shown(1, 1, 11), new Shown(101, 11, 101), new Shown(11, 101, 12)), s);
    }

    @Test
    @DisplayName("a SYN reads 0 and counts one; a SYN with a new ISN on the same ports starts over; raw on request")
    void synAndReusedPorts() {
        byte[][] segments = {
                segment(true, 100, 0, 0x02, 0), segment(false, 700, 101, 0x12, 0),
                segment(true, 101, 701, 0x10, 5),
                segment(true, 100, 0, 0x02, 0), // the same SYN again: a retransmission, still 0
                segment(true, 4000, 0, 0x02, 0)}; // another ISN: a new connection
        List<Shown> s = dissect(DissectorChain.standard(), segments);
        assertEquals(List.of(new Shown(0, 0, 1), new Shown(0, 1, 1), new Shown(1, 1, 6), new Shown(0, 0, 1),
                new Shown(0, 0, 1)), s);
        List<Shown> raw = dissect(DissectorChain.standard().withRelativeTcpSequenceNumbers(false), segments);
        assertEquals(new Shown(101, 701, 106), raw.get(2));
    }

    @Test
    @DisplayName("numbers wrap modulo 2^32: a base near the top still gives small relative numbers")
    void wraps() {
        List<Shown> s = dissect(DissectorChain.standard(), segment(true, -10, 0, 0x02, 0),
                segment(true, -9, 0, 0x18, 100));
        assertEquals(new Shown(1, 1, 101), s.get(1)); // ack 0 with ACK set: the other base becomes -1
    }

    @Test
    @DisplayName("a frame of a known connection allocates nothing: the cost does not grow with the frames")
    void noAllocationPerFrame() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean,
                "SKIPPED: this JVM cannot count a thread's allocations");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported(), "SKIPPED: allocation counting off");
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            boolean fromA = i % 2 == 0;
            byte[] bytes = segment(fromA, 1000 + i * 10, 50_000 + i * 10, 0x18, 10);
            frames.add(Frame.of(i + 1, i * 1000L, LinkTypes.ETHERNET, bytes));
        }
        DissectorChain chain = DissectorChain.standard();
        for (int r = 0; r < 30; r++) {
            pass(chain, frames, frames.size()); // warm up: the JIT settles
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        pass(chain, frames, 1_000);
        long shortPass = threads.getThreadAllocatedBytes(id) - before;
        before = threads.getThreadAllocatedBytes(id);
        pass(chain, frames, frames.size());
        long longPass = threads.getThreadAllocatedBytes(id) - before;
        long perFrame = (longPass - shortPass) / (frames.size() - 1_000);
        assertTrue(perFrame < 1, "dissecting TCP frames allocated " + (longPass - shortPass) + " bytes more over "
                + (frames.size() - 1_000) + " more frames");
    }

    private static void pass(DissectorChain chain, List<Frame> frames, int count) {
        Dissection d = new Dissection();
        for (int i = 0; i < count; i++) {
            chain.dissect(frames.get(i), d);
        }
    }
}
