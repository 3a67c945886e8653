package io.rdmascope.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Service response time per protocol and opcode, as tshark's {@code -z rpc,srt} and {@code -z scsi,srt}
 * count it: answered operations (completed or failed) give the calls and their latencies; unanswered ones
 * are counted apart, which tshark does not show. A sink for {@link OperationTracker}; constant memory per
 * opcode.
 */
public final class ServiceResponseTimes implements Consumer<Operation> {
    /**
     * One opcode's row.
     *
     * @param calls      answered operations (completed or failed)
     * @param failed     how many of them failed
     * @param unanswered operations that got no response
     * @param minNanos   the shortest latency, null when no call was answered (likewise max, average, sum)
     * @param avgNanos   the sum over the calls, rounded down
     */
    public record Row(String protocol, String opcode, long calls, long failed, long unanswered, Long minNanos,
                      Long maxNanos, Long avgNanos, Long sumNanos) {
    }

    private static final class Counts {
        long calls;
        long failed;
        long unanswered;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long sum;
    }

    /** By protocol, then opcode: the order rows are listed in. */
    private final Map<String, Map<String, Counts>> counts = new TreeMap<>();

    @Override
    public void accept(Operation o) {
        Counts c = counts.computeIfAbsent(o.protocol(), p -> new TreeMap<>()).computeIfAbsent(o.opcode(),
                k -> new Counts());
        if (o.latencyNs() == null) {
            c.unanswered++;
            return;
        }
        long latency = o.latencyNs();
        c.calls++;
        c.failed += Operation.FAILED.equals(o.status()) ? 1 : 0;
        c.min = Math.min(c.min, latency);
        c.max = Math.max(c.max, latency);
        c.sum += latency;
    }

    /** The rows, by protocol and opcode; empty when no operation was seen. */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        counts.forEach((protocol, byOpcode) -> byOpcode.forEach((opcode, c) -> {
            boolean timed = c.calls > 0;
            rows.add(new Row(protocol, opcode, c.calls, c.failed, c.unanswered, timed ? c.min : null,
                    timed ? c.max : null, timed ? c.sum / c.calls : null, timed ? c.sum : null));
        }));
        return List.copyOf(rows);
    }
}
