package io.rdmascope.gui.charts;

import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The data of the three charts, as plain series (the view turns them into JavaFX chart series):
 * goodput per conversation over time, a latency histogram per message kind, and retransmissions,
 * NAKs and CNPs over time. Scoped to one conversation, or to the whole capture (then the goodput
 * chart shows the busiest conversations).
 *
 * <p>Both time charts share one grid: intervals of a 1-2-5 width from the first frame of the RDMA
 * traffic shown to its last, x in seconds since the capture's first frame, as Wireshark's I/O graph
 * counts time. A capture whose RDMA traffic starts 17.5 s after a TCP bootstrap thus shows an axis
 * from 17.5 s, not from 0 nor in milliseconds of the whole file.
 */
public final class ChartsViewModel {
    /**
     * One point: x in seconds since the capture's first frame (the start of its interval), y the value,
     * and the frame a click on it selects (the first behind it: the first completion of the interval
     * for goodput, the first event for events; 0 for none).
     */
    public record Point(double x, double y, int frame) {
    }

    /** A named series. */
    public record Series(String name, List<Point> points) {
        double maxY() {
            return points.stream().mapToDouble(Point::y).max().orElse(0);
        }

        double total() {
            return points.stream().mapToDouble(Point::y).sum();
        }
    }

    /**
     * The time charts' grid: interval width, and the first and last interval starts in seconds since
     * the capture's first frame (the x range both time charts show).
     */
    public record TimeGrid(long intervalNanos, double firstSeconds, double lastSeconds) {
        static final TimeGrid NONE = new TimeGrid(0, 0, 0);
    }

    /** Goodput in bits per second, one series per conversation (its mean in the name). */
    public record Goodput(TimeGrid grid, List<Series> lines) {
        static final Goodput EMPTY = new Goodput(TimeGrid.NONE, List.of());

        /** The smallest non-zero value of any line (the floor a log axis must reach to show it); 0 if none. */
        public double smallestPositive() {
            return lines.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::y).filter(y -> y > 0).min()
                    .orElse(0);
        }

        public double largest() {
            return lines.stream().mapToDouble(Series::maxY).max().orElse(0);
        }
    }

    /** Retransmissions, NAKs and CNPs per interval; only the kinds that occur (none: an empty list). */
    public record Events(TimeGrid grid, List<Series> series) {
        static final Events EMPTY = new Events(TimeGrid.NONE, List.of());
    }

    /**
     * Latency histogram: bins of 1, 2 and 5 times a power of ten nanoseconds (three bins to a decade),
     * or of whole decades when latencies spread wider than {@link #MAX_FINE_BINS} fine bins, from the
     * lowest bin holding a message to the highest; {@code binStartNanos} and {@code labels} give each
     * bin's lower edge; per message kind the count in each bin.
     */
    public record Histogram(List<Long> binStartNanos, List<String> labels, Map<MessageKind, long[]> counts) {
        static final Histogram EMPTY = new Histogram(List.of(), List.of(), Map.of());

        public long largestCount() {
            return counts.values().stream().flatMapToLong(Arrays::stream).max().orElse(0);
        }
    }

    /** Conversations drawn at most in the goodput chart when no conversation is selected. */
    static final int MAX_CONVERSATIONS = 8;
    /** Intervals the time charts aim at: enough for shape, few enough that a point is a few pixels wide. */
    static final int TARGET_INTERVALS = 150;
    /** The finest interval: the replay engine's goodput buckets are never finer than 1 µs. */
    static final long MIN_INTERVAL_NANOS = 1_000;
    /** The highest latency bin starts at 100 s (3 bins a decade from 1 ns). */
    static final int BINS = 34;
    /**
     * Bins at most at 1-2-5 resolution; a wider spread of latencies is shown in decade bins (1 µs,
     * 10 µs, 100 µs, …), so that the labels stay short and upright in a pane half a screen wide.
     */
    static final int MAX_FINE_BINS = 10;
    static final int ADDRESS_CHARS = 24;

    private final ObjectProperty<String> conversation = new SimpleObjectProperty<>(this, "conversation");
    private final ReadOnlyObjectWrapper<Goodput> goodput = new ReadOnlyObjectWrapper<>(this, "goodput", Goodput.EMPTY);
    private final ReadOnlyObjectWrapper<Histogram> latency = new ReadOnlyObjectWrapper<>(this, "latency", Histogram.EMPTY);
    private final ReadOnlyObjectWrapper<Events> events = new ReadOnlyObjectWrapper<>(this, "events", Events.EMPTY);
    private final AppExecutors exec;
    private CaptureAnalysis analysis;
    private FrameIndex index;
    private Job job;
    private FrameSelection selection;

    /** Chart data is computed in the background ({@code exec}) and set on the UI executor. */
    public ChartsViewModel(AppExecutors exec) {
        this.exec = exec;
        conversation.addListener((o, was, now) -> refresh());
    }

    /** The conversation the charts are about; null for the whole capture. */
    public ObjectProperty<String> conversation() {
        return conversation;
    }

    public ReadOnlyObjectProperty<Goodput> goodput() {
        return goodput.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Histogram> latency() {
        return latency.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Events> events() {
        return events.getReadOnlyProperty();
    }

    /**
     * Lets a click on a point select its frame in every view sharing {@code frames} (the packet list,
     * the detail pane); without it, points are not clickable. The main window passes its selection.
     */
    public void useSelection(FrameSelection frames) {
        selection = frames;
    }

    /** Selects {@code frame} (a point's {@link Point#frame()}); false when it is 0 or no selection is in use. */
    public boolean select(int frame) {
        if (frame == 0 || selection == null) {
            return false;
        }
        selection.select(frame);
        return true;
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
            goodput.set(Goodput.EMPTY);
            latency.set(Histogram.EMPTY);
            events.set(Events.EMPTY);
            return;
        }
        String conv = conversation.get();
        CaptureAnalysis a = analysis;
        FrameIndex idx = index;
        Job j = new Job();
        job = j;
        exec.background().execute(() -> {
            long origin = idx.firstTimeNanos();
            List<Flow> flows = flows(a, conv);
            Grid grid = Grid.over(flows, origin);
            Goodput g = grid == null ? Goodput.EMPTY : goodput(flows, a.messages(), idx, grid);
            Histogram h = latency(a.messages(), conv);
            Events e = grid == null ? Events.EMPTY : events(a, idx, conv, grid);
            exec.ui().execute(() -> {
                if (!j.isCancelled()) {
                    goodput.set(g);
                    latency.set(h);
                    events.set(e);
                }
            });
        });
    }

    /** The flows in scope, busiest first (bytes of completed messages both ways). */
    private static List<Flow> flows(CaptureAnalysis analysis, String conv) {
        List<Flow> flows = new ArrayList<>();
        for (Flow f : analysis.flows()) {
            if (conv == null || f.conversation().equals(conv)) {
                flows.add(f);
            }
        }
        flows.sort(Comparator.comparingLong((Flow f) -> -(f.a().messageBytes() + f.b().messageBytes())));
        return flows;
    }

    /** The intervals both time charts count in: from the first frame of the flows shown to their last. */
    record Grid(long startNanos, long intervalNanos, int count, long originNanos) {
        static Grid over(List<Flow> flows, long originNanos) {
            if (flows.isEmpty()) {
                return null;
            }
            long first = flows.stream().mapToLong(Flow::firstTimeNanos).min().orElseThrow();
            long last = flows.stream().mapToLong(Flow::lastTimeNanos).max().orElseThrow();
            long interval = Math.max(MIN_INTERVAL_NANOS, (long) ChartUnits.niceStep(last - first, TARGET_INTERVALS));
            int count = (int) ((last - first) / interval) + 1;
            return new Grid(first, interval, count, originNanos);
        }

        /** The interval holding {@code timeNanos}, clamped to the grid. */
        int indexOf(long timeNanos) {
            return (int) Math.max(0, Math.min(count - 1, (timeNanos - startNanos) / intervalNanos));
        }

        /** Seconds since the capture's first frame at the start of interval {@code i}. */
        double seconds(int i) {
            // subtract in long first: epoch nanoseconds are beyond a double's exact range
            return (startNanos - originNanos + i * intervalNanos) / 1e9;
        }

        TimeGrid shown() {
            return new TimeGrid(intervalNanos, seconds(0), seconds(count - 1));
        }

        Series series(String name, double[] values, int[] frames) {
            List<Point> points = new ArrayList<>(values.length);
            for (int i = 0; i < values.length; i++) {
                points.add(new Point(seconds(i), values[i], frames[i]));
            }
            return new Series(name, points);
        }
    }

    /**
     * Each flow's goodput series (bytes of completed messages in the engine's own buckets) moved onto
     * the common grid: a bucket's bytes go to the interval holding its middle. Bits per second.
     */
    static Goodput goodput(List<Flow> flows, List<Message> messages, FrameIndex index, Grid grid) {
        List<Flow> shown = flows.subList(0, Math.min(MAX_CONVERSATIONS, flows.size()));
        // the frame behind each point: the first frame completing a message of the conversation in the interval
        Map<String, int[]> completions = new java.util.HashMap<>();
        for (Flow f : shown) {
            completions.put(f.conversation(), new int[grid.count()]);
        }
        for (Message m : messages) {
            int[] firsts = completions.get(m.conversation());
            Integer done = m.completionFrame();
            if (firsts != null && done != null && done >= 1 && done <= index.count()) {
                firstOf(firsts, grid.indexOf(index.timeNanos(done)), done);
            }
        }
        List<Series> lines = new ArrayList<>();
        for (Flow f : shown) {
            Flow.Series s = f.goodputOverTime();
            if (s == null || s.bytes().length == 0 || s.bucketNanos() <= 0) {
                continue;
            }
            double[] bits = new double[grid.count()];
            for (int i = 0; i < s.bytes().length; i++) {
                long middle = s.startNanos() + i * s.bucketNanos() + s.bucketNanos() / 2;
                bits[grid.indexOf(middle)] += s.bytes()[i] * 8.0;
            }
            for (int i = 0; i < bits.length; i++) {
                bits[i] = bits[i] * 1e9 / grid.intervalNanos();
            }
            String mean = f.goodputBitsPerSecond() > 0 ? ChartUnits.rate(f.goodputBitsPerSecond()) + " mean"
                    : "no mean (one instant)";
            lines.add(grid.series("conv " + f.conversation() + " · " + shortened(f.a().address()) + " → "
                    + shortened(f.b().address()) + " · " + mean, bits, completions.get(f.conversation())));
        }
        return new Goodput(grid.shown(), lines);
    }

    /** An address cut to {@value #ADDRESS_CHARS} characters, so that a legend of GIDs stays one entry a line. */
    static String shortened(String address) {
        return address.length() <= ADDRESS_CHARS ? address : address.substring(0, ADDRESS_CHARS - 1) + "…";
    }

    static Histogram latency(List<Message> messages, String conv) {
        Map<MessageKind, long[]> counts = new EnumMap<>(MessageKind.class);
        int lowest = BINS;
        int highest = -1;
        for (Message m : messages) {
            if (!hasRoundTrip(m) || (conv != null && !conv.equals(m.conversation()))) {
                continue;
            }
            int bin = bin(m.latencyNanos());
            lowest = Math.min(lowest, bin);
            highest = Math.max(highest, bin);
            counts.computeIfAbsent(m.kind(), k -> new long[BINS])[bin]++;
        }
        if (highest < 0) {
            return Histogram.EMPTY;
        }
        // fine bins 1-2-5, or decades when the fine ones would be too many: a decade is bins 3k..3k+2
        int width = highest - lowest + 1 <= MAX_FINE_BINS ? 1 : 3;
        int from = lowest - lowest % width;
        int last = highest;
        int used = (last - from) / width + 1;
        List<Long> starts = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < used; i++) {
            starts.add(binStart(from + i * width));
            labels.add(ChartUnits.duration(binStart(from + i * width)));
        }
        Map<MessageKind, long[]> shown = new EnumMap<>(MessageKind.class);
        counts.forEach((kind, fine) -> {
            long[] merged = new long[used];
            for (int b = from; b <= last; b++) {
                merged[(b - from) / width] += fine[b];
            }
            shown.put(kind, merged);
        });
        return new Histogram(List.copyOf(starts), List.copyOf(labels), shown);
    }

    /**
     * Whether a message's latency measures a round trip: a UD datagram or a UC message is "completed"
     * by its own last packet (nothing on the wire answers it), and its latency of 0 would fill the
     * lowest bin with messages nobody waited for (the real native-IB capture has seven such).
     */
    static boolean hasRoundTrip(Message m) {
        return m.latencyNanos() != null && m.completionFrame() != null && !m.frames().contains(m.completionFrame());
    }

    /** Lower edge of latency bin {@code bin}: 1, 2, 5, 10, 20, 50, … ns. */
    static long binStart(int bin) {
        long mantissa = switch (bin % 3) {
            case 0 -> 1;
            case 1 -> 2;
            default -> 5;
        };
        long scale = 1;
        for (int i = 0; i < bin / 3; i++) {
            scale *= 10;
        }
        return mantissa * scale;
    }

    /** The bin of a latency: the last whose lower edge is at or below it (bin 0 for under 1 ns). */
    static int bin(long nanos) {
        int bin = 0;
        while (bin + 1 < BINS && binStart(bin + 1) <= nanos) {
            bin++;
        }
        return bin;
    }

    /** Keeps in {@code firsts[i]} the lowest frame number seen for interval {@code i}. */
    private static void firstOf(int[] firsts, int i, int frame) {
        if (firsts[i] == 0 || frame < firsts[i]) {
            firsts[i] = frame;
        }
    }

    static Events events(CaptureAnalysis analysis, FrameIndex index, String conv, Grid grid) {
        double[] retransmissions = new double[grid.count()];
        double[] naks = new double[grid.count()];
        double[] cnps = new double[grid.count()];
        Map<double[], int[]> firsts = new java.util.IdentityHashMap<>();
        for (double[] counts : List.of(retransmissions, naks, cnps)) {
            firsts.put(counts, new int[grid.count()]);
        }
        for (Observation o : analysis.observations()) {
            if (o.frame() <= 0 || o.frame() > index.count() || (conv != null && !conv.equals(o.conversation()))) {
                continue;
            }
            double[] target = null;
            if (o instanceof Observation.Retransmission) {
                target = retransmissions;
            } else if (o instanceof Observation.Nak || o instanceof Observation.RnrNak) {
                target = naks;
            } else if (o instanceof Observation.Cnp) {
                target = cnps;
            }
            if (target != null) {
                int i = grid.indexOf(index.timeNanos((int) o.frame()));
                target[i]++;
                firstOf(firsts.get(target), i, (int) o.frame());
            }
        }
        List<Series> series = new ArrayList<>();
        for (Series s : List.of(grid.series("Retransmissions", retransmissions, firsts.get(retransmissions)),
                grid.series("NAKs", naks, firsts.get(naks)), grid.series("CNPs", cnps, firsts.get(cnps)))) {
            if (s.total() > 0) {
                series.add(s);
            }
        }
        return new Events(grid.shown(), series);
    }
}
