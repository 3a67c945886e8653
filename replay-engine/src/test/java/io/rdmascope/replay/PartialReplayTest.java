package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Opcodes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 21: a replay of part of a capture is told where the whole capture ended
 * ({@link ReplayResult#finish(long)}), so a request left unanswered in its part is judged against the
 * real end instead of its own last frame.
 */
class PartialReplayTest {

    /** The frames of rc_send up to and including its first request, replayed and finished as told. */
    private static List<ObservationKind> kindsAfter(long captureEndNanos) throws IOException {
        ReplayResult r = new ReplayResult();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        try (PacketSource s = CaptureFiles.open(Replays.cases().resolve("rc_send").resolve("rc_send.pcapng"))) {
            for (Frame f; (f = s.next()) != null; ) {
                chain.dissect(f, d);
                r.accept(d);
                if (d.rdma().bthLayer >= 0 && Opcodes.of(d.rdma().opcode).operation().isRequest()) {
                    break;
                }
            }
        }
        long end = captureEndNanos == 0 ? Long.MIN_VALUE : r.captureEndNanos() + captureEndNanos;
        return r.finish(end).observations().stream().map(Observation::kind).toList();
    }

    @Test
    void theRequestAtThePartsEndIsUnansweredWhenNothingIsSaidOfTheCaptureEnd() throws IOException {
        assertEquals(List.of(ObservationKind.UNANSWERED_AT_CAPTURE_END), kindsAfter(0));
    }

    /** Ten seconds of capture with no answer is longer than the QP's whole retry budget: it stalled (issue 15). */
    @Test
    void theSameRequestStalledItsQpWhenTheCaptureWentOnTenSecondsLonger() throws IOException {
        assertEquals(List.of(ObservationKind.QP_STALLED), kindsAfter(10_000_000_000L));
    }

    @Test
    void anEndBeforeTheLastFrameChangesNothing() throws IOException {
        assertEquals(kindsAfter(0), kindsAfter(-10_000_000_000L));
    }
}
