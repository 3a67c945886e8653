package io.rdmascope.gui.operations;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.ops.Operation;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The storage view (issue 19): every storage operation of the capture — NVMe-oF command, iSCSI task,
 * RPC call, SMB2 request — as {@code rdmascope ops} lists them. Choosing one selects its command,
 * data and response frames in the packet list.
 */
public final class OperationsViewModel {
    /** One operation as the table shows it; times in µs, null when not measured. */
    public record Row(String protocol, String queue, String opcode, String id, long size, long commandFrame,
                      Long responseFrame, int dataFrameCount, Double latencyMicros, Double deliveryMicros,
                      Double dataMicros, Double completionMicros, String status, Operation operation) {
    }

    private final FrameSelection selection;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();

    public OperationsViewModel(FrameSelection selection) {
        this.selection = selection;
    }

    public ObservableList<Row> rows() {
        return rows;
    }

    /** Shows a replay's operations (few next to its frames: one per command, made on the UI thread). */
    public void show(CaptureAnalysis analysis) {
        List<Row> made = new ArrayList<>();
        if (analysis != null) {
            for (Operation o : analysis.frames().operations()) {
                made.add(row(o));
            }
        }
        rows.setAll(made);
    }

    static Row row(Operation o) {
        String status = o.reason() == null ? o.status() : o.status() + ": " + o.reason();
        return new Row(o.protocol(), o.queue(), o.description(), o.idText(), o.size(), o.commandFrame(), o.responseFrame(),
                o.dataFrames().size(), micros(o.latencyNs()), micros(o.deliveryNs()), micros(o.dataNs()),
                micros(o.completionNs()), status, o);
    }

    private static Double micros(Long nanos) {
        return nanos == null ? null : nanos / 1000.0;
    }

    /** Every frame of an operation, in capture order: command, data and response. */
    public static List<Integer> framesOf(Operation o) {
        TreeSet<Integer> frames = new TreeSet<>();
        frames.add((int) o.commandFrame());
        o.dataFrames().forEach(f -> frames.add((int) (long) f));
        if (o.responseFrame() != null) {
            frames.add((int) (long) o.responseFrame());
        }
        return List.copyOf(frames);
    }

    /** The user picked {@code row}: select its frames. */
    public void choose(Row row) {
        if (row != null) {
            selection.selectAll(framesOf(row.operation()));
        }
    }
}
