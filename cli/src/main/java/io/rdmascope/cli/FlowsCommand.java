package io.rdmascope.cli;

import io.rdmascope.replay.Flow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import static io.rdmascope.cli.Table.Column.left;
import static io.rdmascope.cli.Table.Column.right;

/**
 * {@code rdmascope flows}: one row per queue-pair conversation, like Wireshark's conversation table.
 * Side A sent the first request (or is the CM active side). The counters are both directions' sums;
 * {@code --json} has them per side.
 */
@Command(name = "flows", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"List the queue-pair conversations of a capture, like Wireshark's conversation table.",
                "One row per conversation: both sides (address, QP, UDP source port), setup (cm or none), state, "
                        + "packets each way, messages, bytes, duration, goodput, message latency p50/p99/max, "
                        + "retransmissions, NAKs, RNR NAKs, ECN CE marks and CNPs. --json prints every "
                        + "statistic per side."})
final class FlowsCommand implements Callable<Integer> {
    private static final Table TABLE = new Table(right("Conv"), left("Transport"), left("Address A"), left("QP A"),
            right("Port A"), left("Address B"), left("QP B"), right("Port B"), left("Setup"), left("State"),
            right("Packets A→B"), right("Packets B→A"), right("Messages"), right("Bytes"), right("Duration(s)"),
            right("Goodput(Gb/s)"), right("p50(µs)"), right("p99(µs)"), right("Max(µs)"), right("Retrans"),
            right("NAKs"), right("RNR NAKs"), right("CE"), right("CNPs"));

    @ParentCommand
    Main parent;

    @Parameters(paramLabel = "FILE", description = "pcap, pcapng, ERF or gzip-compressed capture")
    Path file;

    @Option(names = "--json", description = "print the conversations as a JSON array")
    boolean json;

    @Option(names = "--roce-port", paramLabel = "PORT", description = "also decode RoCEv2 on this UDP port")
    List<Integer> rocePorts = new ArrayList<>();

    @Mixin
    IcrcOption icrc;

    @Override
    public Integer call() throws IOException {
        Replay replay = Replay.of(file, rocePorts, false, icrc.check());
        List<Flow> flows = replay.result().flows();
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (json) {
            ReplayJson.writeArray(out, flows);
        } else {
            Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            TABLE.print(text, flows, FlowsCommand::cells);
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
                Text.decimal3(f.goodputBitsPerSecond() / 1e9),
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
