package io.rdmascope.gui.conversations;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.Formats;
import io.rdmascope.replay.Flow;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;

/**
 * The conversations table: one row per queue-pair conversation the replay found, with the
 * statistics of {@code rdmascope flows}. The selected conversation drives the ladder diagram and the
 * per-conversation charts.
 */
public final class ConversationsViewModel {
    /** One conversation as the table shows it. Side A is the requester that spoke first (or CM's active side). */
    public record Row(String id, String transport, String addressA, String qpA, String addressB, String qpB,
                      String state, long packetsAtoB, long packetsBtoA, long messages, long bytes,
                      double durationSeconds, double goodputGbps, Double p50Micros, Double p99Micros,
                      long retransmissions, long naks, long rnrNaks, long cnps, Flow flow) {
    }

    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObjectProperty<String> selected = new SimpleObjectProperty<>(this, "selected");

    public ObservableList<Row> rows() {
        return rows;
    }

    /** The selected conversation's id, or null. Views and other view models may set it. */
    public ObjectProperty<String> selected() {
        return selected;
    }

    /** Shows the conversations of a finished replay (null: none yet). */
    public void show(CaptureAnalysis analysis) {
        List<Row> out = new ArrayList<>();
        if (analysis != null) {
            for (Flow f : analysis.flows()) {
                out.add(row(f));
            }
        }
        rows.setAll(out);
        String sel = selected.get();
        if (sel == null || out.stream().noneMatch(r -> r.id().equals(sel))) {
            selected.set(out.isEmpty() ? null : out.get(0).id());
        }
    }

    static Row row(Flow f) {
        Flow.Side a = f.a();
        Flow.Side b = f.b();
        long bytes = a.messageBytes() + b.messageBytes();
        Flow.Latency l = f.latency();
        boolean haveLatency = l != null && l.count() > 0;
        return new Row(f.conversation(), String.valueOf(f.transport()), a.address(), Formats.qp(a.qpn()),
                b.address(), Formats.qp(b.qpn()), f.state(), a.packets(), b.packets(), a.messages() + b.messages(),
                bytes, f.durationNanos() / 1e9, f.goodputBitsPerSecond() / 1e9,
                haveLatency ? l.p50Nanos() / 1000.0 : null, haveLatency ? l.p99Nanos() / 1000.0 : null,
                a.retransmissions() + b.retransmissions(), a.naks() + b.naks(), a.rnrNaks() + b.rnrNaks(),
                a.cnps() + b.cnps(), f);
    }

    /** Every statistic of a conversation in a few lines, for the pane under the compact table. */
    public static String statistics(Row r) {
        return String.format(java.util.Locale.ROOT,
                "Conversation %s (%s, %s): A %s QP %s ↔ B %s QP %s%n"
                        + "Packets A→B %,d · B→A %,d · messages %,d · %,d bytes · %.6f s · %s%n"
                        + "Latency p50 %s µs · p99 %s µs · retransmissions %,d · NAKs %,d · RNR NAKs %,d · CNPs %,d",
                r.id(), r.transport(), r.state(), r.addressA(), r.qpA(), r.addressB(), r.qpB(), r.packetsAtoB(),
                r.packetsBtoA(), r.messages(), r.bytes(), r.durationSeconds(),
                // in the unit that fits (a slow conversation is "98.9 kb/s", not "0.000 Gb/s"), as the charts say it
                io.rdmascope.gui.charts.ChartUnits.rate(r.goodputGbps() * 1e9),
                r.p50Micros() == null ? "-" : String.format(java.util.Locale.ROOT, "%.3f", r.p50Micros()),
                r.p99Micros() == null ? "-" : String.format(java.util.Locale.ROOT, "%.3f", r.p99Micros()),
                r.retransmissions(), r.naks(), r.rnrNaks(), r.cnps());
    }

    /** The display filter showing the selected conversation's frames that carry a message. */
    public String filterForSelected() {
        String id = selected.get();
        return id == null ? "" : "rdmascope.conversation == \"" + id + "\"";
    }
}
