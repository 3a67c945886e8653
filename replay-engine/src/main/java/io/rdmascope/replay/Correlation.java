package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The same traffic captured at several vantage points, as one story (issue 20): which packets each
 * point saw, the clock offset between every two points with a bound the true offset is known to lie
 * in, the one-way delay between them, and where packets were lost.
 *
 * <p><b>Identity.</b> A RoCE or InfiniBand packet is the same packet at two points when its
 * addresses, destination QP, PSN, opcode and ICRC agree (the ICRC covers every field no switch may
 * change, payload included). A resent packet carries the same bytes, so identical packets are told
 * apart by order: the k-th copy at one point is the k-th at another.
 *
 * <p><b>Clock offsets.</b> For points A and B, θ is B's clock minus A's. A packet going from A's side
 * to B's side arrives at B after it passed A: {@code tB − tA = θ + d} with {@code d ≥ 0}, so θ is at
 * most that difference; a packet the other way gives θ at least its {@code tB − tA}. Both directions
 * seen: the NTP argument over every packet, not just request/response pairs, with θ allowed to drift at a
 * constant rate ({@link ClockFit}): the fit and a bound the true offset lies within over the whole span.
 * One direction only: the offset cannot be known, and is not guessed. Only packets seen exactly once at
 * each point are used, so a resent copy cannot be mistaken for its first.
 *
 * <p><b>Loss.</b> Which of two points a packet meets first is read, per direction of traffic, from the
 * packets both saw once, clocks corrected. A packet the upstream point saw more often than the
 * downstream one was lost between them; one the downstream point saw more often was missed by the
 * upstream capture, not lost on the wire.
 *
 * <p>Memory grows with the packets of all inputs (one small entry per packet), unlike the replay.
 */
public final class Correlation {
    /**
     * A packet's identity without its copy number: who sent it to whom, and its transport header and ICRC.
     * Package-private for {@link VantageUnion}, which merges sightings by it.
     */
    record Identity(int addressKind, long srcHi, long srcLo, long dstHi, long dstLo, int destQp, int psn,
                            int opcode, long icrc) {
        Address source() {
            return new Address(addressKind, srcHi, srcLo);
        }

        Address destination() {
            return new Address(addressKind, dstHi, dstLo);
        }
    }

    /** Where and when one point saw a packet: frame numbers and times of its copies. */
    private static final class Seen {
        /** The packet's number: distinct packets numbered 0, 1, … in order of first sighting. */
        final int number;
        /** Its direction of traffic ("source → destination") and the reverse, shared by every packet of it. */
        final String direction;
        final String reverse;
        final long[][] frames;
        final long[][] times;
        final int[] counts;

        Seen(int number, int points, String[] directions) {
            this.number = number;
            direction = directions[0];
            reverse = directions[1];
            frames = new long[points][];
            times = new long[points][];
            counts = new int[points];
        }

        void add(int point, long frame, long time) {
            if (frames[point] == null) {
                frames[point] = new long[1];
                times[point] = new long[1];
            } else if (counts[point] == frames[point].length) {
                frames[point] = Arrays.copyOf(frames[point], counts[point] * 2);
                times[point] = Arrays.copyOf(times[point], counts[point] * 2);
            }
            frames[point][counts[point]] = frame;
            times[point][counts[point]++] = time;
        }

        int seenAt() {
            int n = 0;
            for (int c : counts) {
                n += c > 0 ? 1 : 0;
            }
            return n;
        }
    }

    private final List<String> names;
    private final Map<Identity, Seen> packets = new LinkedHashMap<>();
    /** The distinct packets' identities by number, in order of first sighting. */
    private final List<Identity> byNumber = new ArrayList<>();
    private final PacketFacts facts = new PacketFacts();
    private final long[] framesRead;
    /** The identity of each packet of the first point, by frame number: its messages are placed by these. */
    private final Map<Long, Identity> firstPointFrames = new HashMap<>();
    private final Map<List<Address>, String[]> directions = new HashMap<>();

    /** @param names the vantage points, in the order their captures are fed */
    public Correlation(List<String> names) {
        if (names.size() < 2) {
            throw new IllegalArgumentException("correlating needs two vantage points or more");
        }
        this.names = List.copyOf(names);
        this.framesRead = new long[names.size()];
    }

    /** One dissected frame of vantage point {@code point}; frames of one point in capture order. */
    public void accept(int point, Dissection d) {
        identify(point, d);
    }

    /**
     * {@link #accept}, giving the packet's number (distinct packets numbered 0, 1, … in order of first
     * sighting; {@link #identity(int)}), or -1 for a frame that is not an RDMA packet it can identify.
     */
    int identify(int point, Dissection d) {
        framesRead[point]++;
        if (!facts.read(d) || facts.headersCut || facts.opcode == null) {
            return -1;
        }
        Identity id = new Identity(facts.addressKind, facts.srcHi, facts.srcLo, facts.dstHi, facts.dstLo,
                facts.destQp, facts.psn, facts.opcode.code(), facts.icrcValue());
        Seen seen = packets.get(id);
        if (seen == null) {
            seen = new Seen(byNumber.size(), names.size(), directionsOf(id));
            packets.put(id, seen);
            byNumber.add(id);
        }
        seen.add(point, facts.frame, facts.timeNanos);
        if (point == 0) {
            firstPointFrames.put(facts.frame, id);
        }
        return seen.number;
    }

    /** The identity of packet number {@code number} ({@link #identify}). */
    Identity identity(int number) {
        return byNumber.get(number);
    }

    /** The direction texts of {@code id}'s traffic and of its reverse, made once per pair of addresses. */
    private String[] directionsOf(Identity id) {
        return directions.computeIfAbsent(List.of(id.source(), id.destination()), k -> {
            String source = k.get(0).text();
            String destination = k.get(1).text();
            return new String[]{source + " → " + destination, destination + " → " + source};
        });
    }

    /**
     * The clock offset of {@code to} relative to {@code from}: {@code offsetNs} at {@code from}'s time
     * {@code referenceNs} (the first packet both saw), changing by {@code driftPpm}; at any moment between the
     * first and last packet both saw, the true offset lies within {@link #at} ± {@code boundNs}. All null when
     * unknowable, with a note saying why.
     */
    public record ClockOffset(String from, String to, Long offsetNs, Long boundNs, Double driftPpm, Long referenceNs,
                              long samples, String note) {
        /** The offset at {@code fromNs} on {@code from}'s clock, to the nanosecond. */
        public long at(long fromNs) {
            return offsetNs + Math.round(driftPpm * (fromNs - referenceNs) / 1e6);
        }
    }

    /** One-way delay from one point to another for one direction of traffic, clocks corrected. */
    public record Delay(String from, String to, String direction, long packets, long minNs, long medianNs,
                        long maxNs) {
    }

    /** Copies of a packet one point saw and the next one on its path did not. */
    public record Loss(String direction, int destQp, int psn, String opcode, int copies, String lastSeenAt,
                       long lastSeenFrame, String missingAt, boolean onTheWire) {
    }

    /** What the points saw: per point frames and RDMA packets, distinct packets and those seen at two points or more. */
    public record Counts(List<Long> frames, List<Long> packets, long distinct, long multiSighted) {
    }

    /** One hop of a message's first packet: from the point it passed first to the next, clocks corrected. */
    public record Hop(String from, String to, long ns) {
    }

    /**
     * Request to completion seen at one point, on that point's own clock (no offset needed): at the point
     * nearest the responder it is the responder's think time plus the fabric between that point and the
     * responder, so it bounds the think time from above; the requester's round trip minus it is fabric.
     */
    public record Turnaround(String at, long ns) {
    }

    /**
     * A message of the first point's replay: the one-way delays of its first packet between every two
     * points that both saw that packet once and whose clock offset is known, and the shortest turnaround
     * (first packet to completion) any point saw, or null.
     */
    public record MessageDelay(String conversation, MessageKind kind, int firstPsn, long frame, List<Hop> delays,
                               Turnaround turnaround) {
    }

    /** The whole account. */
    public record Result(List<String> vantagePoints, Counts packets, List<ClockOffset> clockOffsets,
                         List<Delay> oneWayDelays, List<Loss> lost, List<MessageDelay> messages) {
    }

    /** Correlates everything fed so far, without per-message delays. */
    public Result result() {
        return result(List.of());
    }

    /**
     * Correlates everything fed so far; {@code firstPointMessages} (the first point's replay, whose frame
     * numbers they name) get their one-way delays.
     */
    public Result result(List<Message> firstPointMessages) {
        int n = names.size();
        long[] perPoint = new long[n];
        long multi = 0;
        for (Seen s : packets.values()) {
            for (int p = 0; p < n; p++) {
                perPoint[p] += s.counts[p];
            }
            multi += s.seenAt() >= 2 ? 1 : 0;
        }
        List<ClockOffset> offsets = new ArrayList<>();
        List<Delay> delays = new ArrayList<>();
        Map<String, boolean[][]> upstream = new HashMap<>();
        PairTiming[][] timings = new PairTiming[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                PairTiming t = timing(a, b);
                timings[a][b] = t;
                offsets.add(t.offset());
                if (t.offset().offsetNs() != null) {
                    delays(a, b, t, t.aFirst(), delays, upstream);
                    delays(b, a, t, t.bFirst(), delays, upstream);
                }
            }
        }
        List<Loss> lost = losses(upstream);
        List<Long> frames = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            frames.add(framesRead[p]);
            seen.add(perPoint[p]);
        }
        return new Result(names, new Counts(frames, seen, packets.size(), multi), offsets, delays, lost,
                messageDelays(firstPointMessages, timings));
    }

    private List<MessageDelay> messageDelays(List<Message> messages, PairTiming[][] timings) {
        List<MessageDelay> out = new ArrayList<>();
        int n = names.size();
        for (Message m : messages) {
            if (m.frames().isEmpty()) {
                continue;
            }
            long frame = m.frames().get(0);
            Identity id = firstPointFrames.get(frame);
            Seen s = id == null ? null : packets.get(id);
            if (s == null) {
                continue;
            }
            List<Hop> hops = new ArrayList<>();
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    PairTiming t = timings[a][b];
                    if (t.offset().offsetNs() == null || s.counts[a] != 1 || s.counts[b] != 1) {
                        continue;
                    }
                    if (t.aFirst().contains(s.direction)) {
                        hops.add(new Hop(names.get(a), names.get(b), t.delay(s, a)));
                    } else if (t.bFirst().contains(s.direction)) {
                        hops.add(new Hop(names.get(b), names.get(a), t.delay(s, b)));
                    }
                }
            }
            out.add(new MessageDelay(m.conversation(), m.kind(), m.firstPsn(), frame, hops, turnaround(s, m)));
        }
        return out;
    }

    /** Per pair of points (a &lt; b): θ(b − a), and the directions of traffic that pass a before b. */
    private record PairTiming(int a, int b, ClockOffset offset, Set<String> aFirst, Set<String> bFirst) {
        /** How long a packet seen once at a and b took from {@code from} (a or b) to the other, clocks corrected. */
        long delay(Seen s, int from) {
            long ta = s.times[a][0];
            long tb = s.times[b][0];
            long theta = offset.at(ta);
            return from == a ? tb - theta - ta : ta + theta - tb;
        }
    }

    /**
     * θ(b − a) from the packets both saw once. The two directions between two hosts pass the points in
     * opposite orders, and the one passing a first shows the larger {@code tB − tA} (θ plus a delay,
     * against θ minus one; with drift, on average): for each host pair seen both ways at both points, the
     * line θ(t) lies under its a-first direction's points and over the other's ({@link ClockFit}).
     */
    /** Host pairs up to which every orientation of their directions is tried when the means' admits no line. */
    private static final int MAX_ORIENTED_PAIRS = 4;

    private PairTiming timing(int a, int b) {
        Map<String, double[]> perDirection = new LinkedHashMap<>(); // sum of tB − tA, count
        Map<String, String> reverse = new HashMap<>();
        for (Seen s : packets.values()) {
            if (s.counts[a] == 1 && s.counts[b] == 1) {
                double[] m = perDirection.computeIfAbsent(s.direction, k -> new double[2]);
                m[0] += s.times[b][0] - s.times[a][0];
                m[1]++;
                reverse.putIfAbsent(s.direction, s.reverse);
            }
        }
        // Each host pair seen both ways: its two directions, the one whose mean difference is larger first.
        List<String[]> pairs = new ArrayList<>();
        Set<String> paired = new HashSet<>();
        for (Map.Entry<String, double[]> e : perDirection.entrySet()) {
            String back = reverse.get(e.getKey());
            double[] there = e.getValue();
            double[] andBack = perDirection.get(back);
            if (andBack == null || paired.contains(back)) {
                continue; // seen one way only (which point it meets first cannot be told), or done from the other way
            }
            paired.add(e.getKey());
            boolean thereFirst = there[0] / there[1] >= andBack[0] / andBack[1];
            pairs.add(thereFirst ? new String[]{e.getKey(), back} : new String[]{back, e.getKey()});
        }
        String from = names.get(a);
        String to = names.get(b);
        if (perDirection.isEmpty()) {
            return new PairTiming(a, b, unknown(from, to, 0, "no packet seen at both"), Set.of(), Set.of());
        }
        if (pairs.isEmpty()) {
            return new PairTiming(a, b, unknown(from, to, 0,
                    "traffic seen at both in one direction only: the offset cannot be known"), Set.of(), Set.of());
        }
        // The means compare differences taken at different moments: with drift, a direction whose packets
        // come later on average can show the larger mean while passing b first (20 ppm turns 1 µs of delay
        // around in 50 ms). When the means' orientation admits no line, the others are tried (a few host
        // pairs' worth: each try is a pass over the packets), the means' first; the first admitting one wins.
        int tries = pairs.size() <= MAX_ORIENTED_PAIRS ? 1 << pairs.size() : 1;
        Set<String> aFirst = new LinkedHashSet<>();
        Set<String> bFirst = new LinkedHashSet<>();
        long samples = 0;
        ClockFit.Fit fit = null;
        for (int flips = 0; flips < tries && fit == null; flips++) {
            aFirst.clear();
            bFirst.clear();
            for (int i = 0; i < pairs.size(); i++) {
                boolean flipped = (flips >> i & 1) != 0;
                aFirst.add(pairs.get(i)[flipped ? 1 : 0]); // passes a first: θ at most its differences
                bFirst.add(pairs.get(i)[flipped ? 0 : 1]); // passes b first: θ at least its differences
            }
            ClockFit.Samples above = new ClockFit.Samples();
            ClockFit.Samples below = new ClockFit.Samples();
            for (Seen s : packets.values()) {
                if (s.counts[a] == 1 && s.counts[b] == 1) {
                    ClockFit.Samples into = aFirst.contains(s.direction) ? above
                            : bFirst.contains(s.direction) ? below : null;
                    if (into != null) {
                        into.add(s.times[a][0], s.times[b][0] - s.times[a][0]);
                    }
                }
            }
            samples = above.size() + below.size();
            fit = ClockFit.fit(above, below);
        }
        if (fit == null) {
            return new PairTiming(a, b, unknown(from, to, samples, "the packets seen at both agree with no clock "
                    + "offset drifting at a constant rate (timestamps out of order, or a clock stepped)"), aFirst, bFirst);
        }
        return new PairTiming(a, b, new ClockOffset(from, to, fit.offsetNs(), fit.boundNs(), fit.driftPpm(),
                fit.referenceNs(), samples, null), aFirst, bFirst);
    }

    private static ClockOffset unknown(String from, String to, long samples, String note) {
        return new ClockOffset(from, to, null, null, null, null, samples, note);
    }

    /** One-way delays from a to b, clocks corrected, for the directions that pass a first. */
    private void delays(int a, int b, PairTiming timing, Set<String> aFirst, List<Delay> out,
                        Map<String, boolean[][]> upstream) {
        Map<String, List<Long>> perDirection = new LinkedHashMap<>();
        for (Map.Entry<Identity, Seen> e : packets.entrySet()) {
            Seen s = e.getValue();
            if (s.counts[a] == 1 && s.counts[b] == 1 && aFirst.contains(s.direction)) {
                perDirection.computeIfAbsent(s.direction, k -> new ArrayList<>()).add(timing.delay(s, a));
            }
        }
        for (Map.Entry<String, List<Long>> e : perDirection.entrySet()) {
            List<Long> ds = e.getValue();
            ds.sort(null);
            out.add(new Delay(names.get(a), names.get(b), e.getKey(), ds.size(), ds.get(0), ds.get(ds.size() / 2),
                    ds.get(ds.size() - 1)));
        }
        for (String direction : aFirst) {
            upstream.computeIfAbsent(direction, k -> new boolean[names.size()][names.size()])[a][b] = true;
        }
    }

    /** The shortest first-packet-to-completion gap over the points that saw both once, or null. */
    private Turnaround turnaround(Seen request, Message m) {
        Identity done = m.completionFrame() == null ? null : firstPointFrames.get((long) m.completionFrame());
        Seen completion = done == null ? null : packets.get(done);
        if (completion == null || completion == request) {
            return null;
        }
        Turnaround best = null;
        for (int p = 0; p < names.size(); p++) {
            if (request.counts[p] == 1 && completion.counts[p] == 1) {
                long gap = completion.times[p][0] - request.times[p][0];
                if (best == null || gap < best.ns()) {
                    best = new Turnaround(names.get(p), gap);
                }
            }
        }
        return best;
    }

    /** Copies one point saw and the next point downstream did not, for every direction whose order is known. */
    private List<Loss> losses(Map<String, boolean[][]> upstream) {
        List<Loss> out = new ArrayList<>();
        int n = names.size();
        for (Map.Entry<Identity, Seen> e : packets.entrySet()) {
            Identity id = e.getKey();
            Seen s = e.getValue();
            boolean[][] before = upstream.get(s.direction);
            if (before == null) {
                continue;
            }
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    if (!before[a][b] || s.counts[a] == s.counts[b] || !adjacent(before, a, b)) {
                        continue;
                    }
                    boolean wire = s.counts[a] > s.counts[b];
                    int seenAt = wire ? a : b;
                    int missing = wire ? b : a;
                    out.add(new Loss(s.direction, id.destQp(), id.psn(),
                            io.rdmascope.proto.ib.Opcodes.of(id.opcode()).name(),
                            Math.abs(s.counts[a] - s.counts[b]), names.get(seenAt),
                            s.frames[seenAt][s.counts[seenAt] - 1], names.get(missing), wire));
                }
            }
        }
        return out;
    }

    /** Whether no third point lies between a and b on this direction's path. */
    private static boolean adjacent(boolean[][] before, int a, int b) {
        for (int c = 0; c < before.length; c++) {
            if (c != a && c != b && before[a][c] && before[c][b]) {
                return false;
            }
        }
        return true;
    }
}
