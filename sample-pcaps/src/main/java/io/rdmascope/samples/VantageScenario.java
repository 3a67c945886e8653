package io.rdmascope.samples;

import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.samples.Connection.Fate;
import io.rdmascope.samples.Connection.Msg;
import io.rdmascope.samples.ScenarioCatalog.Format;
import io.rdmascope.samples.Wire.Encap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One run of RC traffic seen from three vantage points (issue 20): the requester's host, a switch
 * mirror port, the responder's host, each writing its own capture with its own clock.
 *
 * <p><b>How it is played.</b> The run is first played by {@link Connection} on one {@link Fabric} as every
 * scenario is, which gives the packets, in an order where each one follows what its sender knew, and the
 * gaps the senders leave (serialisation, turnarounds, think time, timers). That order is then timed on a
 * fabric of two links through one switch: each packet leaves its sender no sooner than the gap after the
 * event before it as its sender saw it (its own previous packet, or the arrival of the other host's), and
 * crosses each link with the link's propagation delay, its serialisation at 100 Gb/s (the switch stores and
 * forwards) and 0–150 ns of queueing, in FIFO order. A packet lost on a link is seen at the points before it
 * and at none after; its retransmission is a new packet, seen everywhere downstream. Each point stamps what
 * passes it with its own clock: an offset and, when asked, a drift of a few ppm.
 *
 * <p>The packets' bytes are the same at every point (the switch is an Ethernet switch on one subnet), and
 * every emission has its own IPv4 identification, so even a resent packet is a packet of its own.
 */
public final class VantageScenario {
    /** A committed variant: a name for {@code generate --scenario}, a seed, and whether the clocks drift. */
    public record Variant(String name, String description, long seed, boolean drift) {
    }

    /** The three points, in the order requests pass them; each writes {@code NAME.pcapng}. */
    public enum Point {
        REQUESTER, SWITCH, RESPONDER;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One direction of one of the two links; a packet lost on it was seen at {@code from}, not at {@code to}. */
    public enum Link {
        REQUESTER_TO_SWITCH(Point.REQUESTER, Point.SWITCH), SWITCH_TO_RESPONDER(Point.SWITCH, Point.RESPONDER),
        RESPONDER_TO_SWITCH(Point.RESPONDER, Point.SWITCH), SWITCH_TO_REQUESTER(Point.SWITCH, Point.REQUESTER);

        final Point from;
        final Point to;

        Link(Point from, Point to) {
            this.from = from;
            this.to = to;
        }

        public String id() {
            return from.id() + "→" + to.id();
        }
    }

    /** The captures (frames in each point's file order) and the truth. */
    public record Run(Map<Point, List<Trace.CapturedFrame>> captures, VantageTruth truth) {
    }

    private static final String DESCRIPTION = "One run of RC traffic on three QPs (SEND, WRITE, READ, atomics, "
            + "ACKs; a request lost on each link, two recovered by NAK and go-back-N, one by the ACK timeout; an ACK "
            + "and an atomic acknowledge lost on each link of the way back, recovered by the ACK timeout) seen at the "
            + "requester's host, a switch mirror and the responder's host, each with its own clock";

    public static final List<Variant> VARIANTS = List.of(
            new Variant("vantage_rc", DESCRIPTION + ": offsets, no drift.", 91, false),
            new Variant("vantage_rc_drift", DESCRIPTION + ": offsets and drifts of a few ppm.", 92, true));

    /** Serialisation time per byte at 100 Gb/s, in picoseconds (as {@link Trace}). */
    private static final int PICOS_PER_BYTE_100G = 80;
    /** The shortest gap between two packets one NIC sends, or between an arrival and what answers it. */
    private static final long MIN_GAP_NANOS = 50;
    private static final long ACK_TIMEOUT_NANOS = Connection.ACK_TIMEOUT_NANOS;
    /** Ethernet, IPv4 and UDP headers before the BTH on this scenario's wire (no VLAN). */
    private static final int BTH_OFFSET = 14 + 20 + 8;

    private VantageScenario() {
    }

    public static Variant byName(String name) {
        for (Variant v : VARIANTS) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    /** Writes variant {@code v} played with {@code seed} into {@code dir/NAME/}: three captures and truth.json. */
    public static Path write(Variant v, Path dir, long seed) throws IOException {
        Run run = generate(v.name(), v.description(), seed, v.drift());
        Path caseDir = dir.resolve(v.name());
        Files.createDirectories(caseDir);
        for (Point p : Point.values()) {
            Scenarios.writeCapture(caseDir.resolve(p.id() + ".pcapng"), Format.PCAPNG, run.captures().get(p));
        }
        Files.writeString(caseDir.resolve(Scenarios.TRUTH_FILE), Scenarios.json(run.truth()), StandardCharsets.UTF_8);
        Files.writeString(caseDir.resolve("README.md"), v.name() + ": " + v.description() + "\n",
                StandardCharsets.UTF_8);
        return caseDir;
    }

    /** The run for {@code seed}, in memory; {@code drift} gives every clock a drift of 2–20 ppm either way. */
    public static Run generate(long seed, boolean drift) {
        return generate("vantage", DESCRIPTION + ".", seed, drift);
    }

    private static Run generate(String name, String description, long seed, boolean drift) {
        Fabric fabric = new Fabric(seed, Wire.of(Encap.ROCE_V2_IPV4), Scenarios.START_NANOS);
        Map<Integer, Link> lostOn = new HashMap<>();
        List<Msg> messages = new ArrayList<>();
        script(fabric, lostOn, messages);
        // The fabric's timing draws from its own source, so a seed plays the same packets with or without drift.
        return new Timing(fabric, lostOn, new Random(seed * 0x9E3779B97F4A7C15L + 1), drift)
                .run(name, description, seed, messages);
    }

    /**
     * The run, as the single-capture scenarios script theirs: packets the fabric loses go out as
     * {@link Fate#LOST_AFTER_CAPTURE} (its sender's capture holds them) and their link goes into {@code lostOn}.
     */
    private static void script(Fabric f, Map<Integer, Link> lostOn, List<Msg> messages) {
        Host requester = f.host(1);
        Host responder = f.host(2);
        Connection a = f.rc(requester, responder, 1024);
        Connection b = f.rc(requester, responder, 4096);
        Connection c = f.rc(requester, responder, 2048);
        // Plain traffic on the three QPs.
        acked(f, a, a.send(600), messages);
        acked(f, b, b.write(9_000), messages);
        Msg read = track(c.read(5_000), messages);
        c.transmit(read);
        c.respondRead(read);
        f.idle();
        Msg cas = track(a.compareSwap(0, 1), messages);
        a.transmit(cas);
        a.atomicAck(cas, 0);
        f.idle();
        Msg add = track(b.fetchAdd(3), messages);
        b.transmit(add);
        b.atomicAck(add, 1);
        f.idle();
        // Two outstanding on one QP: a READ and a SEND with immediate, answered in order.
        Msg read2 = track(c.read(1_500), messages);
        Msg send2 = track(c.sendWithImmediate(200, 0x1234L), messages);
        c.transmit(read2);
        c.transmit(send2);
        c.respondRead(read2);
        c.ack();
        f.idle();
        // A WRITE packet dies on the requester's link: the next draws a sequence NAK, go-back-N (R3.3).
        lostThenNaked(f, a, track(a.write(4 * 1024), messages), 1, Link.REQUESTER_TO_SWITCH, lostOn);
        // A SEND packet dies past the switch: the mirror saw it, the responder never did.
        lostThenNaked(f, b, track(b.send(3 * 4096), messages), 1, Link.SWITCH_TO_RESPONDER, lostOn);
        // The last packet of a WRITE dies past the switch: nothing reveals the gap, no ACK comes, and after the
        // local ACK timeout the requester goes back to its oldest unacknowledged PSN (R3.6).
        Msg tail = track(c.write(3 * 2048), messages);
        int[] sent = c.transmit(tail, i -> i == 2 ? Fate.LOST_AFTER_CAPTURE : Fate.DELIVERED);
        lostOn.put(sent[2], Link.SWITCH_TO_RESPONDER);
        f.pause(ACK_TIMEOUT_NANOS);
        c.goBackN(tail.firstPsn(), "local ACK timeout");
        c.ack();
        f.idle();
        // The responder's ACK dies on its own link: the requester times out and resends, the responder
        // re-acknowledges the duplicate (C9-105), and that ACK completes the WRITE.
        Msg unacked = track(b.write(800), messages);
        answerLostThenTimeout(f, b, unacked, b::ack, Link.RESPONDER_TO_SWITCH, lostOn);
        // An atomic acknowledge dies between the switch and the requester: the mirror saw it; after the timeout
        // the fetch-and-add is resent and the responder answers it again from its saved result (C9-96).
        Msg lateAdd = track(a.fetchAdd(7), messages);
        answerLostThenTimeout(f, a, lateAdd, () -> a.atomicAck(lateAdd, 1), Link.SWITCH_TO_REQUESTER, lostOn);
        acked(f, c, c.send(100), messages);
    }

    private static Msg track(Msg m, List<Msg> messages) {
        messages.add(m);
        return m;
    }

    private static void acked(Fabric f, Connection c, Msg m, List<Msg> messages) {
        track(m, messages);
        c.transmit(m);
        c.ack();
        f.idle();
    }

    /** Packet {@code lost} of {@code m} dies on {@code link}; the next draws a sequence NAK and go-back-N follows. */
    private static void lostThenNaked(Fabric f, Connection c, Msg m, int lost, Link link, Map<Integer, Link> lostOn) {
        int[] sent = c.transmit(m, i -> i == lost ? Fate.LOST_AFTER_CAPTURE : Fate.DELIVERED);
        lostOn.put(sent[lost], link);
        c.nakSequenceError();
        c.goBackN(m.packet(lost).psn(), "go-back-N after NAK");
        c.ack();
        f.idle();
    }

    /**
     * {@code m} goes out and is answered, the answer dies on {@code link}; after the local ACK timeout the
     * requester resends it, and the second answer completes it (the one that completed it first never arrived).
     */
    private static void answerLostThenTimeout(Fabric f, Connection c, Msg m, java.util.function.IntSupplier answer,
                                              Link link, Map<Integer, Link> lostOn) {
        c.transmit(m);
        lostOn.put(answer.getAsInt(), link);
        f.pause(ACK_TIMEOUT_NANOS);
        c.goBackN(m.firstPsn(), "local ACK timeout");
        m.record.completionFrame = answer.getAsInt();
        f.idle();
    }

    /** Times the played packets on the two links and stamps them at the three points. */
    private static final class Timing {
        private final List<Trace.CapturedFrame> played;
        private final Map<Integer, Link> lostOn;
        private final Random random;
        private final long[] propagation = new long[Link.values().length];
        private final long[] clockOffset = new long[Point.values().length];
        private final double[] clockDriftPpm = new double[Point.values().length];
        private final byte[] requesterMac;
        private final String requesterAddress;
        private final String responderAddress;

        /** True times, per played frame (index = frame − 1): emission, and passing each point (−1: never). */
        private long[] emitted;
        private long[][] passed;

        Timing(Fabric fabric, Map<Integer, Link> lostOn, Random random, boolean drift) {
            this.played = fabric.trace.frames();
            this.lostOn = lostOn;
            this.random = random;
            for (Link l : Link.values()) {
                propagation[l.ordinal()] = 300 + random.nextInt(900);
            }
            for (Point p : Point.values()) {
                // Hosts a few seconds apart, as unsynchronised clocks are; the nanoseconds are arbitrary.
                clockOffset[p.ordinal()] = (random.nextInt(10_000_000) - 5_000_000) * 1_000L + random.nextInt(1_000);
                double ppm = 2 + random.nextDouble() * 18;
                clockDriftPpm[p.ordinal()] = drift ? (random.nextBoolean() ? ppm : -ppm) : 0;
            }
            Host requester = fabric.host(1);
            this.requesterMac = requester.mac();
            this.requesterAddress = requester.ipv4Text();
            this.responderAddress = fabric.host(2).ipv4Text();
        }

        Run run(String name, String description, long seed, List<Msg> messages) {
            time();
            Map<Point, List<Trace.CapturedFrame>> captures = new EnumMap<>(Point.class);
            int[][] frameAt = new int[played.size()][Point.values().length];
            List<VantageTruth.Point> points = new ArrayList<>();
            for (Point p : Point.values()) {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < played.size(); i++) {
                    if (passed[i][p.ordinal()] >= 0) {
                        order.add(i);
                    }
                }
                // A capture is in the order its point saw the packets; ties keep the played order.
                order.sort(Comparator.comparingLong((Integer i) -> passed[i][p.ordinal()]).thenComparingInt(i -> i));
                List<Trace.CapturedFrame> frames = new ArrayList<>();
                for (int i : order) {
                    Trace.CapturedFrame f = played.get(i);
                    frames.add(new Trace.CapturedFrame(stamp(p, passed[i][p.ordinal()]), f.bytes(), f.wireLength(),
                            f.linkType()));
                    frameAt[i][p.ordinal()] = frames.size();
                }
                captures.put(p, frames);
                points.add(new VantageTruth.Point(p.id(), p.id() + ".pcapng", frames.size(), clockOffset[p.ordinal()],
                        clockDriftPpm[p.ordinal()]));
            }
            List<VantageTruth.Link> links = new ArrayList<>();
            for (Link l : Link.values()) {
                links.add(new VantageTruth.Link(l.id(), l.from.id(), l.to.id(), propagation[l.ordinal()]));
            }
            List<VantageTruth.Packet> packets = new ArrayList<>();
            List<VantageTruth.Loss> losses = new ArrayList<>();
            int[] perPoint = new int[Point.values().length];
            int multi = 0;
            Set<List<Integer>> sent = new HashSet<>();
            for (int i = 0; i < played.size(); i++) {
                byte[] bytes = played.get(i).bytes();
                boolean fromRequester = fromRequester(i);
                String direction = fromRequester ? requesterAddress + " → " + responderAddress
                        : responderAddress + " → " + requesterAddress;
                int opcode = bytes[BTH_OFFSET] & 0xFF;
                int destQp = u24(bytes, BTH_OFFSET + 5);
                int psn = u24(bytes, BTH_OFFSET + 9);
                String opcodeName = Opcodes.of(opcode).name();
                List<VantageTruth.Sighting> seen = new ArrayList<>();
                for (Point p : Point.values()) {
                    long t = passed[i][p.ordinal()];
                    if (t >= 0) {
                        seen.add(new VantageTruth.Sighting(p.id(), frameAt[i][p.ordinal()], t, stamp(p, t)));
                        perPoint[p.ordinal()]++;
                    }
                }
                multi += seen.size() >= 2 ? 1 : 0;
                Link lost = lostOn.get(i + 1);
                boolean resent = !sent.add(List.of(fromRequester ? 1 : 0, destQp, psn, opcode));
                packets.add(new VantageTruth.Packet(i + 1, fromRequester ? Point.REQUESTER.id() : Point.RESPONDER.id(),
                        direction, destQp, psn, opcodeName, resent, lost == null ? null : lost.id(), seen));
                if (lost != null) {
                    losses.add(new VantageTruth.Loss(i + 1, direction, destQp, psn, opcodeName, lost.id(),
                            lost.from.id(), frameAt[i][lost.from.ordinal()], lost.to.id()));
                }
            }
            VantageTruth.Counts counts = new VantageTruth.Counts(Arrays.stream(perPoint).boxed().toList(),
                    played.size(), multi);
            return new Run(captures, new VantageTruth(name, description, seed, Scenarios.START_NANOS, points, links,
                    pairClocks(), counts, packets, losses, messages(messages, frameAt)));
        }

        /** Emission and passing times of every played packet, in played order (see the class comment). */
        private void time() {
            int n = played.size();
            emitted = new long[n];
            passed = new long[n][Point.values().length];
            long[] linkFree = new long[Link.values().length]; // when each link's last packet finished arriving
            long[] lastEmitted = {Long.MIN_VALUE, Long.MIN_VALUE}; // requester, responder
            long[] lastArrival = {Long.MIN_VALUE, Long.MIN_VALUE};
            for (int i = 0; i < n; i++) {
                Arrays.fill(passed[i], -1);
                boolean fromRequester = fromRequester(i);
                int self = fromRequester ? 0 : 1;
                long serialisation = (long) played.get(i).bytes().length * PICOS_PER_BYTE_100G / 1000;
                long t;
                if (i == 0) {
                    t = played.get(0).timeNanos();
                } else {
                    // The gap the sender left after the event before this one, as the sender saw that event.
                    long gap = played.get(i).timeNanos() - played.get(i - 1).timeNanos();
                    boolean previousOurs = fromRequester(i - 1) == fromRequester;
                    long seenAt = previousOurs || arrival(i - 1, fromRequester) < 0 ? emitted[i - 1]
                            : arrival(i - 1, fromRequester);
                    t = Math.max(seenAt + Math.max(gap, MIN_GAP_NANOS), lastArrival[self] + MIN_GAP_NANOS);
                }
                t = Math.max(t, lastEmitted[self] + MIN_GAP_NANOS);
                emitted[i] = t;
                lastEmitted[self] = t + serialisation;
                Point sender = fromRequester ? Point.REQUESTER : Point.RESPONDER;
                passed[i][sender.ordinal()] = t;
                Link lost = lostOn.get(i + 1);
                Link first = fromRequester ? Link.REQUESTER_TO_SWITCH : Link.RESPONDER_TO_SWITCH;
                Link second = fromRequester ? Link.SWITCH_TO_RESPONDER : Link.SWITCH_TO_REQUESTER;
                long at = t;
                for (Link l : List.of(first, second)) {
                    if (l == lost) {
                        break;
                    }
                    long queueing = random.nextInt(151);
                    at = Math.max(at + propagation[l.ordinal()] + serialisation + queueing,
                            linkFree[l.ordinal()] + serialisation);
                    linkFree[l.ordinal()] = at;
                    passed[i][l.to.ordinal()] = at;
                }
                if (passed[i][(fromRequester ? Point.RESPONDER : Point.REQUESTER).ordinal()] >= 0) {
                    lastArrival[1 - self] = Math.max(lastArrival[1 - self], at);
                }
            }
        }

        /** When played packet {@code i} reached the other host than its sender's, or −1. */
        private long arrival(int i, boolean atRequester) {
            return passed[i][(atRequester ? Point.REQUESTER : Point.RESPONDER).ordinal()];
        }

        private boolean fromRequester(int i) {
            byte[] bytes = played.get(i).bytes();
            return Arrays.equals(bytes, 6, 12, requesterMac, 0, 6); // the Ethernet source address
        }

        /** Point {@code p}'s stamp of true time {@code t}. */
        private long stamp(Point p, long t) {
            return t + clockOffset[p.ordinal()]
                    + Math.round(clockDriftPpm[p.ordinal()] * (t - Scenarios.START_NANOS) / 1e6);
        }

        private List<VantageTruth.PairClock> pairClocks() {
            long first = emitted[0];
            long last = emitted[emitted.length - 1];
            List<VantageTruth.PairClock> out = new ArrayList<>();
            for (Point a : Point.values()) {
                for (Point b : Point.values()) {
                    if (b.ordinal() > a.ordinal()) {
                        out.add(new VantageTruth.PairClock(a.id(), b.id(),
                                clockOffset[b.ordinal()] - clockOffset[a.ordinal()],
                                clockDriftPpm[b.ordinal()] - clockDriftPpm[a.ordinal()],
                                stamp(b, first) - stamp(a, first), stamp(b, last) - stamp(a, last)));
                    }
                }
            }
            return out;
        }

        private List<VantageTruth.Message> messages(List<Msg> messages, int[][] frameAt) {
            List<VantageTruth.Message> out = new ArrayList<>();
            for (Msg m : messages) {
                int first = m.record.frames.get(0) - 1;
                Integer done = m.record.completionFrame;
                List<VantageTruth.Hop> hops = new ArrayList<>();
                Point[] points = Point.values();
                for (int x = 0; x < points.length; x++) {
                    for (int y = x + 1; y < points.length; y++) {
                        long tx = passed[first][x];
                        long ty = passed[first][y];
                        if (tx >= 0 && ty >= 0) {
                            hops.add(new VantageTruth.Hop(points[x].id(), points[y].id(), ty - tx));
                        }
                    }
                }
                Long think = null;
                Long fabric = null;
                Integer thinkRequest = null;
                Integer thinkResponse = null;
                VantageTruth.Turnaround turnaround = null;
                Integer completionFrame = null;
                if (done != null) {
                    int response = done - 1;
                    completionFrame = frameAt[response][Point.REQUESTER.ordinal()];
                    int answered = answeredRequest(m, response);
                    int answer = firstAnswer(m, answered, response);
                    think = emitted[answer] - arrival(answered, false);
                    long back = arrival(answer, true);
                    fabric = back < 0 ? null : back - emitted[answered] - think;
                    thinkRequest = answered + 1;
                    thinkResponse = answer + 1;
                    long firstIn = arrival(first, false);
                    if (firstIn >= 0) {
                        turnaround = new VantageTruth.Turnaround(Point.RESPONDER.id(), emitted[response] - firstIn);
                    }
                }
                out.add(new VantageTruth.Message(m.kind, u24(played.get(first).bytes(), BTH_OFFSET + 5), m.firstPsn(),
                        frameAt[first][Point.REQUESTER.ordinal()], completionFrame, hops, think, fabric, thinkRequest, thinkResponse, turnaround));
            }
            out.sort(Comparator.comparingInt(VantageTruth.Message::requesterFrame));
            return out;
        }

        /**
         * The first packet of the response to request packet {@code answered}: the earliest of {@code m}'s response
         * packets (READ responses, atomic acknowledges) and its completing one played after it.
         */
        private int firstAnswer(Msg m, int answered, int completing) {
            int first = completing;
            for (int frame : m.record.responseFrames) {
                if (frame - 1 > answered && frame - 1 < first) {
                    first = frame - 1;
                }
            }
            return first;
        }

        /**
         * The request packet of {@code m} that its completing response answers: the latest of its request
         * packets played before the response that reached the responder and carries its last PSN (a READ's or
         * atomic's request, a SEND's or WRITE's last packet: the one asking for the acknowledgement).
         */
        private int answeredRequest(Msg m, int response) {
            int lastRequestPsn = m.packet(m.packetCount() - 1).psn();
            for (int i = response - 1; i >= 0; i--) {
                if (m.record.frames.contains(i + 1) && arrival(i, false) >= 0
                        && u24(played.get(i).bytes(), BTH_OFFSET + 9) == lastRequestPsn) {
                    return i;
                }
            }
            throw new IllegalStateException("message at PSN " + m.firstPsn() + " completed with no request answered");
        }
    }

    /** A 24-bit big-endian field (the BTH's destination QP and PSN, IBTA Vol. 1 9.2). */
    private static int u24(byte[] b, int at) {
        return (b[at] & 0xFF) << 16 | (b[at + 1] & 0xFF) << 8 | b[at + 2] & 0xFF;
    }
}
