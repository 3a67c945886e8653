package io.rdmascope.gui.model;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.replay.VantageInput;
import io.rdmascope.replay.VantageUnion;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Several captures opened at once as vantage points of the same traffic (issue 20, item 6): their union
 * ({@link VantageUnion}) is what the packet list shows and the replay reads, each union frame remembering
 * the points and frames that saw it. The union's frames are appended to a {@link FrameIndex} like a
 * file's, so every pane works on the union as on one capture.
 *
 * <p>Unlike one file, nothing can be listed before the first pass has read every capture: the union's
 * order needs the clock offsets, which need every point's packets.
 */
public final class VantageCapture {
    /**
     * One point's sighting of a union frame: the point (its name and place in the order given), its own
     * frame number, and that frame's time on the first point's clock.
     */
    public record Sighting(String point, int pointIndex, int frame, long correctedNanos) {
        /** "NAME:frame", as the command line names a frame of a vantage point. */
        public String text() {
            return point + ":" + frame;
        }
    }

    private final VantageUnion union;
    /** Per point, per own frame (index frame − 1): the frame's own time, recorded in the first pass. */
    private final long[][] ownTimes;

    private VantageCapture(VantageUnion union, long[][] ownTimes) {
        this.union = union;
        this.ownTimes = ownTimes;
    }

    /**
     * The points {@code arguments} name ({@link VantageInput#parse}, as the command line's replay verbs
     * take them), at most {@link VantageUnion#MAX_POINTS}.
     *
     * @throws IllegalArgumentException naming the problem: two points of one name, too many points
     */
    public static List<VantageInput> parse(List<String> arguments) {
        if (arguments.size() > VantageUnion.MAX_POINTS) {
            throw new IllegalArgumentException("at most " + VantageUnion.MAX_POINTS + " vantage points in one union");
        }
        return VantageInput.parse(arguments);
    }

    /**
     * Indexes the union of {@code inputs} and appends its frames to {@code index} (numbered 1, 2, … in
     * corrected-time order), then marks the index complete. Returns null when cancelled. A capture that
     * cannot be opened throws; damage further in keeps the frames before it ({@link #failure()}).
     */
    public static VantageCapture load(List<VantageInput> inputs, DissectorChain chain, FrameIndex index,
                                      BooleanSupplier cancelled, CaptureLoader.Progress progress) throws IOException {
        long[][] ownTimes = new long[inputs.size()][];
        List<VantageUnion.Point> points = new ArrayList<>();
        try {
            for (int p = 0; p < inputs.size(); p++) {
                Path file = inputs.get(p).file();
                int point = p;
                // The first pass's reading also records each frame's own time: the union keeps it privately,
                // the linked sightings need it.
                points.add(new VantageUnion.Point(inputs.get(p).name(),
                        () -> frames(CaptureFiles.open(file), ownTimes, point)));
            }
            VantageUnion union = VantageUnion.index(points, chain, d -> true, -1);
            try (VantageUnion.FrameSource frames = union.frames()) {
                Frame f;
                while ((f = frames.next()) != null) {
                    index.append(f);
                    if ((index.count() & 255) == 0) {
                        if (cancelled.getAsBoolean()) {
                            return null;
                        }
                        progress.update(index.count(), -1);
                    }
                }
            }
            try (PacketSource first = CaptureFiles.open(inputs.get(0).file())) {
                first.next(); // a pcapng reader knows its interface's time resolution once a frame is read
                index.setInfo(CaptureInfo.of(first));
            }
            progress.update(index.count(), 1.0);
            return new VantageCapture(union, ownTimes);
        } finally {
            index.markComplete();
        }
    }

    /** A point's capture read as the union reads it; the first opening records each frame's own time. */
    private static VantageUnion.FrameSource frames(PacketSource source, long[][] ownTimes, int point) {
        boolean record = ownTimes[point] == null;
        if (record) {
            ownTimes[point] = new long[1024];
        }
        return new VantageUnion.FrameSource() {
            private int read;

            @Override
            public Frame next() throws IOException {
                Frame f = source.next();
                if (f != null && record) {
                    if (read == ownTimes[point].length) {
                        ownTimes[point] = Arrays.copyOf(ownTimes[point], read * 2);
                    }
                    ownTimes[point][read++] = f.timeNanos();
                }
                return f;
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }

    /** The points' names, in the order given. */
    public List<String> names() {
        return union.names();
    }

    /** Each point's clock minus the first point's, as the union applied it (0 for the first and unknown ones). */
    public List<Long> offsetsToFirst() {
        return union.offsetsToFirst();
    }

    /** What the union could not do as asked (offsets it could not know). */
    public List<String> notes() {
        return union.notes();
    }

    /** The first damage met in a capture, or null. */
    public IOException failure() {
        return union.failure();
    }

    /**
     * The points and frames that saw union frame {@code u}, in the order the points were named. The time
     * is the point's own on the first point's clock, as the union orders it (with drift, the offset's line
     * at that moment, not its constant).
     */
    public List<Sighting> sightings(int u) {
        List<Sighting> out = new ArrayList<>(2);
        List<String> names = union.names();
        for (VantageUnion.Sighting s : union.sightings(u)) {
            int p = names.indexOf(s.point());
            int frame = (int) s.frame();
            out.add(new Sighting(s.point(), p, frame, union.onFirstClock(p, ownTimes[p][frame - 1])));
        }
        return out;
    }

    /**
     * Where the points disagree (a duplicate on the sender's side, a response never seen downstream), as
     * observations on union frames; {@code replay} is the union's finished replay, whose placements give them
     * their conversations.
     */
    public List<Observation> disagreements(ReplayResult replay) {
        return union.disagreements(replay);
    }

    /** Whether union frame {@code u} was matched across points by its identity (false: taken from the first point alone). */
    public boolean identified(int u) {
        return union.identified(u);
    }

    /** The union frame that point {@code point}'s own frame {@code frame} is a sighting of, or 0. */
    public int unionFrameOf(String point, long frame) {
        return (int) union.unionFrameOf(union.names().indexOf(point), frame);
    }

    /** Union frame {@code u} as the command line's text tells it: every point's frame, "host:12=switch:10". */
    public String text(int u) {
        return String.join("=", sightings(u).stream().map(Sighting::text).toList());
    }

    /** The point that saw union frame {@code u} earliest on the first point's clock (its colour), or -1. */
    public int firstPoint(int u) {
        int first = -1;
        long earliest = Long.MAX_VALUE;
        for (Sighting s : sightings(u)) {
            if (s.correctedNanos() < earliest) {
                earliest = s.correctedNanos();
                first = s.pointIndex();
            }
        }
        return first;
    }

    /** What the window and status call the union: its points' names joined by " + ", as the CLI's label. */
    public String label() {
        return String.join(" + ", union.names());
    }
}
