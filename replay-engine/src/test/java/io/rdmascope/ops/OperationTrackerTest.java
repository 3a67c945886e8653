package io.rdmascope.ops;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.IserSession;
import io.rdmascope.samples.Trace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The operation tracker on built sessions whose every command, response and transfer the test knows. */
class OperationTrackerTest {
    private static final long US = 1_000;

    static List<Operation> track(List<Frame> frames) {
        List<Operation> ops = new ArrayList<>();
        feed(OperationTracker.standard(ops::add), frames);
        ops.sort(Comparator.comparingLong(Operation::commandFrame));
        return ops;
    }

    /** Dissects the frames in order into {@code tracker}, then finishes it. */
    static void feed(OperationTracker tracker, List<Frame> frames) {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (Frame f : frames) {
            chain.dissect(f, d);
            tracker.accept(d);
        }
        tracker.finish();
    }

    @Test
    void nvmeOfCommandsArePairedTimedAndGivenTheirData() {
        List<Operation> ops = track(NvmeOfSession.frames());
        assertEquals(7, ops.size(), ops::toString);
        String ioQueue = "qid 1 QP 0x000011/0x000022";

        Operation connect = ops.get(0);
        assertEquals(List.of("nvme-rdma", ioQueue, "Connect", "0x0001", "completed"),
                List.of(connect.protocol(), connect.queue(), connect.opcode(), connect.idText(), connect.status()));
        assertEquals(1024, connect.size());
        assertEquals(4, connect.commandFrame());
        assertEquals(8L, connect.responseFrame());
        assertEquals(List.of(6L, 7L), connect.dataFrames());
        assertEquals(4 * US, connect.latencyNs());
        assertEquals(1 * US, connect.deliveryNs()); // the ACK in frame 5
        assertEquals(1 * US, connect.dataNs());
        assertEquals(1 * US, connect.completionNs()); // last data frame 7 to the CQE in 8

        Operation write = ops.get(1);
        assertEquals(List.of("Write", "completed"), List.of(write.opcode(), write.status()));
        assertEquals(List.of(11L, 12L, 13L), write.dataFrames()); // READ Request, Response First and Last
        assertEquals(14L, write.responseFrame());
        assertEquals(2 * US, write.dataNs());

        Operation read = ops.get(2);
        assertEquals(List.of("Read", "completed"), List.of(read.opcode(), read.status()));
        assertEquals(List.of(17L, 18L), read.dataFrames()); // RDMA WRITE First and Last
        assertEquals(2048, read.size());
        assertEquals(1 * US, read.completionNs());

        Operation flush = ops.get(3);
        assertEquals(List.of("Flush", "failed", "Invalid Field in Command"),
                List.of(flush.opcode(), flush.status(), flush.reason()));
        assertEquals(List.of(), flush.dataFrames());
        assertNull(flush.deliveryNs()); // no ACK was captured
        assertNull(flush.dataNs());
        assertEquals(1 * US, flush.completionNs()); // without data: command to response

        Operation lost = ops.get(4);
        assertEquals(List.of("Read", "unanswered", "teardown"), List.of(lost.opcode(), lost.status(), lost.reason()));
        assertNull(lost.responseFrame());
        assertNull(lost.latencyNs());
        assertEquals(23L, lost.teardownFrame());
        assertEquals(1 * US, lost.teardownAfterNs());

        Operation late = ops.get(5);
        assertEquals(List.of("Write", "unanswered", "after_teardown"),
                List.of(late.opcode(), late.status(), late.reason()));
        assertEquals(-1 * US, late.teardownAfterNs());
        assertEquals(List.of(), late.dataFrames()); // frame 25 writes into key 0x9999, no command's buffer

        Operation keepAlive = ops.get(6);
        assertEquals(List.of("qid 0 QP 0x000033/0x000044", "Keep Alive", "unanswered", "capture_end"),
                List.of(keepAlive.queue(), keepAlive.opcode(), keepAlive.status(), keepAlive.reason()));
        assertNull(keepAlive.teardownFrame()); // the DREQ named the other connection's QP
    }

    @Test
    void iserTasksArePairedByTagAndTheirTransfersByStag() {
        List<Frame> frames = new ArrayList<>();
        for (Trace.CapturedFrame f : IserSession.frames()) {
            frames.add(Frame.of(frames.size() + 1, f.timeNanos(), f.linkType(), f.bytes()));
        }
        List<Operation> ops = track(frames);
        List<String> summary = ops.stream().map(o -> o.opcode() + " " + o.idText() + " " + o.status()
                + (o.reason() == null ? "" : " (" + o.reason() + ")") + " data " + o.dataFrames().size()).toList();
        assertEquals(List.of("Login Command 0x00000000 completed data 0",
                "Read(10) 0x00000010 completed data 2",
                "Write(10) 0x00000011 completed data 2",
                "Read(16) 0x00000012 failed (Check Condition) data 1",
                "NOP Out 0x00000013 completed data 0",
                "Task Management Function 0x00000014 failed (Task not in task set) data 0"),
                summary);
        for (Operation o : ops) {
            assertEquals("iser", o.protocol());
            assertEquals(o.latencyNs(), o.responseFrame() == null ? null
                    : frames.get((int) (long) o.responseFrame() - 1).timeNanos()
                    - frames.get((int) o.commandFrame() - 1).timeNanos());
            assertEquals(o.deliveryNs() != null, true, "every iSER SEND is acknowledged: " + o);
        }
        assertEquals(2048, ops.get(1).size());
        assertEquals(1024, ops.get(2).size());
    }

    @Test
    void serviceResponseTimesCountCallsFailuresAndUnansweredPerOpcode() {
        ServiceResponseTimes times = new ServiceResponseTimes();
        track(NvmeOfSession.frames()).forEach(times);
        assertEquals(List.of(
                new ServiceResponseTimes.Row("nvme-rdma", "Connect", 1, 0, 0, 4 * US, 4 * US, 4 * US, 4 * US),
                new ServiceResponseTimes.Row("nvme-rdma", "Flush", 1, 1, 0, 1 * US, 1 * US, 1 * US, 1 * US),
                new ServiceResponseTimes.Row("nvme-rdma", "Keep Alive", 0, 0, 1, null, null, null, null),
                new ServiceResponseTimes.Row("nvme-rdma", "Read", 1, 0, 1, 4 * US, 4 * US, 4 * US, 4 * US),
                new ServiceResponseTimes.Row("nvme-rdma", "Write", 1, 0, 1, 5 * US, 5 * US, 5 * US, 5 * US)),
                times.rows());
    }

    @Test
    void outstandingCommandsAreBoundedAndTheOverflowCounted() {
        List<Operation> ops = new ArrayList<>();
        OperationTracker tracker = new OperationTracker(List.of((d, out) -> out.command(new OperationEvents.Command(
                new OperationEvents.Queue("test", "", 1, 2), d.frame().number(), "", "op", 0, List.of()))),
                ops::add, 2);
        Dissection d = new Dissection();
        DissectorChain chain = DissectorChain.standard();
        for (int i = 1; i <= 5; i++) {
            chain.dissect(Frame.of(i, i, 1, new byte[14]), d);
            tracker.accept(d);
        }
        assertEquals(3, tracker.overflowed());
        assertEquals(List.of(1L, 2L, 3L), ops.stream().map(Operation::id).toList());
        assertEquals(List.of("overflow"), ops.stream().map(Operation::reason).distinct().toList());
        tracker.finish();
        assertEquals(List.of("overflow", "overflow", "overflow", "capture_end", "capture_end"),
                ops.stream().map(Operation::reason).toList());
    }
}
