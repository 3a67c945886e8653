package io.rdmascope.gui.charts;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FilterRunner;
import io.rdmascope.gui.model.FilterSyntaxException;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.Job;
import io.rdmascope.proto.erf.Erf;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Wireshark's I/O graph for the open capture: frames counted in intervals of a chosen width from the
 * capture's first frame, as packets per second or bits per second, for all frames and, when a display
 * filter is given, for the frames it keeps. A point leads to its frames: {@link #select(double)} selects
 * the first frame of the interval under a time.
 *
 * <p>Rates per second, not counts per interval as Wireshark plots them ("Packets/100 ms"): changing
 * the interval then changes the detail of the line but not its height, so two intervals compare.
 * Bits are of the frame length on the wire ({@code frame.len}), as Wireshark's "Bits" counts them;
 * intervals start at the capture's first frame and a frame stamped before it is not counted, as in
 * Wireshark ({@code ui/io_graph_item.c}, {@code get_io_graph_index}).
 */
public final class IoGraphViewModel {
    /**
     * Interval widths offered. Wireshark offers 1 ms to 10 min; RDMA captures are short (the real
     * ones in ../shared last 4 ms to 4 min), so the list starts at 10 µs and ends at 10 s.
     */
    public enum Interval {
        AUTO(0), US_10(10_000L), US_100(100_000L), MS_1(1_000_000L), MS_10(10_000_000L), MS_100(100_000_000L),
        S_1(1_000_000_000L), S_10(10_000_000_000L);

        final long nanos;

        Interval(long nanos) {
            this.nanos = nanos;
        }

        public long nanos() {
            return nanos;
        }

        @Override
        public String toString() {
            return this == AUTO ? "Auto" : ChartUnits.duration(nanos);
        }
    }

    /** What a point counts. */
    public enum Metric {
        PACKETS("Packets/s"), BITS("Bits/s");

        private final String label;

        Metric(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** One line: per interval the frames counted, their bits on the wire, and the first frame's number (0: none). */
    public record Line(String name, long[] packets, long[] bits, int[] firstFrame) {
        /** Per-second rates of {@code metric}, one per interval {@code intervalNanos} wide. */
        public double[] rates(Metric metric, long intervalNanos) {
            long[] counts = metric == Metric.PACKETS ? packets : bits;
            double[] out = new double[counts.length];
            for (int i = 0; i < counts.length; i++) {
                out[i] = counts[i] * 1e9 / intervalNanos;
            }
            return out;
        }
    }

    /** The graph: interval width and the lines (all frames first, then the filtered ones if a filter is set). */
    public record Graph(long intervalNanos, List<Line> lines) {
        static final Graph EMPTY = new Graph(0, List.of());

        public int intervals() {
            return lines.isEmpty() ? 0 : lines.get(0).packets().length;
        }
    }

    /** Intervals the automatic choice aims under: a point then spans at least a few pixels. */
    static final int AUTO_MAX_INTERVALS = 200;
    /** Intervals at most for a chosen width: more points than pixels help nobody and cost memory. */
    static final int MAX_INTERVALS = 100_000;

    private final ObjectProperty<Interval> interval = new SimpleObjectProperty<>(this, "interval", Interval.AUTO);
    private final ObjectProperty<Metric> metric = new SimpleObjectProperty<>(this, "metric", Metric.PACKETS);
    private final ReadOnlyObjectWrapper<Graph> graph = new ReadOnlyObjectWrapper<>(this, "graph", Graph.EMPTY);
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final AppExecutors exec;
    private final FrameIndex index;
    private final DissectorChain chain;
    private final FilterCompiler compiler;
    private final FrameSelection selection;
    private FrameFilter filter;
    private String filterText = "";
    private Job job;

    /** An I/O graph of the frames in {@code index} (null: no capture open); counted in the background. */
    public IoGraphViewModel(AppExecutors exec, FrameIndex index, DissectorChain chain, FilterCompiler compiler,
                            FrameSelection selection) {
        this.exec = exec;
        this.index = index;
        this.chain = chain;
        this.compiler = compiler;
        this.selection = selection;
        interval.addListener((o, was, now) -> refresh());
        refresh();
    }

    public ObjectProperty<Interval> interval() {
        return interval;
    }

    /** What the lines show; the graph keeps both counts, so changing this needs no recount. */
    public ObjectProperty<Metric> metric() {
        return metric;
    }

    public ReadOnlyObjectProperty<Graph> graph() {
        return graph.getReadOnlyProperty();
    }

    /** Why the last filter or interval was refused; empty when it was taken. */
    public ReadOnlyStringProperty error() {
        return error.getReadOnlyProperty();
    }

    /** Adds a line for the frames {@code text} keeps (blank: no second line); false and an error when it does not compile. */
    public boolean applyFilter(String text) {
        String t = text == null ? "" : text.strip();
        try {
            FrameFilter compiled = compiler.compile(t);
            filter = t.isEmpty() ? null : compiled;
            filterText = t;
        } catch (FilterSyntaxException e) {
            error.set("Filter: column " + e.column() + ": " + e.reason());
            return false;
        }
        refresh();
        return true;
    }

    /** The width {@code choice} gives a capture {@code spanNanos} long (AUTO: the smallest with at most 200 intervals). */
    static long intervalNanos(Interval choice, long spanNanos) {
        if (choice != Interval.AUTO) {
            return choice.nanos();
        }
        for (Interval i : Interval.values()) {
            if (i != Interval.AUTO && spanNanos / i.nanos() < AUTO_MAX_INTERVALS) {
                return i.nanos();
            }
        }
        return Interval.S_10.nanos();
    }

    private void refresh() {
        Job.cancel(job);
        if (index == null || index.count() == 0) {
            graph.set(Graph.EMPTY);
            return;
        }
        int frames = index.count();
        Interval choice = interval.get();
        FrameFilter f = filter;
        String name = filterText;
        Job j = new Job();
        job = j;
        exec.background().execute(() -> {
            long origin = Erf.shownTimeNanos(index.frame(1));
            long span = Math.max(0, lastTime(frames) - origin);
            long width = intervalNanos(choice, span);
            long intervals = span / width + 1;
            if (intervals > MAX_INTERVALS) {
                String why = String.format(Locale.ROOT,
                        "%s intervals over %s would be %,d points (at most %,d): choose a wider one.", choice,
                        ChartUnits.duration(span), intervals, MAX_INTERVALS);
                exec.ui().execute(() -> {
                    if (!j.isCancelled()) {
                        error.set(why);
                    }
                });
                return;
            }
            List<Line> lines = new ArrayList<>();
            lines.add(count("All frames", null, frames, origin, width, (int) intervals));
            if (f != null) {
                int[] kept = FilterRunner.run(index, frames, chain, f, j::isCancelled, (done, total) -> { });
                if (kept == null) {
                    return;
                }
                lines.add(count(name, kept, kept.length, origin, width, (int) intervals));
            }
            Graph g = new Graph(width, List.copyOf(lines));
            exec.ui().execute(() -> {
                if (!j.isCancelled()) {
                    error.set("");
                    graph.set(g);
                }
            });
        });
    }

    /** The latest frame time: a merged capture need not be in time order. */
    private long lastTime(int frames) {
        long last = Long.MIN_VALUE;
        for (int n = 1; n <= frames; n++) {
            last = Math.max(last, Erf.shownTimeNanos(index.frame(n)));
        }
        return last;
    }

    /**
     * Counts frames {@code numbers[0..n)} (null: frames 1..n) into intervals, by the time and length
     * TShark shows ({@code frame.time}, {@code frame.len}): for an ERF record those of its ERF header.
     */
    private Line count(String name, int[] numbers, int n, long origin, long width, int intervals) {
        long[] packets = new long[intervals];
        long[] bits = new long[intervals];
        int[] first = new int[intervals];
        for (int k = 0; k < n; k++) {
            int number = numbers == null ? k + 1 : numbers[k];
            Frame frame = index.frame(number);
            long offset = Erf.shownTimeNanos(frame) - origin;
            if (offset < 0) {
                // stamped before the first frame (a clock step in a merged capture): Wireshark's
                // get_io_graph_index gives such a frame no interval, and it is not counted
                continue;
            }
            int i = (int) Math.min(intervals - 1, offset / width);
            packets[i]++;
            bits[i] += Erf.shownWireLength(frame) * 8L;
            if (first[i] == 0 || number < first[i]) {
                first[i] = number;
            }
        }
        return new Line(name, packets, bits, first);
    }

    /**
     * The first frame of the interval holding {@code seconds} since the capture's first frame, in the
     * filtered line when there is one; 0 when that interval is empty or outside the graph.
     */
    public int frameAt(double seconds) {
        Graph g = graph.get();
        if (g.lines().isEmpty() || seconds < 0) {
            return 0;
        }
        long i = (long) Math.floor(seconds * 1e9 / g.intervalNanos());
        if (i >= g.intervals()) {
            return 0;
        }
        return g.lines().get(g.lines().size() - 1).firstFrame()[(int) i];
    }

    /** Selects (in every view sharing the selection) the first frame of the interval at {@code seconds}; false if none. */
    public boolean select(double seconds) {
        int frame = frameAt(seconds);
        if (frame == 0) {
            return false;
        }
        selection.select(frame);
        return true;
    }
}
