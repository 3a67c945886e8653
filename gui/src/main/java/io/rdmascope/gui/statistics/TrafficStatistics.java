package io.rdmascope.gui.statistics;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.util.Job;
import io.rdmascope.proto.frame.FrameFields;
import io.rdmascope.text.PacketSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Statistics → Protocol Hierarchy, Conversations and Endpoints show, made in one pass over the
 * frames the app has already indexed (each dissected again on the fast path; no replay):
 *
 * <ul>
 * <li>the protocol hierarchy as {@code tshark -z io,phs}: each frame's {@code frame.protocols}
 *     without {@code ethertype}, counted at every level with its wire bytes;</li>
 * <li>conversations between the addresses of the Source and Destination columns (IP addresses,
 *     else the link or LID addresses the columns show), both directions counted apart, as
 *     {@code -z conv} does per address type;</li>
 * <li>endpoints: every such address with what it sent and received ({@code -z endpoints}).</li>
 * </ul>
 */
public final class TrafficStatistics {

    /** A protocol under its parent with the frames and wire bytes that contain it. */
    public record ProtocolNode(String protocol, long frames, long bytes, List<ProtocolNode> children) {
    }

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
    public record Result(List<ProtocolNode> hierarchy, List<Conversation> conversations, List<Endpoint> endpoints,
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
        MutableProtocol root = new MutableProtocol("");
        Map<String, long[]> byPair = new LinkedHashMap<>();
        Map<String, String[]> pairAddresses = new LinkedHashMap<>();
        Map<String, long[]> byAddress = new LinkedHashMap<>();
        Map<String, String[]> pathCache = new java.util.HashMap<>();
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
            String protocols = FrameFields.protocolsOf(d);
            String[] path = pathCache.computeIfAbsent(protocols, TrafficStatistics::levels);
            MutableProtocol at = root;
            for (String p : path) {
                at = at.child(p);
                at.frames++;
                at.bytes += bytes;
            }
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
        return new Result(root.freeze().children(), conversations, endpoints, frames.length, totalBytes);
    }

    private static void count(Map<String, long[]> byAddress, String address, int slot, long bytes) {
        if (address.isEmpty()) {
            return;
        }
        long[] v = byAddress.computeIfAbsent(address, x -> new long[4]);
        v[slot]++;
        v[slot + 1] += bytes;
    }

    /** {@code frame.protocols} as hierarchy levels: io,phs leaves out {@code ethertype}. */
    static String[] levels(String frameProtocols) {
        List<String> out = new ArrayList<>();
        for (String p : frameProtocols.split(":")) {
            if (!p.isEmpty() && !p.equals("ethertype")) {
                out.add(p);
            }
        }
        return out.toArray(String[]::new);
    }

    private static final class MutableProtocol {
        final String name;
        long frames;
        long bytes;
        final List<MutableProtocol> children = new ArrayList<>(2);

        MutableProtocol(String name) {
            this.name = name;
        }

        MutableProtocol child(String n) {
            for (MutableProtocol c : children) {
                if (c.name.equals(n)) {
                    return c;
                }
            }
            MutableProtocol c = new MutableProtocol(n);
            children.add(c);
            return c;
        }

        ProtocolNode freeze() {
            return new ProtocolNode(name, frames, bytes, children.stream().map(MutableProtocol::freeze).toList());
        }
    }
}
