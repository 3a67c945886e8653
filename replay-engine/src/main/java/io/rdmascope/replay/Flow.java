package io.rdmascope.replay;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * One conversation as {@code flows} shows it: its two sides, how it was set up and ended ({@code state}:
 * the newest CM state, "error", or "active" when nothing on the wire said), and its statistics. Side
 * "a" is the side that sent the first request (or the CM active side). The duration runs from its
 * first to its last frame, CM included.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Flow(String conversation, Transport transport, Side a, Side b, String setup, String state,
                   Integer pmtu, long firstTimeNanos, long lastTimeNanos, long durationNanos,
                   double goodputBitsPerSecond, List<Transition> lifecycle, Latency latency,
                   Map<MessageKind, Latency> latencyByKind, Series goodputOverTime,
                   @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                   String capturePoint) {

    /** The same flow under another conversation id (the engine's final numbering). */
    public Flow withConversation(String id) {
        return id.equals(conversation) ? this : new Flow(id, transport, a, b, setup, state, pmtu, firstTimeNanos,
                lastTimeNanos, durationNanos, goodputBitsPerSecond, lifecycle, latency, latencyByKind, goodputOverTime,
                capturePoint);
    }

    /**
     * Bytes of completed messages over time, by completion time: bucket i covers
     * [startNanos + i·bucketNanos, +bucketNanos). The bucket width grows with the conversation so the
     * series stays short (at most 1,024 buckets).
     */
    public record Series(long startNanos, long bucketNanos, long[] bytes) {
    }

    /**
     * What one side sent as requester and what happened to it: packets and payload it sent, messages
     * of its that completed, retransmissions, timeouts, losses, NAKs and RNR NAKs it received, ECN CE
     * marks on its packets, and the CNPs its NIC received (with their spacing).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Side(String address, Integer qpn, Integer udpSourcePort, long packets, long requestPackets,
                       long payloadBytes,
                       long messages, long messageBytes, long retransmissions, long duplicates, long timeouts,
                       long lost, long naks, long rnrNaks, long rnrWaitNanos, long ceMarks, long cnps,
                       Long cnpMinGapNanos, Long cnpMeanGapNanos) {
    }

    /** A QP state change with the frame that shows it. */
    public record Transition(long frame, String state) {
    }

    /** Message latency distribution: count, p50, p90, p99 (within 6.25 %), max. */
    public record Latency(long count, long p50Nanos, long p90Nanos, long p99Nanos, long maxNanos) {
        static Latency of(LatencyHistogram h) {
            return new Latency(h.count(), h.percentile(0.5), h.percentile(0.9), h.percentile(0.99), h.max());
        }
    }

    /** Goodput: bytes of completed messages over the conversation's lifetime, in bits per second (0 if instantaneous). */
    static double goodput(long messageBytes, long durationNanos) {
        return durationNanos <= 0 ? 0 : messageBytes * 8e9 / durationNanos;
    }
}
