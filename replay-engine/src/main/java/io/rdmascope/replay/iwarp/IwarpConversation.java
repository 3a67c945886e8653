package io.rdmascope.replay.iwarp;

import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.iwarp.IwarpPdu;
import io.rdmascope.proto.iwarp.Mpa;
import io.rdmascope.replay.Address;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.LatencyHistogram;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.Observation.IwarpEvent;
import io.rdmascope.replay.ReplayLimits;
import io.rdmascope.replay.ReplayListener;
import io.rdmascope.replay.Transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One iWARP connection replayed: side 0 is the MPA initiator. Each side's DDP segments become
 * messages (RFC 5040 §5, RFC 5041 §5): untagged ones by queue, MSN and message offset, a Write's
 * tagged segments by STag and tagged offset, Read Responses matched to the Read Request whose sink
 * STag and tagged offset they fill. A Send or Write completes when the peer's TCP acknowledges its
 * last byte (the only answer iWARP has); a Read when its last Read Response arrives; a Terminate
 * puts the connection in the error state and fails what is still outstanding.
 */
final class IwarpConversation {
    /** Per side: what it sent as requester and the state of its messages. */
    final class Side {
        final int index;
        long packets;
        long fpdus;
        long payloadBytes;
        long messages;
        long messageBytes;
        long retransmissions;
        long lost;
        final Map<Long, Queue> queues = new HashMap<>(4);
        IwarpMessage write;
        /** Sends and Writes whole at this side, in stream order, until the peer acknowledges them. */
        final ArrayDeque<IwarpMessage> unacknowledged = new ArrayDeque<>();
        /** Reads this side asked for, in order, until their last response. */
        final List<IwarpMessage> reads = new ArrayList<>(2);
        final Map<Long, IwarpMessage> atomics = new HashMap<>(2);
        /** Bytes of this side's stream were lost to the capture: sequence checks start over. */
        boolean afterGap;
        /**
         * The MSN that follows this side's newest untagged message on any queue, and whether every
         * untagged message so far has had that number: the MSNs across queues form one sequence.
         */
        long sharedNext = 1;
        boolean sharedSequence = true;
        /** This side numbers untagged messages with one counter across queues (a real NIC's deviation). */
        boolean sharedCounter;
        /** A Read Request of this side was answered byte-reversed (reported once). */
        boolean byteOrderReported;
        /** This side's markers were read in a layout other than RFC 5044 §5's (reported once). */
        boolean markerLayoutReported;

        Side(int index) {
            this.index = index;
        }
    }

    /** One untagged queue of one side (RFC 5041 §5.3): the next MSN and the message being assembled. */
    static final class Queue {
        long expectedMsn = 1;
        IwarpMessage open;
    }

    final String id;
    private final Address[] addresses = new Address[2];
    private final ReplayListener listener;
    /** Asked once, as {@link ReplayListener#keepsMessages} says and the RoCE conversation does. */
    private final boolean listenerKeepsMessages;
    private final ReplayLimits limits;
    final Side[] sides = {new Side(0), new Side(1)};
    private String state;
    private final boolean[] fin = new boolean[2];
    private final List<Flow.Transition> lifecycle = new ArrayList<>();
    private long firstNanos = -1;
    private long lastNanos;
    private final LatencyHistogram latency = new LatencyHistogram();
    private final Map<MessageKind, LatencyHistogram> latencyByKind = new EnumMap<>(MessageKind.class);
    private final Goodput goodput = new Goodput();
    private boolean limitReported;
    // Times of recent frames, to time messages whose first byte came frames before their last.
    private final long[] ringFrame = new long[1024];
    private final long[] ringTime = new long[1024];
    private int ringNext;

    IwarpConversation(String id, IwarpConnection connection, ReplayListener listener, ReplayLimits limits) {
        this.id = id;
        this.listener = listener;
        this.listenerKeepsMessages = listener.keepsMessages();
        this.limits = limits;
        for (int s = 0; s < 2; s++) {
            addresses[s] = connection.family() == 4
                    ? new Address(Address.IPV4, 0, connection.addressLo(s))
                    : new Address(Address.IPV6, connection.addressHi(s), connection.addressLo(s));
        }
    }

    // ---- frames -------------------------------------------------------------------------------------------

    void frame(long frame, long timeNanos, int side, int payload) {
        if (firstNanos < 0) {
            firstNanos = timeNanos;
        }
        lastNanos = Math.max(lastNanos, timeNanos);
        sides[side].packets++;
        sides[side].payloadBytes += payload;
        ringFrame[ringNext] = frame;
        ringTime[ringNext] = timeNanos;
        ringNext = (ringNext + 1) % ringFrame.length;
    }

    /** Time of frame {@code frame} if it is among the recent ones, else {@code fallback}. */
    long timeOf(long frame, long fallback) {
        // Newest first: the frame asked for is nearly always the current one or very recent.
        for (int k = 1; k <= ringFrame.length && frame > 0; k++) {
            int i = Math.floorMod(ringNext - k, ringFrame.length);
            if (ringFrame[i] == frame) {
                return ringTime[i];
            }
            if (ringFrame[i] != 0 && ringFrame[i] < frame) {
                break; // frames are kept in capture order: it is not here
            }
        }
        return fallback;
    }

    void observe(long frame, int msn, IwarpEvent event, String detail) {
        listener.observation(new Observation.Iwarp(frame, id, msn, event, detail));
    }

    void observe(Observation o) {
        listener.observation(o);
    }

    void transition(long frame, String newState) {
        if (newState.equals(state)) {
            return;
        }
        state = newState;
        lifecycle.add(new Flow.Transition(frame, newState));
        listener.observation(new Observation.StateChange(frame, id, newState));
    }

    /** TCP FIN or RST from {@code side}: the connection closes (RFC 9293 §3.6). */
    void close(long frame, int side, boolean reset) {
        if (reset) {
            transition(frame, "closed");
            return;
        }
        fin[side] = true;
        transition(frame, fin[0] && fin[1] ? "closed" : "closing");
    }

    /** Bytes of {@code side}'s stream sent again: the frame joins the messages those bytes belong to. */
    void retransmitted(int side, int seq, int length, long frame) {
        Side s = sides[side];
        s.retransmissions++;
        for (Queue q : s.queues.values()) {
            addIfCovers(q.open, seq, length, frame, false);
        }
        addIfCovers(s.write, seq, length, frame, false);
        for (IwarpMessage m : s.unacknowledged) {
            addIfCovers(m, seq, length, frame, false);
        }
        for (IwarpMessage m : s.reads) {
            addIfCovers(m, seq, length, frame, false);
        }
    }

    private static void addIfCovers(IwarpMessage m, int seq, int length, long frame, boolean response) {
        if (m == null) {
            return;
        }
        // [seq, seq + length) and [startSeq, endSeq) overlap, modulo 2^32.
        int end = seq + length;
        if ((m.endSeq - seq) > 0 && (end - m.startSeq) > 0) {
            m.addFrame(response ? m.responseFrames : m.frames, frame);
        }
    }

    /** The peer acknowledged {@code side}'s stream up to {@code ack}: Sends and Writes it covers complete. */
    void acknowledged(int side, int ack, long frame, long timeNanos) {
        Side s = sides[side];
        while (!s.unacknowledged.isEmpty() && ack - s.unacknowledged.peekFirst().endSeq >= 0) {
            IwarpMessage m = s.unacknowledged.pollFirst();
            m.finish(Message.COMPLETED, frame, timeNanos);
            emit(m, side);
        }
    }

    // ---- PDUs ---------------------------------------------------------------------------------------------

    void pdu(IwarpPdu p, long frame, long timeNanos) {
        int side = p.direction();
        switch (p.kind()) {
            case REQUEST -> {
                transition(frame, "mpa_request");
                startupChecks(p, frame);
            }
            case REPLY -> {
                startupChecks(p, frame);
                if ((p.flags() & Mpa.FLAG_REJECT) != 0) {
                    transition(frame, "rejected");
                    observe(frame, -1, IwarpEvent.MPA_REJECT, "MPA Reply with the Reject flag");
                } else {
                    transition(frame, "established");
                }
            }
            default -> fpdu(p, side, frame, timeNanos);
        }
    }

    /** The non-RFC 5044 marker layout an FPDU's markers were read under, in words. */
    private static String markerLayout(IwarpPdu p) {
        String clock = p.markerClockSkipsCrc() ? "a marker clock that skips each FPDU's CRC field" : null;
        String order = p.markerPointerLittleEndian() ? "FPDUPTR little-endian" : null;
        String layout = clock != null && order != null ? clock + " and " + order + " (the OSC iWARP stack's layout)"
                : clock != null ? clock : order;
        return "markers read with " + layout + ", not as RFC 5044 §5 places them";
    }

    /** RFC 5044 §7.1.1 revision 1, RFC 6581 revision 2; a wrong key or length comes as a stream event. */
    private void startupChecks(IwarpPdu p, long frame) {
        int rev = p.revision();
        if ((rev != 1 && rev != 2) && p.privateDataLength() <= Mpa.MAX_PRIVATE_DATA) {
            observe(frame, -1, IwarpEvent.MPA_INVALID_STARTUP, "MPA revision " + rev + " (1 or 2 expected)");
        }
    }

    private void fpdu(IwarpPdu p, int side, long frame, long timeNanos) {
        Side s = sides[side];
        s.fpdus++;
        if (p.crcStatus() == Mpa.STATUS_BAD) {
            observe(frame, -1, IwarpEvent.MPA_CRC_ERROR, String.format("CRC 0x%08x, computed 0x%08x",
                    p.crcOnWire(), p.crcComputed()));
        }
        if (p.badMarkers() > 0) {
            observe(frame, -1, IwarpEvent.MPA_MARKER_ERROR, p.badMarkers() + " marker(s) do not point back at the FPDU");
        } else if (p.markerCount() > 0 && !s.markerLayoutReported
                && (p.markerClockSkipsCrc() || p.markerPointerLittleEndian())) {
            // The framer kept sync only by reading this direction's markers off RFC 5044 §5: one warning
            // for the direction, naming the layout as far as its markers have shown it.
            s.markerLayoutReported = true;
            observe(frame, -1, IwarpEvent.MPA_MARKER_LAYOUT, markerLayout(p));
        }
        if (!p.hasDdpHeader()) {
            return; // a ULPDU shorter than its DDP header: the dissection marks the frame malformed
        }
        if (p.ddpVersion() != 1) {
            observe(frame, -1, IwarpEvent.DDP_VERSION, "DDP version " + p.ddpVersion());
        }
        if (p.rdmapVersion() != 1) {
            observe(frame, -1, IwarpEvent.RDMAP_VERSION, "RDMAP version " + p.rdmapVersion());
        }
        int op = p.opcode();
        boolean tagged = p.tagged();
        boolean taggedOp = op == DdpRdmap.OP_WRITE || op == DdpRdmap.OP_READ_RESPONSE;
        if (op > DdpRdmap.OP_ATOMIC_RESPONSE || tagged != taggedOp) {
            observe(frame, -1, IwarpEvent.RDMAP_UNEXPECTED_OPCODE, "opcode " + op + " in a "
                    + (tagged ? "tagged" : "untagged") + " DDP segment");
            return;
        }
        if (tagged) {
            if (op == DdpRdmap.OP_WRITE) {
                writeSegment(s, p, frame, timeNanos);
            } else {
                readResponse(sides[1 - side], p, frame, timeNanos);
            }
            return;
        }
        untagged(s, p, frame, timeNanos);
    }

    private void writeSegment(Side s, IwarpPdu p, long frame, long timeNanos) {
        IwarpMessage w = s.write;
        if (w != null && (p.stag() != w.stag || p.taggedOffset() != w.nextOffset) && !s.afterGap) {
            observe(frame, -1, IwarpEvent.DDP_SEGMENT_SEQUENCE, String.format(
                    "Write segment STag 0x%08x TO 0x%x while a Write to STag 0x%08x continues at TO 0x%x",
                    p.stag(), p.taggedOffset(), w.stag, w.nextOffset));
            s.write = null; // the unfinished Write stays incomplete
            w.closed = true;
            pendingIncomplete.add(new Pending(w, s.index));
            w = null;
        }
        if (w == null) {
            w = new IwarpMessage(MessageKind.WRITE, 0, timeOfFirst(p, timeNanos));
            w.stag = p.stag();
            w.startSeq = p.endSeq() - p.rawLength();
            s.write = w;
        }
        s.afterGap = false;
        add(w, p);
        w.nextOffset = p.taggedOffset() + p.payloadLength();
        if (p.last()) {
            s.write = null;
            awaitAcknowledgement(s, w, frame);
        }
    }

    private void readResponse(Side requester, IwarpPdu p, long frame, long timeNanos) {
        IwarpMessage match = null;
        for (IwarpMessage r : requester.reads) {
            if (r.stag == p.stag() && r.sinkOffset + r.bytes == p.taggedOffset()) {
                match = r;
                break;
            }
        }
        if (match == null) {
            for (IwarpMessage r : requester.reads) {
                long to = p.taggedOffset();
                if (r.stag == p.stag() && to >= r.sinkOffset && to <= r.sinkOffset + r.size) {
                    match = r; // after bytes lost to the capture, the offsets jump
                    break;
                }
            }
        }
        if (match == null) {
            match = byteReversed(requester, p);
        }
        if (match == null) {
            observe(frame, -1, IwarpEvent.RDMAP_UNMATCHED_READ_RESPONSE, String.format(
                    "Read Response to STag 0x%08x TO 0x%x answers no outstanding Read Request", p.stag(),
                    p.taggedOffset()));
            return;
        }
        match.bytes = p.taggedOffset() - match.sinkOffset + p.payloadLength();
        for (int i = 0; i < p.frameCount(); i++) {
            match.addFrame(match.responseFrames, p.frame(i));
        }
        if (p.last()) {
            requester.reads.remove(match);
            match.finish(Message.COMPLETED, frame, timeNanos);
            emit(match, requester.index);
        }
    }

    /**
     * A Read Request whose sink STag and tagged offset, byte-reversed, are those this Read Response
     * fills (RFC 5040 §4.4 puts them in network byte order; a real NIC wrote them in its host's
     * little-endian order, and its peer answered the reversed values). The Read takes the reversed
     * sink and size, so that its later responses match as usual; reported once per requester side.
     */
    private IwarpMessage byteReversed(Side requester, IwarpPdu p) {
        for (IwarpMessage r : requester.reads) {
            long stag = Integer.reverseBytes((int) r.stag) & 0xFFFFFFFFL;
            long sink = Long.reverseBytes(r.sinkOffset);
            long size = Integer.reverseBytes((int) r.size) & 0xFFFFFFFFL;
            long to = p.taggedOffset();
            if (r.bytes != 0 || stag != p.stag() || to != sink || (p.payloadLength() > size)) {
                continue;
            }
            if (!requester.byteOrderReported) {
                requester.byteOrderReported = true;
                observe(r.firstFrame(), (int) r.msn, IwarpEvent.RDMAP_READ_REQUEST_BYTE_ORDER, String.format(
                        "Read Request sink STag 0x%08x TO 0x%x size %d is answered as STag 0x%08x TO 0x%x size %d: "
                                + "its fields are in little-endian byte order (RFC 5040 §4.4 wants network order)",
                        r.stag, r.sinkOffset, r.size, stag, sink, size));
            }
            r.stag = stag;
            r.sinkOffset = sink;
            r.size = size;
            return r;
        }
        return null;
    }

    private void untagged(Side s, IwarpPdu p, long frame, long timeNanos) {
        int op = p.opcode();
        long qn = p.queueNumber();
        long msn = p.msn();
        long expectedQueue = switch (op) {
            case DdpRdmap.OP_READ_REQUEST -> DdpRdmap.QN_READ_REQUEST;
            case DdpRdmap.OP_TERMINATE -> DdpRdmap.QN_TERMINATE;
            case DdpRdmap.OP_ATOMIC_REQUEST, DdpRdmap.OP_ATOMIC_RESPONSE -> -1; // RFC 7306: not checked here
            default -> DdpRdmap.QN_SEND;
        };
        if (expectedQueue >= 0 && qn != expectedQueue) {
            observe(frame, (int) msn, IwarpEvent.DDP_INVALID_QUEUE, DdpRdmap.OPCODE_NAMES.nameOf(op) + " on queue "
                    + qn + ", expected " + expectedQueue);
        }
        if (qn > 1_000_000) {
            return; // not a queue anyone uses: do not grow state for it
        }
        Queue q = s.queues.computeIfAbsent(qn, k -> new Queue());
        IwarpMessage m = q.open;
        long mo = p.messageOffset();
        if (m != null && m.msn == msn) {
            if (mo != m.nextOffset && !s.afterGap) {
                observe(frame, (int) msn, IwarpEvent.DDP_SEGMENT_SEQUENCE, "message offset " + mo + ", expected "
                        + m.nextOffset);
            }
        } else {
            if (m != null) {
                if (!s.afterGap) {
                    observe(frame, (int) msn, IwarpEvent.DDP_SEGMENT_SEQUENCE, "MSN " + msn + " begins while MSN "
                            + m.msn + " on queue " + qn + " is unfinished");
                }
                m.closed = true;
                pendingIncomplete.add(new Pending(m, s.index));
            }
            if (!s.afterGap) {
                if (mo != 0) {
                    observe(frame, (int) msn, IwarpEvent.DDP_SEGMENT_SEQUENCE, "MSN " + msn
                            + " continues at message offset " + mo + " with no first segment");
                }
                checkMsn(s, q, qn, msn, frame);
            }
            q.expectedMsn = (msn + 1) & 0xFFFFFFFFL;
            if (msn != s.sharedNext && !s.afterGap) {
                s.sharedSequence = false;
            }
            s.sharedNext = (msn + 1) & 0xFFFFFFFFL;
            m = new IwarpMessage(kindOf(p), msn, timeOfFirst(p, timeNanos));
            m.startSeq = p.endSeq() - p.rawLength();
            q.open = m;
        }
        s.afterGap = false;
        add(m, p);
        m.nextOffset = mo + p.payloadLength();
        if (op == DdpRdmap.OP_SEND_INVALIDATE || op == DdpRdmap.OP_SEND_SE_INVALIDATE) {
            m.kind = MessageKind.SEND_WITH_INV;
            m.invalidatedStag = p.invalidateStag();
        }
        if (!p.last()) {
            return;
        }
        q.open = null;
        switch (op) {
            case DdpRdmap.OP_READ_REQUEST -> {
                m.bytes = 0;
                m.stag = p.readSinkStag();
                m.sinkOffset = p.readSinkOffset();
                m.size = p.readSize();
                m.closed = true;
                s.reads.add(m);
                bound(s.reads, s.index, frame);
            }
            case DdpRdmap.OP_TERMINATE -> terminate(p, frame, timeNanos);
            case DdpRdmap.OP_ATOMIC_REQUEST -> {
                int operation = p.atomicOperation();
                if (operation == DdpRdmap.ATOMIC_SWAP) {
                    return; // no message kind for a plain swap
                }
                m.kind = operation == DdpRdmap.ATOMIC_FETCH_ADD ? MessageKind.FETCH_ADD : MessageKind.COMPARE_SWAP;
                m.bytes = 8;
                m.closed = true;
                s.atomics.put(p.atomicRequestId(), m);
            }
            case DdpRdmap.OP_ATOMIC_RESPONSE -> {
                IwarpMessage a = sides[1 - s.index].atomics.remove(p.atomicOriginalRequestId());
                if (a != null) {
                    for (int i = 0; i < p.frameCount(); i++) {
                        a.addFrame(a.responseFrames, p.frame(i));
                    }
                    a.finish(Message.COMPLETED, frame, timeNanos);
                    emit(a, 1 - s.index);
                }
            }
            default -> awaitAcknowledgement(s, m, frame);
        }
    }

    /**
     * RFC 5041 §5.1, §5.3: each queue numbers its messages from 1. Some NICs number all of a
     * direction's untagged messages with one counter instead (Send 1 on queue 0, Read Request 2 on
     * queue 1, Send 3 on queue 0): when a message's MSN is not its queue's next but is the next of the
     * one sequence all the direction's MSNs have formed so far, that is the shared counter, reported
     * once; from then on the direction's MSNs are checked against it.
     */
    private void checkMsn(Side s, Queue q, long qn, long msn, long frame) {
        if (s.sharedCounter) {
            if (msn != s.sharedNext) {
                observe(frame, (int) msn, IwarpEvent.DDP_MSN_SEQUENCE, "MSN " + msn + " on queue " + qn
                        + ", expected " + s.sharedNext + " (one counter across queues)");
            }
            return;
        }
        if (msn == q.expectedMsn) {
            return;
        }
        if (s.sharedSequence && msn == s.sharedNext) {
            s.sharedCounter = true;
            observe(frame, (int) msn, IwarpEvent.DDP_MSN_SHARED_COUNTER, "MSN " + msn + " on queue " + qn
                    + " follows the previous message on another queue: untagged MSNs numbered with one counter "
                    + "across queues (RFC 5041 §5.1 keeps one per queue; queue " + qn + " would be at "
                    + q.expectedMsn + ")");
            return;
        }
        observe(frame, (int) msn, IwarpEvent.DDP_MSN_SEQUENCE, "MSN " + msn + " on queue " + qn + ", expected "
                + q.expectedMsn);
    }

    private static MessageKind kindOf(IwarpPdu p) {
        return switch (p.opcode()) {
            case DdpRdmap.OP_READ_REQUEST -> MessageKind.READ;
            case DdpRdmap.OP_SEND_INVALIDATE, DdpRdmap.OP_SEND_SE_INVALIDATE -> MessageKind.SEND_WITH_INV;
            case DdpRdmap.OP_IMMEDIATE, DdpRdmap.OP_IMMEDIATE_SE -> MessageKind.SEND_WITH_IMM;
            default -> MessageKind.SEND;
        };
    }

    private void add(IwarpMessage m, IwarpPdu p) {
        for (int i = 0; i < p.frameCount(); i++) {
            m.addFrame(m.frames, p.frame(i));
        }
        m.endSeq = p.endSeq();
        if (p.opcode() == DdpRdmap.OP_IMMEDIATE || p.opcode() == DdpRdmap.OP_IMMEDIATE_SE) {
            m.immediate = p.immediateData();
        } else if (p.opcode() != DdpRdmap.OP_READ_REQUEST && p.opcode() != DdpRdmap.OP_TERMINATE) {
            m.bytes += p.payloadLength();
        }
    }

    private long timeOfFirst(IwarpPdu p, long fallback) {
        return p.frameCount() == 0 ? fallback : timeOf(p.frame(0), fallback);
    }

    private void awaitAcknowledgement(Side s, IwarpMessage m, long frame) {
        m.closed = true;
        s.unacknowledged.addLast(m);
        if (s.unacknowledged.size() > limits.outstanding()) {
            IwarpMessage oldest = s.unacknowledged.pollFirst();
            limit(frame);
            emit(oldest, s.index);
        }
    }

    private void bound(List<IwarpMessage> list, int side, long frame) {
        if (list.size() > limits.outstanding()) {
            IwarpMessage oldest = list.remove(0);
            limit(frame);
            emit(oldest, side);
        }
    }

    private void limit(long frame) {
        if (!limitReported) {
            limitReported = true;
            observe(new Observation.LimitReached(frame, id, "outstanding iWARP messages per side ("
                    + limits.outstanding() + ")"));
        }
    }

    /** RFC 5040 §5.4, §7: a Terminate ends the stream in error; what is outstanding on both sides fails. */
    private void terminate(IwarpPdu p, long frame, long timeNanos) {
        observe(frame, (int) p.msn(), IwarpEvent.RDMAP_TERMINATE, terminateText(p));
        transition(frame, "error");
        for (Side s : sides) {
            List<IwarpMessage> failed = new ArrayList<>();
            for (Queue q : s.queues.values()) {
                if (q.open != null && q.open.kind != null) {
                    failed.add(q.open);
                    q.open = null;
                }
            }
            if (s.write != null) {
                failed.add(s.write);
                s.write = null;
            }
            failed.addAll(s.unacknowledged);
            s.unacknowledged.clear();
            failed.addAll(s.reads);
            s.reads.clear();
            failed.addAll(s.atomics.values());
            s.atomics.clear();
            failed.sort((a, b) -> Long.compare(a.firstFrame(), b.firstFrame()));
            for (IwarpMessage m : failed) {
                m.finish(Message.FAILED, frame, timeNanos);
                emit(m, s.index);
            }
        }
    }

    static String terminateText(IwarpPdu p) {
        int layer = p.terminateLayer();
        int type = p.terminateType();
        int code = p.terminateCode();
        String layerName = DdpRdmap.LAYER_NAMES.nameOf(layer);
        String typeName = switch (layer) {
            case DdpRdmap.LAYER_RDMAP -> DdpRdmap.RDMA_ETYPE_NAMES.nameOf(type);
            case DdpRdmap.LAYER_DDP -> DdpRdmap.DDP_ETYPE_NAMES.nameOf(type);
            case DdpRdmap.LAYER_LLP -> DdpRdmap.LLP_ETYPE_NAMES.nameOf(type);
            default -> null;
        };
        String codeName = switch (layer) {
            case DdpRdmap.LAYER_RDMAP -> DdpRdmap.RDMA_ERRCODE_NAMES.nameOf(code);
            case DdpRdmap.LAYER_DDP -> type == 1 ? DdpRdmap.DDP_TAGGED_ERRCODE_NAMES.nameOf(code)
                    : type == 2 ? DdpRdmap.DDP_UNTAGGED_ERRCODE_NAMES.nameOf(code) : null;
            case DdpRdmap.LAYER_LLP -> DdpRdmap.LLP_ERRCODE_NAMES.nameOf(code);
            default -> null;
        };
        return "Terminate: " + (layerName == null ? "layer " + layer : layerName) + ", "
                + (typeName == null ? "type " + type : typeName) + ", "
                + (codeName == null ? String.format("code 0x%02x", code) : codeName);
    }

    /** Bytes of {@code side}'s stream never captured: sequence checks start over at the next message. */
    void gap(int side) {
        sides[side].afterGap = true;
    }

    // ---- output -------------------------------------------------------------------------------------------

    private record Pending(IwarpMessage message, int side) {
    }

    /** Messages given up as unfinished (a newer one began): reported incomplete at the end. */
    private final List<Pending> pendingIncomplete = new ArrayList<>();

    private void emit(IwarpMessage m, int side) {
        if (m.kind == null) {
            return;
        }
        if (Message.COMPLETED.equals(m.status)) {
            Side s = sides[side];
            s.messages++;
            s.messageBytes += m.bytes;
            if (m.latencyNanos != null) {
                latency.add(m.latencyNanos);
                latencyByKind.computeIfAbsent(m.kind, k -> new LatencyHistogram()).add(m.latencyNanos);
                goodput.add(m.firstTimeNanos + m.latencyNanos, m.bytes);
            }
        }
        if (!listenerKeepsMessages) {
            listener.messageCounted();
            return;
        }
        listener.message(new Message(id, addresses[side].text(), addresses[1 - side].text(), 0, 0, m.kind,
                Transport.IWARP, (int) m.msn, (int) m.msn, m.bytes, Collections.unmodifiableList(m.frames),
                m.responseFrames.isEmpty() ? List.of() : Collections.unmodifiableList(m.responseFrames),
                m.completionFrame, m.latencyNanos, m.status, m.immediate, m.invalidatedStag, null));
    }

    /** The capture ended: what never completed is incomplete. */
    void finish() {
        List<Pending> open = new ArrayList<>(pendingIncomplete);
        for (Side s : sides) {
            for (Queue q : s.queues.values()) {
                if (q.open != null) {
                    open.add(new Pending(q.open, s.index));
                }
            }
            if (s.write != null) {
                open.add(new Pending(s.write, s.index));
            }
            for (IwarpMessage m : s.unacknowledged) {
                open.add(new Pending(m, s.index));
            }
            for (IwarpMessage m : s.reads) {
                open.add(new Pending(m, s.index));
            }
            for (IwarpMessage m : s.atomics.values()) {
                open.add(new Pending(m, s.index));
            }
        }
        open.sort((a, b) -> Long.compare(a.message().firstFrame(), b.message().firstFrame()));
        for (Pending p : open) {
            IwarpMessage m = p.message();
            if (m.kind == null || m.finished()) {
                continue;
            }
            observe(m.firstFrame(), (int) m.msn, IwarpEvent.IWARP_MESSAGE_INCOMPLETE, m.kind
                    + (m.kind == MessageKind.READ ? " never answered" : " never acknowledged"));
            emit(m, p.side());
        }
        pendingIncomplete.clear();
    }

    Flow flow() {
        Map<MessageKind, Flow.Latency> byKind = new EnumMap<>(MessageKind.class);
        latencyByKind.forEach((k, h) -> byKind.put(k, latencyOf(h)));
        long first = Math.max(0, firstNanos);
        long duration = Math.max(0, lastNanos - first);
        Flow.Side a = side(0);
        Flow.Side b = side(1);
        double goodputBits = duration <= 0 ? 0 : (a.messageBytes() + b.messageBytes()) * 8e9 / duration;
        return new Flow(id, Transport.IWARP, a, b, "mpa", state == null ? "active" : state, null, first, lastNanos,
                duration, goodputBits, List.copyOf(lifecycle), latencyOf(latency), byKind, goodput.snapshot(), null);
    }

    private static Flow.Latency latencyOf(LatencyHistogram h) {
        return new Flow.Latency(h.count(), h.percentile(0.5), h.percentile(0.9), h.percentile(0.99), h.max());
    }

    private Flow.Side side(int i) {
        Side s = sides[i];
        return new Flow.Side(addresses[i].text(), null, null, s.packets, s.fpdus, s.payloadBytes, s.messages,
                s.messageBytes, s.retransmissions, 0, 0, s.lost, 0, 0, 0, 0, 0, null, null);
    }

    void lost(int side) {
        sides[side].lost++;
    }
}
