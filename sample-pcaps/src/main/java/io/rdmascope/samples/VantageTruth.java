package io.rdmascope.samples;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What a run seen from several vantage points holds, known because we played it (issue 20): every
 * point's clock, every link's delay, every packet copy with where it was seen and when (true time and
 * the point's own stamp), every loss with its link, and per message the true one-way delays of its
 * first packet and the responder's think time. Serialised as {@code truth.json} beside the captures.
 *
 * <p>True times are nanoseconds since the Unix epoch on a reference clock no point has; a point's
 * stamp is {@code true + offsetNs + driftPpm · (true − startNanos) / 10^6}, rounded to the nanosecond.
 */
public record VantageTruth(String scenario, String description, long seed, long startNanos,
                           List<Point> vantagePoints, List<Link> links, List<PairClock> clockOffsets,
                           Counts packets, List<Packet> sightings, List<Loss> lost, List<Message> messages) {

    /** A vantage point: its capture, how many frames it holds, and its clock. */
    public record Point(String name, String capture, int frames, long clockOffsetNs, double clockDriftPpm) {
    }

    /**
     * One direction of a link: {@code from} and {@code to} are the vantage points at its ends; a packet
     * crossing it takes the propagation delay, its own serialisation at 100 Gb/s and 0–150 ns of queueing,
     * in FIFO order.
     */
    public record Link(String name, String from, String to, long propagationNs) {
    }

    /**
     * The true clock offset of {@code to} relative to {@code from} ({@code to}'s stamp minus {@code from}'s for
     * one instant): {@code offsetNs} at {@code startNanos}, changing by {@code driftPpm} (the difference of the
     * two clocks' drifts); {@code offsetAtFirstPacketNs} and {@code offsetAtLastPacketNs} at the run's first
     * and last packet.
     */
    public record PairClock(String from, String to, long offsetNs, double driftPpm, long offsetAtFirstPacketNs,
                            long offsetAtLastPacketNs) {
    }

    /** Per point the RDMA packets its capture holds; distinct packets, and those seen at two points or more. */
    public record Counts(List<Integer> perPoint, int distinct, int multiSighted) {
    }

    /**
     * One packet copy as its sender emitted it ({@code id} in emission order): its direction, BTH fields,
     * whether it resends a PSN already sent, the link it died on (null when it arrived), and every sighting.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Packet(int id, String sender, String direction, int destQp, int psn, String opcode,
                         boolean retransmission, String lostOn, List<Sighting> seen) {
    }

    /** A point's frame of a packet: the true time it passed the point and the point's stamp of it. */
    public record Sighting(String at, int frame, long trueNs, long stampNs) {
    }

    /** A packet copy that died on a link: seen at {@code lastSeenAt}'s frame, never at {@code missingAt}. */
    public record Loss(int packet, String direction, int destQp, int psn, String opcode, String link,
                       String lastSeenAt, int lastSeenFrame, String missingAt) {
    }

    /**
     * A message, found by the requester capture's frame of its first packet's first copy. {@code delays}: that
     * copy's true one-way delay between every two points that saw it, upstream first. {@code thinkNs}: the
     * responder's think time, from the arrival of the request packet its completing response answers (the last
     * copy of its last request packet to reach the responder before that response) to the first packet of the
     * response to it leaving the responder (a READ's first response packet; the ACK or atomic acknowledge
     * otherwise). {@code fabricNs}: that request's leaving the requester to that response's arriving there, minus
     * the think time (the two one-way trips through the fabric); null when that response never reached the
     * requester. {@code thinkRequest} and {@code thinkResponse}: the two packets ({@link Packet#id}) the think time
     * runs between. {@code turnaround}: first packet in to completing response out, at the
     * responder's host (what that host's capture shows, clock drift aside), null when the first copy never
     * reached the responder. {@code completionFrame}: the requester capture's frame of the completing response.
     */
    public record Message(String kind, int destQp, int firstPsn, int requesterFrame, Integer completionFrame,
                          List<Hop> delays, Long thinkNs, Long fabricNs, Integer thinkRequest,
                          Integer thinkResponse, Turnaround turnaround) {
    }

    /** A true one-way delay between two points. */
    public record Hop(String from, String to, long ns) {
    }

    /** First packet to completion at one point, in true time. */
    public record Turnaround(String at, long ns) {
    }
}
