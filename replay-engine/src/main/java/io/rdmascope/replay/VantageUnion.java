package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ib.Operation;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;

/**
 * Several vantage points' captures of the same traffic as one capture to replay (issue 20, item 5): each
 * distinct packet once, in an order consistent with the clock offsets {@link Correlation} estimates, each
 * remembering every point and frame that saw it.
 *
 * <p><b>Two passes.</b> The first ({@link #index}) dissects every frame of every point once: it feeds the
 * {@link Correlation} (whose clock offsets place the points on one clock) and keeps, per frame, only its
 * packet identity and time. The second ({@link #frames()}) reads the files again in corrected-time order
 * and hands out a frame only when it is a packet not yet handed out, so the replay dissects each
 * distinct packet once: N captures of the same traffic cost N dissections plus one replay.
 *
 * <p><b>The same packet.</b> A sighting joins an earlier union packet of the same identity (addresses,
 * destination QP, PSN, opcode, ICRC) that this point has not yet been matched to and whose corrected time
 * lies within the matching window of it, the nearest in time (on a tie the older). A copy the point saw
 * again later (a retransmission, a duplicate) finds no such packet and stays a packet of its own, so a
 * retransmission is never folded into its original. The window is twice the largest one-way delay plus
 * twice the largest offset bound, plus 10 µs; a millisecond when some point's offset is unknown.
 *
 * <p><b>Frames that carry no identity</b> (anything without a BTH outside an iWARP connection: ARP, TCP) are taken from the
 * first point only: the union cannot tell two points' copies of them apart (docs/correlate.md).
 *
 * <p><b>Numbers and times.</b> Union frames are numbered 1, 2, … in the order handed out; their time is the
 * sighting's on the first point's clock (its own time minus the point's offset to the first point); their
 * interface is {@code point × 65536 + interface}, so that each point's capture path stays its own (ICRC
 * verdicts are kept per interface). With one point given twice, the union is that capture exactly.
 *
 * <p>Not thread-safe; {@link #sightings} and {@link #disagreements} answer once {@link #frames()} is read
 * to its end.
 */
public final class VantageUnion {
    /** Byte-identical copies closer than this are a duplicate, as the replay judges one (Channel, 8.192 µs). */
    static final long DUPLICATE_WINDOW_NANOS = 8_192;
    private static final long WINDOW_SLACK_NANOS = 10_000;
    private static final long WINDOW_UNKNOWN_OFFSET_NANOS = 1_000_000;
    /** Vantage points one union takes: which points saw a packet is kept as bits of a long. */
    public static final int MAX_POINTS = 64;
    /** Per point, interface numbers are shifted by this much in the union. */
    public static final int INTERFACES_PER_POINT = 65_536;
    /** A frame the filter or the reading left out. */
    private static final int SKIPPED = -2;
    /** A frame without a packet identity. */
    private static final int NO_IDENTITY = -1;

    /** Frames of one vantage point's capture, in capture order. */
    public interface FrameSource extends AutoCloseable {
        /** The next frame, or null at the end. */
        Frame next() throws IOException;

        @Override
        void close();
    }

    /** Opens a point's capture; called once per pass. */
    @FunctionalInterface
    public interface Opener {
        FrameSource open() throws IOException;
    }

    /** A vantage point: its name and how to read its capture. */
    public record Point(String name, Opener opener) {
    }

    /** One point's frame of a union packet. */
    public record Sighting(String point, long frame) {
        /** "NAME:frame", as text outputs name a frame of a vantage point. */
        public String text() {
            return point + ":" + frame;
        }
    }

    private final List<String> names;
    private final List<Point> points;
    private final Correlation.Result correlation;
    /** Per point: identity number of each frame (index frame − 1), or NO_IDENTITY / SKIPPED. */
    private final int[][] identityOf;
    /** Per point: each frame's own time. */
    private final long[][] timeOf;
    /** Per point: frames the first pass read (the second reads no further: damage, -c). */
    private final int[] framesRead;
    /** Per point: its clock minus the first point's at the pairs' reference times (0 when unknown). */
    private final long[] offsetToFirst;
    /**
     * Per point: its timestamp on the first point's clock. With drift (Correlation's ClockFit) the offset
     * is a line, not a constant: a few seconds of offset at 20 ppm is tens of microseconds, more than the
     * matching window's slack, so every time is converted at its own moment.
     */
    private final LongUnaryOperator[] toFirstClock;
    private final List<String> notes;
    private final long window;
    private final IOException failure;
    /** The first pass's packet table: each identity's direction, PSN and opcode. */
    private final Correlation packets;

    // ---- filled by the second pass ----
    /** Per point, per union frame (index u): the point's frame number, or 0 when it did not see it. */
    private final int[][] frameAt;
    private int[] unionIdentity = new int[1024];
    private int unionFrames;
    /** Per direction, per ordered pair of points (a × n + b): packets a saw before b. */
    private final long[][] order;

    private VantageUnion(List<Point> points, Correlation.Result correlation, int[][] identityOf, long[][] timeOf,
                         int[] framesRead, Correlation packets, IOException failure) {
        this.points = List.copyOf(points);
        this.names = points.stream().map(Point::name).toList();
        this.correlation = correlation;
        this.identityOf = identityOf;
        this.timeOf = timeOf;
        this.framesRead = framesRead;
        this.packets = packets;
        this.failure = failure;
        int n = points.size();
        this.offsetToFirst = new long[n];
        this.toFirstClock = new LongUnaryOperator[n];
        this.notes = new ArrayList<>();
        this.window = offsets(correlation, offsetToFirst, toFirstClock, notes);
        this.frameAt = new int[n][1024];
        this.order = new long[packets.directions()][n * n];
    }

    /**
     * The first pass: reads every point's capture, identifying each frame {@code passes} keeps (at most
     * {@code maxFrames} read per point, -1 for all). A capture that cannot be opened fails at once; one
     * damaged further in contributes the frames before the damage, and {@link #failure()} names it.
     */
    public static VantageUnion index(List<Point> points, DissectorChain chain, Predicate<Dissection> passes,
                                     long maxFrames) throws IOException {
        if (points.size() > MAX_POINTS) {
            throw new IllegalArgumentException("at most " + MAX_POINTS + " vantage points (got " + points.size() + ")");
        }
        List<String> names = points.stream().map(Point::name).toList();
        Correlation correlation = new Correlation(names);
        int n = points.size();
        int[][] identityOf = new int[n][];
        long[][] timeOf = new long[n][];
        int[] framesRead = new int[n];
        IOException failure = null;
        for (int p = 0; p < n; p++) {
            int[] ids = new int[1024];
            long[] times = new long[1024];
            int count = 0;
            Dissection d = new Dissection(); // each capture's stream state and time reference are its own
            try (FrameSource source = points.get(p).opener().open()) { // one that cannot be opened fails here
                Frame f;
                while ((maxFrames < 0 || count < maxFrames) && (f = next(source)) != null) {
                    if (count == ids.length) {
                        ids = Arrays.copyOf(ids, count * 2);
                        times = Arrays.copyOf(times, count * 2);
                    }
                    chain.dissect(f, d);
                    times[count] = f.timeNanos();
                    if (!passes.test(d)) {
                        ids[count++] = SKIPPED;
                        continue;
                    }
                    int number = correlation.identify(p, d);
                    ids[count++] = number < 0 ? NO_IDENTITY : number;
                }
            } catch (Damage e) {
                failure = failure == null ? e.getCause() : failure; // the frames before the damage count
            }
            identityOf[p] = ids;
            timeOf[p] = times;
            framesRead[p] = count;
        }
        return new VantageUnion(points, correlation.result(), identityOf, timeOf, framesRead, correlation, failure);
    }

    /** Damage met while reading a capture that opened: its frames before the damage still count. */
    private static final class Damage extends Exception {
        Damage(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }

    private static Frame next(FrameSource source) throws Damage {
        try {
            return source.next();
        } catch (IOException e) {
            throw new Damage(e);
        }
    }

    /**
     * Each point's clock minus the first point's, through any chain of pairs whose offset is known; the
     * matching window. Points no chain reaches keep their own clock, with a note.
     */
    private static long offsets(Correlation.Result r, long[] toFirst, LongUnaryOperator[] toFirstClock,
                                List<String> notes) {
        List<String> names = r.vantagePoints();
        boolean[] known = new boolean[names.size()];
        known[0] = true;
        Arrays.fill(toFirstClock, LongUnaryOperator.identity());
        long maxBound = 0;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (Correlation.ClockOffset o : r.clockOffsets()) {
                if (o.offsetNs() == null) {
                    continue;
                }
                int a = names.indexOf(o.from());
                int b = names.indexOf(o.to());
                if (known[a] && !known[b]) {
                    toFirst[b] = toFirst[a] + o.offsetNs();
                    LongUnaryOperator aToFirst = toFirstClock[a];
                    toFirstClock[b] = tb -> aToFirst.applyAsLong(fromClock(o, tb));
                    known[b] = changed = true;
                } else if (known[b] && !known[a]) {
                    toFirst[a] = toFirst[b] - o.offsetNs();
                    LongUnaryOperator bToFirst = toFirstClock[b];
                    toFirstClock[a] = ta -> bToFirst.applyAsLong(ta + o.at(ta));
                    known[a] = changed = true;
                }
                maxBound = Math.max(maxBound, o.boundNs());
            }
        }
        long maxDelay = 0;
        for (Correlation.Delay d : r.oneWayDelays()) {
            maxDelay = Math.max(maxDelay, d.maxNs());
        }
        long window = 2 * (maxDelay + maxBound) + WINDOW_SLACK_NANOS;
        for (int p = 1; p < names.size(); p++) {
            if (!known[p]) {
                notes.add("the clock offset of " + names.get(p) + " to " + names.get(0) + " is unknown: its own "
                        + "timestamps are used, as mergecap would");
                window = Math.max(window, WINDOW_UNKNOWN_OFFSET_NANOS);
            }
        }
        return window;
    }

    /**
     * {@code to}'s timestamp on {@code from}'s clock: the offset is a function of from's time, so solve
     * t_from + at(t_from) = t_to by two fixed-point steps (each shrinks the error by the drift, ppm).
     */
    private static long fromClock(Correlation.ClockOffset o, long toNs) {
        long guess = toNs - o.offsetNs();
        guess = toNs - o.at(guess);
        return toNs - o.at(guess);
    }

    /** Point {@code p}'s timestamp {@code ns} on the first point's clock, the offset's line applied at that moment. */
    public long onFirstClock(int p, long ns) {
        return toFirstClock[p].applyAsLong(ns);
    }

    public List<String> names() {
        return names;
    }

    /** The correlation of the first pass: clock offsets, one-way delays, losses. */
    public Correlation.Result correlation() {
        return correlation;
    }

    /** Each point's clock minus the first point's, as the union applies it (0 for the first and the unknown). */
    public List<Long> offsetsToFirst() {
        return Arrays.stream(offsetToFirst).boxed().toList();
    }

    /** What the union could not do as asked (offsets it could not know). */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** The matching window, in nanoseconds. */
    public long windowNanos() {
        return window;
    }

    /** The first damage met in a capture, or null. */
    public IOException failure() {
        return failure;
    }

    /** Frames each point's capture contributed (read, whether or not the filter kept them). */
    public List<Integer> framesRead() {
        return Arrays.stream(framesRead).boxed().toList();
    }

    /** Union frames handed out so far. */
    public long unionFrames() {
        return unionFrames;
    }

    /** The points and frames that saw union frame {@code u}, in the order the points were named. */
    public List<Sighting> sightings(long u) {
        List<Sighting> out = new ArrayList<>(2);
        if (u <= 0 || u > unionFrames) {
            return out;
        }
        for (int p = 0; p < names.size(); p++) {
            if (frameAt[p][(int) u] != 0) {
                out.add(new Sighting(names.get(p), frameAt[p][(int) u]));
            }
        }
        return out;
    }

    /**
     * Whether union frame {@code u} is a packet with an identity, matched across points; false for frames
     * taken from the first point alone (no BTH and no iWARP connection: TCP, ARP), whose absence elsewhere says nothing.
     */
    public boolean identified(long u) {
        return u > 0 && u <= unionFrames && unionIdentity[(int) u] >= 0;
    }

    /**
     * The union frame point {@code point}'s frame {@code frame} was handed out as or matched to, or 0 when
     * the union did not take it (filtered out, or a frame without identity at a point other than the first).
     */
    public long unionFrameOf(int point, long frame) {
        if (point < 0 || point >= names.size() || frame <= 0) {
            return 0;
        }
        int[] at = frameAt[point];
        for (int u = 1; u <= unionFrames; u++) {
            if (at[u] == frame) {
                return u;
            }
        }
        return 0;
    }

    // ---- the second pass ------------------------------------------------------------------------------

    /**
     * A recently handed-out union packet, for sightings still to come: filed under {@code key}, the identity its
     * sightings carry (a segment's whole for its first piece: {@link Correlation#whole}).
     */
    private record Recent(int union, long time, int key) {
    }

    /** A point's next frame in the second pass. */
    private static final class Head {
        final int point;
        final FrameSource source;
        int index = -1;
        Frame frame;
        long time;

        Head(int point, FrameSource source) {
            this.point = point;
            this.source = source;
        }
    }

    /**
     * The second pass: the union's frames, each distinct packet once, in corrected-time order (ties: the
     * point named first). Read it to its end before asking for sightings or disagreements.
     */
    public FrameSource frames() throws IOException {
        int n = names.size();
        PriorityQueue<Head> heads = new PriorityQueue<>((x, y) -> x.time != y.time ? Long.compare(x.time, y.time)
                : x.point != y.point ? Integer.compare(x.point, y.point) : Integer.compare(x.index, y.index));
        List<Head> opened = new ArrayList<>();
        try {
            for (int p = 0; p < n; p++) {
                Head h = new Head(p, points.get(p).opener().open());
                opened.add(h);
                if (advance(h)) {
                    heads.add(h);
                }
            }
        } catch (IOException | RuntimeException e) {
            opened.forEach(h -> h.source.close());
            throw e;
        }
        Map<Integer, ArrayDeque<Recent>> recent = new HashMap<>();
        // (whole × MAX_POINTS + point) for each whole handed out uncut that a point saw in pieces and was matched
        // to by its first piece: the point's later pieces of it add no bytes and no frame (its sighting is the
        // first piece's; a whole's pieces may take longer than the matching window to pass, 64 KB at 100 Gb/s 5 µs).
        java.util.Set<Long> piecing = new java.util.HashSet<>();
        ArrayDeque<Recent> fifo = new ArrayDeque<>();
        return new FrameSource() {
            @Override
            public Frame next() throws IOException {
                while (!heads.isEmpty()) {
                    Head h = heads.poll();
                    Frame f = h.frame;
                    int p = h.point;
                    long t = h.time;
                    int id = identityOf[p][h.index];
                    if (advance(h)) {
                        heads.add(h);
                    }
                    while (!fifo.isEmpty() && fifo.peekFirst().time() < t - window) {
                        Recent old = fifo.pollFirst();
                        ArrayDeque<Recent> q = recent.get(old.key());
                        q.remove(old);
                        if (q.isEmpty()) {
                            recent.remove(old.key());
                        }
                    }
                    // A piece of a segment another point saw whole (segmentation offload) is sighted as that whole.
                    int key = id >= 0 ? packets.whole(id) : id;
                    if (id >= 0) {
                        ArrayDeque<Recent> candidates = recent.get(key);
                        if (key != id && piecing.contains((long) key * MAX_POINTS + p)) {
                            continue; // a later piece of a whole this point was matched to by its first piece
                        }
                        Recent match = match(candidates, p, t);
                        if (match != null) {
                            sighted(match.union(), p, (int) f.number(), t);
                            if (key != id && unionIdentity[match.union()] == key) {
                                piecing.add((long) key * MAX_POINTS + p);
                            }
                            continue;
                        }
                    }
                    int u = handOut(id, p, (int) f.number());
                    // A piece handed out is filed under its whole only when it holds the whole's first byte: the
                    // point that saw the whole is matched to it, and its other pieces stay frames of their own.
                    if (id >= 0 && (key == id || packets.psn(id) == packets.psn(key))) {
                        Recent r = new Recent(u, t, key);
                        recent.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(r);
                        fifo.addLast(r);
                    }
                    return new Frame(u, t, f.capturedLength(), f.wireLength(), f.linkType(),
                            p * INTERFACES_PER_POINT + f.interfaceId(), f.buffer(), f.offset());
                }
                return null;
            }

            @Override
            public void close() {
                opened.forEach(h -> h.source.close());
            }
        };
    }

    /** Moves a head to its point's next frame the union takes; false at the end of what the first pass read. */
    private boolean advance(Head h) throws IOException {
        while (h.index + 1 < framesRead[h.point]) {
            Frame f = h.source.next();
            if (f == null) {
                return false;
            }
            h.index++;
            int id = identityOf[h.point][h.index];
            if (id == SKIPPED || id == NO_IDENTITY && h.point != 0) {
                continue;
            }
            h.frame = f;
            h.time = onFirstClock(h.point, f.timeNanos());
            return true;
        }
        return false;
    }

    /** The union packet this sighting is: not yet seen at {@code point}, within the window, nearest in time. */
    private Recent match(ArrayDeque<Recent> candidates, int point, long time) {
        if (candidates == null) {
            return null;
        }
        Recent best = null;
        long bestGap = Long.MAX_VALUE;
        for (Recent r : candidates) {
            long gap = Math.abs(r.time() - time);
            if (frameAt[point][r.union()] == 0 && gap <= window && gap < bestGap) {
                best = r;
                bestGap = gap;
            }
        }
        return best;
    }

    private int handOut(int id, int point, int frame) {
        int u = ++unionFrames;
        if (u >= unionIdentity.length) {
            int size = unionIdentity.length * 2;
            unionIdentity = Arrays.copyOf(unionIdentity, size);
            for (int p = 0; p < frameAt.length; p++) {
                frameAt[p] = Arrays.copyOf(frameAt[p], size);
            }
        }
        unionIdentity[u] = id;
        frameAt[point][u] = frame;
        return u;
    }

    /** A later sighting of union frame {@code u}: the point that saw it earlier is upstream of this one. */
    private void sighted(int u, int point, int frame, long time) {
        int n = names.size();
        long[] counts = order[packets.direction(unionIdentity[u])];
        for (int q = 0; q < n; q++) {
            int seen = frameAt[q][u];
            if (q == point || seen == 0) {
                continue;
            }
            long tq = onFirstClock(q, timeOf[q][seen - 1]);
            if (tq < time) {
                counts[q * n + point]++;
            } else if (tq > time) {
                counts[point * n + q]++;
            }
        }
        frameAt[point][u] = frame;
    }

    /** Whether traffic of {@code direction} passes point a before point b (more of its packets say so). */
    private boolean before(int direction, int a, int b) {
        int n = names.size();
        long[] counts = order[direction];
        return counts[a * n + b] > counts[b * n + a];
    }

    // ---- where the points disagree ---------------------------------------------------------------------

    /**
     * What the points disagree on, as observations on union frames (conversations from {@code replay}'s
     * placements, which a replay that keeps messages has): a duplicate the upstream point saw and the next
     * point downstream did not, and a response one point saw and a point downstream of it never did.
     */
    public List<Observation> disagreements(ReplayResult replay) {
        int n = names.size();
        // Per identity: the previous union copy, and which points saw any copy (identities seen as many
        // copies, CNPs or repeated ACKs, stay linear).
        int[] previousCopy = new int[packets.distinct()];
        long[] seenBy = new long[packets.distinct()];
        for (int u = 1; u <= unionFrames; u++) {
            int id = unionIdentity[u];
            for (int p = 0; id >= 0 && p < n; p++) {
                seenBy[id] |= frameAt[p][u] != 0 ? 1L << p : 0;
            }
        }
        List<Observation> out = new ArrayList<>();
        for (int u = 1; u <= unionFrames; u++) {
            int id = unionIdentity[u];
            if (id < 0 || packets.isIwarp(id)) {
                continue; // both rules judge InfiniBand transport packets (a BTH's opcode and PSN)
            }
            if (previousCopy[id] > 0) {
                senderSideDuplicate(previousCopy[id], u, id, replay, out);
            }
            previousCopy[id] = u;
            Operation op = Opcodes.of(packets.opcode(id)).operation();
            if (!op.isRequest() && op != Operation.CNP && op != Operation.UNKNOWN) {
                responseNotDownstream(u, id, seenBy[id], replay, out);
            }
        }
        out.sort(java.util.Comparator.comparingLong(Observation::frame));
        return out;
    }

    /** Copies u1 and u2 (in this order) of one packet: a point saw both close together, one downstream saw one. */
    private void senderSideDuplicate(int u1, int u2, int identity, ReplayResult replay,
                                     List<Observation> out) {
        int n = names.size();
        int direction = packets.direction(unionIdentity[u1]);
        for (int a = 0; a < n; a++) {
            int f1 = frameAt[a][u1];
            int f2 = frameAt[a][u2];
            if (f1 == 0 || f2 == 0 || Math.abs(timeOf[a][f2 - 1] - timeOf[a][f1 - 1]) >= DUPLICATE_WINDOW_NANOS) {
                continue;
            }
            for (int b = 0; b < n; b++) {
                int once = frameAt[b][u1] != 0 ? frameAt[b][u1] : frameAt[b][u2];
                boolean exactlyOne = (frameAt[b][u1] != 0) != (frameAt[b][u2] != 0);
                if (b == a || !exactlyOne || !before(direction, a, b)) {
                    continue;
                }
                int missed = frameAt[b][u1] == 0 ? u1 : u2;
                out.add(new Observation.SenderSideDuplicate(missed, replay.conversationOf(missed), packets.psn(identity),
                        names.get(a), f1, f2, names.get(b), once));
                return;
            }
        }
    }

    /**
     * A response union frame u: the last point upstream that saw it, and the nearest point downstream that
     * never saw any copy of it (a point never on this direction's path is not downstream of anything).
     */
    private void responseNotDownstream(int u, int identity, long pointsSeeingAnyCopy,
                                       ReplayResult replay, List<Observation> out) {
        int n = names.size();
        int direction = packets.direction(unionIdentity[u]);
        int last = -1;
        for (int p = 0; p < n; p++) {
            int f = frameAt[p][u];
            if (f != 0 && (last < 0 || onFirstClock(p, timeOf[p][f - 1])
                    > onFirstClock(last, timeOf[last][frameAt[last][u] - 1]))) {
                last = p;
            }
        }
        int nearest = -1;
        for (int q = 0; q < n; q++) {
            if ((pointsSeeingAnyCopy & 1L << q) != 0 || !before(direction, last, q)) {
                continue;
            }
            if (nearest < 0 || before(direction, q, nearest)) {
                nearest = q;
            }
        }
        if (nearest >= 0) {
            out.add(new Observation.ResponseNotDownstream(u, replay.conversationOf(u), packets.psn(identity),
                    Opcodes.of(packets.opcode(identity)).name(), names.get(last), frameAt[last][u], names.get(nearest)));
        }
    }
}
