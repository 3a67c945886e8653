package io.rdmascope.gui.ladder;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.Formats;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.model.VantageCapture;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.Job;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.FrameRole;
import io.rdmascope.replay.Observation;
import io.rdmascope.text.PacketSummary;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.value.ObservableValue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ladder (sequence) diagram of one conversation: side A's and side B's lifelines and one arrow
 * per frame the replay engine placed in it, in capture order, labelled with its operation and PSN.
 * Which frames, each arrow's direction (the side that sent it) and its kind (its role) are the
 * engine's answer ({@link FrameAnalysis}); what it observed at a frame marks its arrow: a
 * retransmission, a duplicate, a loss, a bad CRC.
 *
 * <p>The arrows are computed in the background (one dissection per frame of the conversation);
 * the view draws only those in sight, so a conversation of any length scrolls smoothly. Zoom is the
 * height of one arrow's row.
 */
public final class LadderViewModel {
    /** What an arrow is. */
    public enum Kind { REQUEST, READ_RESPONSE, ATOMIC_ACK, ACK, NAK, RNR_NAK, CNP, CM, DATAGRAM, TCP_SEGMENT, OTHER }

    /** What the replay engine observed at an arrow's frame. */
    public enum Mark {
        RETRANSMISSION, DUPLICATE,
        /** This packet was lost after the capture point (NAK'd or resent later). */
        LOST,
        /** Packets before this one are missing: lost before the capture point, or missing from the capture. */
        GAP,
        TIMEOUT, BAD_CRC, ECN_CE, MALFORMED, TRUNCATED
    }

    /**
     * One frame of the conversation.
     *
     * @param fromA      true when side A sent it (left to right)
     * @param label      operation and PSN, e.g. "RDMA WRITE First PSN=15278828"
     * @param timeLabel  seconds since the first frame of the capture
     * @param path       with several vantage points: the lanes that saw this packet in the order it passed
     *                   them, each with its delay after the first of them (clocks corrected); empty for one
     *                   capture, and for a frame the union takes from the first point alone (no identity)
     * @param stopsShort with several vantage points: the packet never reached the next lane on its way, which
     *                   saw other packets going that way: lost (or missed) after the last lane of its path
     */
    public record Arrow(int frame, long timeNanos, boolean fromA, Kind kind, Set<Mark> marks, String label,
                        String timeLabel, List<Stop> path, boolean stopsShort) {
        public boolean is(Mark m) {
            return marks.contains(m);
        }
    }

    /**
     * A sighting on an arrow's path: the lane (index into {@link Diagram#lanes()}), the point's own frame, and
     * the time since the arrow's first sighting on the first point's clock: the measured one-way delay.
     */
    public record Stop(int lane, int frame, long afterFirstNanos) {
    }

    /** A vantage point's lifeline: its name and its place in the order the points were named (its colour). */
    public record Lane(String point, int pointIndex) {
    }

    /**
     * A whole diagram: the two sides' titles, the vantage points' lanes from side A's to side B's (empty for
     * one capture: side A's and side B's lifelines then), and the arrows, top to bottom.
     */
    public record Diagram(String conversation, String sideA, String sideB, List<Lane> lanes, List<Arrow> arrows) {
        static final Diagram EMPTY = new Diagram(null, "", "", List.of(), List.of());

        /** The longest first-to-last sighting of any arrow: the slant of the steepest arrow. */
        public long longestPathNanos() {
            long longest = 0;
            for (Arrow a : arrows) {
                for (Stop s : a.path()) {
                    longest = Math.max(longest, s.afterFirstNanos());
                }
            }
            return longest;
        }
    }

    public static final double MIN_ROW = 10;
    public static final double MAX_ROW = 80;
    public static final double DEFAULT_ROW = 26;

    private final AppExecutors exec;
    private final FrameSelection selection;
    private final ReadOnlyObjectWrapper<Diagram> diagram = new ReadOnlyObjectWrapper<>(this, "diagram", Diagram.EMPTY);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final DoubleProperty rowHeight = new SimpleDoubleProperty(this, "rowHeight", DEFAULT_ROW);
    private FrameIndex index;
    private DissectorChain chain = DissectorChain.standard();
    private CaptureAnalysis analysis;
    private VantageCapture vantage;
    private String conversation;
    private Job job;

    public LadderViewModel(AppExecutors exec, FrameSelection selection, ObservableValue<String> conversation) {
        this.exec = exec;
        this.selection = selection;
        conversation.addListener((o, was, now) -> showConversation(now));
        this.conversation = conversation.getValue();
    }

    public ReadOnlyObjectProperty<Diagram> diagram() {
        return diagram.getReadOnlyProperty();
    }

    /** "Conversation 1: 22 frames", or why there is no diagram. */
    public ReadOnlyStringProperty status() {
        return status.getReadOnlyProperty();
    }

    /** Height of one arrow's row in pixels: the zoom. */
    public DoubleProperty rowHeight() {
        return rowHeight;
    }

    public FrameSelection selection() {
        return selection;
    }

    public void zoomIn() {
        rowHeight.set(Math.min(MAX_ROW, rowHeight.get() * 1.25));
    }

    public void zoomOut() {
        rowHeight.set(Math.max(MIN_ROW, rowHeight.get() / 1.25));
    }

    public void zoomReset() {
        rowHeight.set(DEFAULT_ROW);
    }

    /** A new capture: no diagram until its analysis arrives. */
    public void open(FrameIndex newIndex, DissectorChain newChain) {
        Job.cancel(job);
        index = newIndex;
        chain = newChain;
        analysis = null;
        vantage = null;
        diagram.set(Diagram.EMPTY);
        status.set("The ladder diagram appears when the replay has finished.");
    }

    /** The replay's result (null: none yet). */
    public void show(CaptureAnalysis newAnalysis) {
        analysis = newAnalysis;
        showConversation(conversation);
    }

    /**
     * Several vantage points' union is open (null: one capture): each conversation is drawn with one lane
     * per point that saw it. The union may arrive after the replay's result; the diagram is drawn again.
     */
    public void useVantage(VantageCapture union) {
        vantage = union;
        showConversation(conversation);
    }

    /** Draws conversation {@code id} (null: none). */
    public void showConversation(String id) {
        conversation = id;
        Job.cancel(job);
        if (analysis == null || index == null) {
            diagram.set(Diagram.EMPTY);
            return;
        }
        Flow flow = id == null ? null : analysis.flow(id);
        if (flow == null) {
            diagram.set(Diagram.EMPTY);
            status.set(analysis.flows().isEmpty() ? "No RDMA conversations in this capture."
                    : "Select a conversation to draw its ladder diagram.");
            return;
        }
        Job j = new Job();
        job = j;
        status.set("Drawing conversation " + id + "…");
        CaptureAnalysis a = analysis;
        FrameIndex idx = index;
        DissectorChain ch = chain;
        VantageCapture union = vantage;
        exec.background().execute(() -> {
            Diagram built = build(a, idx, ch, flow, j);
            Diagram d = built == null || union == null ? built : VantageLanes.place(built, union);
            if (d == null) {
                return;
            }
            exec.ui().execute(() -> {
                if (!j.isCancelled()) {
                    diagram.set(d);
                    status.set("Conversation " + flow.conversation() + ": " + d.arrows().size() + " frames"
                            + (d.lanes().isEmpty() ? "" : " at " + d.lanes().size() + " vantage points"));
                }
            });
        });
    }

    /** The arrow drawn in row {@code row}, or null. */
    public Arrow arrowAt(int row) {
        List<Arrow> arrows = diagram.get().arrows();
        return row >= 0 && row < arrows.size() ? arrows.get(row) : null;
    }

    /** The row of frame {@code frame}'s arrow, or -1 when it is not in this diagram. */
    public int rowOf(int frame) {
        List<Arrow> arrows = diagram.get().arrows();
        int lo = 0;
        int hi = arrows.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int f = arrows.get(mid).frame();
            if (f < frame) {
                lo = mid + 1;
            } else if (f > frame) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** A click on the arrow in row {@code row}: selects its frame. */
    public void choose(int row) {
        Arrow a = arrowAt(row);
        if (a != null) {
            selection.select(a.frame());
        }
    }

    static Diagram build(CaptureAnalysis analysis, FrameIndex index, DissectorChain chain, Flow flow, Job job) {
        int[] frames = analysis.framesOf(flow.conversation());
        Map<Long, List<Observation>> seen = analysis.observationsByFrame();
        FrameAnalysis placed = analysis.frames();
        FrameDecoder decoder = new FrameDecoder(index, chain);
        List<Arrow> arrows = new ArrayList<>(frames.length);
        long first = index.firstTimeNanos();
        for (int i = 0; i < frames.length; i++) {
            if ((i & 1023) == 0 && job.isCancelled()) {
                return null;
            }
            Dissection d = decoder.dissect(frames[i]);
            boolean fromA = placed.sideOf(frames[i]) != 1; // side 0 is the flow's side A
            arrows.add(arrow(d, fromA, kindOf(placed.roleOf(frames[i])),
                    seen.getOrDefault((long) frames[i], List.of()), first, index.timeDigits()));
        }
        return new Diagram(flow.conversation(), side("A", flow.a()), side("B", flow.b()), List.of(), List.copyOf(arrows));
    }

    private static String side(String name, Flow.Side s) {
        return name + ": " + s.address() + "  QP " + Formats.qp(s.qpn());
    }

    /** The arrow kind of what the engine says a frame is (null: placed nowhere). */
    static Kind kindOf(FrameRole role) {
        if (role == null) {
            return Kind.OTHER;
        }
        return switch (role) {
            case REQUEST -> Kind.REQUEST;
            case ACK -> Kind.ACK;
            case NAK -> Kind.NAK;
            case RNR_NAK -> Kind.RNR_NAK;
            case READ_RESPONSE -> Kind.READ_RESPONSE;
            case ATOMIC_ACK -> Kind.ATOMIC_ACK;
            case CNP -> Kind.CNP;
            case CM -> Kind.CM;
            case DATAGRAM -> Kind.DATAGRAM;
            case TCP_SEGMENT -> Kind.TCP_SEGMENT;
        };
    }

    /**
     * The arrow of the frame dissected into {@code d}: direction and kind as the engine placed it, the
     * label from the dissected fields (operation, PSN, AETH syndrome; a CM frame's summary).
     */
    static Arrow arrow(Dissection d, boolean fromA, Kind kind, List<Observation> observations, long firstTimeNanos,
                       int timeDigits) {
        RdmaContext r = d.rdma();
        StringBuilder label = new StringBuilder(48);
        if (kind != Kind.CM && r.isRdma() && r.bthLayer >= 0 && d.layerLength(r.bthLayer) >= 12) {
            Opcode op = Opcodes.of(r.opcode);
            Operation operation = op.operation();
            label.append(operation == Operation.UNKNOWN ? op.name() : operation.label());
            if (kind != Kind.CNP) {
                label.append(" PSN=").append(d.u24(r.bthStart + 9));
            }
            int aeth = d.find(InfiniBand.AETH);
            if (aeth >= 0 && d.layerLength(aeth) == 4) {
                int syndrome = d.u8(d.layerStart(aeth));
                label.append(switch ((syndrome >> 5) & 3) {
                    case InfiniBand.AETH_ACK -> " ACK";
                    case InfiniBand.AETH_RNR_NAK -> " RNR NAK";
                    case InfiniBand.AETH_NAK -> " NAK";
                    default -> " reserved syndrome";
                });
            }
        } else {
            label.append(PacketSummary.of(d).info());
        }
        Set<Mark> marks = EnumSet.noneOf(Mark.class);
        for (Observation o : observations) {
            Mark m = markOf(o);
            if (m != null) {
                marks.add(m);
            }
        }
        long t = d.frame().timeNanos();
        return new Arrow((int) d.frame().number(), t, fromA, kind, marks.isEmpty() ? Set.of() : Set.copyOf(marks),
                label.toString(), FrameDecoder.relativeTime(t - firstTimeNanos, timeDigits), List.of(), false);
    }

    /**
     * The mark an observation puts on its frame's arrow, or null: NAKs, CNPs and the like are kinds of
     * arrow (the frame's role), and the rest is not about one frame's look. Every kind is listed, so a
     * new one is placed here before it compiles.
     */
    static Mark markOf(Observation o) {
        return switch (o.kind()) {
            case RETRANSMISSION -> Mark.RETRANSMISSION;
            case DUPLICATE -> Mark.DUPLICATE;
            case PACKET_LOST -> o instanceof Observation.PacketLost p && p.afterCapturePoint() ? Mark.LOST : Mark.GAP;
            case MISSING_FROM_CAPTURE -> Mark.GAP;
            case ACK_TIMEOUT -> Mark.TIMEOUT;
            case BAD_ICRC, BAD_VCRC -> Mark.BAD_CRC;
            case ECN_CE -> Mark.ECN_CE;
            case MALFORMED -> Mark.MALFORMED;
            case TRUNCATED_FRAME -> Mark.TRUNCATED;
            case NAK_SEQUENCE_ERROR, NAK_INVALID_REQUEST, NAK_REMOTE_ACCESS_ERROR,
                 NAK_REMOTE_OPERATIONAL_ERROR, NAK_INVALID_RD_REQUEST, NAK_RESERVED, RNR_NAK,
                 RETRY_EXHAUSTED, RNR_RETRY_EXHAUSTED, MESSAGE_INCOMPLETE, UNANSWERED_AT_CAPTURE_END,
                 UC_MESSAGE_DROPPED, MISSING_FIRST, MISSING_LAST, PAYLOAD_OVER_PMTU, SHORT_NON_FINAL_PACKET,
                 DMA_LENGTH_MISMATCH, WRONG_PAD_COUNT, UNMATCHED_READ_RESPONSE, UNMATCHED_ATOMIC_ACK,
                 ACK_OF_UNSENT_PSN, COALESCED_ACK, PSN_WRAP, CNP, QP_STATE, CM_REJECT, LIMIT_REACHED,
                 PAIRING_UNDECIDED, TIMESTAMP_INVERSION, TCP_RETRANSMISSION, TCP_OUT_OF_ORDER,
                 TCP_MISSING_FROM_CAPTURE, MPA_CRC_ERROR, MPA_MARKER_ERROR, MPA_INVALID_STARTUP, MPA_REJECT,
                 MPA_RESYNC, DDP_VERSION, DDP_INVALID_QUEUE, DDP_MSN_SEQUENCE, DDP_SEGMENT_SEQUENCE,
                 RDMAP_VERSION, RDMAP_UNEXPECTED_OPCODE, RDMAP_UNMATCHED_READ_RESPONSE, RDMAP_TERMINATE,
                 IWARP_MESSAGE_INCOMPLETE, ICRC_NOT_VERIFIABLE, FRAMES_CUT_SILENTLY, HEADERS_CUT,
                 PAD_MISALIGNED, PSN_REUSED, MSN_INCONSISTENT, QP_STALLED, TORN_DOWN_WITH_OUTSTANDING,
                 DDP_MSN_SHARED_COUNTER, RDMAP_READ_REQUEST_BYTE_ORDER, MPA_MARKER_LAYOUT, SENDER_SIDE_DUPLICATE,
                 RESPONSE_NOT_DOWNSTREAM, ULP_RESPONSE_WITHOUT_COMMAND, ULP_RESPONSE_BEFORE_CAPTURE, ULP_ID_REUSED,
                 ULP_TRANSFER_OUTSIDE_BUFFERS, ULP_UNANSWERED_AT_TEARDOWN, ULP_COMMAND_AFTER_TEARDOWN,
                 ULP_UNANSWERED_AT_CAPTURE_END, ULP_SEND_CREDIT_OVERRUN, ULP_CALL_CREDIT_OVERRUN -> null;
        };
    }
}
