package io.rdmascope.cli;

import io.rdmascope.replay.Flow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

import static io.rdmascope.cli.Table.Column.left;
import static io.rdmascope.cli.Table.Column.right;

/**
 * {@code rdmascope flows}: one row per queue-pair conversation, like Wireshark's conversation table.
 * Side A sent the first request (or is the CM active side). The counters are both directions' sums;
 * {@code --json} has them per side.
 */
@Command(name = "flows", sortOptions = false,
        description = {"List the queue-pair conversations of a capture, like Wireshark's conversation table.",
                "One row per conversation: both sides (address, QP, UDP source port), setup (cm or none), state, "
                        + "packets each way, completed messages and their bytes (a message that failed, or was still open "
                        + "when the capture ended, is not counted), duration, goodput, message latency p50/p99/max, "
                        + "retransmissions, NAKs, RNR NAKs, ECN CE marks and CNPs. --json prints every "
                        + "statistic per side."})
final class FlowsCommand implements Callable<Integer> {
    /**
     * Least important first when the terminal is narrow: the UDP ports, the setup, p99, the rarer
     * congestion counters, duration, packet counts, transport; the addresses shrink before the
     * conversation's identity, its messages, goodput and errors go.
     */
    private static final Table TABLE = new Table(right("Conv"), left("Transport").drop(9), left("Address A").shrink(),
            left("QP A"), right("Port A").drop(1), left("Address B").shrink(), left("QP B"), right("Port B").drop(2),
            left("Setup").drop(3), left("State").drop(14), right("Packets A→B").drop(10), right("Packets B→A").drop(11),
            right("Messages").drop(16), right("Bytes").drop(15), right("Duration(s)").drop(8),
            right("Goodput").drop(17), right("p50(µs)").drop(12), right("p99(µs)").drop(4), right("Max(µs)").drop(13),
            right("Retrans").drop(19), right("NAKs").drop(18), right("RNR NAKs").drop(7), right("CE").drop(5),
            right("CNPs").drop(6));

    @ParentCommand
    Main parent;

    @Mixin
    CaptureArgs capture;

    @Option(names = "--wide", description = "every column, however wide the terminal (see docs/cli.md)")
    boolean wide;

    @Override
    public Integer call() throws IOException {
        Replay replay = capture.replay(false);
        List<Flow> flows = replay.result().flows();
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (capture.json) {
            ReplayJson.writeArray(out, flows);
        } else {
            Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            TABLE.print(text, flows, FlowsCommand::cells, wide ? 0 : parent.terminalColumns());
            text.flush();
        }
        out.flush();
        replay.rethrowFailure();
        return Main.EXIT_OK;
    }

    private static String[] cells(Flow f) {
        Flow.Side a = f.a();
        Flow.Side b = f.b();
        Flow.Latency l = f.latency();
        boolean timed = l != null && l.count() > 0;
        return new String[] {f.conversation(), f.transport().name(), a.address(), Text.qp(a.qpn()), port(a),
                b.address(), Text.qp(b.qpn()), port(b), f.setup(), f.state() == null ? "-" : f.state(),
                Long.toString(a.packets()), Long.toString(b.packets()), Long.toString(a.messages() + b.messages()),
                Long.toString(a.messageBytes() + b.messageBytes()),
                Text.seconds(f.lastTimeNanos() - f.firstTimeNanos()),
                Text.bitsPerSecond(f.goodputBitsPerSecond()),
                timed ? Text.micros(l.p50Nanos()) : "-", timed ? Text.micros(l.p99Nanos()) : "-",
                timed ? Text.micros(l.maxNanos()) : "-",
                Long.toString(a.retransmissions() + b.retransmissions()), Long.toString(a.naks() + b.naks()),
                Long.toString(a.rnrNaks() + b.rnrNaks()), Long.toString(a.ceMarks() + b.ceMarks()),
                Long.toString(a.cnps() + b.cnps())};
    }

    private static String port(Flow.Side s) {
        return s.udpSourcePort() == null ? "-" : s.udpSourcePort().toString();
    }
}
