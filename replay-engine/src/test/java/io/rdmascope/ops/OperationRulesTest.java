package io.rdmascope.ops;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.ops.OperationEvents.Buffer;
import io.rdmascope.dissect.ops.OperationEvents.Command;
import io.rdmascope.dissect.ops.OperationEvents.Queue;
import io.rdmascope.dissect.ops.OperationEvents.RequestCredits;
import io.rdmascope.dissect.ops.OperationEvents.Response;
import io.rdmascope.dissect.ops.OperationEvents.SendCredits;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The storage rules (issue 19, item 7) on scripted events: what each frame's extractor reports is given
 * per frame, so every case the generated captures cannot show (a queue set up before the capture, an
 * event-awaiting command, credits without a captured negotiation) is held here.
 */
class OperationRulesTest {
    private static final Queue Q = new Queue("test", "", 0x11, 0x22);
    private static final Queue OTHER = new Queue("test", "", 0x33, 0x44);

    /** Runs the script (frame number to what its extractor reports) and returns "frame kind id" lines. */
    private static List<String> run(Map<Integer, Consumer<OperationEvents>> script) {
        OperationRules rules = new OperationRules();
        OperationTracker tracker = new OperationTracker(List.of((d, out) -> {
            Consumer<OperationEvents> step = script.get((int) d.frame().number());
            if (step != null) {
                step.accept(out);
            }
        }), o -> { }, rules, OperationTracker.MAX_OUTSTANDING_PER_QUEUE);
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        int last = script.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        for (int i = 1; i <= last; i++) {
            chain.dissect(Frame.of(i, i, 1, new byte[14]), d);
            tracker.accept(d);
        }
        tracker.finish();
        return rules.observations(new ReplayResult().finish()).stream()
                .map(o -> o.frame() + " " + o.kind() + " " + ((Observation.Ulp) o).id()).toList();
    }

    private static Command command(Queue q, long id) {
        return new Command(q, id, "#" + id, "Op", 0, List.of());
    }

    @Test
    void responsesOnAQueueSetUpBeforeTheCaptureAreOneNotePerQueue() {
        assertEquals(List.of("2 ulp_response_before_capture 0x7", "5 ulp_response_before_capture 0x9"), run(Map.of(
                1, out -> out.command(command(Q, 1)),
                2, out -> out.response(new Response(Q, 7, null)),
                3, out -> out.response(new Response(Q, 8, null)),
                4, out -> out.response(new Response(Q, 1, null)),
                5, out -> out.response(new Response(OTHER, 9, null)))));
    }

    @Test
    void anIdIsReusedOnlyWhileItsCommandIsOutstanding() {
        assertEquals(List.of("2 ulp_id_reused #5"), run(Map.of(
                1, out -> out.command(command(Q, 5)),
                2, out -> out.command(command(Q, 5)),
                3, out -> out.response(new Response(Q, 5, null)),
                4, out -> out.response(new Response(Q, 5, null)),
                5, out -> out.command(command(Q, 5)),
                6, out -> out.command(command(OTHER, 5)),
                7, out -> out.response(new Response(Q, 5, null)),
                8, out -> out.response(new Response(OTHER, 5, null)))));
    }

    @Test
    void aCommandAwaitingAnEventIsNotUnanswered() {
        assertEquals(List.of("2 ulp_unanswered_at_capture_end #2"), run(Map.of(
                1, out -> out.command(command(Q, 1).awaitingEvent()),
                2, out -> out.command(command(Q, 2)))));
    }

    @Test
    void sendCreditsAreJudgedFromTheNegotiationOnInBothDirections() {
        // Before the negotiation the balance is unknown: nothing is judged.
        assertEquals(List.of(), run(Map.of(
                1, out -> out.sendCredits(new SendCredits(Q, true, true, 0)),
                2, out -> out.sendCredits(new SendCredits(Q, false, true, 0)))));
        assertEquals(List.of("3 ulp_send_credit_overrun #7", "5 ulp_send_credit_overrun null"), run(Map.of(
                // the Negotiate Response grants the requester 1; the responder holds none yet
                1, out -> out.sendCredits(new SendCredits(Q, false, false, 1)),
                2, out -> out.sendCredits(new SendCredits(Q, true, true, 1)), // spends its 1, grants the responder 1
                3, out -> {
                    out.sendCredits(new SendCredits(Q, true, true, 0)); // none left: its command names the id
                    out.command(command(Q, 7));
                },
                4, out -> out.sendCredits(new SendCredits(Q, false, true, 2)), // spends the 1 it was granted
                5, out -> out.sendCredits(new SendCredits(Q, false, true, 0)), // none left
                6, out -> out.sendCredits(new SendCredits(Q, true, true, 0)), // the 2 granted in frame 4
                7, out -> out.response(new Response(Q, 7, null)))));
    }

    @Test
    void callsBeyondTheGrantOverrunItsCredits() {
        assertEquals(List.of("5 ulp_call_credit_overrun #4"), run(Map.of(
                1, out -> out.command(command(Q, 1)), // before any grant: not judged
                2, out -> out.command(command(Q, 2)),
                3, out -> out.requestCredits(new RequestCredits(Q, 3)),
                4, out -> out.command(command(Q, 3)),
                5, out -> out.command(command(Q, 4)),
                6, out -> {
                    out.requestCredits(new RequestCredits(Q, 3));
                    out.response(new Response(Q, 1, null));
                    out.response(new Response(Q, 2, null));
                },
                7, out -> out.command(command(Q, 5)), // 3, 4 and 5 outstanding: within the grant
                8, out -> {
                    out.response(new Response(Q, 3, null));
                    out.response(new Response(Q, 4, null));
                    out.response(new Response(Q, 5, null));
                })));
    }

    @Test
    void whatIsNoticedIsBoundedAndTheRestCounted() {
        OperationRules rules = new OperationRules();
        OperationTracker tracker = new OperationTracker(List.of((d, out) -> out.command(command(Q, 1))), o -> { },
                rules, OperationTracker.MAX_OUTSTANDING_PER_QUEUE);
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        int frames = OperationRules.MAX_NOTICED + 10;
        for (int i = 1; i <= frames; i++) {
            chain.dissect(Frame.of(i, i, 1, new byte[14]), d);
            tracker.accept(d); // every command after the first reuses id 1
        }
        tracker.finish();
        List<Observation> noticed = rules.observations(new ReplayResult().finish());
        assertEquals(OperationRules.MAX_NOTICED + 1, noticed.size());
        Observation limit = noticed.stream().filter(o -> o instanceof Observation.LimitReached).findFirst()
                .orElseThrow();
        assertEquals(OperationRules.MAX_NOTICED + 2, limit.frame()); // frame 1 reuses nothing
        // 9 more reuses, and the 4096 commands still outstanding at the end
        assertTrue(limit.detail().startsWith((9 + OperationTracker.MAX_OUTSTANDING_PER_QUEUE) + " more"), limit.detail());
    }

    /**
     * A SEND resent by the transport (same PSN) is one command, response or credit, not two: every SEND of
     * the generated NVMe-oF and SMB Direct cases sent twice changes neither the operations nor what the
     * rules notice, but for the frame numbers.
     */
    @Test
    void transportResendsAreCountedOnce() throws java.io.IOException {
        for (String name : List.of("ulp_nvmeof", "ulp_smbdirect")) {
            java.nio.file.Path file = io.rdmascope.testsupport.SharedFiles.sampleCases().resolve(name)
                    .resolve(name + ".pcapng");
            List<Frame> once = new java.util.ArrayList<>();
            try (var source = io.rdmascope.capture.CaptureFiles.open(file)) {
                for (Frame f; (f = source.next()) != null; ) {
                    once.add(Frame.of(f.number(), f.timeNanos(), f.linkType(), f.toByteArray()));
                }
            }
            List<Frame> twice = new java.util.ArrayList<>();
            List<Long> original = new java.util.ArrayList<>(); // twice's frame number to once's
            original.add(0L);
            for (Frame f : once) {
                byte[] bytes = f.toByteArray();
                twice.add(Frame.of(twice.size() + 1, f.timeNanos(), f.linkType(), bytes));
                original.add(f.number());
                if (bytes.length > 42 && (bytes[42] & 0xFF) == 0x04) { // RoCEv2 BTH opcode: RC SEND Only
                    twice.add(Frame.of(twice.size() + 1, f.timeNanos(), f.linkType(), bytes));
                    original.add(f.number());
                }
            }
            assertTrue(twice.size() > once.size() + 10, name);
            assertEquals(noticed(once, n -> n), noticed(twice, n -> original.get((int) n)), name);
        }
    }

    /** What the rules notice and the operations' statuses, frames mapped by {@code frameOf}. */
    private static List<String> noticed(List<Frame> frames, java.util.function.LongUnaryOperator frameOf) {
        OperationRules rules = new OperationRules();
        List<String> out = new java.util.ArrayList<>();
        OperationTracker tracker = rules.tracker(o -> out.add("op " + frameOf.applyAsLong(o.commandFrame()) + " "
                + o.status()));
        OperationTrackerTest.feed(tracker, frames);
        rules.observations(new ReplayResult().finish())
                .forEach(o -> out.add(frameOf.applyAsLong(o.frame()) + " " + o.kind()));
        out.sort(null);
        return out;
    }

    @Test
    void aTransferMayRunAcrossSegmentsAdvertisedSideBySideUnderOneKey() {
        List<Buffer> segments = List.of(new Buffer(7, 0x1000, 0x1000), new Buffer(7, 0x2000, 0x800));
        assertTrue(OperationTracker.covered(segments, 0x1800, 0x1000));
        assertTrue(OperationTracker.covered(segments, 0x1000, 0x1800));
        assertFalse(OperationTracker.covered(segments, 0x1800, 0x1001));
        assertFalse(OperationTracker.covered(segments, 0x0fff, 2));
        assertFalse(OperationTracker.covered(List.of(new Buffer(7, 0x1000, 0x1000), new Buffer(7, 0x2100, 0x100)),
                0x1f00, 0x300));
    }
}
