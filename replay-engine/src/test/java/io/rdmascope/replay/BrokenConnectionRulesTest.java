package io.rdmascope.replay;

import io.rdmascope.proto.ib.InfiniBand;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 15's rules on hand-played connections: a PSN reused by a new request versus a resend of the
 * same one, stalls against the retry budget, and teardown with work outstanding. The generated cases
 * broken_psn_reuse, broken_stall_disconnect and broken_teardown_outstanding play the whole stories.
 */
class BrokenConnectionRulesTest {
    private static final int SEND_ONLY = 0x04;
    private static final int WRITE_ONLY = 0x0A;

    private static List<String> kinds(ReplayResult r) {
        return r.observations().stream().map(o -> o.kind().id()).toList();
    }

    @Test
    void aResendOfTheSameRequestIsARetransmissionNeverAReuse() {
        Wire w = new Wire();
        w.request(SEND_ONLY, 100, 10);
        w.pause(70_000_000L); // past the 67 ms default ACK timeout
        w.request(SEND_ONLY, 100, 10);
        w.ack(100, 0x1F, 1);
        ReplayResult r = w.finish();
        assertEquals(List.of("ack_timeout", "retransmission"), kinds(r));
        assertEquals(1, r.messages().size());
        assertEquals(Message.COMPLETED, r.messages().get(0).status());
    }

    @Test
    void anotherRequestAtAUsedPsnIsAReuseAndAMessageOfItsOwn() {
        Wire w = new Wire();
        w.request(WRITE_ONLY, 100, 16, p -> p.set(InfiniBand.RETH_DMALEN, 16));
        w.ack(100, 0x1F, 1);
        long reuse = w.request(SEND_ONLY, 100, 32);
        ReplayResult r = w.finish();
        assertEquals(List.of("psn_reused", "unanswered_at_capture_end"), kinds(r));
        Observation.PsnReused o = (Observation.PsnReused) r.observations().get(0);
        assertEquals(reuse, o.frame());
        assertEquals(1, o.earlierFrame());
        assertTrue(o.detail().contains("not a retransmission"), o.detail());
        assertEquals(List.of(MessageKind.WRITE, MessageKind.SEND), r.messages().stream().map(Message::kind).toList());
        assertEquals(Message.COMPLETED, r.messages().get(0).status(), "the reuse must not reopen the WRITE");
    }

    @Test
    void sameOpcodeButAnotherLengthIsAReuseToo() {
        Wire w = new Wire();
        w.request(SEND_ONLY, 100, 16);
        w.pause(70_000_000L);
        w.request(SEND_ONLY, 100, 20);
        assertTrue(kinds(w.finish()).contains("psn_reused"));
    }

    @Test
    void nothingMovingPastTheRetryBudgetIsAStallNamingTheLastProgress() {
        Wire w = new Wire();
        w.request(SEND_ONLY, 100, 10);
        w.ack(100, 0x1F, 1);
        long last = w.request(SEND_ONLY, 101, 10);
        w.pause(2_000_000_000L); // 7 retries of 67 ms: 537 ms of budget, without CM
        long resumed = w.request(SEND_ONLY, 102, 10);
        w.ack(102, 0x1F, 3);
        ReplayResult r = w.finish();
        Observation.QpStalled stall = r.observations().stream().filter(o -> o instanceof Observation.QpStalled)
                .map(o -> (Observation.QpStalled) o).findFirst().orElseThrow(() -> new AssertionError(kinds(r)));
        assertEquals(last, stall.frame());
        assertEquals(101, stall.psn());
        assertTrue(stall.detail().contains("frame " + resumed), stall.detail());
        assertTrue(stall.silenceNanos() > 2_000_000_000L);
    }

    @Test
    void waitingWithinTheBudgetOrOutAnRnrTimerIsNoStall() {
        Wire w = new Wire();
        w.request(SEND_ONLY, 100, 10);
        w.pause(400_000_000L);
        w.request(SEND_ONLY, 101, 10);
        w.ack(101, 0x1F, 2);
        w.request(SEND_ONLY, 102, 10);
        w.ack(102, 0x20, 2); // RNR NAK, timer code 0: 655.36 ms (IBTA table 45)
        w.pause(1_100_000_000L); // the RNR timer plus less than the retry budget
        w.request(SEND_ONLY, 102, 10);
        w.ack(102, 0x1F, 3);
        assertFalse(kinds(w.finish()).contains("qp_stalled"), "no stall expected");
    }

    @Test
    void aFatalNakFailsWhatIsStillOutstandingAndSaysSoOnce() {
        Wire w = new Wire();
        w.request(SEND_ONLY, 100, 10);
        w.request(SEND_ONLY, 101, 10);
        w.request(SEND_ONLY, 102, 10);
        w.request(SEND_ONLY, 103, 10);
        long nak = w.ack(101, 0x62, 1); // remote access error at 101: 100 done, 101 failed, 102-103 flushed
        ReplayResult r = w.finish();
        List<Observation> teardown = r.observations().stream()
                .filter(o -> o instanceof Observation.TornDownWithOutstanding).toList();
        assertEquals(1, teardown.size(), kinds(r).toString());
        assertEquals(nak, teardown.get(0).frame());
        assertEquals(102, teardown.get(0).psn());
        assertTrue(teardown.get(0).detail().contains("2 messages outstanding"), teardown.get(0).detail());
        assertEquals(List.of(Message.COMPLETED, Message.FAILED, Message.FAILED, Message.FAILED),
                r.messages().stream().map(Message::status).toList());
    }

    @Test
    void anMsnMayCountRequestsPastItsPsnButNeverMoreThanWereSent() {
        Wire w = new Wire();
        w.request(SEND_ONLY, 100, 10);
        w.request(0x14, 101, 0, p -> p.set(InfiniBand.ATOMICETH_VA, 0x1000L)); // compare-and-swap
        w.request(0x14, 102, 0, p -> p.set(InfiniBand.ATOMICETH_VA, 0x2000L));
        // A deferred ACK for 100 built after both atomics ran (MSN 3), then the atomic ACKs made when each
        // ran (MSN 2, 3): legal (R2.6), though the MSN steps back at PSN 101.
        w.ack(100, 0x1F, 3);
        w.response(0x12, 101, 0, p -> p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 2)
                .set(InfiniBand.ATOMICACKETH_ORIGREMDT, 0));
        w.response(0x12, 102, 0, p -> p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 3)
                .set(InfiniBand.ATOMICACKETH_ORIGREMDT, 0));
        assertFalse(kinds(w.finish()).contains("msn_inconsistent"), "legal MSNs");

        Wire jump = new Wire();
        jump.request(SEND_ONLY, 100, 10);
        jump.ack(100, 0x1F, 1);
        jump.request(SEND_ONLY, 101, 10);
        long bad = jump.ack(101, 0x1F, 5); // four more messages than PSNs sent
        ReplayResult r = jump.finish();
        assertEquals(List.of("msn_inconsistent"), kinds(r));
        assertEquals(bad, r.observations().get(0).frame());
    }
}
