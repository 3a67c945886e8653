package io.rdmascope.cli;

import io.rdmascope.replay.Message;
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

/** {@code rdmascope messages}: the reassembled messages of a capture, one row each, in order of first frame. */
@Command(name = "messages", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"List the reassembled RDMA messages of a capture, in order of first frame.",
                "One row per message: conversation, transport, kind, source and destination QP, PSN range, "
                        + "bytes, frames, first and completion frame, latency and status. --json prints the "
                        + "messages as JSON objects (a stable contract)."})
final class MessagesCommand implements Callable<Integer> {
    private static final Table TABLE = new Table(right("Conv"), left("Transport"), left("Kind"), left("Source"),
            left("QP"), left(""), left("Destination"), left("QP"), left("PSN"), right("Bytes"), right("Frames"),
            right("First"), right("Completion"), right("Latency(µs)"), left("Status"));

    @ParentCommand
    Main parent;

    @Parameters(paramLabel = "FILE", description = "pcap, pcapng, ERF or gzip-compressed capture")
    Path file;

    @Option(names = "--qp", paramLabel = "N",
            description = "only messages whose source or destination QP is N (decimal or 0x hex)")
    String qp;

    @Option(names = "--json", description = "print the messages as a JSON array (the messages --json contract)")
    boolean json;

    @Option(names = "--roce-port", paramLabel = "PORT", description = "also decode RoCEv2 on this UDP port")
    List<Integer> rocePorts = new ArrayList<>();

    @Mixin
    IcrcOption icrc;

    @Override
    public Integer call() throws IOException {
        Integer wanted = qp == null ? null : parseQp(qp);
        Replay replay = Replay.of(file, rocePorts, icrc.check());
        List<Message> messages = replay.result().messages();
        if (wanted != null) {
            messages = messages.stream().filter(m -> wanted.equals(m.srcQp()) || m.destQp() == wanted).toList();
        }
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (json) {
            ReplayJson.writeArray(out, messages);
        } else {
            Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            TABLE.print(text, messages, MessagesCommand::cells);
            text.flush();
        }
        out.flush();
        replay.rethrowFailure();
        return Main.EXIT_OK;
    }

    private static String[] cells(Message m) {
        String psns = m.firstPsn() == m.lastPsn() ? Integer.toString(m.firstPsn()) : m.firstPsn() + "-" + m.lastPsn();
        return new String[] {m.conversation(), m.transport().name(), m.kind().name(), m.src(), Text.qp(m.srcQp()),
                "\u2192", m.dst(), Text.qp(m.destQp()), psns, Long.toString(m.bytes()),
                Integer.toString(m.frames().size()), m.frames().isEmpty() ? "-" : m.frames().get(0).toString(),
                m.completionFrame() == null ? "-" : m.completionFrame().toString(), Text.micros(m.latencyNanos()),
                m.status()};
    }

    /** A QP number: decimal, or hexadecimal with 0x; 24 bits. */
    static int parseQp(String text) {
        String s = text.strip();
        try {
            long value = s.regionMatches(true, 0, "0x", 0, 2) ? Long.parseLong(s.substring(2), 16) : Long.parseLong(s);
            if (value >= 0 && value <= 0xFFFFFF) {
                return (int) value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new DissectCommand.UsageError("--qp takes a QP number 0..16777215, decimal or 0x hex (got '" + text
                + "')");
    }
}
