package io.rdmascope.gui.statistics;

import io.rdmascope.replay.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Statistics → RDMA Service Response Time, in the shape of Wireshark's SRT tables ({@code -z
 * rpc,srt}, {@code -z smb2,srt}): one row per operation with the number of calls and the minimum,
 * maximum, average and total time from the request's first frame to the response that completed it
 * (the replay's message latency). Messages without a latency (incomplete, or a send the capture
 * never saw acknowledged) are not calls here, as unanswered requests are not in Wireshark's.
 */
public final class ServiceResponseTime {

    /** One operation's row; times in nanoseconds. */
    public record Row(String operation, long calls, long minNanos, long maxNanos, long sumNanos) {
        public double averageNanos() {
            return calls == 0 ? 0 : (double) sumNanos / calls;
        }
    }

    private ServiceResponseTime() {
    }

    /** The table of {@code messages}, operations in MessageKind order. */
    public static List<Row> of(List<Message> messages) {
        Map<io.rdmascope.replay.MessageKind, long[]> byKind = new TreeMap<>();
        for (Message m : messages) {
            Long l = m.latencyNanos();
            if (l == null) {
                continue;
            }
            long[] v = byKind.computeIfAbsent(m.kind(), k -> new long[]{0, Long.MAX_VALUE, Long.MIN_VALUE, 0});
            v[0]++;
            v[1] = Math.min(v[1], l);
            v[2] = Math.max(v[2], l);
            v[3] += l;
        }
        List<Row> out = new ArrayList<>();
        byKind.forEach((k, v) -> out.add(new Row(k.name(), v[0], v[1], v[2], v[3])));
        return out;
    }
}
