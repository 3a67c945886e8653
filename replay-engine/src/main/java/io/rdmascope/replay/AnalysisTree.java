package io.rdmascope.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongToIntFunction;

/**
 * The analysis node of one frame, for the detail tree of {@code dissect -V} and the GUI: what
 * Wireshark shows as TCP's {@code [SEQ/ACK analysis]} and expert info, for RDMA. The message the
 * frame belongs to with links to its first and last frames and to the frame that answered it (or
 * that it answers), its latency, and each observation the replay made at the frame: a retransmission
 * of which earlier frame and why, the NAK it answers, a NAK's code.
 *
 * <p>Built from a finished replay ({@link FrameAnalysis}), so it needs the two passes {@code -Y}
 * already makes. Items carry the analysis field they show (a filter or {@code -e} name; null for a
 * label only) and the frame they link to, so that a GUI can make the link clickable.
 */
public final class AnalysisTree {
    /** The top label, bracketed as Wireshark brackets what it derives rather than reads. */
    public static final String TITLE = "[RDMA analysis]";

    private AnalysisTree() {
    }

    /**
     * One line of the analysis node.
     *
     * @param field    the analysis field this line shows ({@code rdmascope.message.first_frame}), or null
     * @param label    the line as shown, without the tree's indentation
     * @param link     the frame this line points to, or 0
     * @param children lines under it
     */
    public record Item(String field, String label, long link, List<Item> children) {
        public Item {
            children = List.copyOf(children);
        }

        static Item leaf(String field, String label, long link) {
            return new Item(field, label, link, List.of());
        }
    }

    /**
     * The analysis items of frame {@code frame}: empty when the replay placed it nowhere and said
     * nothing of it. {@code psnOf} gives the BTH PSN of an earlier frame (or -1), to name the frame a
     * retransmission repeats; the caller dissects that frame or remembers it.
     */
    public static List<Item> of(FrameAnalysis analysis, long frame, LongToIntFunction psnOf) {
        List<Item> items = new ArrayList<>();
        String conversation = analysis.conversationOf(frame);
        if (conversation != null) {
            items.add(Item.leaf("rdmascope.conversation", "[Conversation: " + conversation + "]", 0));
        }
        FrameRole role = analysis.roleOf(frame);
        if (role != null) {
            items.add(Item.leaf("rdmascope.role", "[Role: " + role.name().toLowerCase(Locale.ROOT) + "]", 0));
        }
        FrameAnalysis.Numbered numbered = analysis.messageOf(frame);
        if (numbered != null) {
            items.add(message(numbered, frame));
        }
        for (Observation o : analysis.observationsAt(frame)) {
            items.add(observation(analysis, o, frame, psnOf));
        }
        return items;
    }

    private static Item message(FrameAnalysis.Numbered numbered, long frame) {
        Message m = numbered.message();
        List<Item> lines = new ArrayList<>();
        lines.add(Item.leaf("rdmascope.message.kind", "[Kind: " + m.kind().name() + "]", 0));
        lines.add(Item.leaf("rdmascope.message.status", "[Status: " + m.status() + "]", 0));
        lines.add(Item.leaf("rdmascope.message.first_psn", "[First PSN: " + m.firstPsn() + "]", 0));
        lines.add(Item.leaf("rdmascope.message.last_psn", "[Last PSN: " + m.lastPsn() + "]", 0));
        lines.add(Item.leaf("rdmascope.message.bytes", "[Bytes: " + m.bytes() + "]", 0));
        if (!m.frames().isEmpty()) {
            lines.add(Item.leaf("rdmascope.message.first_frame", "[First frame: " + m.frames().get(0) + "]",
                    m.frames().get(0)));
        }
        Long last = FrameAnalysis.lastFrame(m);
        if (last != null) {
            lines.add(Item.leaf("rdmascope.message.last_frame", "[Last frame: " + last + "]", last));
        }
        boolean request = m.frames().contains((int) frame);
        if (request && m.completionFrame() != null && m.completionFrame() != frame) {
            lines.add(Item.leaf("rdmascope.message.response_in", "[Response in frame: " + m.completionFrame() + "]",
                    m.completionFrame()));
        }
        if (!request && !m.frames().isEmpty()) {
            lines.add(Item.leaf("rdmascope.message.response_to", "[Response to frame: " + m.frames().get(0) + "]",
                    m.frames().get(0)));
        }
        if (m.latencyNanos() != null) {
            lines.add(Item.leaf("rdmascope.message.latency", "[Latency: " + seconds(m.latencyNanos()) + " seconds]",
                    0));
        }
        String partial = Boolean.TRUE.equals(m.partial()) ? ", partly captured" : "";
        return new Item("rdmascope.message.number", "[Message " + numbered.number() + ": " + m.kind().name() + ", "
                + m.status() + partial + "]", 0, lines);
    }

    private static Item observation(FrameAnalysis analysis, Observation o, long frame, LongToIntFunction psnOf) {
        List<Item> lines = new ArrayList<>();
        if (o instanceof Observation.Retransmission r) {
            long original = earlierFrameOfPsn(analysis, frame, r.psn(), psnOf);
            if (original > 0) {
                lines.add(Item.leaf(null, "[Retransmission of frame: " + original + "]", original));
            }
            if (r.trigger() == Observation.Trigger.NAK || r.trigger() == Observation.Trigger.RNR_NAK) {
                long nak = answeredNak(analysis, r, frame);
                if (nak > 0) {
                    lines.add(Item.leaf(null, "[Answers the NAK in frame: " + nak + "]", nak));
                }
            }
        } else if (o instanceof Observation.Duplicate dup && dup.originalFrame() > 0) {
            lines.add(Item.leaf(null, "[Copy of frame: " + dup.originalFrame() + "]", dup.originalFrame()));
        }
        lines.add(Item.leaf(null, "[Expert Info (" + severity(o) + "): " + o.detail() + "]", 0));
        String psn = o.psn() >= 0 ? ", PSN " + o.psn() : "";
        return new Item("rdmascope.analysis." + o.kind(), "[" + o.kind() + psn + "]", 0, lines);
    }

    /**
     * The NAK a go-back-N run answers: the latest NAK (or RNR NAK) of the same conversation before
     * this frame, at the run's PSN or below it (IBTA 9.7.5.2.1: a NAK names the PSN resent from).
     */
    private static long answeredNak(FrameAnalysis analysis, Observation.Retransmission r, long frame) {
        // backwards from the frame: the nearest NAK is found without a pass over the whole capture's
        // observations for every retransmission (-V over a lossy capture would be quadratic)
        List<Observation> observations = analysis.observations();
        for (int i = analysis.firstObservationAtOrAfter(frame) - 1; i >= 0; i--) {
            Observation o = observations.get(i);
            boolean nak = o instanceof Observation.Nak || o instanceof Observation.RnrNak;
            if (nak && java.util.Objects.equals(o.conversation(), r.conversation())) {
                return o.frame();
            }
        }
        return 0;
    }

    /** The latest earlier request frame of the same message that carried PSN {@code psn}, or 0. */
    private static long earlierFrameOfPsn(FrameAnalysis analysis, long frame, int psn, LongToIntFunction psnOf) {
        FrameAnalysis.Numbered numbered = analysis.messageOf(frame);
        if (numbered == null || psn < 0) {
            return 0;
        }
        long best = 0;
        for (int f : numbered.message().frames()) {
            if (f < frame && psnOf.applyAsInt(f) == psn) {
                best = f;
            }
        }
        return best;
    }

    /**
     * Wireshark's expert severities, by what the observation means for the traffic: lost and resent
     * packets are warnings (as {@code tcp.analysis.retransmission}), NAKs and failures errors, the
     * rest notes.
     */
    private static String severity(Observation o) {
        return switch (o.kind()) {
            case NAK_SEQUENCE_ERROR, NAK_INVALID_REQUEST, NAK_REMOTE_ACCESS_ERROR,
                 NAK_REMOTE_OPERATIONAL_ERROR, NAK_INVALID_RD_REQUEST, NAK_RESERVED, RETRY_EXHAUSTED,
                 RNR_RETRY_EXHAUSTED, BAD_ICRC, BAD_VCRC, RDMAP_TERMINATE, TORN_DOWN_WITH_OUTSTANDING,
                 ULP_RESPONSE_WITHOUT_COMMAND, ULP_ID_REUSED, ULP_TRANSFER_OUTSIDE_BUFFERS, ULP_COMMAND_AFTER_TEARDOWN,
                 ULP_SEND_CREDIT_OVERRUN, ULP_CALL_CREDIT_OVERRUN -> "Error/Sequence";
            case PACKET_LOST, DUPLICATE, RETRANSMISSION, ACK_TIMEOUT, RNR_NAK, TCP_RETRANSMISSION,
                 TCP_OUT_OF_ORDER, TCP_MISSING_FROM_CAPTURE, SENDER_SIDE_DUPLICATE,
                 RESPONSE_NOT_DOWNSTREAM, ULP_UNANSWERED_AT_TEARDOWN -> "Warning/Sequence";
            case MISSING_FROM_CAPTURE, MESSAGE_INCOMPLETE, UNANSWERED_AT_CAPTURE_END, UC_MESSAGE_DROPPED,
                 MISSING_FIRST, MISSING_LAST, PAYLOAD_OVER_PMTU, SHORT_NON_FINAL_PACKET, DMA_LENGTH_MISMATCH,
                 WRONG_PAD_COUNT, UNMATCHED_READ_RESPONSE, UNMATCHED_ATOMIC_ACK, ACK_OF_UNSENT_PSN,
                 COALESCED_ACK, PSN_WRAP, ECN_CE, CNP, TRUNCATED_FRAME, QP_STATE, CM_REJECT, MALFORMED,
                 LIMIT_REACHED, PAIRING_UNDECIDED, TIMESTAMP_INVERSION, MPA_CRC_ERROR, MPA_MARKER_ERROR,
                 MPA_INVALID_STARTUP, MPA_REJECT, MPA_RESYNC, DDP_VERSION, DDP_INVALID_QUEUE, DDP_MSN_SEQUENCE,
                 DDP_SEGMENT_SEQUENCE, RDMAP_VERSION, RDMAP_UNEXPECTED_OPCODE, RDMAP_UNMATCHED_READ_RESPONSE,
                 IWARP_MESSAGE_INCOMPLETE, ICRC_NOT_VERIFIABLE, FRAMES_CUT_SILENTLY, HEADERS_CUT,
                 PAD_MISALIGNED, PSN_REUSED, MSN_INCONSISTENT, QP_STALLED, DDP_MSN_SHARED_COUNTER,
                 RDMAP_READ_REQUEST_BYTE_ORDER, MPA_MARKER_LAYOUT, ULP_RESPONSE_BEFORE_CAPTURE,
                 ULP_UNANSWERED_AT_CAPTURE_END -> "Note/Sequence";
        };
    }

    /** Nanoseconds as Wireshark prints a relative time: seconds with nine decimals. */
    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%d.%09d", nanos / 1_000_000_000L, Math.abs(nanos % 1_000_000_000L));
    }

    /**
     * The BTH PSN of a dissected frame, or -1 when it has no whole BTH: what {@link #of}'s {@code psnOf}
     * answers for an earlier frame, from a dissection the caller makes or remembers.
     */
    public static int bthPsn(io.rdmascope.dissect.Dissection d) {
        io.rdmascope.dissect.RdmaContext r = d.rdma();
        if (!r.isRdma() || r.bthLayer < 0 || d.layerLength(r.bthLayer) != 12) {
            return -1;
        }
        return d.u24(r.bthStart + 9);
    }

    /** Appends the node as {@code -V} text: the title and its items, four spaces per level. */
    public static void print(List<Item> items, StringBuilder out) {
        if (items.isEmpty()) {
            return;
        }
        out.append(TITLE).append('\n');
        for (Item i : items) {
            print(i, 1, out);
        }
    }

    private static void print(Item item, int depth, StringBuilder out) {
        out.append("    ".repeat(depth)).append(item.label()).append('\n');
        for (Item c : item.children()) {
            print(c, depth + 1, out);
        }
    }
}
