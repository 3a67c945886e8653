package io.rdmascope.replay;

import io.rdmascope.build.RocePacket;
import io.rdmascope.proto.ib.InfiniBand;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unit tests of the transport rules the engine applies, each on a few hand-built packets. */
class TransportRulesTest {

    private static List<String> kinds(ReplayResult r) {
        return r.observations().stream().map(o -> o.kind().id()).toList();
    }

    @Nested
    class PsnArithmetic {
        @Test
        void differencesWrapAt2To24() {
            assertEquals(1, Psn.diff(0, 0xFFFFFF));
            assertEquals(-1, Psn.diff(0xFFFFFF, 0));
            assertEquals(5, Psn.diff(2, 0xFFFFFD));
            assertEquals(0, Psn.add(0xFFFFFF, 1));
            assertEquals(0xFFFFFF, Psn.add(0, -1));
        }

        @Test
        void theHalfPointCountsAsBehindAsRxeDoes() {
            assertEquals((1 << 23) - 1, Psn.diff((1 << 23) - 1, 0));
            assertTrue(Psn.diff(1 << 23, 0) < 0);
        }

        @Test
        void rangesMayCrossTheWrap() {
            assertTrue(Psn.within(0, 0xFFFFFE, 1));
            assertTrue(Psn.within(0xFFFFFF, 0xFFFFFE, 1));
            assertFalse(Psn.within(2, 0xFFFFFE, 1));
        }

        @Test
        void aWriteWhosePsnsWrapIsOneMessageAndTheWrapIsObserved() {
            Wire w = new Wire();
            w.request(0x06, 0xFFFFFF, 256, p -> p.set(InfiniBand.RETH_DMALEN, 512));
            long last = w.request(0x08, 0, 256);
            w.ack(0, 0x1F, 1);
            ReplayResult r = w.finish();
            assertEquals(1, r.messages().size());
            Message m = r.messages().get(0);
            assertEquals(0xFFFFFF, m.firstPsn());
            assertEquals(0, m.lastPsn());
            assertEquals(512, m.bytes());
            assertEquals(Message.COMPLETED, m.status());
            assertEquals(List.of("psn_wrap"), kinds(r));
            assertEquals(last, r.observations().get(0).frame());
        }
    }

    @Nested
    class Acknowledgement {
        @Test
        void oneAckCompletesEverySendUpToItsPsn() {
            Wire w = new Wire();
            w.request(0x04, 100, 10);
            w.request(0x04, 101, 10);
            w.request(0x04, 102, 10);
            long ack = w.ack(102, 0x1F, 3);
            ReplayResult r = w.finish();
            assertEquals(3, r.messages().size());
            assertTrue(r.messages().stream().allMatch(m -> m.completionFrame() == ack));
            assertEquals(List.of("coalesced_ack"), kinds(r));
            assertEquals(3, ((Observation.CoalescedAck) r.observations().get(0)).messages());
        }

        @Test
        void anAckBeyondEverythingSentIsReported() {
            Wire w = new Wire();
            w.request(0x04, 100, 10);
            w.ack(100, 0x1F, 1);
            w.ack(150, 0x1F, 1);
            assertEquals(List.of("ack_of_unsent_psn"), kinds(w.finish()));
        }

        /**
         * Campaign seed 13136's shape: a READ's response FIRST and LAST (PSNs 5, 6) and another answer (7), for
         * requests the capture never showed, captured before the requester's first request (4) and waiting for
         * their requests; the next request (8) shows 5-7 missing. The FIRST takes 6 for its READ's (R3.7) while
         * it waits; the LAST, judged when the wait ends, is that READ's next response, not one answering no READ.
         */
        @Test
        void theLastOfAReadTheCaptureMissedIsNoUnmatchedResponseAfterItsFirstWaited() {
            Wire w = new Wire();
            w.step(1_000);
            w.response(0x0D, 5, 256, p -> p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 2));
            w.response(0x0F, 6, 100, p -> p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 2));
            w.response(0x10, 7, 0, p -> p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 3));
            w.ack(4, 0x1F, 3);
            w.request(0x0A, 4, 0, p -> p.set(InfiniBand.RETH_DMALEN, 0));
            long after = w.request(0x04, 8, 10);
            w.pause(2_000_000); // past the hold: the responses are judged as they are
            w.ack(8, 0x1F, 4);
            ReplayResult r = w.finish();
            assertFalse(kinds(r).contains("unmatched_read_response"), kinds(r).toString());
            List<Integer> missing = r.observations().stream().filter(o -> o.kind().id().equals("missing_from_capture"))
                    .peek(o -> assertEquals(after, o.frame())).map(o -> o.psn()).toList();
            assertEquals(List.of(5, 7), missing, kinds(r).toString());
        }

        @Test
        void aReadIsCompletedByItsResponsesNotByALaterAck() {
            Wire w = new Wire();
            w.request(0x0C, 10, 0, p -> p.set(InfiniBand.RETH_DMALEN, 100));
            w.request(0x04, 11, 10);
            w.ack(11, 0x1F, 2); // covers the SEND; the READ still waits for its response (R3.2)
            ReplayResult r = w.finish();
            Message read = r.messages().get(0);
            assertEquals(MessageKind.READ, read.kind());
            assertEquals(Message.INCOMPLETE, read.status());
            assertEquals(Message.COMPLETED, r.messages().get(1).status());
        }
    }

    @Nested
    class Naks {
        @ParameterizedTest(name = "NAK code {0} is {1}")
        @CsvSource({"1,nak_invalid_request", "2,nak_remote_access_error", "3,nak_remote_operational_error",
                "4,nak_invalid_rd_request"})
        void fatalNaksFailTheMessageAndEndTheConnection(int code, String kind) {
            Wire w = new Wire();
            w.request(0x04, 7, 10);
            w.ack(7, 0x1F, 1);
            w.request(0x0A, 8, 16, p -> p.set(InfiniBand.RETH_DMALEN, 16));
            long nak = w.ack(8, 0x60 | code, 1);
            ReplayResult r = w.finish();
            assertEquals(List.of(kind, "qp_state"), kinds(r));
            assertEquals("error", r.observations().get(1).detail());
            Message failed = r.messages().get(1);
            assertEquals(Message.FAILED, failed.status());
            assertEquals(nak, failed.completionFrame().longValue());
            assertEquals("error", r.flows().get(0).state());
        }

        @Test
        void aSequenceNakNamesTheLostPacketAndTheRunIsRetransmission() {
            Wire w = new Wire();
            w.request(0x00, 20, 256);
            long after = w.request(0x02, 22, 100); // 21 never captured
            w.ack(21, 0x60, 0);
            w.request(0x01, 21, 256);
            w.request(0x02, 22, 100);
            w.ack(22, 0x1F, 1);
            ReplayResult r = w.finish();
            assertEquals(List.of("packet_lost", "nak_sequence_error", "retransmission", "retransmission"),
                    kinds(r));
            assertEquals(after, r.observations().get(0).frame(), "the loss shows at the first packet after the gap");
            Message m = r.messages().get(0);
            assertEquals(612, m.bytes());
            assertEquals(Message.COMPLETED, m.status());
        }

        @Test
        void rnrNakThenRetryAfterTheTimerIsNotATimeout() {
            Wire w = new Wire();
            w.request(0x04, 5, 10);
            w.ack(5, 0x20 | 14, 0);
            w.request(0x04, 5, 10);
            w.ack(5, 0x1F, 1);
            ReplayResult r = w.finish();
            assertEquals(List.of("rnr_nak", "retransmission"), kinds(r));
            assertEquals(1_280_000, ((Observation.RnrNak) r.observations().get(0)).timerNanos());
            assertEquals(Observation.Trigger.RNR_NAK, ((Observation.Retransmission) r.observations().get(1)).trigger());
        }

        /** SENDs at PSNs 5, 6 and 7, an RNR NAK for 5, and the go-back-N run's resend of 5. */
        private Wire rnrRunResentFrom5() {
            Wire w = new Wire();
            for (int psn = 5; psn <= 7; psn++) {
                w.request(0x04, psn, 10);
            }
            w.ack(5, 0x20 | 14, 0);
            w.request(0x04, 5, 10);
            return w;
        }

        @Test
        void aRunGoesOnAcrossAResendTheCaptureMissed() {
            Wire w = rnrRunResentFrom5();
            w.request(0x04, 7, 10); // 6's resend missed: go-back-N resent it, nothing acknowledged it (R3.4)
            w.ack(7, 0x1F, 3);
            ReplayResult r = w.finish();
            assertEquals(List.of("rnr_nak", "retransmission", "retransmission", "coalesced_ack"), kinds(r));
            assertEquals(Observation.Trigger.RNR_NAK, ((Observation.Retransmission) r.observations().get(2)).trigger());
        }

        @Test
        void aRunSkippingAnAcknowledgedPsnEnds() {
            Wire w = rnrRunResentFrom5();
            w.ack(6, 0x1F, 2); // 6 arrived: a resend at 7 is a run of its own, the timer's
            w.request(0x04, 7, 10);
            w.ack(7, 0x1F, 3);
            assertEquals(List.of("rnr_nak", "retransmission", "coalesced_ack", "ack_timeout", "retransmission"),
                    kinds(w.finish()));
        }

        /**
         * Campaign seed 4463: a run through a READ of unknown span (no path MTU shown yet) reaches the
         * request after the atomic the capture showed past it, because that atomic is still unacknowledged
         * (its resend was missed) — not because the READ's length could reach that far: its span ends before
         * the atomic (R1.3).
         */
        @ParameterizedTest(name = "atomic answered before the resend: {0}")
        @CsvSource({"false", "true"})
        void aRunThroughAReadOfUnknownSpanGoesOnOnlyAcrossUnacknowledgedRequests(boolean answered) {
            Wire w = new Wire();
            w.request(0x14, 17, 0, p -> p.set(InfiniBand.ATOMICETH_VA, 0x1000L)); // fetch-and-add
            w.request(0x04, 18, 10);
            w.ack(10, 0x20 | 9, 0); // an RNR NAK for a SEND from before the capture's first request
            w.request(0x04, 10, 10);
            w.request(0x0C, 11, 0, p -> p.set(InfiniBand.RETH_DMALEN, 22_889));
            if (answered) {
                w.response(0x12, 17, 0, p -> p.set(InfiniBand.AETH_SYNDROME, 0x1F).set(InfiniBand.AETH_MSN, 1));
            }
            long resend = w.request(0x04, 18, 10);
            ReplayResult r = w.finish();
            Observation.Retransmission at18 = r.observations().stream()
                    .filter(o -> o instanceof Observation.Retransmission && o.frame() == resend)
                    .map(Observation.Retransmission.class::cast).findFirst().orElseThrow();
            assertEquals(answered ? Observation.Trigger.TIMEOUT : Observation.Trigger.RNR_NAK, at18.trigger(),
                    kinds(r).toString());
            assertEquals(answered, kinds(r).contains("ack_timeout"), kinds(r).toString());
        }

        /**
         * Campaign seed 10055's shape: a sequence NAK for PSN 11 captured before the requester's first request
         * (SEND FIRST 11, so the NAK is counted after it), then 12 and 13, then a byte-identical copy of 11 within
         * the duplicate window from a sender whose IPv4 ID never changes (nothing tells the datagram, as on IPv6).
         * A go-back-N resend from 11 goes on at 12 (R3.3); the request after the copy decides what it was.
         */
        @ParameterizedTest(name = "next request after the copy at PSN {0}")
        @CsvSource({"14, duplicate", "12, retransmission"})
        void aCopyOfANakedPsnIsTheFabricsUnlessTheRunGoesOnAfterIt(int nextPsn, String copyIs) {
            Wire w = new Wire();
            w.step(1_000); // 1 µs apart: the copy comes within the 8.192 µs duplicate window
            UnaryOperator<RocePacket> sameId = p -> p.ipId(0);
            w.ack(11, 0x60, 3);
            w.request(0x00, 11, 256, sameId);
            w.request(0x01, 12, 256, sameId);
            w.request(0x01, 13, 256, sameId);
            long copy = w.request(0x00, 11, 256, sameId);
            long next = w.request(0x01, nextPsn, 256, sameId);
            if (nextPsn == 12) {
                w.request(0x01, 13, 256, sameId);
                w.request(0x01, 14, 256, sameId);
            }
            w.request(0x02, 15, 100, sameId);
            w.ack(15, 0x1F, 4);
            ReplayResult r = w.finish();
            List<String> atCopy = r.observations().stream().filter(o -> o.frame() == copy).map(o -> o.kind().id()).toList();
            assertEquals(List.of(copyIs), atCopy, kinds(r).toString());
            assertEquals(nextPsn == 12, r.observations().stream().anyMatch(o -> o.frame() == next
                    && o instanceof Observation.Retransmission t && t.trigger() == Observation.Trigger.NAK), kinds(r).toString());
            assertFalse(kinds(r).contains("ack_timeout"), kinds(r).toString());
            assertEquals(1, r.messages().size(), r.messages().toString());
            assertEquals(Message.COMPLETED, r.messages().get(0).status());
        }

        @Test
        void aResendWithNoNakIsALocalAckTimeout() {
            Wire w = new Wire();
            w.request(0x04, 5, 10);
            w.request(0x04, 5, 10);
            w.ack(5, 0x1F, 1);
            assertEquals(List.of("ack_timeout", "retransmission"), kinds(w.finish()));
        }
    }

    @Nested
    class Sequences {
        @Test
        void aMiddleWithNoFirstIsReportedAndMakesNoMessage() {
            Wire w = new Wire();
            w.request(0x04, 2, 100); // SEND Only: the flow is under way, no PSN skipped
            w.request(0x07, 3, 256);
            ReplayResult r = w.finish();
            assertEquals(List.of("unanswered_at_capture_end", "missing_first"), kinds(r));
            assertEquals(1, r.messages().size());
        }

        @Test
        void aCaptureThatStartsInsideAMessageShowsItInPartWithoutAnError() {
            // IBTA 9.7.5 gives the observer no way to see a FIRST sent before the capture began: the
            // MIDDLE and LAST that follow are a message shown in part, not a sequence error.
            Wire w = new Wire();
            w.request(0x01, 3, 256);
            w.request(0x02, 4, 100);
            w.ack(4, 0x1F, 1);
            ReplayResult r = w.finish();
            assertEquals(List.of(), kinds(r));
            Message m = r.messages().get(0);
            assertEquals("completed", m.status());
            assertEquals(Boolean.TRUE, m.partial());
            assertEquals(3, m.firstPsn());
            assertEquals(356, m.bytes());
        }

        @Test
        void aFirstLostBeforeTheCapturePointJoinsItsMessageWhenResent() {
            // Capture on the responder's side: FIRST (PSN 5) lost upstream, MIDDLE and LAST captured,
            // NAK for 5, go-back-N resends 5, 6, 7 (R3.3). One message, no sequence error.
            Wire w = new Wire();
            w.request(0x04, 4, 10);
            w.ack(4, 0x1F, 1);
            w.request(0x01, 6, 256);
            w.request(0x02, 7, 50);
            w.ack(5, 0x60, 1); // NAK PSN sequence error at 5
            w.request(0x00, 5, 256);
            w.request(0x01, 6, 256);
            w.request(0x02, 7, 50);
            w.ack(7, 0x1F, 2);
            ReplayResult r = w.finish();
            assertFalse(kinds(r).contains("missing_first"), kinds(r).toString());
            assertFalse(kinds(r).contains("missing_last"), kinds(r).toString());
            assertTrue(kinds(r).contains("packet_lost"), kinds(r).toString());
            assertEquals(2, r.messages().size());
            Message m = r.messages().get(1);
            assertEquals(5, m.firstPsn());
            assertEquals(7, m.lastPsn());
            assertEquals(562, m.bytes());
            assertEquals("completed", m.status());
            assertEquals(null, m.partial());
            assertEquals(List.of(3, 4, 6, 7, 8), m.frames(), m.toString());
        }

        @Test
        void aFirstWhileAMessageIsOpenFailsTheOpenOne() {
            Wire w = new Wire();
            w.request(0x00, 3, 256);
            w.request(0x04, 4, 10);
            ReplayResult r = w.finish();
            assertEquals("missing_last", kinds(r).get(0));
            assertEquals(Message.FAILED, r.messages().get(0).status());
            assertNull(r.messages().get(0).completionFrame());
        }
    }

    @Test
    void limitsBoundTheStateAndSayWhenTheyBite() {
        ReplayResult r = new ReplayResult(new ReplayLimits(2, 4, 2, 8));
        Wire.feed(r, 5); // five QPs to different destination QPNs
        r.finish();
        assertEquals(2, r.flows().size());
        assertEquals(1, r.observations().stream().filter(o -> o.kind().id().equals("limit_reached")).count());
    }
}
