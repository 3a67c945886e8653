package io.rdmascope.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The replay engine's verdicts per frame, for display filters and columns (like Wireshark's
 * {@code tcp.analysis.*}): which observations a frame carries and which message it belongs to.
 * Built after a full replay (a first pass), then asked per frame during a second pass. Compact:
 * {@link #WORDS} longs of observation bits and one int message index per frame number.
 *
 * <p>Field names (all under {@code rdmascope.}): {@code rdmascope.analysis.KIND} for every
 * observation kind (e.g. {@code rdmascope.analysis.retransmission}), plus
 * {@code rdmascope.analysis.psn_gap} (lost on the wire or missing from the capture) and
 * {@code rdmascope.analysis.nak} (any NAK); {@code rdmascope.conversation} (every frame the engine
 * placed: requests, ACK-only, NAK, CNP, CM, datagrams, iWARP segments); {@code rdmascope.role};
 * {@code rdmascope.message.kind}, {@code .status}, {@code .bytes}, {@code .latency} (nanoseconds)
 * for every request, response and completion frame of a message; and (issue 17) {@code .number},
 * {@code .first_psn}, {@code .last_psn}, the frame links {@code .first_frame}, {@code .last_frame},
 * {@code .response_in} (on request frames) and {@code .response_to} (on the others); (issue 19) the
 * storage operation a frame belongs to, its command, response or one of its data frames:
 * {@code rdmascope.op.protocol}, {@code .opcode}, {@code .id}, {@code .status}, {@code .reason},
 * {@code .latency}, {@code .delivery}, {@code .data}, {@code .completion} (nanoseconds),
 * {@code .command_frame}, {@code .response_frame} — present when operations were tracked in the same
 * pass ({@link #withOperations}). {@link AnalysisTree}
 * words the same facts as the per-frame analysis node of the detail tree.
 */
public final class FrameAnalysis {

    /** Value types of analysis fields, as the filter compiler types them. */
    public enum Type { BOOLEAN, UNSIGNED, STRING, NANOSECONDS, FRAME }

    private static final String MESSAGE_NUMBER = "rdmascope.message.number";

    /** One analysis field. */
    public record Field(String name, Type type, String description) {
    }

    /** Every observation kind the engine can produce, in a fixed order: the bit index of each. */
    /** Every observation kind has its field and its bit: kind k is bit (k.ordinal() % 64) of word (k.ordinal() / 64). */
    private static final ObservationKind[] KINDS = ObservationKind.values();

    /** Longs of observation bits per frame: kind i is bit (i % 64) of word (i / 64). */
    static final int WORDS = 2;

    static {
        // A kind past the last word must not silently share a bit.
        if (KINDS.length > WORDS * Long.SIZE) {
            throw new IllegalStateException(KINDS.length + " observation kinds do not fit the per-frame bit set of "
                    + WORDS + " words");
        }
    }

    private static final int[] GAP_KINDS = ordinals(ObservationKind.PACKET_LOST, ObservationKind.MISSING_FROM_CAPTURE);
    private static final int[] NAK_KINDS = ordinals(ObservationKind.NAK_SEQUENCE_ERROR,
            ObservationKind.NAK_INVALID_REQUEST, ObservationKind.NAK_REMOTE_ACCESS_ERROR,
            ObservationKind.NAK_REMOTE_OPERATIONAL_ERROR, ObservationKind.NAK_INVALID_RD_REQUEST,
            ObservationKind.NAK_RESERVED);

    private static final Map<String, Field> FIELDS = fields();

    private long[] bits = new long[0];
    private int[] messageOf = new int[0];
    /** The storage operation (1-based index into {@link #operations}) per frame number; 0 for none. */
    private int[] operationOf = new int[0];
    private List<io.rdmascope.ops.Operation> operations = List.of();
    private final List<Message> messages;
    private final List<Observation> observations;
    /** Placement per frame, as the engine published it ({@link ReplayListener#placement}). */
    private final ReplayResult placements;

    private FrameAnalysis(List<Message> messages, List<Observation> observations, ReplayResult placements) {
        this.messages = messages;
        this.observations = observations;
        this.placements = placements;
    }

    private static int[] ordinals(ObservationKind... kinds) {
        int[] out = new int[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            out[i] = kinds[i].ordinal();
        }
        return out;
    }

    private static int index(String kind) {
        ObservationKind k = ObservationKind.ofId(kind);
        if (k == null) {
            throw new IllegalStateException("unknown observation kind " + kind);
        }
        return k.ordinal();
    }

    /** Whether frame {@code frame}'s bits hold kind number {@code kind}; the frame is within the arrays. */
    private boolean has(int frame, int kind) {
        return (bits[frame * WORDS + kind / Long.SIZE] & (1L << (kind % Long.SIZE))) != 0;
    }

    /** Declares field {@code name} once: the name is both the map key and the field's abbreviation. */
    private static void declare(Map<String, Field> m, String name, Type type, String description) {
        m.put(name, new Field(name, type, description));
    }

    private static Map<String, Field> fields() {
        Map<String, Field> m = new LinkedHashMap<>();
        for (ObservationKind k : KINDS) {
            declare(m, "rdmascope.analysis." + k.id(), Type.BOOLEAN,
                    "The replay engine observed " + k.id().replace('_', ' ') + " at this frame");
        }
        declare(m, "rdmascope.analysis.psn_gap", Type.BOOLEAN,
                "A PSN gap shows here: a packet lost on the wire or missing from the capture");
        declare(m, "rdmascope.analysis.nak", Type.BOOLEAN, "A NAK of any kind");
        declare(m, "rdmascope.conversation", Type.STRING,
                "Conversation id, as flows and messages number them");
        declare(m, "rdmascope.role", Type.STRING,
                "What the frame is to its conversation: request, ack, nak, rnr_nak, read_response, atomic_ack, "
                        + "cnp, cm, datagram, tcp_segment");
        declare(m, "rdmascope.message.kind", Type.STRING,
                "Kind of the message this frame carries or answers (SEND, WRITE, READ, …)");
        declare(m, "rdmascope.message.status", Type.STRING,
                "completed, incomplete, failed or dropped");
        declare(m, "rdmascope.message.bytes", Type.UNSIGNED,
                "Payload bytes of the message");
        declare(m, "rdmascope.message.latency", Type.NANOSECONDS,
                "First request frame to completion, of the message this frame belongs to");
        // Issue 17: the message a frame belongs to, with links to its frames (Wireshark's response_in/_to).
        declare(m, MESSAGE_NUMBER, Type.UNSIGNED,
                "Number of the message this frame belongs to, as rdmascope messages lists them (1, 2, …)");
        declare(m, "rdmascope.message.first_psn", Type.UNSIGNED,
                "First PSN of the message (the DDP MSN for iWARP)");
        declare(m, "rdmascope.message.last_psn", Type.UNSIGNED,
                "Last PSN of the message (the DDP MSN for iWARP)");
        declare(m, "rdmascope.message.first_frame", Type.FRAME,
                "First frame of the message (its first request frame)");
        declare(m, "rdmascope.message.last_frame", Type.FRAME,
                "Last frame of the message: its last request, response or completion frame");
        declare(m, "rdmascope.message.response_in", Type.FRAME,
                "On a request frame: the frame that completed its message (ACK, last READ response)");
        declare(m, "rdmascope.message.response_to", Type.FRAME,
                "On a response or completion frame: the first request frame of the message it answers");
        // Issue 19: the storage operation (NVMe-oF command, iSCSI task, RPC call, SMB2 request) of the frame.
        declare(m, "rdmascope.op.protocol", Type.STRING,
                "Protocol of the storage operation this frame carries, answers or moves data for (nvme-rdma, iser, "
                        + "rpcordma, smb_direct)");
        declare(m, "rdmascope.op.opcode", Type.STRING,
                "The operation's bare opcode or procedure name, as tshark's opcode field names it (Identify, GETATTR)");
        declare(m, "rdmascope.op.description", Type.STRING,
                "The operation as tshark's Info names it (Identify Controller, V3 GETATTR)");
        declare(m, "rdmascope.op.id", Type.UNSIGNED, "The operation's CID, task tag, XID or SMB2 message id");
        declare(m, "rdmascope.op.status", Type.STRING, "completed, failed or unanswered");
        declare(m, "rdmascope.op.reason", Type.STRING,
                "Why the operation failed or went unanswered (teardown, after_teardown, capture_end, …)");
        declare(m, "rdmascope.op.status_code", Type.UNSIGNED,
                "The failed operation's status value (NVMe SCT << 8 | SC, SCSI status, nfsstat, NTSTATUS)");
        declare(m, "rdmascope.op.latency", Type.NANOSECONDS, "Command to response, of the operation");
        declare(m, "rdmascope.op.delivery", Type.NANOSECONDS,
                "Command to the responder's transport ACK of it, of the operation");
        declare(m, "rdmascope.op.data", Type.NANOSECONDS, "First to last data frame, of the operation");
        declare(m, "rdmascope.op.completion", Type.NANOSECONDS,
                "Last data frame (or the command) to the response, of the operation");
        declare(m, "rdmascope.op.command_frame", Type.FRAME, "The frame of the operation's command");
        declare(m, "rdmascope.op.response_frame", Type.FRAME, "The frame of the operation's response");
        return m;
    }

    /**
     * Adds the storage operations tracked over the same frames ({@code io.rdmascope.ops.OperationTracker}):
     * each one's command, response and data frames then answer the {@code rdmascope.op.*} fields. A frame
     * of several operations (none today: a capsule, a PDU, a transfer serve one) answers for the first.
     */
    public FrameAnalysis withOperations(List<io.rdmascope.ops.Operation> ops) {
        List<io.rdmascope.ops.Operation> sorted = new ArrayList<>(ops);
        sorted.sort(java.util.Comparator.comparingLong(io.rdmascope.ops.Operation::commandFrame));
        operations = List.copyOf(sorted);
        for (int i = 0; i < operations.size(); i++) {
            io.rdmascope.ops.Operation o = operations.get(i);
            markOperation(o.commandFrame(), i);
            if (o.responseFrame() != null) {
                markOperation(o.responseFrame(), i);
            }
            for (long f : o.dataFrames()) {
                markOperation(f, i);
            }
        }
        return this;
    }

    private void markOperation(long frame, int index) {
        if (frame <= 0 || frame > Integer.MAX_VALUE - 8) {
            return;
        }
        if (frame >= operationOf.length) {
            operationOf = Arrays.copyOf(operationOf, (int) Math.max(frame + 1, operationOf.length * 2L));
        }
        if (operationOf[(int) frame] == 0) {
            operationOf[(int) frame] = index + 1; // 0 means none
        }
    }

    /** The storage operations added by {@link #withOperations}, in order of command frame; empty when none. */
    public List<io.rdmascope.ops.Operation> operations() {
        return operations;
    }

    /** The storage operation frame {@code frame} belongs to (command, response or data), or null. */
    public io.rdmascope.ops.Operation operationAt(long frame) {
        return frame <= 0 || frame >= operationOf.length || operationOf[(int) frame] == 0 ? null
                : operations.get(operationOf[(int) frame] - 1);
    }

    /** The value of an {@code rdmascope.op.*} field at {@code frame}, or null. */
    private Object operationValue(String name, long frame) {
        io.rdmascope.ops.Operation o = operationAt(frame);
        if (o == null) {
            return null;
        }
        return switch (name) {
            case "rdmascope.op.protocol" -> o.protocol();
            case "rdmascope.op.opcode" -> o.opcode();
            case "rdmascope.op.description" -> o.description();
            case "rdmascope.op.id" -> o.id();
            case "rdmascope.op.status" -> o.status();
            case "rdmascope.op.reason" -> o.reason();
            case "rdmascope.op.status_code" -> o.statusCode();
            case "rdmascope.op.latency" -> o.latencyNs();
            case "rdmascope.op.delivery" -> o.deliveryNs();
            case "rdmascope.op.data" -> o.dataNs();
            case "rdmascope.op.completion" -> o.completionNs();
            case "rdmascope.op.command_frame" -> o.commandFrame();
            case "rdmascope.op.response_frame" -> o.responseFrame();
            default -> null;
        };
    }

    /** Every analysis field, in a stable order. */
    public static List<Field> allFields() {
        return List.copyOf(FIELDS.values());
    }

    /** The analysis field named {@code name}, or null. */
    public static Field field(String name) {
        return FIELDS.get(name);
    }

    /** Indexes a finished replay's messages and observations by frame. */
    public static FrameAnalysis of(ReplayResult replay) {
        FrameAnalysis a = new FrameAnalysis(List.copyOf(replay.messages()), List.copyOf(replay.observations()),
                replay);
        for (Observation o : replay.observations()) {
            int i = o.kind().ordinal();
            if (o.frame() > 0) {
                a.grow(o.frame());
                a.bits[(int) o.frame() * WORDS + i / Long.SIZE] |= 1L << (i % Long.SIZE);
            }
        }
        for (int m = 0; m < a.messages.size(); m++) {
            Message msg = a.messages.get(m);
            a.place(msg.frames(), m);
            a.place(msg.responseFrames(), m);
            if (msg.completionFrame() != null) {
                a.place(msg.completionFrame(), m);
            }
        }
        return a;
    }

    private void place(List<Integer> frames, int message) {
        for (int i = 0, n = frames.size(); i < n; i++) {
            place(frames.get(i), message);
        }
    }

    private void place(int frame, int message) {
        grow(frame);
        if (messageOf[frame] == 0) {
            messageOf[frame] = message + 1; // 0 means none; an ACK covering several keeps the first
        }
    }

    private void grow(long frame) {
        if (frame >= messageOf.length) {
            int size = (int) Math.max(frame + 1, messageOf.length * 2L);
            bits = Arrays.copyOf(bits, size * WORDS);
            messageOf = Arrays.copyOf(messageOf, size);
        }
    }

    /**
     * The value of analysis field {@code field} at {@code frame}: Boolean for flags (null when false,
     * so that a bare field name tests presence, as in Wireshark), String, Long; null when the frame
     * has none.
     */
    public Object value(Field field, long frame) {
        String name = field.name();
        if (name.equals("rdmascope.conversation")) {
            return conversationOf(frame);
        }
        if (name.startsWith("rdmascope.op.")) {
            return operationValue(name, frame);
        }
        if (name.equals("rdmascope.role")) {
            FrameRole role = roleOf(frame);
            return role == null ? null : role.name().toLowerCase(java.util.Locale.ROOT);
        }
        if (frame <= 0 || frame >= messageOf.length) {
            return null;
        }
        int f = (int) frame;
        if (name.startsWith("rdmascope.analysis.")) {
            String kind = name.substring("rdmascope.analysis.".length());
            int[] kinds = kind.equals("psn_gap") ? GAP_KINDS : kind.equals("nak") ? NAK_KINDS
                    : new int[] {index(kind)};
            for (int k : kinds) {
                if (has(f, k)) {
                    return Boolean.TRUE;
                }
            }
            return null;
        }
        int m = messageOf[(int) frame];
        if (m == 0) {
            return null;
        }
        Message msg = messages.get(m - 1);
        return switch (name) {
            case "rdmascope.message.kind" -> msg.kind().name();
            case "rdmascope.message.status" -> msg.status();
            case "rdmascope.message.bytes" -> msg.bytes();
            case "rdmascope.message.latency" -> msg.latencyNanos();
            case MESSAGE_NUMBER -> (long) m;
            case "rdmascope.message.first_psn" -> (long) msg.firstPsn();
            case "rdmascope.message.last_psn" -> (long) msg.lastPsn();
            case "rdmascope.message.first_frame" -> firstFrame(msg);
            case "rdmascope.message.last_frame" -> lastFrame(msg);
            case "rdmascope.message.response_in" -> msg.frames().contains(f) && msg.completionFrame() != null
                    && msg.completionFrame() != f ? (long) msg.completionFrame() : null;
            case "rdmascope.message.response_to" -> !msg.frames().contains(f) ? firstFrame(msg) : null;
            default -> null;
        };
    }

    private static Long firstFrame(Message msg) {
        return msg.frames().isEmpty() ? null : (long) msg.frames().get(0);
    }

    /** The highest frame number the message names: requests, responses and completion. */
    static Long lastFrame(Message msg) {
        long last = 0;
        for (int f : msg.frames()) {
            last = Math.max(last, f);
        }
        for (int f : msg.responseFrames()) {
            last = Math.max(last, f);
        }
        if (msg.completionFrame() != null) {
            last = Math.max(last, msg.completionFrame());
        }
        return last == 0 ? null : last;
    }

    /** The message frame {@code frame} belongs to and its number (1-based), or null. */
    public Numbered messageOf(long frame) {
        if (frame <= 0 || frame >= messageOf.length || messageOf[(int) frame] == 0) {
            return null;
        }
        int m = messageOf[(int) frame];
        return new Numbered(m, messages.get(m - 1));
    }

    /** A message with its number as {@code rdmascope messages} lists them. */
    public record Numbered(int number, Message message) {
    }

    /** The observations the replay cited at frame {@code frame}, in the order it made them. */
    public List<Observation> observationsAt(long frame) {
        int lo = firstObservationAtOrAfter(frame);
        List<Observation> out = new ArrayList<>();
        for (int i = lo; i < observations.size() && observations.get(i).frame() == frame; i++) {
            out.add(observations.get(i));
        }
        return out;
    }

    /** Index of the first observation at {@code frame} or later (binary search: one per frame shown). */
    int firstObservationAtOrAfter(long frame) {
        int lo = 0;
        int hi = observations.size();
        while (lo < hi) { // observations are sorted by frame, frame-0 ones last (ReplayResult.finish)
            int mid = (lo + hi) >>> 1;
            long at = observations.get(mid).frame();
            if (at != 0 && at < frame) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Every observation of the replay, sorted by frame: for links from one frame to an earlier one. */
    List<Observation> observations() {
        return observations;
    }

    /** The conversation the engine placed frame {@code frame} in, or null. */
    public String conversationOf(long frame) {
        return placements.conversationOf(frame);
    }

    /** The side (0 or 1, as flows number them) that sent frame {@code frame}, or -1. */
    public int sideOf(long frame) {
        return placements.sideOf(frame);
    }

    /** What frame {@code frame} is to its conversation, or null when the engine placed it nowhere. */
    public FrameRole roleOf(long frame) {
        return placements.roleOf(frame);
    }
}
