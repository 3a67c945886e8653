package io.rdmascope.gui.charts;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.Job;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Observation;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The data of the three charts, as plain series (the view turns them into JavaFX chart series):
 * goodput per conversation over time ({@link Flow#goodputOverTime()}), a latency histogram per
 * message kind, and retransmissions, NAKs and CNPs over time. Scoped to one conversation, or to the
 * whole capture (then the throughput chart shows the busiest conversations).
 */
public final class ChartsViewModel {
    /** One point: x in milliseconds since the capture's first frame (or a bin index), y the value. */
    public record Point(double x, double y) {
    }

    /** A named line or bar series. */
    public record Series(String name, List<Point> points) {
    }

    /** Latency histogram: bin labels (log2 microseconds) and, per message kind, the count in each bin. */
    public record Histogram(List<String> bins, Map<MessageKind, long[]> counts) {
        static final Histogram EMPTY = new Histogram(List.of(), Map.of());
    }

    /** Conversations drawn at most in the throughput chart when no conversation is selected. */
    static final int MAX_CONVERSATIONS = 8;
    /** Points at most per throughput line. */
    static final int MAX_POINTS = 60;
    /** Buckets of the events-over-time chart. */
    static final int EVENT_BUCKETS = 100;
    /** Latency bins: [0,1) µs, [1,2), [2,4), … up to 2^(BINS-2) µs and above. */
    static final int BINS = 24;

    private final ObjectProperty<String> conversation = new SimpleObjectProperty<>(this, "conversation");
    private final ReadOnlyObjectWrapper<List<Series>> throughput = new ReadOnlyObjectWrapper<>(this, "throughput", List.of());
    private final ReadOnlyObjectWrapper<Histogram> latency = new ReadOnlyObjectWrapper<>(this, "latency", Histogram.EMPTY);
    private final ReadOnlyObjectWrapper<List<Series>> events = new ReadOnlyObjectWrapper<>(this, "events", List.of());
    private final AppExecutors exec;
    private CaptureAnalysis analysis;
    private FrameIndex index;
    private Job job;

    /** Chart data is computed in the background ({@code exec}) and set on the UI executor. */
    public ChartsViewModel(AppExecutors exec) {
        this.exec = exec;
        conversation.addListener((o, was, now) -> refresh());
    }

    /** The conversation the charts are about; null for the whole capture. */
    public ObjectProperty<String> conversation() {
        return conversation;
    }

    /** Goodput in Gb/s over time, one series per conversation. */
    public ReadOnlyObjectProperty<List<Series>> throughput() {
        return throughput.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Histogram> latency() {
        return latency.getReadOnlyProperty();
    }

    /** Retransmissions, NAKs and CNPs per time bucket. */
    public ReadOnlyObjectProperty<List<Series>> events() {
        return events.getReadOnlyProperty();
    }

    /** Shows a finished replay of the capture in {@code frames} (null analysis: nothing yet). */
    public void show(CaptureAnalysis newAnalysis, FrameIndex frames) {
        analysis = newAnalysis;
        index = frames;
        refresh();
    }

    private void refresh() {
        Job.cancel(job);
        if (analysis == null || index == null || index.count() == 0) {
            throughput.set(List.of());
            latency.set(Histogram.EMPTY);
            events.set(List.of());
            return;
        }
        String conv = conversation.get();
        CaptureAnalysis a = analysis;
        FrameIndex idx = index;
        Job j = new Job();
        job = j;
        exec.background().execute(() -> {
            long origin = idx.firstTimeNanos();
            List<Series> t = throughput(a, conv, origin);
            Histogram h = latency(a.messages(), conv);
            List<Series> e = events(a, idx, conv, origin);
            exec.ui().execute(() -> {
                if (!j.isCancelled()) {
                    throughput.set(t);
                    latency.set(h);
                    events.set(e);
                }
            });
        });
    }

    static List<Series> throughput(CaptureAnalysis analysis, String conv, long origin) {
        List<Flow> flows = new ArrayList<>();
        for (Flow f : analysis.flows()) {
            if (conv == null || f.conversation().equals(conv)) {
                flows.add(f);
            }
        }
        flows.sort(Comparator.comparingLong((Flow f) -> -(f.a().messageBytes() + f.b().messageBytes())));
        List<Series> out = new ArrayList<>();
        for (Flow f : flows.subList(0, Math.min(MAX_CONVERSATIONS, flows.size()))) {
            Flow.Series s = f.goodputOverTime();
            if (s == null || s.bytes().length == 0 || s.bucketNanos() <= 0) {
                continue;
            }
            // A readable line: neighbouring buckets merged so that at most MAX_POINTS remain.
            long[] bytes = s.bytes();
            int merge = (bytes.length + MAX_POINTS - 1) / MAX_POINTS;
            long width = s.bucketNanos() * merge;
            List<Point> points = new ArrayList<>(bytes.length / merge + 1);
            for (int i = 0; i < bytes.length; i += merge) {
                long sum = 0;
                for (int j = i; j < Math.min(bytes.length, i + merge); j++) {
                    sum += bytes[j];
                }
                // subtract in long first: epoch nanoseconds are beyond a double's exact range
                long offset = s.startNanos() - origin + i * s.bucketNanos();
                double ms = (offset + width / 2.0) / 1e6;
                points.add(new Point(ms, sum * 8.0 / width)); // bits per ns = Gb/s
            }
            out.add(new Series("conversation " + f.conversation() + " (" + f.a().address() + " → "
                    + f.b().address() + ")", points));
        }
        return out;
    }

    static Histogram latency(List<Message> messages, String conv) {
        Map<MessageKind, long[]> counts = new EnumMap<>(MessageKind.class);
        int highest = -1;
        for (Message m : messages) {
            if (m.latencyNanos() == null || (conv != null && !conv.equals(m.conversation()))) {
                continue;
            }
            int bin = bin(m.latencyNanos());
            highest = Math.max(highest, bin);
            counts.computeIfAbsent(m.kind(), k -> new long[BINS])[bin]++;
        }
        if (highest < 0) {
            return Histogram.EMPTY;
        }
        List<String> bins = new ArrayList<>();
        for (int b = 0; b <= highest; b++) {
            bins.add(binLabel(b));
        }
        Map<MessageKind, long[]> trimmed = new EnumMap<>(MessageKind.class);
        int used = highest + 1;
        counts.forEach((k, v) -> trimmed.put(k, java.util.Arrays.copyOf(v, used)));
        return new Histogram(List.copyOf(bins), trimmed);
    }

    /** Bin of a latency: 0 below 1 µs, then one bin per power of two of microseconds. */
    static int bin(long nanos) {
        long micros = nanos / 1000;
        if (micros < 1) {
            return 0;
        }
        return Math.min(BINS - 1, 1 + (63 - Long.numberOfLeadingZeros(micros)));
    }

    static String binLabel(int bin) {
        if (bin == 0) {
            return "<1 µs";
        }
        long lo = 1L << (bin - 1);
        return bin == BINS - 1 ? "≥" + micros(lo) : micros(lo) + "–" + micros(lo * 2);
    }

    private static String micros(long us) {
        if (us >= 1_000_000) {
            return us / 1_000_000 + " s";
        }
        if (us >= 1000) {
            return us / 1000 + " ms";
        }
        return us + " µs";
    }

    static List<Series> events(CaptureAnalysis analysis, FrameIndex index, String conv, long origin) {
        long last = index.timeNanos(index.count());
        long span = Math.max(1, last - origin);
        long bucket = Math.max(1, (span + EVENT_BUCKETS - 1) / EVENT_BUCKETS);
        long[] retrans = new long[EVENT_BUCKETS];
        long[] naks = new long[EVENT_BUCKETS];
        long[] cnps = new long[EVENT_BUCKETS];
        for (Observation o : analysis.observations()) {
            if (o.frame() <= 0 || o.frame() > index.count() || (conv != null && !conv.equals(o.conversation()))) {
                continue;
            }
            long[] target = switch (o.kind()) {
                case "retransmission" -> retrans;
                case "cnp" -> cnps;
                case "rnr_nak", "nak_sequence_error", "nak_invalid_request", "nak_remote_access_error",
                        "nak_remote_operational_error", "nak_invalid_rd_request", "nak_reserved" -> naks;
                default -> null;
            };
            if (target != null) {
                int b = (int) Math.min(EVENT_BUCKETS - 1, (index.timeNanos((int) o.frame()) - origin) / bucket);
                target[Math.max(0, b)]++;
            }
        }
        return List.of(series("Retransmissions", retrans, bucket), series("NAKs", naks, bucket),
                series("CNPs", cnps, bucket));
    }

    private static Series series(String name, long[] counts, long bucketNanos) {
        List<Point> points = new ArrayList<>(counts.length);
        for (int i = 0; i < counts.length; i++) {
            points.add(new Point((i + 0.5) * bucketNanos / 1e6, counts[i]));
        }
        return new Series(name, points);
    }
}
