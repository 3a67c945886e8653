package io.rdmascope.gui.messages;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.Formats;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.Job;
import io.rdmascope.ops.Operation;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.Message;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The messages table: every message the replay reassembled (kind, PSN range, bytes, latency,
 * status, and the storage operation it carries or moves data for), optionally only those of one
 * conversation. Selecting a message selects all its frames
 * (requests, retransmissions, responses and the completing ACK) in the packet list.
 */
public final class MessagesViewModel {
    /** One message as the table shows it. */
    public record Row(int index, String conversation, String kind, String source, String srcQp, String destination,
                      String destQp, String psns, long bytes, int frameCount, int firstFrame, Integer completionFrame,
                      Double latencyMicros, String status, String operation, Message message) {
    }

    private final AppExecutors exec;
    private final FrameSelection selection;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObjectProperty<String> conversation = new SimpleObjectProperty<>(this, "conversation");
    private List<Row> all = List.of();
    private Job job;

    public MessagesViewModel(AppExecutors exec, FrameSelection selection) {
        this.exec = exec;
        this.selection = selection;
        conversation.addListener((o, was, now) -> refresh());
    }

    public ObservableList<Row> rows() {
        return rows;
    }

    /** Shows only this conversation's messages; null shows all. */
    public ObjectProperty<String> conversation() {
        return conversation;
    }

    /** Shows a replay's messages; their rows are made in the background (a capture may hold millions). */
    public void show(CaptureAnalysis analysis) {
        Job.cancel(job);
        List<Message> messages = analysis == null ? List.of() : analysis.messages();
        FrameAnalysis perFrame = analysis == null ? null : analysis.frames();
        Job j = new Job();
        job = j;
        exec.background().execute(() -> {
            List<Row> made = new ArrayList<>(messages.size());
            for (int i = 0; i < messages.size(); i++) {
                if ((i & 4095) == 0 && j.isCancelled()) {
                    return;
                }
                made.add(row(i, messages.get(i), perFrame));
            }
            exec.ui().execute(() -> {
                if (!j.isCancelled()) {
                    all = made;
                    refresh();
                }
            });
        });
    }

    private void refresh() {
        String conv = conversation.get();
        if (conv == null) {
            rows.setAll(all);
            return;
        }
        List<Row> out = new ArrayList<>();
        for (Row r : all) {
            if (conv.equals(r.conversation())) {
                out.add(r);
            }
        }
        rows.setAll(out);
    }

    /** @param perFrame the replay's per-frame analysis, for the operation; null for none */
    static Row row(int index, Message m, FrameAnalysis perFrame) {
        Operation op = perFrame == null || m.frames().isEmpty() ? null : perFrame.operationAt(m.frames().get(0));
        return new Row(index, m.conversation(), m.kind().name(), m.src(), Formats.qp(m.srcQp()), m.dst(),
                Formats.qp(m.destQp()), Formats.psnRange(m.firstPsn(), m.lastPsn()), m.bytes(), m.frames().size(),
                m.frames().isEmpty() ? 0 : m.frames().get(0), m.completionFrame(),
                m.latencyNanos() == null ? null : m.latencyNanos() / 1000.0, m.status(), operationText(op), m);
    }

    /** "nvme-rdma Identify Controller 0x000a", or "" for a message that carries no storage operation. */
    public static String operationText(Operation op) {
        return op == null ? "" : op.protocol() + " " + op.opcode() + " " + op.idText();
    }

    /** Every frame of a message, in capture order: requests, responses and the completion. */
    public static List<Integer> framesOf(Message m) {
        TreeSet<Integer> frames = new TreeSet<>(m.frames());
        frames.addAll(m.responseFrames());
        if (m.completionFrame() != null) {
            frames.add(m.completionFrame());
        }
        return List.copyOf(frames);
    }

    /** The user picked {@code row}: select its frames. */
    public void choose(Row row) {
        if (row != null) {
            selection.selectAll(framesOf(row.message()));
        }
    }
}
