package io.rdmascope.replay;

import io.rdmascope.proto.ib.Aeth;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.replay.Observation.LengthRule;
import io.rdmascope.replay.Observation.Trigger;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One requester and the responder answering it, inside a conversation (RC, UC or XRC): the
 * requests one side sends and the responses the other side returns for them. Follows IBTA Vol. 1
 * chapter 9 as summarised in ../shared/reference/rc-transport-rules.md (cited as R-numbers).
 *
 * <p>What a passive observer can tell (rules §8): a request PSN behind the newest one is sent again —
 * an isolated byte-identical copy within microseconds is a fabric duplicate, anything else a
 * retransmission, triggered by a NAK or RNR NAK for that PSN or else by the local ACK timer. A PSN
 * jump leaves a gap: resolved as lost on the wire when a NAK names it or the requester resends it,
 * as missing from the capture when an ACK covers it untouched.
 */
final class Channel {
    /** Transmissions remembered per requester, indexed by PSN modulo this (a power of two). */
    private static final int RING = 512;
    /**
     * A copy within this of the original, with no NAK between, is a duplicate, not a retransmission:
     * the shortest local ACK timeout is 4.096 µs · 2^1 (C9-140, timeout 1).
     */
    private static final long DUPLICATE_WINDOW_NANOS = 8_192;

    /** How far past the CM start PSN the first request may be and still count the skipped PSNs missing. */
    private static final int START_PSN_SLACK = 64;

    /**
     * A response for a PSN at most this far past the newest request seen is held, not judged: the
     * capturing host may timestamp its own transmissions late (the request then follows in the file),
     * or the capture missed the newest requests. Farther, it acknowledges a PSN never sent.
     */
    static final int AHEAD_SLACK = 2048;
    /**
     * A READ or atomic resent within this of a response to a later PSN was resent for that response
     * (implied NAK), not by the ACK timer: half the default local ACK timeout (C9-140, code 14).
     */
    static final long IMPLIED_NAK_NANOS = (4_096L << 14) / 2;
    /** Capture time a response is held waiting for the request it answers. */
    static final long HOLD_RESPONSE_NANOS = 1_000_000L;
    private static final int HELD_RESPONSES = 1024;

    private final Conversation conversation;
    /** Index of the requesting side in the conversation (0 or 1). */
    final int side;
    private final Transport transport;
    private final ReplayLimits limits;
    /** The listener takes messages as {@link Message}s, which list their response frames. */
    private final boolean keepsResponseFrames;

    private boolean started;
    /** UC: the packet being assembled continues a message whose FIRST the gap before it skipped. */
    private boolean ucFirstSkipped;
    /** Where this requester's PSNs begin for the observer: CM's start PSN, else the first request captured. */
    private int firstRequestPsn;
    private long firstRequestFrame;
    private boolean startFromCm;
    /** SEND/WRITE packets assembled so far (the first one may begin mid-message: the capture started there). */
    private long requestsAssembled;
    /** One past the newest request PSN (a READ counts its whole response span, R1.3). */
    private int nextPsn;
    /** The READ whose response span is not known yet (path MTU unknown): the next request PSN tells it. */
    private MessageBuilder readSpanPending;
    /**
     * The PSN of the newest READ response FIRST or MIDDLE answering a READ the capture has not shown, -1
     * when the newest response was another: the next MIDDLE or LAST continues that READ's responses.
     */
    private int unseenReadAnsweredTo = -1;

    private final ArrayDeque<MessageBuilder> outstanding = new ArrayDeque<>();
    private final RecentMessages recent = new RecentMessages();
    /** SEND or WRITE whose FIRST was seen and LAST not yet. */
    private MessageBuilder open;

    private final TransmissionRing ring = new TransmissionRing(RING);
    /** The MSN of the answer to the newest PSN answered so far, and that PSN (-1 none). */
    private int msnSeen;
    private int msnSeenPsn = -1;

    /** Missing request PSNs and the frame after which each went missing (kept in pairs). */
    private final List<long[]> gaps = new ArrayList<>();

    // Retransmission runs (go-back-N, R3.3): the next PSN the run would resend, and what started it.
    private int runNext = -1;
    /** When the run's last packet was a READ of unknown span: the farthest PSN the run may go on from, else -1. */
    private int runNextMax = -1;
    private long runStartFrame;
    private Trigger runTrigger;
    /** The PSN a NAK or RNR NAK asked to be resent, and which. */
    private int triggerPsn = -1;
    private Trigger trigger;
    /**
     * A byte-identical copy, within the duplicate window, of a PSN a NAK asked to be resent (no IPv4 ID to
     * tell the datagram): a duplicate or the resend, decided by the requester's next request (see
     * {@link #resent}); null when none waits. {@link #copyRunNext} is the PSN a resend run would go on at.
     */
    private PacketFacts copyAfterNak;
    private int copyRunNext;
    /** While a waiting copy is replayed: whether the next request showed it a resend (true) or a copy (false). */
    private Boolean copyResent;
    /** The IPv4 Identification of the request before the current one (-1: none, or not IPv4). */
    private int previousRequestIpId = -1;

    /** The last few responses (PSN, time): implied-NAK evidence for resends of messages the capture never showed. */
    private static final int RECENT_RESPONSES = 64;
    private final int[] recentResponsePsn = new int[RECENT_RESPONSES];
    private final long[] recentResponseNanos = new long[RECENT_RESPONSES];
    private final long[] recentResponseSeq = new long[RECENT_RESPONSES];
    /** Requests and responses replayed so far in this channel: replay order, for "since" questions. */
    private long seq;
    private int recentResponseNext;
    /** Responses that reached the capture before the request they answer, oldest first. */
    private final ArrayDeque<PacketFacts> heldResponses = new ArrayDeque<>();

    /** The MSN rule's reference point (C9-148): the newest answer's MSN, the PSN it counts through, its frame. */
    private int msnCheckValue;
    private int msnCheckPsn;
    private long msnCheckFrame;
    private boolean msnCheckSet;
    /** MSNs that need requests the capture has not shown yet to be legal, oldest first. */
    private final ArrayDeque<PendingMsn> msnPending = new ArrayDeque<>();
    /** The newest message that reused a PSN: its resends belong to it, not to what used the PSN first. */
    private MessageBuilder lastReuse;
    /**
     * Progress (rules for a stall): the time and frame of the newest request transmission or answer that
     * advanced, extra waiting an RNR NAK allowed, and whether the current silence was reported.
     */
    private long lastProgressNanos = Long.MIN_VALUE;
    private long lastProgressFrame;
    private long rnrWaitNanos;
    private boolean stallReported;
    private boolean answeredAny;
    private int newestAnsweredPsn;

    // RNR NAKs for the same PSN without progress (R3.4).
    private int rnrPsn = -1;
    private int rnrNaks;
    private boolean limitReported;

    Channel(Conversation conversation, int side, Transport transport, ReplayLimits limits) {
        this.conversation = conversation;
        this.side = side;
        this.transport = transport;
        this.limits = limits;
        this.keepsResponseFrames = conversation.keepsMessages();
        java.util.Arrays.fill(recentResponseNanos, -1);
    }

    /**
     * Lists response frame {@code p} on {@code m}: only a {@link Message} shows the list, so a replay whose
     * listener only counts messages ({@link ReplayListener#keepsMessages}) keeps none.
     */
    private void responseFrame(MessageBuilder m, PacketFacts p) {
        if (keepsResponseFrames) {
            m.addResponseFrame((int) p.frame);
        }
    }

    private Endpoint requester() {
        return conversation.endpoint(side);
    }

    // ---- requests ---------------------------------------------------------------------------------

    void request(PacketFacts p) {
        if (conversation.inError()) {
            return; // an error-state QP sends nothing (rules §6); whatever comes is not this connection's
        }
        settleCopyAfterNak(p);
        checkStall(p.timeNanos, null, p.frame);
        progress(p);
        expireHeld(p.timeNanos);
        requestInOrder(p);
        releaseHeld(p);
        settleMsn(p.timeNanos, false);
        previousRequestIpId = p.ipId;
    }

    private void requestInOrder(PacketFacts p) {
        if (!started) {
            started = true;
            int start = requester().startPsn;
            // A first request a little after the announced start PSN means the capture missed the first
            // few; far from it, the announcement was not what this QP used: trust the wire.
            int ahead = start < 0 ? -1 : Psn.diff(p.psn, start);
            startFromCm = ahead >= 0 && ahead <= START_PSN_SLACK;
            nextPsn = startFromCm ? start : p.psn;
            firstRequestPsn = nextPsn;
            firstRequestFrame = p.frame;
            if (start < 0) {
                requester().startPsn = p.psn;
            }
        }
        int d = Psn.diff(p.psn, nextPsn);
        if (d > 0 && readSpanPending != null && conversation.pmtu <= 0 && carriesPathMtu(p)) {
            // A FIRST or MIDDLE carries exactly the path MTU (R2.3): the READ's span follows from it.
            conversation.learnPmtu((int) p.payloadLength);
            MessageBuilder read = readSpanPending;
            settleReadSpan(Psn.add(read.firstPsn, readSpan(read.dmaLength, conversation.pmtu) - 1));
            d = Psn.diff(p.psn, nextPsn);
        }
        if (d >= 0 && readSpanPending != null && rereadOfPending(p)) {
            d = Psn.diff(p.psn, nextPsn); // the re-read told the path MTU: its READ's span is settled
        }
        if (d >= 0 && readSpanPending != null) {
            // The READ before this request occupied PSNs up to here (R1.3) — but never more than its
            // length allows at the smallest path MTU: beyond that the PSNs are a gap.
            MessageBuilder read = readSpanPending;
            int distance = Psn.diff(p.psn, read.firstPsn);
            Operation.Position pos = p.opcode.operation().position();
            if (distance > 1 && (pos == Operation.Position.MIDDLE || pos == Operation.Position.LAST)) {
                distance--; // a MIDDLE or LAST had its message's FIRST (or a MIDDLE) right before it
            }
            settleReadSpan(Psn.add(read.firstPsn, Math.min(distance, maxReadSpan(read.dmaLength)) - 1));
            if (distance > 1) {
                read.spanGuessedAt = p.frame; // a gap may hide lost requests too: its responses will tell
            }
            d = Psn.diff(p.psn, nextPsn);
        }
        int slot = p.psn & (RING - 1);
        boolean seen = ring.psn(slot) == p.psn;
        if (d < 0) {
            resent(p, seen, slot);
            return;
        }
        boolean resentTail = false;
        if (d > 0) {
            if (gap(p, slot)) {
                return;
            }
        } else if (runNext >= 0 && p.psn == runNext && open != null && open.firstFrame() < runStartFrame
                && transport != Transport.UC) {
            // A go-back-N run reaching a PSN never captured, inside a message begun before the run: the
            // requester had sent it before and it was lost (rules §8: a run resends up to the newest PSN).
            resentTail = true;
            conversation.observe(new Observation.PacketLost(p.frame, conversation.id, p.psn, false));
            conversation.observe(new Observation.Retransmission(p.frame, conversation.id, p.psn, runTrigger));
            conversation.stats.retransmissions(side);
            runNext = Psn.add(p.psn, 1);
        }
        if (!resentTail) {
            runNext = -1;
        }
        remember(p, slot, 1);
        assemble(p);
    }

    private void remember(PacketFacts p, int slot, int transmissions) {
        ring.record(slot, p.psn, ++seq, p.frame, p.timeNanos, p.icrcValue(), p.ipId,
                p.icrcStatus() == 0 || p.vcrcStatus() == 0, transmissions, p.opcode.code(),
                p.opcode.operation().kind().ordinal(), p.payloadLength, p.rethDmaLength);
    }

    /**
     * A request PSN jump: the PSNs skipped are missing (resolved later, R3.3 and rules §8). Returns
     * true when the packet was consumed (UC: it belongs to the message the gap dropped).
     */
    private boolean gap(PacketFacts p, int slot) {
        if (transport == Transport.UC) {
            // UC: nothing is resent; a message missing a packet is dropped whole (IBTA 9.8.3), shown with the
            // packets the capture holds. The gap shows here: the message in progress lost its tail or a middle.
            Operation.Position pos = p.opcode.operation().position();
            boolean midMessage = pos == Operation.Position.MIDDLE || pos == Operation.Position.LAST;
            boolean sameKind = open != null
                    && (open.kind == MessageKind.WRITE) == (p.opcode.operation().kind() == Operation.Kind.WRITE);
            boolean continues = midMessage && sameKind && !beyondWrite(open, p.psn);
            if (open != null) {
                if (!open.ucDropped) {
                    open.ucDropped = true;
                    conversation.observe(new Observation.UcMessageDropped(p.frame, conversation.id, open.firstPsn));
                }
                if (!continues) {
                    MessageBuilder dropped = open; // its LAST never came
                    open = null;
                    dropped.finish(Message.DROPPED, 0, 0);
                    outstanding.remove(dropped);
                    retire(dropped);
                }
            }
            if (midMessage && !continues) {
                ucFirstSkipped = true; // this message's FIRST is in the gap: assembly begins it dropped
            }
            return false;
        }
        for (int psn = nextPsn; psn != p.psn; psn = Psn.add(psn, 1)) {
            if (gaps.size() >= limits.gapPsns()) {
                gaps.remove(0);
                reportLimit(p.frame, "missing PSNs remembered per QP (" + limits.gapPsns() + ")");
            }
            gaps.add(new long[]{psn, p.frame});
        }
        return false;
    }

    /**
     * Whether copy {@code p} (byte-identical to an earlier transmission of its PSN, IPv4 ID included) is that
     * same IPv4 datagram again rather than a resend, even where a NAK asked for a resend of its PSN. A
     * sender gives each datagram it sends its own Identification (RFC 791 3.1, RFC 6864 4.1): where this
     * sender's IDs change from packet to packet (the request before this one carried another), a resend
     * would carry a new one, so the same ID is the fabric's copy. A sender with a constant ID (or IPv6,
     * which has none here) leaves the NAK to decide.
     */
    private boolean sameDatagram(PacketFacts p) {
        return p.ipId >= 0 && previousRequestIpId >= 0 && previousRequestIpId != p.ipId;
    }

    /** A request PSN behind the newest: a duplicate copy or a retransmission. */
    private void resent(PacketFacts p, boolean seen, int slot) {
        MessageBuilder m = owner(p.psn);
        if (m != null && m.kind == MessageKind.READ && m.spanGuessedAt > 0 && Psn.diff(p.psn, m.firstPsn) > 0
                && !rereadOf(m, p)) {
            // Not a re-read of it (R3.7): the READ's guessed span ended before this request's PSN.
            int oldEnd = Psn.add(m.lastPsn, 1);
            correctGuessedSpan(m, Psn.add(p.psn, -1));
            if (runNext == oldEnd) {
                runNext = p.psn; // a run through that READ goes on here
            }
            m = owner(p.psn);
        }
        if (transport != Transport.UC) {
            boolean sameAsSent = seen && ring.opcode(slot) == p.opcode.code()
                    && ring.get(slot, TransmissionRing.LENGTH) == p.payloadLength
                    && ring.get(slot, TransmissionRing.DMA_LENGTH) == p.rethDmaLength;
            if (sameAsSent && lastReuse != null && !lastReuse.finished()
                    && Psn.within(p.psn, lastReuse.firstPsn, lastReuse.lastPsn)) {
                m = lastReuse; // a resend of the request that reused this PSN
            } else if (!sameAsSent && reusesPsn(p, m, seen, slot)) {
                return;
            }
        }
        boolean continuesRun = runNext >= 0 && (p.psn == runNext
                || (runNextMax >= 0 && Psn.within(p.psn, runNext, runNextMax)));
        boolean copy = seen && !continuesRun && ring.get(slot, TransmissionRing.ICRC) == p.icrcValue()
                && ring.ipId(slot) == p.ipId && p.timeNanos - ring.get(slot, TransmissionRing.TIME) < DUPLICATE_WINDOW_NANOS;
        if (copy && copyResent == null && triggerPsn == p.psn && !sameDatagram(p)) {
            // A NAK asked for this PSN again, and nothing in the copy tells a resend from the fabric's copy. A
            // go-back-N resend goes on at the next PSN the requester had sent (R3.3): where it had sent past it,
            // the requester's next request decides (seed 10055: a new PSN came next, so the copy was a copy).
            int runWouldGoOn = m != null && m.kind == MessageKind.READ ? Psn.add(m.lastPsn, 1) : Psn.add(p.psn, 1);
            if (Psn.diff(nextPsn, runWouldGoOn) > 0) {
                copyAfterNak = p.copy();
                copyRunNext = runWouldGoOn;
                return;
            }
        }
        if (copy && (Boolean.FALSE.equals(copyResent)
                || (copyResent == null && (triggerPsn != p.psn || sameDatagram(p))))) {
            conversation.observe(new Observation.Duplicate(p.frame, conversation.id, p.psn,
                    ring.get(slot, TransmissionRing.FRAME)));
            conversation.stats.duplicates(side);
            if (m != null) {
                m.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
            }
            return;
        }
        if (transport == Transport.UC) {
            Operation.Position pos = p.opcode.operation().position();
            if (pos == Operation.Position.FIRST || pos == Operation.Position.ONLY) {
                nextPsn = p.psn; // UC resynchronises on a FIRST or ONLY (IBTA 9.8.3)
                request(p);
            }
            return;
        }
        if (!continuesRun && runNext >= 0 && acrossMissedResends(p.psn)) {
            continuesRun = true; // the run's resends of the PSNs between were missed by the capture
        }
        if (!continuesRun) {
            runStartFrame = p.frame;
            if (triggerPsn == p.psn) {
                runTrigger = trigger;
            } else if (m != null && m.kind.answeredByResponse() && laterAnswered(p, lastTransmissionSeq(m, p.psn))) {
                runTrigger = Trigger.IMPLIED_NAK;
            } else if (m == null && p.opcode.operation().kind() != Operation.Kind.SEND
                    && p.opcode.operation().kind() != Operation.Kind.WRITE && laterAnswered(p, Long.MIN_VALUE)) {
                runTrigger = Trigger.IMPLIED_NAK; // a READ or atomic from before the capture, resent the same way
            } else {
                runTrigger = Trigger.TIMEOUT;
                long silence = seen ? p.timeNanos - ring.get(slot, TransmissionRing.TIME) : 0;
                conversation.observe(new Observation.AckTimeout(p.frame, conversation.id, p.psn, silence));
                conversation.stats.timeouts(side);
            }
            triggerPsn = -1;
        }
        conversation.observe(new Observation.Retransmission(p.frame, conversation.id, p.psn, runTrigger));
        conversation.stats.retransmissions(side);
        if (m != null) {
            resentMessage(m, p);
        }
        runNextMax = -1;
        if (m != null && m.kind == MessageKind.READ) {
            runNext = Psn.add(m.lastPsn, 1);
        } else if (m == null && p.opcode.operation().kind() == Operation.Kind.READ) {
            runNext = Psn.add(lateReadEnd(p), 1);
            if (conversation.pmtu <= 0 && ring.psn(runNext & (RING - 1)) != runNext) {
                // A READ of unknown span (no path MTU yet): the run goes on anywhere its length could reach,
                // unless the capture showed a request right after the PSNs it can take: it ends before that.
                runNextMax = unknownReadSpanEnd(p);
            }
        } else {
            runNext = Psn.add(p.psn, 1);
        }
        if (!seen) {
            resolveGap(p.psn, true); // first capture of a PSN that went missing: it was lost, now resent
            remember(p, slot, 1);
            if (beforeStart(p.psn)) {
                return; // resends a request from before the capture: no message the capture can show
            }
            if (m == null || !Psn.within(p.psn, m.firstPsn, m.lastPsn)) {
                assembleLate(p); // its first sighting starts or extends its message, resent or not
            } else if (endsInside(m, p)) {
                splitAfter(m, p);
            } else {
                countBytes(m, p);
                m.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
            }
            return;
        }
        if (m != null) {
            m.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
        }
        remember(p, slot, ring.transmissions(slot) + 1);
    }

    /**
     * Replays the copy that waits for the requester's next request ({@code next}; null when a response or the
     * capture's end comes first): a resend when {@code next} goes on at the PSN after it, as a go-back-N run
     * does (R3.3), else the fabric's copy. Without a next request the NAK decides, as for a copy with nothing
     * sent after it: a resend.
     */
    private void settleCopyAfterNak(PacketFacts next) {
        PacketFacts c = copyAfterNak;
        if (c == null) {
            return;
        }
        copyAfterNak = null;
        copyResent = next == null || next.psn == copyRunNext;
        int slot = c.psn & (RING - 1);
        resent(c, ring.psn(slot) == c.psn, slot);
        copyResent = null;
    }

    /**
     * One past the farthest PSN a READ of unknown span, resent at {@code p}, can take: its length at the
     * smallest path MTU, but never a PSN the capture showed another operation's request at (the READ's
     * span ends before the next request, R1.3; a READ there may be a re-read of it, R3.7, and bounds nothing).
     */
    private int unknownReadSpanEnd(PacketFacts p) {
        int most = maxReadSpan(p.rethDmaLength);
        for (int k = 1; k < Math.min(most, RING); k++) {
            int psn = Psn.add(p.psn, k);
            int slot = psn & (RING - 1);
            if (ring.psn(slot) == psn && ring.kind(slot) != Operation.Kind.READ.ordinal()) {
                return psn;
            }
        }
        return Psn.add(p.psn, most);
    }

    /**
     * Whether the run reaches {@code psn} across PSNs the capture showed requests at, none named by a
     * response (that PSN or a later one) since its latest captured transmission: go-back-N resends every
     * unacknowledged PSN from the run's start in order (R3.3, R3.4, R3.6), so those were resent too and the
     * capture missed the resends — no new run can start at {@code psn} while they are unacknowledged (the
     * timer resends from the oldest one, a NAK names the PSN the responder expects). After a READ of unknown
     * span the PSNs it could take are skipped as its own, up to the first request the capture showed past
     * it. A PSN the capture never showed, or one a response may have acknowledged, ends the run.
     */
    private boolean acrossMissedResends(int psn) {
        int x = runNext;
        if (runNextMax >= 0) {
            if (ring.psn(runNextMax & (RING - 1)) != runNextMax) {
                return false;
            }
            x = runNextMax;
        }
        for (int steps = 0; Psn.diff(psn, x) > 0; steps++) {
            int slot = x & (RING - 1);
            if (steps >= RING || ring.psn(slot) != x || namedSince(x, ring.get(slot, TransmissionRing.SEQ))) {
                return false;
            }
            if (ring.kind(slot) == Operation.Kind.READ.ordinal()) {
                MessageBuilder read = owner(x);
                if (read == null || read.kind != MessageKind.READ) {
                    return false; // a READ from before the capture: its span is unknown
                }
                x = Psn.add(read.lastPsn, 1);
            } else {
                x = Psn.add(x, 1);
            }
        }
        return x == psn;
    }

    /**
     * Whether a response replayed after {@code sinceSeq} names {@code psn} or a later PSN. The last
     * {@link #RECENT_RESPONSES} responses are remembered: when all of them came after, an older one may
     * have, and the answer is yes.
     */
    private boolean namedSince(int psn, long sinceSeq) {
        int after = 0;
        for (int i = 0; i < RECENT_RESPONSES; i++) {
            if (recentResponseNanos[i] >= 0 && recentResponseSeq[i] > sinceSeq) {
                after++;
                if (Psn.diff(recentResponsePsn[i], psn) >= 0) {
                    return true;
                }
            }
        }
        return after == RECENT_RESPONSES;
    }

    /**
     * A request at a used PSN that is not a resend of what was sent there (IBTA 9.7.4.1.1, C9-105): another
     * opcode, length or DMA length than the request the capture showed at that PSN, or any request but a
     * READ inside a READ's response range (R1.3; a READ there re-reads, R3.7), or another operation at an
     * atomic's PSN. Reported, and replayed as the new message it is. Returns true when it was one.
     */
    private boolean reusesPsn(PacketFacts p, MessageBuilder m, boolean seen, int slot) {
        Operation.Kind kind = p.opcode.operation().kind();
        String earlier = null;
        long earlierFrame = 0;
        if (seen && !(kind == Operation.Kind.READ && ring.kind(slot) == Operation.Kind.READ.ordinal())) {
            earlier = io.rdmascope.proto.ib.Opcodes.of(ring.opcode(slot)).shortName();
            earlierFrame = ring.get(slot, TransmissionRing.FRAME);
        } else if (m != null && m.kind == MessageKind.READ && kind != Operation.Kind.READ && spanCertain(m)
                && Psn.within(p.psn, m.firstPsn, m.lastPsn)) {
            earlier = "READ PSN " + m.firstPsn + "-" + m.lastPsn;
            earlierFrame = m.firstFrame();
        } else if (m != null && m.firstPsn == p.psn && (m.kind == MessageKind.COMPARE_SWAP
                || m.kind == MessageKind.FETCH_ADD) && kind != Operation.Kind.ATOMIC) {
            earlier = m.kind.toString();
            earlierFrame = m.firstFrame();
        }
        if (earlier == null) {
            return false;
        }
        conversation.observe(new Observation.PsnReused(p.frame, conversation.id, p.psn, p.opcode.shortName(),
                earlier, earlierFrame));
        remember(p, slot, 1); // what the PSN carries now: a resend of this request is a retransmission
        Operation.Position pos = p.opcode.operation().position();
        if (pos == Operation.Position.MIDDLE || pos == Operation.Position.LAST) {
            return true; // continues a message this reuse would have to begin: nothing to assemble it into
        }
        int next = nextPsn;
        assemble(p);
        if (Psn.diff(next, nextPsn) > 0) {
            nextPsn = next; // the PSNs beyond were sent already
        }
        lastReuse = open != null && open.firstPsn == p.psn ? open : outstanding.peekLast();
        return true;
    }

    /**
     * Whether READ {@code m}'s response span is known for certain: the path MTU is known (CM, or a
     * packet that carried it) and the span is what its DMA length takes at it (R1.3). A span settled
     * only by a response or by the next request's PSN may be wrong (a response stamped early, a request
     * the capture missed), and a PSN reuse is an error: only a certain span can show one.
     */
    private boolean spanCertain(MessageBuilder m) {
        int pmtu = conversation.pmtu;
        return pmtu > 0 && m.spanGuessedAt == 0 && m.dmaLength >= 0
                && Psn.diff(m.lastPsn, m.firstPsn) == readSpan(m.dmaLength, pmtu) - 1;
    }

    /**
     * The requester sent {@code m} again: whatever answered it before did not reach the requester (or
     * came after an unanswered READ or atomic ahead of it, R3.2), so it completes at the next answer.
     * A READ resent from inside its span re-reads from there (R3.7).
     */
    private void resentMessage(MessageBuilder m, PacketFacts p) {
        if (m.kind == MessageKind.READ) {
            m.readFromPsn = p.psn;
            m.clearResponded();
        }
        reopen(m);
    }

    /** A completed message the requester sends more of: it completes again at the next answer. */
    private void reopen(MessageBuilder m) {
        if (Message.COMPLETED.equals(m.status()) && !m.emitted() && recent.remove(m)) {
            conversation.ackUndone(m);
            m.reopen();
            reinsert(m);
        }
    }

    /**
     * Where, in replay order, {@code m} (a READ, atomic, FLUSH or ATOMIC WRITE) was last sent: its first
     * PSN's or this PSN's newest transmission. Replay order, not timestamps: responses stamped before
     * their requests are replayed after them.
     */
    private long lastTransmissionSeq(MessageBuilder m, int psn) {
        long since = Long.MIN_VALUE;
        int a = m.firstPsn & (RING - 1);
        if (ring.psn(a) == m.firstPsn) {
            since = ring.get(a, TransmissionRing.SEQ);
        }
        int b = psn & (RING - 1);
        if (ring.psn(b) == psn) {
            since = Math.max(since, ring.get(b, TransmissionRing.SEQ));
        }
        return since;
    }

    /**
     * Whether a response to a later PSN than {@code p}'s was replayed after {@code sinceSeq} (the message's
     * previous transmission) and came less than {@link #IMPLIED_NAK_NANOS} before {@code p}.
     */
    private boolean laterAnswered(PacketFacts p, long sinceSeq) {
        for (int i = 0; i < RECENT_RESPONSES; i++) {
            if (recentResponseNanos[i] >= 0 && recentResponseSeq[i] > sinceSeq
                    && Psn.diff(recentResponsePsn[i], p.psn) > 0
                    && p.timeNanos - recentResponseNanos[i] < IMPLIED_NAK_NANOS) {
                return true;
            }
        }
        return false;
    }

    /** Puts a message back among the outstanding ones, in PSN order. */
    private void reinsert(MessageBuilder m) {
        List<MessageBuilder> ordered = new ArrayList<>(outstanding);
        int at = ordered.size();
        while (at > 0 && Psn.diff(ordered.get(at - 1).firstPsn, m.firstPsn) > 0) {
            at--;
        }
        ordered.add(at, m);
        outstanding.clear();
        outstanding.addAll(ordered);
    }

    /** A completed message counts in the statistics once, even if a resend reopened it. */
    private void countCompleted(MessageBuilder m) {
        if (!m.counted) {
            m.counted = true;
            conversation.completed(side, m);
        }
    }

    /**
     * A request PSN the capture shows for the first time behind the newest: its first copy was lost
     * before the capture point (or the capture missed it) and this is the resend. It joins the message
     * around it — a partial one whose FIRST or LAST was missing, or a new one in PSN order — without
     * disturbing the message open at the head.
     */
    private void assembleLate(PacketFacts p) {
        Operation op = p.opcode.operation();
        Operation.Position pos = op.position();
        boolean sendOrWrite = op.kind() == Operation.Kind.SEND || op.kind() == Operation.Kind.WRITE;
        if (sendOrWrite && (pos == Operation.Position.MIDDLE || pos == Operation.Position.LAST)) {
            MessageBuilder before = endingAt(Psn.add(p.psn, -1));
            if (before == null) {
                before = endingAcrossUnseen(p);
            }
            if (before != null) {
                reopen(before);
                if (p.psn < before.newestPsn) {
                    // Extends the message past its newest PSN across 0xFFFFFF (24-bit PSNs, R1.1), as in order.
                    conversation.observe(new Observation.PsnWrap(p.frame, conversation.id, p.psn));
                }
                before.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
                before.lastPsn = p.psn;
                before.newestPsn = p.psn;
                before.bytes += p.payloadLength;
                if (pos == Operation.Position.LAST) {
                    before.lastMissing = false;
                    finishClosed(before, p, op);
                } else {
                    MessageBuilder after = partialStartingAt(Psn.add(p.psn, 1));
                    if (after != null && after != before) {
                        join(before, after); // the gap between the resent head and the rest is filled
                    }
                }
                return;
            }
        }
        if (sendOrWrite && pos != Operation.Position.LAST) {
            MessageBuilder after = partialStartingAt(Psn.add(p.psn, 1));
            if (after == null && pos == Operation.Position.FIRST) {
                after = partialInsideWrite(p);
            }
            if (after == null && pos != Operation.Position.ONLY
                    && (op.kind() == Operation.Kind.SEND || pos == Operation.Position.MIDDLE)) {
                after = partialAcrossUnseen(p);
            }
            if (after != null && pos == Operation.Position.MIDDLE
                    && writeKind(after.kind) != (op.kind() == Operation.Kind.WRITE)) {
                after = null;
            }
            // A FIRST or MIDDLE right before a message shown from its middle is its head (R2.2: after a
            // FIRST or MIDDLE only a MIDDLE or LAST of the same message may follow).
            if (after != null && pos != Operation.Position.ONLY) {
                after.firstPsn = p.psn;
                after.firstMissing = pos == Operation.Position.MIDDLE;
                reopen(after); // a resend: whatever answered the message did not reach the requester
                after.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
                after.bytes += p.payloadLength;
                if (op.kind() == Operation.Kind.WRITE && pos == Operation.Position.FIRST) {
                    after.dmaLength = p.rethDmaLength;
                }
                return;
            }
        }
        MessageBuilder m;
        switch (op.kind()) {
            case SEND, WRITE -> {
                m = insert(p, kindOf(op), 0);
                m.bytes = p.payloadLength;
                m.firstMissing = pos == Operation.Position.MIDDLE || pos == Operation.Position.LAST;
                if (op.kind() == Operation.Kind.WRITE && !m.firstMissing) {
                    m.dmaLength = p.rethDmaLength;
                }
                if (pos == Operation.Position.LAST || pos == Operation.Position.ONLY) {
                    finishClosed(m, p, op);
                }
            }
            case READ -> {
                m = insert(p, MessageKind.READ, 0);
                m.dmaLength = p.rethDmaLength;
                m.rethVa = p.rethVa;
                m.rethRkey = p.rethRkey;
                m.lastPsn = lateReadEnd(p);
                for (int psn = Psn.add(p.psn, 1); Psn.diff(psn, m.lastPsn) <= 0; psn = Psn.add(psn, 1)) {
                    if (conversation.pmtu <= 0 && m.spanGuessedAt == 0) {
                        // Without the path MTU the span over the gap is a guess (it may hold lost requests
                        // too): a request or response there corrects it, and the gap is restored as found.
                        m.spanGuessedAt = gapFrame(psn, p.frame);
                    }
                    dropGap(psn); // response PSNs of this READ, not missing requests
                }
            }
            case ATOMIC -> insert(p, op == Operation.COMPARE_SWAP ? MessageKind.COMPARE_SWAP : MessageKind.FETCH_ADD, 8);
            case FLUSH -> insert(p, MessageKind.FLUSH, 0).dmaLength = p.rethDmaLength;
            case ATOMIC_WRITE -> insert(p, MessageKind.ATOMIC_WRITE, p.payloadLength);
            default -> {
            }
        }
    }

    /**
     * The last PSN of a READ first seen behind the newest request: its span at the path MTU when that is
     * known; otherwise it reaches over the PSN gap after it (PSNs no request used, up to what its length
     * allows at the smallest MTU) — the next request the capture showed bounds it.
     */
    private int lateReadEnd(PacketFacts p) {
        int span = readSpan(p.rethDmaLength, conversation.pmtu);
        if (span > 0) {
            return Psn.add(p.psn, span - 1);
        }
        int end = p.psn;
        int most = maxReadSpan(p.rethDmaLength);
        for (int k = 1; k < most && isGap(Psn.add(p.psn, k)); k++) {
            end = Psn.add(p.psn, k);
        }
        return end;
    }

    private boolean isGap(int psn) {
        return hasGap(psn, psn);
    }

    /**
     * A LAST first seen inside a SEND/WRITE that was taken to run on across a PSN gap: the gap held a
     * message boundary, so the packets after it belong to another message (its FIRST still missing).
     */
    private static boolean endsInside(MessageBuilder m, PacketFacts p) {
        Operation op = p.opcode.operation();
        return !m.kind.answeredByResponse() && op.position() == Operation.Position.LAST
                && (op.kind() == Operation.Kind.SEND || op.kind() == Operation.Kind.WRITE)
                && Psn.diff(m.lastPsn, p.psn) > 0;
    }

    /** Splits {@code m} after the LAST {@code p}: what follows becomes a message of its own, shown in part. */
    private void splitAfter(MessageBuilder m, PacketFacts p) {
        MessageBuilder tail = new MessageBuilder(m.kind, Psn.add(p.psn, 1), m.lastPsn, 0, m.firstTimeNanos);
        m.moveFramesAfter(p.psn, tail);
        if (tail.frameCount() == 0) {
            countBytes(m, p);
            m.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
            return;
        }
        tail.firstMissing = true;
        tail.firstPsn = tail.lowestPsn(Psn.add(p.psn, 1));
        tail.newestPsn = m.newestPsn;
        tail.closed = m.closed;
        tail.lastMissing = m.lastMissing;
        tail.immediate = m.immediate;
        tail.invalidatedRkey = m.invalidatedRkey;
        tail.firstTimeNanos = tail.earliestFrameNanos();
        tail.lastRequestNanos = tail.latestFrameNanos();
        tail.bytes = tail.distinctBytes();
        if (open == m) {
            open = tail;
        }
        m.immediate = null;
        m.invalidatedRkey = null;
        m.lastMissing = false;
        m.newestPsn = p.psn;
        m.lastPsn = p.psn;
        m.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
        m.bytes = m.distinctBytes();
        reopen(m);
        if (m.status().equals(Message.INCOMPLETE) && !outstanding.contains(m)) {
            reinsert(m);
        }
        finishClosed(m, p, p.opcode.operation());
        reinsert(tail);
    }

    /** A SEND/WRITE whose LAST (or ONLY) is here: whole at the requester (UC: delivered). */
    private void finishClosed(MessageBuilder m, PacketFacts p, Operation op) {
        m.closed = true;
        if (p.immediate >= 0) {
            m.immediate = p.immediate;
        }
        if (p.invalidateRkey >= 0) {
            m.invalidatedRkey = p.invalidateRkey;
        }
        m.kind = kindOf(op);
        if (transport == Transport.UC && !m.finished()) {
            m.finish(Message.COMPLETED, p.frame, p.timeNanos);
            countCompleted(m);
            outstanding.remove(m);
            retire(m);
        }
    }

    /** A SEND/WRITE still waiting for packets whose newest PSN is {@code psn}. */
    private MessageBuilder endingAt(int psn) {
        if (open != null && open.newestPsn == psn) {
            return open;
        }
        for (MessageBuilder m : outstanding) {
            if (m.newestPsn == psn && (!m.closed || m.lastMissing) && !m.kind.answeredByResponse()) {
                return m;
            }
        }
        for (MessageBuilder m : recent) {
            if (m.newestPsn == psn && m.lastMissing && !m.emitted()) {
                return m; // acknowledged as far as the capture showed it; its LAST comes now
            }
        }
        // A WRITE whose DMA length reaches here, with packets between that the capture never showed.
        int next = Psn.add(psn, 1);
        for (MessageBuilder m : outstanding) {
            if (m.lastMissing && writeSpans(m, next)) {
                return m;
            }
        }
        for (MessageBuilder m : recent) {
            if (m.lastMissing && !m.emitted() && writeSpans(m, next)) {
                return m;
            }
        }
        return null;
    }

    /**
     * A SEND/WRITE of {@code p}'s kind whose LAST the capture has not shown, only never-captured PSNs
     * between its newest PSN and this MIDDLE or LAST. With one such PSN, R2.2 leaves it one reading: a
     * MIDDLE of that message (a LAST there would leave this packet without its FIRST, a FIRST, ONLY,
     * READ or atomic would interleave with the unfinished message). With more, a LAST and a new FIRST
     * could hide there too, and nothing captured tells: the message is taken to run on, as it is when the
     * packets come in order (docs/campaign.md). Not a WRITE whose DMA length is known: that says where it
     * ends ({@link #endingAt}).
     */
    private MessageBuilder endingAcrossUnseen(PacketFacts p) {
        int before = Psn.add(p.psn, -1);
        for (int k = 0; k < limits.gapPsns() && ring.psn(before & (RING - 1)) != before && owner(before) == null; k++) {
            before = Psn.add(before, -1);
        }
        if (before == Psn.add(p.psn, -1)) {
            return null;
        }
        MessageBuilder m = endingAt(before);
        boolean write = p.opcode.operation().kind() == Operation.Kind.WRITE;
        if (m == null || !m.lastMissing || writeKind(m.kind) != write || (write && m.dmaLength >= 0)) {
            return null;
        }
        m.psnsMissing = true;
        return m;
    }

    /**
     * For a FIRST or MIDDLE: a message the capture showed from its middle on, only never-captured PSNs
     * between. The PSN right after a FIRST or MIDDLE is a MIDDLE or LAST of its message (R2.2); with one
     * unseen PSN a LAST there would leave the later packets without a FIRST, with more the capture cannot
     * tell, and the message is taken to run on ({@link #endingAcrossUnseen}, docs/campaign.md). Not a
     * WRITE FIRST: its DMA length says where it ends ({@link #partialInsideWrite}).
     */
    private MessageBuilder partialAcrossUnseen(PacketFacts p) {
        int next = Psn.add(p.psn, 1);
        for (int k = 0; k < limits.gapPsns() && ring.psn(next & (RING - 1)) != next && owner(next) == null; k++) {
            next = Psn.add(next, 1);
        }
        MessageBuilder m = next == Psn.add(p.psn, 1) ? null : partialStartingAt(next);
        boolean write = p.opcode.operation().kind() == Operation.Kind.WRITE;
        if (m == null || writeKind(m.kind) != write) {
            return null;
        }
        m.psnsMissing = true;
        return m;
    }

    /** WRITE or WRITE with immediate: a message of WRITE packets (the other SEND/WRITE kinds are SENDs). */
    private static boolean writeKind(MessageKind kind) {
        return kind == MessageKind.WRITE || kind == MessageKind.WRITE_WITH_IMM;
    }

    /** Whether {@code psn} is past what the capture showed of WRITE {@code m} but inside its DMA length. */
    private boolean writeSpans(MessageBuilder m, int psn) {
        return m.kind == MessageKind.WRITE && m.dmaLength >= 0 && conversation.pmtu > 0
                && Psn.diff(psn, m.newestPsn) > 0 && !beyondWrite(m, psn);
    }

    /** The end of a message whose LAST the capture has not shown: past its newest PSN, or its WRITE length's end. */
    private int lastMissingEnd(MessageBuilder m) {
        int end = Psn.add(m.lastPsn, 1);
        if (m.kind == MessageKind.WRITE && m.dmaLength >= 0 && conversation.pmtu > 0) {
            int byLength = Psn.add(m.firstPsn, packetsAtMtu(m.dmaLength, conversation.pmtu) - 1);
            if (Psn.diff(byLength, end) > 0) {
                end = byLength;
            }
        }
        return end;
    }

    /**
     * {@code tail} (a message the capture showed from a MIDDLE on) continues {@code head}, whose resent
     * packets now reach it: one message, incomplete until answered after these resends.
     */
    private void join(MessageBuilder head, MessageBuilder tail) {
        outstanding.remove(tail);
        recent.remove(tail);
        if (open == tail) {
            open = head;
        }
        head.appendFrames(tail);
        head.lastRequestNanos = Math.max(head.lastRequestNanos, tail.lastRequestNanos);
        head.bytes += tail.bytes;
        head.lastPsn = tail.lastPsn;
        head.newestPsn = tail.newestPsn;
        head.closed = tail.closed;
        head.lastMissing = tail.lastMissing;
        head.psnsMissing |= tail.psnsMissing;
        if (tail.closed) {
            head.kind = tail.kind;
            head.immediate = tail.immediate;
            head.invalidatedRkey = tail.invalidatedRkey;
        }
        head.firstTimeNanos = Math.min(head.firstTimeNanos, tail.firstTimeNanos);
        head.reopen();
    }

    /**
     * For a WRITE FIRST: a message shown from a later packet on, inside the PSNs its DMA length gives
     * it (the packets between were never captured).
     */
    private MessageBuilder partialInsideWrite(PacketFacts p) {
        int pmtu = conversation.pmtu;
        if (p.opcode.operation().kind() != Operation.Kind.WRITE || p.rethDmaLength < 0 || pmtu <= 0) {
            return null;
        }
        int packets = packetsAtMtu(p.rethDmaLength, pmtu);
        for (int k = 2; k < packets; k++) {
            MessageBuilder m = partialStartingAt(Psn.add(p.psn, k));
            if (m != null && m.kind != MessageKind.SEND && m.kind != MessageKind.SEND_WITH_IMM
                    && m.kind != MessageKind.SEND_WITH_INV) {
                return m;
            }
        }
        return null;
    }

    /** A SEND/WRITE that began without its FIRST at {@code psn}. */
    private MessageBuilder partialStartingAt(int psn) {
        if (open != null && open.firstMissing && open.firstPsn == psn) {
            return open;
        }
        for (MessageBuilder m : outstanding) {
            if (m.firstMissing && m.firstPsn == psn) {
                return m;
            }
        }
        for (MessageBuilder m : recent) {
            if (m.firstMissing && m.firstPsn == psn) {
                return m;
            }
        }
        return null;
    }

    /** A new message from request {@code p}, room made for it among the outstanding (the oldest gives way). */
    private MessageBuilder newMessage(PacketFacts p, MessageKind kind, long bytes) {
        MessageBuilder m = new MessageBuilder(kind, p.psn, p.psn, p.frame, p.timeNanos);
        m.firstPayload(p.payloadLength);
        m.bytes = bytes;
        m.closed = kind.answeredByResponse();
        if (outstanding.size() >= limits.outstanding()) {
            MessageBuilder oldest = outstanding.pollFirst();
            reportLimit(p.frame, "outstanding messages per QP (" + limits.outstanding() + ")");
            retire(oldest);
        }
        return m;
    }

    /** Begins a message behind the head, kept in PSN order among the outstanding ones. */
    private MessageBuilder insert(PacketFacts p, MessageKind kind, long bytes) {
        MessageBuilder m = newMessage(p, kind, bytes);
        reinsert(m);
        return m;
    }

    /** The frame at which missing PSN {@code psn} was noticed, or {@code otherwise} if it is not missing. */
    private long gapFrame(int psn, long otherwise) {
        for (long[] g : gaps) {
            if (g[0] == psn) {
                return g[1];
            }
        }
        return otherwise;
    }

    private void dropGap(int psn) {
        gaps.removeIf(g -> g[0] == psn);
    }

    /** Whether the PSN just before {@code psn} is one the capture has not shown (a PSN gap). */
    private boolean gapBefore(int psn) {
        return isGap(Psn.add(psn, -1));
    }

    /**
     * A READ inside the span of the READ whose span is unsettled, reading the rest of the same buffer
     * (same R_Key, the VA advanced and the length shortened by the same amount): a re-read after lost
     * responses (R3.7). The offset per PSN is the path MTU, which settles the first READ's span.
     */
    private boolean rereadOfPending(PacketFacts p) {
        MessageBuilder read = readSpanPending;
        int k = Psn.diff(p.psn, read.firstPsn);
        if (k >= maxReadSpan(read.dmaLength) || !rereadOf(read, p)) {
            return false;
        }
        conversation.learnPmtu((int) ((p.rethVa - read.rethVa) / k));
        settleReadSpan(Psn.add(read.firstPsn, readSpan(read.dmaLength, conversation.pmtu) - 1));
        return true;
    }

    /**
     * Whether request {@code p}, at a PSN past READ {@code read}'s first, can be a re-read of it (R3.7: a
     * READ at the first missing response PSN k past the first, same R_Key, VA + k·PMTU, DMA length the
     * remainder). With the path MTU unknown, any path MTU that fits will do.
     */
    private boolean rereadOf(MessageBuilder read, PacketFacts p) {
        if (p.opcode.operation().kind() != Operation.Kind.READ) {
            return false;
        }
        int k = Psn.diff(p.psn, read.firstPsn);
        long advanced = p.rethVa - read.rethVa;
        int pmtu = conversation.pmtu;
        return p.rethRkey == read.rethRkey && k > 0 && advanced > 0 && advanced % k == 0
                && advanced + p.rethDmaLength == read.dmaLength
                && (pmtu > 0 ? advanced / k == pmtu : Conversation.isPathMtu(advanced / k));
    }

    /**
     * Whether READ response {@code r} can belong to the READ whose span is unknown: inside what its length
     * allows, an ONLY or FIRST only at its PSN, a MIDDLE or LAST only after it.
     */
    private boolean answersPendingRead(PacketFacts r) {
        MessageBuilder pending = readSpanPending;
        if (pending == null || !withinPossibleSpan(pending, r.psn)) {
            return false;
        }
        Operation op = r.opcode.operation();
        boolean starts = op == Operation.RDMA_READ_RESPONSE_ONLY || op == Operation.RDMA_READ_RESPONSE_FIRST;
        return starts == (r.psn == pending.firstPsn);
    }

    /**
     * Whether {@code psn} lies past the PSNs a WRITE's RETH DMA length gives it at the path MTU (R2.3):
     * a packet there after a gap cannot continue it.
     */
    private boolean beyondWrite(MessageBuilder w, int psn) {
        int pmtu = conversation.pmtu;
        if (w == null || w.kind != MessageKind.WRITE || w.dmaLength < 0 || pmtu <= 0) {
            return false;
        }
        return Psn.diff(psn, w.firstPsn) >= packetsAtMtu(w.dmaLength, pmtu);
    }

    private static boolean carriesPathMtu(PacketFacts p) {
        Operation op = p.opcode.operation();
        return (op.kind() == Operation.Kind.SEND || op.kind() == Operation.Kind.WRITE)
                && (op.position() == Operation.Position.FIRST || op.position() == Operation.Position.MIDDLE)
                && Conversation.isPathMtu(p.payloadLength);
    }

    /** Whether {@code psn} lies in the PSNs READ {@code read} could occupy, whatever the path MTU. */
    private static boolean withinPossibleSpan(MessageBuilder read, int psn) {
        return Psn.within(psn, read.firstPsn, Psn.add(read.firstPsn, maxReadSpan(read.dmaLength) - 1));
    }

    /** The most PSNs a READ of this length can occupy: one per 256 bytes, the smallest path MTU (R1.3). */
    static int maxReadSpan(long dmaLength) {
        return dmaLength <= 256 ? 1 : (int) Math.min(1 << 20, (dmaLength + 255) / 256);
    }

    private void countBytes(MessageBuilder m, PacketFacts p) {
        if (m != null && m.kind != MessageKind.READ && m.kind != MessageKind.FLUSH
                && m.kind != MessageKind.COMPARE_SWAP && m.kind != MessageKind.FETCH_ADD) {
            m.bytes += p.payloadLength;
        }
    }

    /** Resolves missing PSN {@code psn}: lost on the wire (NAK'd or resent) or missing from the capture. */
    private boolean resolveGap(int psn, boolean lost) {
        for (Iterator<long[]> it = gaps.iterator(); it.hasNext(); ) {
            long[] g = it.next();
            if (g[0] == psn) {
                it.remove();
                conversation.observe(lost ? new Observation.PacketLost(g[1], conversation.id, psn, false)
                        : new Observation.MissingFromCapture(g[1], conversation.id, psn));
                if (lost) {
                    conversation.stats.lost(side);
                }
                return true;
            }
        }
        return false;
    }

    /** Message assembly of a new request packet (R2.2 sequences, R2.3 lengths). */
    private void assemble(PacketFacts p) {
        Operation op = p.opcode.operation();
        int pmtu = conversation.pmtu;
        switch (op.kind()) {
            case SEND, WRITE -> assembleSendOrWrite(p, op, pmtu);
            case READ -> {
                closeOpen(p);
                MessageBuilder m = begin(p, MessageKind.READ, 0);
                m.dmaLength = p.rethDmaLength;
                m.rethVa = p.rethVa;
                m.rethRkey = p.rethRkey;
                int span = readSpan(p.rethDmaLength, pmtu);
                if (span < 0) {
                    span = 1;
                    readSpanPending = m; // settled by the next request PSN or the first response
                }
                m.lastPsn = Psn.add(p.psn, span - 1);
                nextPsn = Psn.add(p.psn, span);
                return;
            }
            case ATOMIC -> {
                closeOpen(p);
                begin(p, op == Operation.COMPARE_SWAP ? MessageKind.COMPARE_SWAP : MessageKind.FETCH_ADD, 8);
            }
            case FLUSH -> {
                closeOpen(p);
                begin(p, MessageKind.FLUSH, 0).dmaLength = p.rethDmaLength;
            }
            case ATOMIC_WRITE -> {
                closeOpen(p);
                begin(p, MessageKind.ATOMIC_WRITE, p.payloadLength);
            }
            default -> {
            }
        }
        nextPsn = Psn.add(p.psn, 1);
    }

    private void assembleSendOrWrite(PacketFacts p, Operation op, int pmtu) {
        boolean write = op.kind() == Operation.Kind.WRITE;
        Operation.Position pos = op.position();
        boolean firstRequest = requestsAssembled++ == 0;
        boolean ucSkipped = ucFirstSkipped;
        ucFirstSkipped = false;
        if (pos == Operation.Position.FIRST || pos == Operation.Position.ONLY) {
            closeOpen(p);
            MessageBuilder m = begin(p, kindOf(op), 0);
            if (write) {
                m.dmaLength = p.rethDmaLength;
            }
            open = m;
        } else if (open == null || (open.kind == MessageKind.WRITE) != write
                || ((gapBefore(p.psn) || ucSkipped) && beyondWrite(open, p.psn))) {
            if (gapBefore(p.psn) || firstRequest || ucSkipped) {
                // Its FIRST is in a PSN gap (lost before the capture point, or missed by the capture) or
                // before the capture began: a message the capture shows in part, not a sequence error.
                closeOpen(p);
                MessageBuilder m = begin(p, kindOf(op), 0);
                m.firstMissing = true;
                if (ucSkipped) {
                    m.ucDropped = true;
                    conversation.observe(new Observation.UcMessageDropped(p.frame, conversation.id, p.psn));
                }
                open = m;
            } else {
                conversation.observe(new Observation.OpcodeSequence(p.frame, conversation.id, p.psn, true));
                nextPsn = Psn.add(p.psn, 1);
                return;
            }
        } else {
            if (Psn.diff(p.psn, open.newestPsn) > 0 && p.psn < open.newestPsn) {
                conversation.observe(new Observation.PsnWrap(p.frame, conversation.id, p.psn));
            }
            open.addFrame(p.frame, p.timeNanos, p.psn, p.payloadLength);
            open.lastPsn = p.psn;
            open.newestPsn = p.psn;
        }
        MessageBuilder m = open;
        m.bytes += p.payloadLength;
        boolean finalPacket = pos == Operation.Position.LAST || pos == Operation.Position.ONLY;
        checkLengths(p, m, finalPacket, pmtu);
        if (finalPacket) {
            m.closed = true;
            open = null;
            if (p.immediate >= 0) {
                m.immediate = p.immediate;
            }
            if (p.invalidateRkey >= 0) {
                m.invalidatedRkey = p.invalidateRkey;
            }
            m.kind = kindOf(op);
            if (transport == Transport.UC) {
                outstanding.remove(m);
                if (m.ucDropped) {
                    m.finish(Message.DROPPED, 0, 0);
                } else {
                    m.finish(Message.COMPLETED, p.frame, p.timeNanos); // UC: nothing acknowledges (IBTA 9.8)
                    countCompleted(m);
                }
                retire(m);
            }
        }
        nextPsn = Psn.add(p.psn, 1);
    }

    private static MessageKind kindOf(Operation op) {
        if (op.kind() == Operation.Kind.WRITE) {
            return op.hasImmediate() ? MessageKind.WRITE_WITH_IMM : MessageKind.WRITE;
        }
        return op.hasImmediate() ? MessageKind.SEND_WITH_IMM
                : op.hasInvalidate() ? MessageKind.SEND_WITH_INV : MessageKind.SEND;
    }

    /** R2.3: FIRST/MIDDLE carry exactly the path MTU and no pad; nothing exceeds it; WRITE totals its DMA length. */
    private void checkLengths(PacketFacts p, MessageBuilder m, boolean finalPacket, int pmtu) {
        long payload = p.payloadLength;
        int limit = pmtu > 0 ? pmtu : 4096;
        if (!finalPacket) {
            if (p.padCount != 0) {
                conversation.observe(new Observation.LengthViolation(p.frame, conversation.id, p.psn,
                        LengthRule.WRONG_PAD_COUNT, 0, p.padCount));
            }
            if (payload > limit) {
                conversation.observe(new Observation.LengthViolation(p.frame, conversation.id, p.psn,
                        LengthRule.PAYLOAD_OVER_PMTU, limit, payload));
            } else if (!Conversation.isPathMtu(payload) || (pmtu > 0 && payload < pmtu)) {
                conversation.observe(new Observation.LengthViolation(p.frame, conversation.id, p.psn,
                        LengthRule.SHORT_NON_FINAL_PACKET, pmtu, payload));
            } else {
                conversation.learnPmtu((int) payload);
            }
            return;
        }
        if (payload > limit) {
            conversation.observe(new Observation.LengthViolation(p.frame, conversation.id, p.psn,
                    LengthRule.PAYLOAD_OVER_PMTU, limit, payload));
            return;
        }
        if (m.dmaLength < 0) {
            return;
        }
        long dma = m.dmaLength;
        int expectedPad = (int) ((4 - dma % 4) % 4);
        boolean single = m.firstPsn == p.psn;
        long total;
        if (single) {
            total = payload;
        } else if (pmtu > 0) {
            total = (long) Psn.diff(p.psn, m.firstPsn) * pmtu + payload; // what the PSN span carried, gaps or not
        } else if (!hasGap(m.firstPsn, p.psn)) {
            total = m.bytes;
        } else {
            return;
        }
        if (total == dma) {
            return;
        }
        if (p.padCount != expectedPad && total + p.padCount == dma + expectedPad) {
            conversation.observe(new Observation.LengthViolation(p.frame, conversation.id, p.psn,
                    LengthRule.WRONG_PAD_COUNT, expectedPad, p.padCount));
            m.bytes += p.padCount - expectedPad; // the payload ends where the DMA length says
        } else {
            conversation.observe(new Observation.LengthViolation(p.frame, conversation.id, p.psn,
                    LengthRule.DMA_LENGTH_MISMATCH, dma, total));
        }
    }

    private boolean hasGap(int first, int last) {
        // Indexed: asked on most requests, and the list's iterator is an object per call.
        for (int i = 0, n = gaps.size(); i < n; i++) {
            if (Psn.within((int) gaps.get(i)[0], first, last)) {
                return true;
            }
        }
        return false;
    }

    /** A new message while a SEND/WRITE is open: the open one can never complete (R2.2 "missing LAST"). */
    private void closeOpen(PacketFacts p) {
        if (open != null && gapBefore(p.psn)) {
            // Its LAST may be in the PSN gap just before: whole at the requester as far as anyone can tell.
            open.closed = true;
            open.lastMissing = true;
            open = null;
            return;
        }
        if (open != null) {
            conversation.observe(new Observation.OpcodeSequence(p.frame, conversation.id, p.psn, false));
            MessageBuilder abandoned = open;
            open = null;
            abandoned.finish(Message.FAILED, 0, 0);
            outstanding.remove(abandoned);
            retire(abandoned);
        }
    }

    private MessageBuilder begin(PacketFacts p, MessageKind kind, long bytes) {
        MessageBuilder m = newMessage(p, kind, bytes);
        outstanding.addLast(m);
        return m;
    }

    private static int readSpan(long dmaLength, int pmtu) {
        if (dmaLength <= 0) {
            return 1;
        }
        if (pmtu <= 0) {
            return dmaLength <= 256 ? 1 : -1; // one packet whatever the MTU, else unknown until the MTU is
        }
        return packetsAtMtu(dmaLength, pmtu);
    }

    /** Packets (PSNs) a READ or WRITE of {@code length} bytes takes at path MTU {@code pmtu} (R1.3, R2.3). */
    private static int packetsAtMtu(long length, int pmtu) {
        return (int) Math.max(1, (length + pmtu - 1) / pmtu);
    }

    private void settleReadSpan(int lastPsn) {
        MessageBuilder m = readSpanPending;
        readSpanPending = null;
        if (m != null && Psn.diff(lastPsn, m.lastPsn) > 0) {
            m.lastPsn = lastPsn;
            nextPsn = Psn.add(lastPsn, 1);
        }
    }

    /** The message whose PSN range holds {@code psn}, among those not yet retired (or recently retired). */
    private MessageBuilder owner(int psn) {
        if (open != null && Psn.within(psn, open.firstPsn, open.lastPsn)) {
            return open;
        }
        for (MessageBuilder m : outstanding) {
            if (Psn.within(psn, m.firstPsn, m.lastPsn)) {
                return m;
            }
        }
        for (MessageBuilder m : recent) {
            if (Psn.within(psn, m.firstPsn, m.lastPsn)) {
                return m;
            }
        }
        return null;
    }

    /**
     * Whether a response with this PSN could answer requests this channel has seen, allowing
     * {@code slack} PSNs past the newest (requests the capture has not shown yet). A PSN before the first
     * request shown counts when a request at it was shown since (a go-back-N run reaching back before
     * the capture began, R3.3, R3.6).
     */
    boolean mayAnswer(int psn, int slack) {
        if (!started) {
            return false;
        }
        int start = requester().startPsn;
        boolean sent = ring.psn(psn & (RING - 1)) == psn;
        return Psn.diff(psn, Psn.add(nextPsn, -1)) <= slack
                && (start < 0 || Psn.diff(psn, start) >= -slack || sent);
    }

    /**
     * Whether a response this channel holds, waiting for its request (the capture has not shown one),
     * has a PSN {@code window} accepts: pairing evidence for a direction whose requests are not placed yet.
     */
    boolean holdsResponseWhere(java.util.function.IntPredicate window) {
        for (PacketFacts r : heldResponses) {
            if (window.test(r.psn)) {
                return true;
            }
        }
        return false;
    }

    // ---- responses --------------------------------------------------------------------------------

    void response(PacketFacts p) {
        if (transport == Transport.UC || conversation.inError()) {
            return; // UC has no responses; an error-state QP's peer answers nothing of this connection
        }
        settleCopyAfterNak(null);
        checkStall(p.timeNanos, null, p.frame);
        checkMsn(p); // in capture order: the order the responder sent its AETHs in, before any holding
        learnPmtuFromResponse(p);
        expireHeld(p.timeNanos);
        if (!started || ahead(p)) {
            if (!started || Psn.diff(p.psn, Psn.add(nextPsn, -1)) <= AHEAD_SLACK) {
                hold(p);
                return;
            }
        } else if (awaitsRequest(p)) {
            dropResponseSpanGap(p);
            hold(p);
            // Not past the newest request: a later PSN was sent before this answer was stamped, and its
            // request (sent in PSN order, R1.3) before that. The capture missed it; no reordering is needed
            // to explain the answer, so it says nothing of a timestamp skew whichever request follows.
            heldResponses.peekLast().inversionDecided = -1;
            return;
        }
        respond(p);
    }

    /**
     * An answer (READ response FIRST/ONLY, atomic ACK) to a request the capture never showed, at a PSN
     * where one fits: at or past this requester's first request, not far past its newest, and no other
     * kind of request captured there. Its request went by unseen (missed, or before the capture point
     * when nothing resent it): nothing wrong with the traffic.
     */
    private boolean requestMissedByCapture(PacketFacts r, Operation.Kind kind) {
        int slot = r.psn & (RING - 1);
        if (ring.psn(slot) == r.psn) {
            Operation.Kind captured = Operation.Kind.values()[ring.kind(slot)];
            return captured == kind || (kind == Operation.Kind.READ
                    && (captured == Operation.Kind.FLUSH || captured == Operation.Kind.ATOMIC_WRITE));
        }
        // The MSN must have moved since the last answer to an earlier PSN (C9-148): the responder
        // completed a request there. The same MSN means nothing new was executed: it answers nothing.
        boolean msnMoved = msnSeenPsn < 0 || r.aethMsn < 0 || Psn.diff(r.psn, msnSeenPsn) <= 0
                || Psn.diff(r.aethMsn, msnSeen) > 0;
        return msnMoved && started && Psn.diff(r.psn, firstRequestPsn) >= 0
                && Psn.diff(r.psn, Psn.add(nextPsn, -1)) <= AHEAD_SLACK && owner(r.psn) == null;
    }

    /**
     * A READ response MIDDLE/LAST on a PSN gap: the PSN is a READ's response span, not a request the capture
     * missed. So is the PSN after a FIRST or MIDDLE: one READ's responses run FIRST, MIDDLE..., LAST at
     * consecutive PSNs (R3.7, rules §4), so a MIDDLE or LAST of the same READ was sent there.
     */
    private void dropResponseSpanGap(PacketFacts r) {
        Operation op = r.opcode.operation();
        if ((op == Operation.RDMA_READ_RESPONSE_FIRST || op == Operation.RDMA_READ_RESPONSE_MIDDLE)
                && isGap(Psn.add(r.psn, 1))) {
            dropGap(Psn.add(r.psn, 1));
        }
        if ((op == Operation.RDMA_READ_RESPONSE_MIDDLE || op == Operation.RDMA_READ_RESPONSE_LAST) && isGap(r.psn)) {
            dropGap(r.psn);
            int before = -1;
            Operation beforeOp = null;
            for (PacketFacts h : heldResponses) {
                if (isReadResponse(h) && Psn.diff(h.psn, r.psn) < 0 && (before < 0 || Psn.diff(h.psn, before) > 0)) {
                    before = h.psn;
                    beforeOp = h.opcode.operation();
                }
            }
            if (beforeOp == Operation.RDMA_READ_RESPONSE_FIRST || beforeOp == Operation.RDMA_READ_RESPONSE_MIDDLE) {
                dropResponseGapsBetween(before, r.psn);
            }
        }
    }

    /**
     * A READ response MIDDLE or LAST at {@code psn} after a FIRST or MIDDLE at {@code from}, both for a READ
     * the capture has not shown: one READ's responses run FIRST, MIDDLE..., LAST at consecutive PSNs (R3.7),
     * so the PSNs between were its responses too (lost, or missed by the capture), not missing requests.
     */
    private void dropResponseGapsBetween(int from, int psn) {
        if (Psn.diff(psn, from) <= 0 || Psn.diff(psn, from) > limits.gapPsns()) {
            return;
        }
        for (int x = Psn.add(from, 1); x != psn; x = Psn.add(x, 1)) {
            dropGap(x);
        }
    }

    /**
     * A READ response or atomic ACK for a PSN whose request the capture has not shown yet (lost before the
     * capture point, its resend still to come, or stamped late): it waits for the request, at most the hold
     * time, instead of being judged unmatched at once.
     */
    private boolean awaitsRequest(PacketFacts r) {
        boolean read = isReadResponse(r);
        if (!read && r.opcode.operation() != Operation.ATOMIC_ACKNOWLEDGE) {
            return false;
        }
        if (beforeStart(r.psn) || ring.psn(r.psn & (RING - 1)) == r.psn) {
            return false;
        }
        if (read && answersPendingRead(r)) {
            return false; // a response of the READ whose span is still unknown
        }
        if (read) {
            return readLikeOwner(outstanding, r, r.opcode.operation()) == null
                    && readLikeOwner(recent, r, r.opcode.operation()) == null;
        }
        return true;
    }

    /**
     * Whether response {@code r} is for a PSN past every request this requester has shown. A READ's
     * span counts for READ responses; while that span is unsettled (path MTU unknown) only a READ
     * response can tell it, so another response past the READ's PSN is ahead.
     */
    private boolean ahead(PacketFacts r) {
        if (Psn.diff(r.psn, Psn.add(nextPsn, -1)) <= 0) {
            return false;
        }
        MessageBuilder read = readSpanPending;
        return read == null || !isReadResponse(r) || !withinPossibleSpan(read, r.psn);
    }

    private static boolean isReadResponse(PacketFacts r) {
        Operation op = r.opcode.operation();
        return op == Operation.RDMA_READ_RESPONSE_FIRST || op == Operation.RDMA_READ_RESPONSE_MIDDLE
                || op == Operation.RDMA_READ_RESPONSE_LAST || op == Operation.RDMA_READ_RESPONSE_ONLY;
    }

    /** Whether {@code psn} answers a request sent before the capture showed this requester's first one. */
    private boolean beforeStart(int psn) {
        return !startFromCm && Psn.diff(psn, firstRequestPsn) < 0;
    }

    /**
     * Whether {@code psn} lies before the starting PSN CM announced, on a connection that has sent too few
     * PSNs to have wrapped back there: no request ever carried it (an ACK for 0xFFFFFF on a connection
     * starting at 0).
     */
    private boolean neverSent(int psn) {
        return started && startFromCm && Psn.diff(psn, firstRequestPsn) < 0
                && Psn.diff(nextPsn, firstRequestPsn) < (1 << 22);
    }

    // ---- progress, stalls and teardown --------------------------------------------------------------

    private void progress(PacketFacts p) {
        lastProgressNanos = p.timeNanos;
        lastProgressFrame = p.frame;
        rnrWaitNanos = 0;
        stallReported = false;
    }

    /** Whether any message of this requester is unanswered. */
    private boolean waiting() {
        return open != null || !outstanding.isEmpty();
    }

    private MessageBuilder oldestWaiting() {
        MessageBuilder oldest = outstanding.peekFirst();
        if (open != null && (oldest == null || Psn.diff(open.firstPsn, oldest.firstPsn) < 0)) {
            oldest = open;
        }
        return oldest;
    }

    /** How long a working requester waits without progress before it resends or gives up: T_tr x (retry_cnt + 1). */
    private long retryBudgetNanos() {
        int retries = requester().retryCount;
        return requester().ackTimeoutNanos() * (retries >= 0 && retries <= 7 ? retries + 1 : 8) + rnrWaitNanos;
    }

    /**
     * At capture time {@code nowNanos}: messages outstanding and nothing moved for longer than the retry
     * budget means the QP stalled (reported once per silence). On a capture that misses packets, an
     * answer it never showed may have completed them, so there it takes a resend to show the requester
     * was still waiting. {@code until} says what ended the silence; null for a frame that moved the QP
     * again ({@code movedAgainFrame}), whose text is made only when a stall is reported. Returns true when
     * it reported one.
     */
    private boolean checkStall(long nowNanos, String until, long movedAgainFrame) {
        if (stallReported || !waiting() || lastProgressNanos == Long.MIN_VALUE || conversation.inError()) {
            return false;
        }
        long silence = nowNanos - lastProgressNanos;
        long budget = retryBudgetNanos();
        if (silence <= budget) {
            return false; // the usual case, once per frame: no allocation before here
        }
        MessageBuilder oldest = oldestWaiting();
        if (oldest == null) {
            return false;
        }
        int slot = oldest.firstPsn & (RING - 1);
        boolean resent = ring.psn(slot) == oldest.firstPsn && ring.transmissions(slot) > 1;
        if (conversation.capture.missesPackets && !resent) {
            return false;
        }
        stallReported = true;
        conversation.observe(new Observation.QpStalled(lastProgressFrame, conversation.id, oldest.firstPsn, oldest.kind,
                oldest.firstFrame(), silence, budget, until != null ? until : "frame " + movedAgainFrame + " moved it again"));
        return true;
    }

    /**
     * The connection ends at {@code frame} ({@code cause}): a stall up to there is reported, and every
     * message still unanswered fails, named by one finding (IBTA 10.3.1: outstanding work is flushed in
     * error).
     */
    void tearDown(long frame, long timeNanos, String cause) {
        settleCopyAfterNak(null);
        checkStall(timeNanos, cause + " in frame " + frame, 0);
        failOutstanding(frame, cause);
    }

    /** The open SEND/WRITE (LAST not seen) is judged with the outstanding messages from here on. */
    private void openJoinsOutstanding() {
        if (open != null && !outstanding.contains(open)) {
            outstanding.addLast(open);
        }
        open = null;
    }

    private void failOutstanding(long frame, String cause) {
        openJoinsOutstanding();
        List<MessageBuilder> failed = new ArrayList<>();
        while (!outstanding.isEmpty()) {
            MessageBuilder m = outstanding.pollFirst();
            if (!m.finished()) {
                m.finish(Message.FAILED, 0, 0);
                failed.add(m);
            }
            retire(m);
        }
        if (!failed.isEmpty() && cause != null) {
            StringBuilder named = new StringBuilder();
            for (int i = 0; i < failed.size() && i < 5; i++) {
                MessageBuilder m = failed.get(i);
                named.append(i == 0 ? "" : ", ").append(m.kind).append(" PSN ").append(m.firstPsn)
                        .append(" (frame ").append(m.firstFrame()).append(')');
            }
            if (failed.size() > 5) {
                named.append(", ...");
            }
            conversation.observe(new Observation.TornDownWithOutstanding(frame, conversation.id, failed.get(0).firstPsn,
                    cause, failed.size(), named.toString()));
        }
    }

    /**
     * A READ response FIRST or MIDDLE carries exactly the path MTU (R2.3), whichever READ it answers:
     * learnt in capture order, before the response is held for its request, so that a READ the capture
     * shows after responses to earlier READs (its own responses still to come) gets its span from its
     * length (R1.3) rather than from those responses.
     */
    private void learnPmtuFromResponse(PacketFacts p) {
        Operation op = p.opcode.operation();
        if (conversation.pmtu <= 0 && isReadResponse(p)
                && (op.position() == Operation.Position.FIRST || op.position() == Operation.Position.MIDDLE)
                && Conversation.isPathMtu(p.payloadLength)) {
            conversation.learnPmtu((int) p.payloadLength);
        }
    }

    private void hold(PacketFacts p) {
        if (heldResponses.size() >= HELD_RESPONSES) {
            expire(heldResponses.pollFirst());
        }
        heldResponses.addLast(p.copy());
    }

    /** Held responses older than {@link #HOLD_RESPONSE_NANOS} at capture time {@code now} are judged as they are. */
    private void expireHeld(long nowNanos) {
        while (!heldResponses.isEmpty() && nowNanos - heldResponses.peekFirst().timeNanos > HOLD_RESPONSE_NANOS) {
            expire(heldResponses.pollFirst());
        }
    }

    /**
     * No request came for a held response within the hold time (or the capture ended): judged as it
     * is. With no request at all it answers what was sent before the capture began; otherwise, still
     * ahead of every request shown, it answers a PSN never sent (IB-RC-MATCH-002). Requests the capture
     * missed are told apart by a later request beyond them, which releases the response first.
     */
    private void expire(PacketFacts r) {
        if (started) {
            respond(r);
        }
    }

    /**
     * The capture ended with responses still held. Where the capture already showed that it misses
     * packets (PSNs acknowledged that it never showed), the requests these answer are more of the same (the capture stopped before a later
     * request could show it); on a capture that misses nothing, they answer PSNs never sent.
     */
    private void expireAtEnd(PacketFacts r) {
        if (started && conversation.capture.missesPackets && ahead(r)) {
            for (int psn = nextPsn; Psn.diff(psn, r.psn) <= 0 && gaps.size() < limits.gapPsns(); psn = Psn.add(psn, 1)) {
                gaps.add(new long[]{psn, r.frame});
            }
            nextPsn = Psn.add(r.psn, 1);
        }
        expire(r);
    }

    /** After request {@code p}: held responses it (or an earlier request) answers are replayed now, in causal order. */
    private void releaseHeld(PacketFacts p) {
        if (heldResponses.isEmpty()) {
            return;
        }
        boolean firstRequest = p.frame == firstRequestFrame;
        MessageBuilder sent = owner(p.psn);
        int reach = p.psn;
        if (sent != null && sent.kind == MessageKind.READ) {
            // A READ spans its responses (R1.3); while the path MTU is unknown, as far as its length could reach.
            reach = sent == readSpanPending ? Psn.add(sent.firstPsn, maxReadSpan(sent.dmaLength) - 1) : sent.lastPsn;
        }
        for (Iterator<PacketFacts> it = heldResponses.iterator(); it.hasNext(); ) {
            PacketFacts r = it.next();
            if (r.inversionDecided == 0 && Psn.diff(reach, r.psn) >= 0) {
                // The first request to reach a held response decides whether the response was stamped before
                // its cause: a request at or before its PSN is (or precedes) what it answers; one beyond it
                // shows the capture missed what it answers (a READ resent later is not what it answered).
                r.inversionDecided = Psn.diff(r.psn, p.psn) >= 0 ? 1 : -1;
            }
            if (firstRequest && r.frame < p.frame && Psn.diff(r.psn, p.psn) < 0) {
                // Reached the capture before this requester's first request and answers an earlier one. (One the
                // capture shows after that request was held only while its direction's pairing was undecided:
                // it is judged as if it had come in capture order, a NAK naming a PSN before it among them.) Past a
                // start PSN CM announced, the PSNs a READ's responses ran over are still no missing requests.
                if (Psn.diff(r.psn, firstRequestPsn) >= 0) {
                    dropResponseSpanGap(r);
                }
                it.remove();
            } else if (!ahead(r) && awaitsRequest(r)) {
                dropResponseSpanGap(r); // still waiting for its READ, but its PSN is known now not to be a request's
            } else if (!ahead(r)) {
                it.remove();
                if (r.inversionDecided > 0) {
                    conversation.timestampInversion(r.frame, p.timeNanos - r.timeNanos, side);
                }
                respond(r);
            }
        }
    }

    private void rememberResponse(PacketFacts p) {
        recentResponsePsn[recentResponseNext] = p.psn;
        recentResponseNanos[recentResponseNext] = p.timeNanos;
        recentResponseSeq[recentResponseNext] = ++seq;
        recentResponseNext = (recentResponseNext + 1) % RECENT_RESPONSES;
    }

    private void respond(PacketFacts p) {
        if (beforeStart(p.psn) && (isReadResponse(p) || p.opcode.operation() == Operation.ATOMIC_ACKNOWLEDGE)) {
            // Answers a READ or atomic sent before the capture began: no message of the capture's, but still
            // a later PSN answered, the evidence of an implied NAK (R3.2) or READ response gap (R3.7) for a
            // resend of an earlier PSN (a READ re-read from before the capture's first request).
            rememberResponse(p);
            return;
        }
        if (neverSent(p.psn)) {
            Observation.Unmatched what = isReadResponse(p) ? Observation.Unmatched.READ_RESPONSE
                    : p.opcode.operation() == Operation.ATOMIC_ACKNOWLEDGE ? Observation.Unmatched.ATOMIC_ACK
                    : Observation.Unmatched.ACK_OF_UNSENT_PSN;
            conversation.observe(new Observation.UnmatchedResponse(p.frame, conversation.id, p.psn, what, String.format(
                    java.util.Locale.ROOT, "0x%06x lies before the starting PSN %d (0x%06x) CM announced: never sent",
                    p.psn, firstRequestPsn, firstRequestPsn)));
            return;
        }
        if (!answeredAny || Psn.diff(p.psn, newestAnsweredPsn) > 0) {
            answeredAny = true;
            newestAnsweredPsn = p.psn;
            progress(p); // an answer to a newer PSN: the connection moved
        }
        rememberResponse(p);
        Operation op = p.opcode.operation();
        switch (op) {
            case ACKNOWLEDGE -> acknowledge(p);
            case ATOMIC_ACKNOWLEDGE -> atomicAck(p);
            case RDMA_READ_RESPONSE_FIRST, RDMA_READ_RESPONSE_MIDDLE, RDMA_READ_RESPONSE_LAST,
                 RDMA_READ_RESPONSE_ONLY -> readResponse(p, op);
            default -> {
            }
        }
        if (p.aethMsn >= 0 && (msnSeenPsn < 0 || Psn.diff(p.psn, msnSeenPsn) > 0)) {
            msnSeen = p.aethMsn; // the responder's message count at the newest PSN answered (C9-148)
            msnSeenPsn = p.psn;
        }
    }

    /**
     * C9-148, R2.6: an AETH carries the responder's MSN when it was built, the count of messages it had
     * accepted (a READ or atomic counts when accepted, before its responses). So an AETH at PSN p counts
     * at least every message through p and at most every message the requester had sent; a deferred ACK
     * built after later atomics may even carry more than the atomic ACKs sent after it. Between two AETHs
     * in the order the responder sent them (capture order), at PSN p1 then p2 > p1: the MSN grows by at
     * most the PSNs from p1 to the newest request sent, and drops by at most the PSNs from p2 to the
     * newest request sent. Either bound needs the requester to have sent up to some PSN; a capture
     * stamping requests late shows them after the answer, so a shortfall waits the hold time for them
     * before it is reported. For a NAK or RNR NAK the acknowledged PSN is the one before the PSN it
     * names; answers to older PSNs (re-ACKs of duplicates) are not compared.
     */
    private void checkMsn(PacketFacts p) {
        settleMsn(p.timeNanos, false);
        if (p.aethMsn < 0 || p.aethSyndrome < 0 || !started) {
            return; // no request of this requester shown yet: nothing to bound the MSN by
        }
        int type = (p.aethSyndrome >> 5) & 0x3;
        int through = type == 0 ? p.psn : Psn.add(p.psn, -1);
        if (msnCheckSet) {
            if (Psn.diff(through, msnCheckPsn) <= 0) {
                return;
            }
            int step = Psn.diff(p.aethMsn, msnCheckValue);
            int needs = step >= 0 ? Psn.add(msnCheckPsn, step) : Psn.add(through, -step);
            if (!sentThrough(needs)) {
                if (msnPending.size() >= RECENT_RESPONSES) {
                    conversation.observe(msnPending.pollFirst().observation);
                }
                msnPending.addLast(new PendingMsn(new Observation.MsnInconsistent(p.frame, conversation.id, p.psn,
                        p.aethMsn, msnCheckValue, msnCheckPsn, msnCheckFrame), needs, p.timeNanos));
            }
        }
        msnCheckSet = true;
        msnCheckValue = p.aethMsn;
        msnCheckPsn = through;
        msnCheckFrame = p.frame;
    }

    private boolean sentThrough(int psn) {
        return started && Psn.diff(Psn.add(nextPsn, -1), psn) >= 0;
    }

    /** MSN shortfalls: cleared once the requester has sent what they need, reported after the hold time or at the end. */
    private void settleMsn(long nowNanos, boolean atEnd) {
        if (msnPending.isEmpty()) {
            return; // the usual case, on every request and answer: no iterator made
        }
        for (Iterator<PendingMsn> it = msnPending.iterator(); it.hasNext(); ) {
            PendingMsn m = it.next();
            if (sentThrough(m.needsPsn)) {
                it.remove();
            } else if (atEnd || nowNanos - m.sinceNanos > HOLD_RESPONSE_NANOS) {
                it.remove();
                conversation.observe(m.observation);
            }
        }
    }

    private record PendingMsn(Observation.MsnInconsistent observation, int needsPsn, long sinceNanos) {
    }

    private void acknowledge(PacketFacts p) {
        int syndrome = p.aethSyndrome;
        if (syndrome < 0) {
            return;
        }
        int type = (syndrome >> 5) & 0x3;
        switch (type) {
            case 0 -> ack(p);
            case 1 -> rnrNak(p, syndrome & 0x1F);
            case 3 -> nak(p, syndrome & 0x1F);
            default -> {
            } // reserved syndrome: ignored, as hfi1 does
        }
    }

    private void ack(PacketFacts p) {
        if (Psn.diff(p.psn, Psn.add(nextPsn, -1)) > 0) {
            conversation.observe(new Observation.UnmatchedResponse(p.frame, conversation.id, p.psn,
                    Observation.Unmatched.ACK_OF_UNSENT_PSN, "beyond the newest PSN sent, " + Psn.add(nextPsn, -1)));
            return;
        }
        acknowledgeThrough(p.psn, p, true);
    }

    /**
     * Everything up to {@code psn} reached the responder (R3.2): SEND/WRITE messages ending there complete;
     * READs and atomics wait for their own responses. Gaps up to there were missing from the capture.
     */
    private int acknowledgeThrough(int psn, PacketFacts p) {
        return acknowledgeThrough(psn, p, false);
    }

    /**
     * {@code byAck}: {@code p} is an ACK, whose completions count toward a coalesced ACK (reported when the
     * messages are final, since a resend can still reopen one: then this ACK did not complete it).
     */
    private int acknowledgeThrough(int psn, PacketFacts p, boolean byAck) {
        int completed = 0;
        for (Iterator<MessageBuilder> it = outstanding.iterator(); it.hasNext(); ) {
            MessageBuilder m = it.next();
            // A message whose LAST sits in a PSN gap ends past the newest PSN the capture showed of it (a WRITE
            // where its DMA length says).
            int last = m.lastMissing ? lastMissingEnd(m) : m.lastPsn;
            if (!m.kind.answeredByResponse() && m.closed && !m.finished() && Psn.diff(last, psn) <= 0) {
                it.remove();
                m.completionAckPsn(byAck ? p.psn : -1);
                if (byAck) {
                    conversation.ackCompleted(m, p.frame, p.psn);
                }
                m.finish(Message.COMPLETED, p.frame, p.timeNanos);
                countCompleted(m);
                retire(m);
                completed++;
            }
        }
        for (Iterator<long[]> it = gaps.iterator(); it.hasNext(); ) {
            long[] g = it.next();
            if (Psn.diff((int) g[0], psn) <= 0) {
                it.remove();
                conversation.observe(new Observation.MissingFromCapture(g[1], conversation.id, (int) g[0]));
                conversation.capture.missesPackets = true;
                MessageBuilder m = owner((int) g[0]);
                if (m != null) {
                    m.psnsMissing = true;
                }
            }
        }
        if (rnrPsn >= 0 && Psn.diff(psn, rnrPsn) >= 0) {
            rnrPsn = -1; // progress past the PSN the RNR NAKs were about
        }
        return completed;
    }

    private void nak(PacketFacts p, int code) {
        Observation.NakCode nakCode = Observation.NakCode.of(code);
        conversation.observe(new Observation.Nak(p.frame, conversation.id, p.psn, nakCode));
        conversation.stats.naks(side);
        if (nakCode == Observation.NakCode.PSN_SEQUENCE_ERROR) {
            // R3.3: earlier PSNs are acknowledged; the named one was lost (or arrived damaged).
            if (!resolveGap(p.psn, true)) {
                int slot = p.psn & (RING - 1);
                if (ring.psn(slot) == p.psn && !ring.badCrc(slot)) {
                    conversation.observe(new Observation.PacketLost(ring.get(slot, TransmissionRing.FRAME),
                            conversation.id, p.psn, true));
                    conversation.stats.lostAfterCapture[side]++;
                    conversation.stats.lost(side);
                }
            }
            acknowledgeThrough(Psn.add(p.psn, -1), p);
            triggerPsn = p.psn;
            trigger = Trigger.NAK;
            return;
        }
        if (nakCode == Observation.NakCode.RESERVED) {
            return;
        }
        // R2.4/R3.5: a fatal NAK. Earlier PSNs are acknowledged; the message holding this PSN fails and both
        // QPs enter the error state; everything still outstanding is flushed.
        acknowledgeThrough(Psn.add(p.psn, -1), p);
        MessageBuilder failed = owner(p.psn);
        if (failed != null && !failed.finished()) {
            failed.finish(Message.FAILED, p.frame, p.timeNanos);
            outstanding.remove(failed);
            if (failed == open) {
                open = null;
            }
            retire(failed);
        }
        conversation.enterError(p.frame, "a fatal NAK (" + nakCode.text + ")");
    }

    private void rnrNak(PacketFacts p, int timerCode) {
        long timer = Aeth.rnrTimerNanos(timerCode);
        rnrWaitNanos = timer; // the requester waits out the RNR timer before it resends (R3.4): not a stall
        conversation.observe(new Observation.RnrNak(p.frame, conversation.id, p.psn, timerCode, timer));
        conversation.stats.rnrNak(side, timer);
        acknowledgeThrough(Psn.add(p.psn, -1), p);
        triggerPsn = p.psn;
        trigger = Trigger.RNR_NAK;
        if (rnrPsn == p.psn) {
            rnrNaks++;
        } else {
            rnrPsn = p.psn;
            rnrNaks = 1;
        }
        int limit = requester().rnrRetryCount;
        if (limit >= 0 && limit < 7 && rnrNaks > limit) {
            // R3.4: the requester has used its RNR retries; its QP goes to the error state.
            int slot = p.psn & (RING - 1);
            long last = ring.psn(slot) == p.psn ? ring.get(slot, TransmissionRing.FRAME) : p.frame;
            giveUp(p.psn, last, true, rnrNaks);
        }
    }

    private void giveUp(int psn, long lastFrame, boolean rnr, int attempts) {
        conversation.observe(new Observation.RetryExhausted(lastFrame, conversation.id, psn, rnr, attempts));
        MessageBuilder m = owner(psn);
        if (m != null && !m.finished()) {
            m.finish(Message.FAILED, 0, 0);
            outstanding.remove(m);
            retire(m);
        }
        conversation.enterError(lastFrame, rnr ? "RNR retries exhausted" : "transport retries exhausted");
    }

    private void atomicAck(PacketFacts p) {
        for (MessageBuilder m : outstanding) {
            if ((m.kind == MessageKind.COMPARE_SWAP || m.kind == MessageKind.FETCH_ADD) && m.firstPsn == p.psn) {
                acknowledgeThrough(Psn.add(p.psn, -1), p);
                responseFrame(m, p);
                outstanding.remove(m);
                m.finish(Message.COMPLETED, p.frame, p.timeNanos);
                countCompleted(m);
                retire(m);
                return;
            }
        }
        for (MessageBuilder m : recent) {
            if ((m.kind == MessageKind.COMPARE_SWAP || m.kind == MessageKind.FETCH_ADD) && m.firstPsn == p.psn) {
                acknowledgeThrough(Psn.add(p.psn, -1), p);
                responseFrame(m, p); // a duplicate atomic answered from the saved result (R2.1)
                return;
            }
        }
        if (!resolveGap(p.psn, false) && !requestMissedByCapture(p, Operation.Kind.ATOMIC)) {
            conversation.observe(new Observation.UnmatchedResponse(p.frame, conversation.id, p.psn,
                    Observation.Unmatched.ATOMIC_ACK));
        }
    }

    private void readResponse(PacketFacts p, Operation op) {
        boolean starts = op == Operation.RDMA_READ_RESPONSE_FIRST || op == Operation.RDMA_READ_RESPONSE_ONLY;
        if (readSpanPending != null && conversation.pmtu > 0) {
            MessageBuilder pending = readSpanPending;
            settleReadSpan(Psn.add(pending.firstPsn, readSpan(pending.dmaLength, conversation.pmtu) - 1));
        }
        MessageBuilder pending = readSpanPending;
        if (pending != null && answersPendingRead(p)) {
            if (op == Operation.RDMA_READ_RESPONSE_ONLY || op == Operation.RDMA_READ_RESPONSE_LAST) {
                settleReadSpan(p.psn); // the READ's last response PSN is its span's end (R1.3)
            } else if (Psn.diff(p.psn, pending.lastPsn) > 0) {
                pending.lastPsn = p.psn; // at least this far; the LAST tells the end
            }
        }
        MessageBuilder m = readLikeOwner(outstanding, p, op);
        if (m == null) {
            MessageBuilder done = readLikeOwner(recent, p, op);
            if (done != null) {
                // The responder answering a duplicate READ again (R2.1): one more response of a finished READ.
                if (starts) {
                    acknowledgeThrough(Psn.add(p.psn, -1), p); // it still implies an ACK of what precedes it (R3.2)
                }
                responseFrame(done, p);
                countReadBytes(done, p);
                return;
            }
        }
        if (m == null) {
            if (!starts && isGap(p.psn)) {
                dropGap(p.psn); // a response PSN of a READ the capture missed, not a missing request
                if (unseenReadAnsweredTo >= 0) {
                    dropResponseGapsBetween(unseenReadAnsweredTo, p.psn);
                }
            } else if (!starts && unseenReadAnsweredTo >= 0 && p.psn == Psn.add(unseenReadAnsweredTo, 1)) {
                // The next response of the same unseen READ (R3.7: MIDDLE/LAST at the PSN after its FIRST or
                // MIDDLE): its PSN's gap went already, taken as a response PSN while the FIRST waited (seed 13136).
            } else if (!(starts && resolveGap(p.psn, false)) // the READ request itself reached the responder
                    && !(starts && requestMissedByCapture(p, Operation.Kind.READ))) {
                conversation.observe(new Observation.UnmatchedResponse(p.frame, conversation.id, p.psn,
                        Observation.Unmatched.READ_RESPONSE));
            }
            boolean runsOn = op == Operation.RDMA_READ_RESPONSE_FIRST || op == Operation.RDMA_READ_RESPONSE_MIDDLE;
            unseenReadAnsweredTo = runsOn ? p.psn : -1;
            return;
        }
        unseenReadAnsweredTo = -1;
        if (m.kind == MessageKind.READ && m.dmaLength > 0 && conversation.pmtu > 0 && m.spanGuessedAt == 0) {
            int exact = Psn.add(m.firstPsn, readSpan(m.dmaLength, conversation.pmtu) - 1);
            if (Psn.diff(exact, m.lastPsn) > 0) {
                m.lastPsn = exact; // a READ placed before the path MTU was known spans what its length needs
            }
        }
        if (m.spanGuessedAt > 0 && m.kind == MessageKind.READ) {
            int exactLast = -1;
            if (op == Operation.RDMA_READ_RESPONSE_LAST || op == Operation.RDMA_READ_RESPONSE_ONLY) {
                exactLast = p.psn;
            } else if (conversation.pmtu > 0) {
                exactLast = Psn.add(m.firstPsn, readSpan(m.dmaLength, conversation.pmtu) - 1);
            }
            if (exactLast >= 0) {
                correctGuessedSpan(m, exactLast);
            }
        }
        if (starts) {
            acknowledgeThrough(Psn.add(p.psn, -1), p); // a READ response implies an ACK of what precedes it (R3.2)
        }
        if (m.newestResponsePsn >= 0 && Psn.diff(p.psn, m.newestResponsePsn) > 0 && p.psn < m.newestResponsePsn) {
            conversation.observe(new Observation.PsnWrap(p.frame, conversation.id, p.psn));
        }
        if (m.newestResponsePsn < 0 || Psn.diff(p.psn, m.newestResponsePsn) > 0) {
            m.newestResponsePsn = p.psn; // the newest in PSN order: a re-read goes back, and wraps again only past it
        }
        responseFrame(m, p);
        countReadBytes(m, p);
        if (m.kind == MessageKind.READ) {
            m.markResponded(Psn.diff(p.psn, m.firstPsn));
        }
        if ((op == Operation.RDMA_READ_RESPONSE_LAST || op == Operation.RDMA_READ_RESPONSE_ONLY) && answeredWhole(m)) {
            outstanding.remove(m);
            m.finish(Message.COMPLETED, p.frame, p.timeNanos);
            countCompleted(m);
            retire(m);
        }
    }

    /** The READ (or FLUSH, ATOMIC WRITE answered by an empty READ response) whose PSNs hold this response. */
    private static MessageBuilder readLikeOwner(Iterable<MessageBuilder> among, PacketFacts p, Operation op) {
        for (MessageBuilder x : among) {
            boolean readLike = x.kind == MessageKind.READ
                    || (op == Operation.RDMA_READ_RESPONSE_ONLY && p.payloadLength == 0
                    && (x.kind == MessageKind.FLUSH || x.kind == MessageKind.ATOMIC_WRITE) && x.firstPsn == p.psn);
            if (readLike && Psn.within(p.psn, x.firstPsn, x.lastPsn)) {
                return x;
            }
        }
        return null;
    }

    /**
     * The span of a READ guessed from the next request's PSN was too long: the PSNs past its real end
     * were requests the capture has not shown (lost, or missed), a gap since the frame that set the guess.
     */
    private void correctGuessedSpan(MessageBuilder m, int exactLast) {
        if (Psn.diff(m.lastPsn, exactLast) > 0) {
            for (int psn = Psn.add(exactLast, 1); Psn.diff(psn, m.lastPsn) <= 0; psn = Psn.add(psn, 1)) {
                if (ring.psn(psn & (RING - 1)) != psn && !isGap(psn) && gaps.size() < limits.gapPsns()) {
                    gaps.add(new long[]{psn, m.spanGuessedAt});
                }
            }
            m.lastPsn = exactLast;
        }
        m.spanGuessedAt = 0;
    }

    /** A READ's bytes are the payload returned, each response PSN once (a re-read returns some again). */
    private static void countReadBytes(MessageBuilder m, PacketFacts p) {
        if (m.kind == MessageKind.READ) {
            int offset = Psn.diff(p.psn, m.firstPsn);
            if (offset >= 0 && m.countResponseOnce(offset)) {
                m.bytes += p.payloadLength;
            }
        }
    }

    /**
     * A READ is done when every PSN from its last transmission to its end was answered since: a LAST
     * after a response gap means the requester re-reads from the gap (R3.7).
     */
    private static boolean answeredWhole(MessageBuilder m) {
        if (m.kind != MessageKind.READ) {
            return true;
        }
        int from = Psn.diff(m.readFromPsn, m.firstPsn);
        int to = Psn.diff(m.lastPsn, m.firstPsn);
        return from < 0 || m.respondedFrom(from, to);
    }

    // ---- lifecycle ----------------------------------------------------------------------------------

    /** A finished message leaves the outstanding set but stays findable a while (late duplicates). */
    private void retire(MessageBuilder m) {
        recent.addLast(m);
        while (recent.size() > limits.recentMessages()) {
            recent.handOutFirst(conversation, side);
        }
    }

    private void reportLimit(long frame, String what) {
        if (!limitReported) {
            limitReported = true;
            conversation.observe(new Observation.LimitReached(frame, conversation.id, what));
        }
    }

    /** The QP entered the error state ({@code cause}, in {@code frame}): whatever is still outstanding is flushed (R3.5). */
    void flushOnError(long frame, String cause) {
        failOutstanding(frame, cause);
    }

    /**
     * The capture ended: a head message resent retry_cnt + 1 times with no answer exhausted its
     * retries (R3.6, when CM told the count); everything else unanswered is incomplete — or, if sent
     * less than an ACK timeout before the end, merely unanswered when the capture stopped.
     */
    void finish(long captureEndNanos) {
        settleCopyAfterNak(null);
        while (!heldResponses.isEmpty()) {
            expireAtEnd(heldResponses.pollFirst());
        }
        settleMsn(captureEndNanos, true);
        int retries = requester().retryCount;
        MessageBuilder head = outstanding.peekFirst();
        if (head != null && retries >= 0 && !conversation.inError()) {
            int slot = head.firstPsn & (RING - 1);
            // At least one retry seen, so the requester is known to retry; the count then says it stopped.
            if (ring.psn(slot) == head.firstPsn && ring.transmissions(slot) >= Math.max(2, retries + 1)) {
                giveUp(head.firstPsn, ring.get(slot, TransmissionRing.FRAME), false, ring.transmissions(slot));
            }
        }
        if (checkStall(captureEndNanos, "the capture ended", 0)) {
            failOutstanding(0, null);
        }
        MessageBuilder read = readSpanPending;
        if (read != null && conversation.pmtu > 0 && read.dmaLength >= 0) {
            // Nothing after this READ told its span, but the path MTU became known since (the other side's
            // packets): its span is what its length takes at it (R1.3).
            settleReadSpan(Psn.add(read.firstPsn, readSpan(read.dmaLength, conversation.pmtu) - 1));
        }
        openJoinsOutstanding();
        while (!outstanding.isEmpty()) {
            MessageBuilder m = outstanding.pollFirst();
            if (!m.finished() && m.ucDropped) {
                // A UC message missing a packet is dropped whole by its receiver (IBTA 9.8.3), its LAST seen
                // or not: reported as dropped where the gap showed, not as waiting for an answer.
                m.finish(Message.DROPPED, 0, 0);
            } else if (!m.finished()) {
                // Unanswered for longer than the requester's ACK timeout: it will not complete. Sent in the
                // capture's last moments: it may simply have been answered after the capture stopped.
                long silence = captureEndNanos - m.lastRequestNanos;
                conversation.observe(silence >= requester().ackTimeoutNanos()
                        ? new Observation.MessageIncomplete(m.firstFrame(), conversation.id, m.firstPsn, m.kind)
                        : new Observation.UnansweredAtEnd(m.firstFrame(), conversation.id, m.firstPsn, m.kind));
            }
            retire(m);
        }
        while (!recent.isEmpty()) {
            recent.handOutFirst(conversation, side);
        }
    }
}
