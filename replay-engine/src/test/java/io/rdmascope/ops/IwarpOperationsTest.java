package io.rdmascope.ops;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.smbdirect.SmbDirectIwarpCapture;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operations over iWARP (SMB Direct, [MS-SMBD] §2.1) on the session {@link SmbDirectIwarpCapture#operations()}
 * builds, frames one second apart: every field of every operation, stated from what the session sends.
 */
class IwarpOperationsTest {
    private static final long S = 1_000_000_000L;
    private static final String QUEUE = "TCP 10.0.1.1:50123/10.0.1.2:5445";

    private static Operation op(String opcode, String description, long id, long size, String status, String reason,
                                Long statusCode, long command, Long response, List<Long> data, Long teardownFrame,
                                Long teardownAfterNs, Long latency, Long delivery, Long dataNs, Long completion,
                                String teardownBy) {
        return new Operation("smb_direct", QUEUE, 0, 0, opcode, description, id, Long.toString(id), size, status, reason,
                statusCode, command, response, data, teardownFrame, teardownAfterNs, latency, delivery, dataNs,
                completion, teardownBy);
    }

    @Test
    void readWriteFailureAndTeardownOverIwarp() {
        List<Operation> ops = OperationTrackerTest.track(SmbDirectIwarpCapture.operations().frames());
        List<Operation> expected = List.of(
                // READ: ACK 1 s later, the server's RDMA Write in frames 10 and 11 (the Write to frame 12 lies past
                // its buffer), the response at 13; answered before the teardown, so none is named.
                op("Read", "Read", 1, 4096, "completed", null, null, 8, 13L, List.of(10L, 11L), null, null, 5 * S,
                        1 * S, 1 * S, 2 * S, null),
                // WRITE: its size is RemainingBytes; the server's Read Request (15, which acknowledges it) and the
                // client's Read Response to the sink it named (16).
                op("Write", "Write", 2, 2048, "completed", null, null, 14, 17L, List.of(15L, 16L), null, null, 3 * S,
                        1 * S, 1 * S, 1 * S, null),
                // CREATE: its response's segment also carries the ACK that delivers it.
                op("Create", "Create", 3, 0, "failed", "STATUS_OBJECT_NAME_NOT_FOUND", 0xC0000034L, 18, 19L,
                        List.of(), null, null, 1 * S, 1 * S, null, 1 * S, null),
                // ECHO: acknowledged in frame 21, outstanding at the client's FIN (22).
                op("KeepAlive", "KeepAlive", 4, 0, "unanswered", "teardown", null, 20, null, List.of(), 22L, 2 * S,
                        null, 1 * S, null, null, "FIN"));
        assertEquals(expected, ops);
    }

    /**
     * Several FPDUs to a segment: two commands in one, the data, both responses and the ACK in the
     * next (counted in that order: the data and the delivery before the responses end the commands);
     * then a command outstanding at the server's Terminate, the first of its two teardowns.
     */
    @Test
    void packedSegmentsAndTerminate() {
        List<Operation> ops = OperationTrackerTest.track(SmbDirectIwarpCapture.packedOperations().frames());
        assertEquals(List.of(
                op("Read", "Read", 1, 4096, "completed", null, null, 8, 9L, List.of(9L), null, null, 1 * S, 1 * S, 0L,
                        0L, null),
                op("KeepAlive", "KeepAlive", 2, 0, "completed", null, null, 8, 9L, List.of(), null, null, 1 * S, 1 * S,
                        null, 1 * S, null),
                op("KeepAlive", "KeepAlive", 3, 0, "unanswered", "teardown", null, 10, null, List.of(), 11L, 1 * S,
                        null, 1 * S, null, null, "Terminate")), ops);
    }

    /**
     * One name for a queue in {@code ops} and in the storage findings, whichever side sends the first
     * command: the MPA initiator's endpoint first (the TCP client, tshark's conversation Address A), here
     * although the server's ECHO comes first and is left unanswered at the client's FIN.
     */
    @Test
    void aQueueIsNamedByItsMpaInitiatorFirstWhoeverSendsTheFirstCommand() {
        OperationRules rules = new OperationRules();
        List<Operation> ops = new ArrayList<>();
        OperationTrackerTest.feed(rules.tracker(ops::add), SmbDirectIwarpCapture.responderCommandsFirst().frames());
        ops.sort(java.util.Comparator.comparingLong(Operation::commandFrame));
        assertEquals(List.of("8 KeepAlive unanswered teardown " + QUEUE, "10 Create completed null " + QUEUE),
                ops.stream().map(o -> o.commandFrame() + " " + o.opcode() + " " + o.status() + " " + o.reason()
                        + " " + o.queue()).toList());
        List<Observation> findings = rules.observations(new ReplayResult().finish());
        assertEquals(List.of("12 ulp_unanswered_at_teardown " + QUEUE), findings.stream()
                .map(o -> o.frame() + " " + o.kind() + " " + ((Observation.Ulp) o).queue()).toList());
    }

    /** Real iWARP captures carry no upper-layer protocol: no operation, and the tracker never starts tracking them. */
    @Test
    void noOperationsOnRealIwarpCapturesWithoutUpperLayer() throws Exception {
        for (Path file : List.of(SharedFiles.hardCapture("ajbanjara_Wireshark_iwarp_rdma__read.pcap"),
                SharedFiles.hardCapture("ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap"),
                SharedFiles.capture("kazikame_uiwarp_v1.pcap"))) {
            List<Operation> ops = new ArrayList<>();
            OperationTracker tracker = OperationTracker.standard(ops::add);
            DissectorChain chain = DissectorChain.standard();
            Dissection d = new Dissection();
            long frames = 0;
            try (PacketSource source = CaptureFiles.open(file)) {
                Frame f;
                while ((f = source.next()) != null) {
                    chain.dissect(f, d);
                    tracker.accept(d);
                    frames++;
                }
            }
            tracker.finish();
            assertTrue(frames > 10, file + ": " + frames + " frames");
            assertEquals(List.of(), ops, file.toString());
            assertEquals(0, tracker.unmatchedResponses(), file.toString());
        }
    }
}
