package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.IcrcCheck;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.proto.erf.Erf;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The RDMA statistics of {@code dissect -z}, which tshark has no equivalent of: {@code conv,ib} and
 * {@code endpoints,ib} (queue-pair conversations and endpoints, in the layout of tshark's UDP tables
 * with the QP where the port goes) and {@code rdma,srt} (message response times per transport and kind,
 * in the layout of tshark's SRT tables). They come from a replay of the frames -Y keeps, as the replay
 * verbs' tables do (docs/cli.md): the engine pairs both directions of a QP conversation, which no
 * per-frame address pair can (a BTH names only the destination QP).
 */
final class RdmaStatistics {
    private static final String SRT_RULE = "===================================================================";

    private final ReplayResult replay;
    /** Per frame kept, in order: its number, frame.len and time since the first frame. */
    private long[] numbers = new long[256];
    private long[] bytes = new long[256];
    private long[] times = new long[256];
    private int frames;

    RdmaStatistics(IcrcCheck icrc) {
        replay = new ReplayResult(icrc); // with messages: the SRT needs them, the tables the frame placements
    }

    void frame(Dissection d) {
        replay.accept(d);
        if (frames == numbers.length) {
            numbers = Arrays.copyOf(numbers, frames * 2);
            bytes = Arrays.copyOf(bytes, frames * 2);
            times = Arrays.copyOf(times, frames * 2);
        }
        numbers[frames] = d.frame().number();
        bytes[frames] = Erf.shownWireLength(d.frame());
        times[frames] = d.timeNanos() - d.referenceTimeNanos();
        frames++;
    }

    /** Per conversation id, its two sides' counts (index = the side that sent). */
    private Map<String, AddressConversations.Counts[]> countsByConversation(ReplayResult done) {
        FrameAnalysis analysis = FrameAnalysis.of(done);
        Map<String, AddressConversations.Counts[]> counts = new LinkedHashMap<>();
        for (int i = 0; i < frames; i++) {
            String conversation = analysis.conversationOf(numbers[i]);
            int side = analysis.sideOf(numbers[i]);
            if (conversation == null || side < 0) {
                continue;
            }
            AddressConversations.Counts[] c = counts.computeIfAbsent(conversation,
                    k -> new AddressConversations.Counts[] {new AddressConversations.Counts(),
                            new AddressConversations.Counts()});
            c[side].add(true, bytes[i], times[i]);
            c[1 - side].add(false, bytes[i], times[i]);
        }
        return counts;
    }

    private static AddressConversations.Endpoint endpoint(Flow.Side s) {
        return new AddressConversations.Endpoint(s.address(), Text.qp(s.qpn()));
    }

    void printConversations(StringBuilder out) {
        ReplayResult done = replay.finish();
        Map<String, AddressConversations.Counts[]> counts = countsByConversation(done);
        Map<List<AddressConversations.Endpoint>, AddressConversations.Counts> rows = new LinkedHashMap<>();
        for (Flow f : done.flows()) {
            AddressConversations.Counts[] c = counts.get(f.conversation());
            if (c != null) {
                rows.put(List.of(endpoint(f.a()), endpoint(f.b())), c[0]);
            }
        }
        out.append(AddressConversations.table(rows, "InfiniBand", 26));
    }

    void printEndpoints(StringBuilder out) {
        ReplayResult done = replay.finish();
        Map<String, AddressConversations.Counts[]> counts = countsByConversation(done);
        Map<AddressConversations.Endpoint, AddressConversations.Counts> rows = new LinkedHashMap<>();
        for (Flow f : done.flows()) {
            AddressConversations.Counts[] c = counts.get(f.conversation());
            if (c == null) {
                continue;
            }
            merge(rows.computeIfAbsent(endpoint(f.a()), e -> new AddressConversations.Counts()), c[0]);
            merge(rows.computeIfAbsent(endpoint(f.b()), e -> new AddressConversations.Counts()), c[1]);
        }
        out.append(AddressConversations.endpointTable(rows, "InfiniBand", "QP", 8));
    }

    private static void merge(AddressConversations.Counts into, AddressConversations.Counts from) {
        into.txFrames += from.txFrames;
        into.txBytes += from.txBytes;
        into.rxFrames += from.rxFrames;
        into.rxBytes += from.rxBytes;
        into.startNanos = Math.min(into.startNanos, from.startNanos);
        into.stopNanos = Math.max(into.stopNanos, from.stopNanos);
    }

    /** Response times: one row per transport and message kind, from the first request frame to completion. */
    void printServiceResponseTimes(StringBuilder out) {
        ReplayResult done = replay.finish();
        // transport, then kind, in their declaration order: calls, min, max, sum
        Map<String, long[]> rows = new TreeMap<>();
        for (Message m : done.messages()) {
            if (m.latencyNanos() == null) {
                continue;
            }
            String key = String.format("%02d%02d%s %s", m.transport().ordinal(), m.kind().ordinal(),
                    m.transport().name(), m.kind().name());
            long[] s = rows.computeIfAbsent(key, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE, 0});
            long t = m.latencyNanos();
            s[0]++;
            s[1] = Math.min(s[1], t);
            s[2] = Math.max(s[2], t);
            s[3] += t;
        }
        out.append('\n').append(SRT_RULE).append("\nRDMA SRT Statistics:\nFilter: \n");
        out.append(String.format("Index  %-22s  Calls    Min SRT    Max SRT    Avg SRT    Sum SRT%n", "Message"));
        int index = 0;
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            long[] s = e.getValue();
            out.append(String.format("%5d  %-22s %6d %s %s %s %s%n", ++index, e.getKey().substring(4), s[0],
                    micros(s[1]), micros(s[2]), micros(s[3] / s[0]), micros(s[3])));
        }
        out.append(SRT_RULE).append('\n');
    }

    /** tshark's SRT cell: seconds with six decimals, "%3d.%06d". */
    private static String micros(long nanos) {
        long us = nanos / 1000;
        return String.format("%3d.%06d", us / 1_000_000, us % 1_000_000);
    }
}
