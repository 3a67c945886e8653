package io.rdmascope.ops;

import io.rdmascope.dissect.ops.OperationEvents.Buffer;
import io.rdmascope.dissect.ops.OperationEvents.Command;
import io.rdmascope.dissect.ops.OperationEvents.Queue;
import io.rdmascope.dissect.ops.OperationEvents.RequestCredits;
import io.rdmascope.dissect.ops.OperationEvents.Response;
import io.rdmascope.dissect.ops.OperationEvents.SendCredits;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.Observation.UlpEvent;
import io.rdmascope.replay.ReplayResult;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.function.LongFunction;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The storage protocols' rules (issue 19, item 7), judged from what an {@link OperationTracker} meets:
 * responses naming no outstanding command, ids reused while outstanding, RDMA transfers outside the
 * buffers a command advertised under their key, commands left unanswered (at teardown, after it, at the
 * capture's end) and credit overruns (MS-SMBD send credits, RFC 8166 call credits). What it notices
 * becomes {@link Observation.Ulp} observations, which the rule catalog turns into findings like every
 * other observation; docs/rules.md argues each rule and its severity.
 *
 * <p>Fed on the reading thread beside the replay; {@link #observations(ReplayResult)} places what it
 * noticed in the replay's conversations once both are finished. Memory: a few numbers per queue, and what
 * it noticed, at most {@link #MAX_NOTICED} (past it, counted and said once, as {@code limit_reached}).
 */
public final class OperationRules implements OperationListener {
    /** Observations kept at most: a capture that breaks a rule on every command says so well before this. */
    static final int MAX_NOTICED = 100_000;

    /** Something noticed, before its conversation is known: {@code queueFrame} is a frame of its connection. */
    private record Noticed(UlpEvent event, long frame, long queueFrame, Queue queue, String id, String what) {
        Noticed withId(String newId) {
            return new Noticed(event, frame, queueFrame, queue, newId, what);
        }
    }

    private final List<Noticed> noticed = new ArrayList<>();
    /** Per queue whose SMB Direct negotiation was captured: the send credits of its requester and responder. */
    private final Map<Queue, long[]> sendCredits = new HashMap<>();
    /** Per queue: the responder's latest call-credit grant (RFC 8166 §3.3.1). */
    private final Map<Queue, Long> callCredits = new HashMap<>();
    /** Queues whose responses to commands from before the capture were noted already (once per queue). */
    private final Set<Queue> notedBeforeCapture = new HashSet<>();
    /** A credit overrun seen in the frame being extracted, whose id the same frame's command may still give. */
    private int overrunWithoutId = -1;
    /** The tracker that feeds these rules: it names the queues of what they notice as {@code ops} does. */
    private OperationTracker tracker;
    /** Observations past {@link #MAX_NOTICED}, not kept; the frame of the first of them. */
    private long dropped;
    private long firstDroppedFrame;

    /** A tracker over every protocol that reports operations, sending finished ones to {@code sink} and its facts here. */
    public OperationTracker tracker(Consumer<Operation> sink) {
        return OperationTracker.standard(sink, this);
    }

    /** One tracker feeds a set of rules: a second would mix its queues with the first's. */
    @Override
    public void fedBy(OperationTracker feeding) {
        if (tracker != null && tracker != feeding) {
            throw new IllegalStateException("these storage rules are fed by another tracker already");
        }
        tracker = feeding;
    }

    @Override
    public void commandSent(Command command, long frame, int outstanding, boolean startCaptured, long sameIdFrame,
                            String sameIdDescription) {
        Queue queue = command.queue();
        if (overrunWithoutId >= 0 && noticed.get(overrunWithoutId).frame() == frame
                && noticed.get(overrunWithoutId).queue().equals(queue)) {
            noticed.set(overrunWithoutId, noticed.get(overrunWithoutId).withId(command.idText()));
        }
        overrunWithoutId = -1;
        if (sameIdFrame >= 0) {
            note(UlpEvent.ID_REUSED, frame, frame, queue, command.idText(), command.description()
                    + " reuses the id of the " + sameIdDescription + " in frame " + sameIdFrame + ", still outstanding");
        }
        // RFC 8166 §3.3.1. Judged from the responder's first grant captured: before it, the requester holds
        // one credit only if the connection started in the capture, and only RPC-over-RDMA's extractor
        // says a queue works with credits at all, in its responder's grants.
        Long granted = callCredits.get(queue);
        if (granted != null && outstanding > granted) {
            note(UlpEvent.CALL_CREDIT_OVERRUN, frame, frame, queue, command.idText(), command.description()
                    + " makes " + outstanding + " calls outstanding with " + granted
                    + (granted == 1 ? " credit" : " credits") + " granted");
        }
    }

    @Override
    public void responseWithoutCommand(Response response, long frame, boolean startCaptured) {
        overrunWithoutId = -1;
        Queue queue = response.queue();
        String id = idText(response.id());
        if (startCaptured) {
            note(UlpEvent.RESPONSE_WITHOUT_COMMAND, frame, frame, queue, id,
                    "response names no command outstanding on its queue (never sent, or answered already)");
        } else if (notedBeforeCapture.add(queue)) {
            note(UlpEvent.RESPONSE_BEFORE_CAPTURE, frame, frame, queue, id, "response to a command the capture does "
                    + "not hold; the queue was set up before the capture began, so its command most likely was too "
                    + "(noted once per queue)");
        }
    }

    @Override
    public void transferOutside(Queue queue, long frame, String operation, long key, long address, long length,
                                long commandFrame, Command command, Buffer buffer) {
        note(UlpEvent.TRANSFER_OUTSIDE_BUFFERS, frame, commandFrame, queue, null, String.format(
                "%s of %d bytes at 0x%x under key 0x%x lies outside the %d-byte buffer at 0x%x the %s (id %s) in frame "
                        + "%d advertised under that key", operation, length, address, key, buffer.length(),
                buffer.address(), command.description(), command.idText(), commandFrame));
    }

    @Override
    public void sendCredits(SendCredits credits, long frame, boolean startCaptured) {
        Queue queue = credits.queue();
        long[] held = sendCredits.get(queue);
        if (!credits.spends()) {
            // MS-SMBD §3.1.5.3: the Negotiate Response grants the requester its first credits; the responder
            // holds none until the requester's first message grants some (§4.1).
            held = new long[2];
            sendCredits.put(queue, held);
        } else if (held == null) {
            return; // negotiation not captured: the balance is unknown
        } else {
            int sender = credits.byRequester() ? 0 : 1;
            if (held[sender] <= 0) {
                overrunWithoutId = noticed.size();
                note(UlpEvent.SEND_CREDIT_OVERRUN, frame, frame, queue, null, (credits.byRequester() ? "requester"
                        : "responder") + " sent a Data Transfer message holding no send credit");
            } else {
                held[sender]--;
            }
        }
        held[credits.byRequester() ? 1 : 0] += credits.granted();
    }

    @Override
    public void requestCredits(RequestCredits credits, long frame) {
        callCredits.put(credits.queue(), credits.credits());
    }

    @Override
    public void unanswered(Operation o, Command command) {
        if (command.awaitsEvent() || Operation.OVERFLOW.equals(o.reason())) {
            return; // answered only on an event; or dropped by the tracker's bound, which judges nothing
        }
        String what = command.description() + " of frame " + o.commandFrame();
        if (Operation.TEARDOWN.equals(o.reason())) {
            note(UlpEvent.UNANSWERED_AT_TEARDOWN, o.teardownFrame(), o.commandFrame(), command.queue(), command.idText(),
                    what + " had no response when the " + teardownName(o) + " in this frame, " + millis(o.teardownAfterNs())
                            + " after it, tore its connection down");
        } else if (Operation.AFTER_TEARDOWN.equals(o.reason())) {
            note(UlpEvent.COMMAND_AFTER_TEARDOWN, o.commandFrame(), o.commandFrame(), command.queue(), command.idText(),
                    what + " was sent " + millis(-o.teardownAfterNs()) + " after the " + teardownName(o) + " in frame "
                            + o.teardownFrame() + " and never answered");
        } else {
            note(UlpEvent.UNANSWERED_AT_CAPTURE_END, o.commandFrame(), o.commandFrame(), command.queue(),
                    command.idText(), what + " had no response when the capture ended");
        }
    }

    /**
     * What was noticed, as observations in {@code replay}'s conversations (by the connection's QPs among its
     * flows, else by where the replay placed a frame of it), in frame order. Call after the tracker's and
     * the replay's {@code finish}.
     */
    public List<Observation> observations(ReplayResult replay) {
        return observations(replay.flows(), replay::conversationOf);
    }

    /**
     * What was noticed, as observations in the conversations of {@code flows} (by the connection's QPs),
     * else in {@code conversationOfFrame}'s conversation of a frame of it (null: none), in frame order:
     * for a replay that keeps no {@link ReplayResult}, as the Spark job's per-group engines.
     */
    public List<Observation> observations(List<Flow> flows, LongFunction<String> conversationOfFrame) {
        List<Observation> out = new ArrayList<>(noticed.size());
        for (Noticed n : noticed) {
            out.add(new Observation.Ulp(n.frame(), conversation(flows, conversationOfFrame, n), n.event(), n.queue().protocol(),
                    tracker.queueText(n.queue()), n.id(), n.what()));
        }
        if (dropped > 0) {
            out.add(new Observation.LimitReached(firstDroppedFrame, null, dropped
                    + " more storage rule observations not kept (at most " + MAX_NOTICED + ")"));
        }
        out.sort(java.util.Comparator.comparingLong(Observation::frame));
        return out;
    }

    /** What tore a command's connection down: a CM DisconnectRequest, or on iWARP its TCP FIN/RST or RDMAP Terminate. */
    private static String teardownName(Operation o) {
        String by = o.teardownBy();
        if (by == null || Operation.BY_DREQ.equals(by)) {
            return "DisconnectRequest";
        }
        return Operation.BY_FIN.equals(by) || Operation.BY_RST.equals(by) ? "TCP " + by : "RDMAP " + by;
    }

    private static String conversation(List<Flow> flows, LongFunction<String> conversationOfFrame, Noticed n) {
        String found = null;
        for (Flow f : flows) {
            if (joins(f, n.queue().requesterQpn(), n.queue().responderQpn())) {
                if (found != null) {
                    found = null; // the same QP pair between other hosts: let the frame decide
                    break;
                }
                found = f.conversation();
            }
        }
        return found != null ? found : conversationOfFrame.apply(n.queueFrame());
    }

    private static boolean joins(Flow f, int requesterQp, int responderQp) {
        Integer a = f.a().qpn();
        Integer b = f.b().qpn();
        return a != null && b != null && (a == requesterQp && b == responderQp || a == responderQp && b == requesterQp);
    }

    private void note(UlpEvent event, long frame, long queueFrame, Queue queue, String id, String what) {
        if (noticed.size() >= MAX_NOTICED) {
            if (dropped++ == 0) {
                firstDroppedFrame = frame;
            }
            overrunWithoutId = -1;
            return;
        }
        noticed.add(new Noticed(event, frame, queueFrame, queue, id, what));
    }

    /** A response's id, in hex (the extractors give a response's id as a number only). */
    private static String idText(long id) {
        return "0x" + Long.toHexString(id);
    }

    private static String millis(Long nanos) {
        return nanos == null ? "?" : String.format("%.3f ms", nanos / 1e6);
    }
}
