package io.rdmascope.gui.statistics;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.util.Job;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.ProtocolHierarchy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Statistics → Protocol Hierarchy, Conversations and Endpoints show, made in one pass over the
 * frames the app has already indexed (each dissected again on the fast path; no replay):
 *
 * <ul>
 * <li>the protocol hierarchy as {@code tshark -z io,phs}, by the {@link ProtocolHierarchy} that
 *     {@code summary} and {@code dissect -z io,phs} use;</li>
 * <li>conversations between the addresses of the Source and Destination columns (IP addresses,
 *     else the link or LID addresses the columns show), both directions counted apart, as
 *     {@code -z conv} does per address type;</li>
 * <li>endpoints: every such address with what it sent and received ({@code -z endpoints}).</li>
 * </ul>
 */
public final class TrafficStatistics {

    /**
     * Two addresses that exchanged frames; A is the address that sent first.
     *
     * @param startNanos first frame's time relative to the capture's first frame
     */
    public record Conversation(String addressA, String addressB, long framesAtoB, long bytesAtoB, long framesBtoA,
                               long bytesBtoA, long startNanos, long durationNanos) {
        public long frames() {
            return framesAtoB + framesBtoA;
        }

        public long bytes() {
            return bytesAtoB + bytesBtoA;
        }
    }

    /** One address with what it sent (tx) and received (rx). */
    public record Endpoint(String address, long txFrames, long txBytes, long rxFrames, long rxBytes) {
        public long frames() {
            return txFrames + rxFrames;
        }

        public long bytes() {
            return txBytes + rxBytes;
        }
    }

    /** The three statistics of one pass; {@code frames} and {@code bytes} are the totals counted. */
    public record Result(List<ProtocolHierarchy.Node> hierarchy, List<Conversation> conversations, List<Endpoint> endpoints,
                         long frames, long bytes) {
    }

    private TrafficStatistics() {
    }

    /**
     * Counts {@code frames} (frame numbers) of {@code index}; null when {@code job} is cancelled
     * first.
     */
    public static Result compute(FrameIndex index, DissectorChain chain, int[] frames, Job job) {
        FrameDecoder decoder = new FrameDecoder(index, chain);
        ProtocolHierarchy hierarchy = new ProtocolHierarchy();
        Map<String, long[]> byPair = new LinkedHashMap<>();
        Map<String, String[]> pairAddresses = new LinkedHashMap<>();
        Map<String, long[]> byAddress = new LinkedHashMap<>();
        long first = index.firstTimeNanos();
        long totalBytes = 0;
        for (int k = 0; k < frames.length; k++) {
            if ((k & 1023) == 0 && job.isCancelled()) {
                return null;
            }
            int number = frames[k];
            Dissection d = decoder.dissect(number);
            long bytes = d.frame().wireLength();
            long t = d.frame().timeNanos() - first;
            totalBytes += bytes;
            hierarchy.add(d, bytes);
            PacketSummary.Columns c = PacketSummary.of(d);
            String src = c.source();
            String dst = c.destination();
            if (src.isEmpty() && dst.isEmpty()) {
                continue;
            }
            String key = src.compareTo(dst) <= 0 ? src + "\u0000" + dst : dst + "\u0000" + src;
            String[] ab = pairAddresses.computeIfAbsent(key, x -> new String[]{src, dst});
            // framesAtoB, bytesAtoB, framesBtoA, bytesBtoA, start, end
            long[] conv = byPair.computeIfAbsent(key, x -> new long[]{0, 0, 0, 0, t, t});
            boolean aToB = ab[0].equals(src);
            conv[aToB ? 0 : 2]++;
            conv[aToB ? 1 : 3] += bytes;
            conv[5] = Math.max(conv[5], t);
            count(byAddress, src, 0, bytes);
            count(byAddress, dst, 2, bytes);
        }
        List<Conversation> conversations = new ArrayList<>();
        for (Map.Entry<String, long[]> e : byPair.entrySet()) {
            String[] ab = pairAddresses.get(e.getKey());
            long[] v = e.getValue();
            conversations.add(new Conversation(ab[0], ab[1], v[0], v[1], v[2], v[3], v[4], v[5] - v[4]));
        }
        List<Endpoint> endpoints = new ArrayList<>();
        for (Map.Entry<String, long[]> e : byAddress.entrySet()) {
            long[] v = e.getValue();
            endpoints.add(new Endpoint(e.getKey(), v[0], v[1], v[2], v[3]));
        }
        return new Result(hierarchy.tree(), conversations, endpoints, frames.length, totalBytes);
    }

    private static void count(Map<String, long[]> byAddress, String address, int slot, long bytes) {
        if (address.isEmpty()) {
            return;
        }
        long[] v = byAddress.computeIfAbsent(address, x -> new long[4]);
        v[slot]++;
        v[slot + 1] += bytes;
    }
}
