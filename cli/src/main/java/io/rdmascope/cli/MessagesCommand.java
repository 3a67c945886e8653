package io.rdmascope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Transport;
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
import java.util.function.LongFunction;

import static io.rdmascope.cli.Table.Column.left;
import static io.rdmascope.cli.Table.Column.right;

/** {@code rdmascope messages}: the reassembled messages of a capture, one row each, in order of first frame. */
@Command(name = "messages", sortOptions = false,
        description = {"List the reassembled RDMA messages of a capture, in order of first frame.",
                "One row per message: conversation, transport, kind, source and destination QP, PSN range, "
                        + "bytes, frames, first and completion frame, latency and status. --json prints the "
                        + "messages as JSON objects (a stable contract)."})
final class MessagesCommand implements Callable<Integer> {
    /** RFC 5040 §5.1: the untagged queues of an iWARP stream, fixed by the operation. */
    private static final int QN_SEND = 0;
    private static final int QN_READ_REQUEST = 1;

    @ParentCommand
    Main parent;

    @Mixin
    CaptureArgs capture;

    @Option(names = "--qp", paramLabel = "N",
            description = "only messages whose source or destination QP is N (decimal or 0x hex)")
    String qp;

    @Option(names = "--wide", description = "every column, however wide the terminal (see docs/cli.md)")
    boolean wide;

    @Override
    public Integer call() throws IOException {
        Integer wanted = qp == null ? null : parseQp(qp);
        Replay replay = capture.replay(true);
        List<Message> messages = replay.result().messages();
        if (wanted != null) {
            messages = messages.stream().filter(m -> m.transport() != Transport.IWARP
                    && (wanted.equals(m.srcQp()) || m.destQp() == wanted)).toList();
        }
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        Vantage vantage = replay.vantage();
        if (capture.json && vantage != null) {
            ReplayJson.writeArray(out, messages.stream().map(m -> withSightings(m, vantage)).toList());
        } else if (capture.json) {
            ReplayJson.writeArray(out, messages);
        } else {
            Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            LongFunction<String> frame = vantage == null ? Long::toString : vantage::firstText;
            table(messages).print(text, messages, m -> cells(m, frame), wide ? 0 : parent.terminalColumns());
            text.flush();
        }
        out.flush();
        replay.rethrowFailure();
        return Main.EXIT_OK;
    }

    /**
     * The columns, their headers honest about what the rows hold: an iWARP message has no QP and no PSN
     * but a DDP queue number and message sequence number (RFC 5041 §5.1), shown under QN and MSN.
     * Least important first when the terminal is narrow: Completion, Frames, Transport, First, Latency.
     */
    private static Table table(List<Message> messages) {
        boolean iwarp = messages.stream().anyMatch(m -> m.transport() == Transport.IWARP);
        boolean ib = messages.stream().anyMatch(m -> m.transport() != Transport.IWARP);
        String qpHeader = iwarp ? (ib ? "QP/QN" : "QN") : "QP";
        String psnHeader = iwarp ? (ib ? "PSN/MSN" : "MSN") : "PSN";
        return new Table(right("Conv"), left("Transport").drop(3), left("Kind"), left("Source").shrink(),
                left("QP").drop(6), left(""), left("Destination").shrink(), left(qpHeader).drop(7), left(psnHeader).drop(8),
                right("Bytes").drop(9), right("Frames").drop(2), right("First").drop(4), right("Completion").drop(1),
                right("Latency(µs)").drop(5), left("Status").shrink());
    }

    /**
     * A message of a union (issue 20) as JSON: the single-file object, then where its frames were seen,
     * one array of "NAME:frame" per union frame of {@code frames}, {@code responseFrames} and the completion.
     */
    static ObjectNode withSightings(Message m, Vantage vantage) {
        ObjectNode o = MAPPER.valueToTree(m);
        ObjectNode s = o.putObject("sightings");
        s.set("frames", vantage.json(m.frames().stream().map(Integer::longValue).toList()));
        s.set("responseFrames", vantage.json(m.responseFrames().stream().map(Integer::longValue).toList()));
        if (m.completionFrame() == null) {
            s.putNull("completionFrame");
        } else {
            s.set("completionFrame", vantage.json(List.of((long) m.completionFrame())).get(0));
        }
        return o;
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** @param frame how a frame number is shown: itself, or for a union the first point that saw it */
    private static String[] cells(Message m, LongFunction<String> frame) {
        String queue;
        String sequence;
        String srcQp;
        if (m.transport() == Transport.IWARP) {
            // Tagged messages (WRITE) carry neither a queue number nor an MSN (RFC 5041 §4.2).
            boolean untagged = m.kind() != MessageKind.WRITE;
            srcQp = "-";
            queue = untagged ? Integer.toString(m.kind() == MessageKind.READ ? QN_READ_REQUEST : QN_SEND) : "-";
            sequence = untagged ? Integer.toUnsignedString(m.firstPsn()) : "-";
        } else {
            srcQp = Text.qp(m.srcQp());
            queue = Text.qp(m.destQp());
            sequence = m.firstPsn() == m.lastPsn() ? Integer.toString(m.firstPsn()) : m.firstPsn() + "-" + m.lastPsn();
        }
        return new String[] {m.conversation(), m.transport().name(), m.kind().name(), m.src(), srcQp,
                "\u2192", m.dst(), queue, sequence, Long.toString(m.bytes()),
                Integer.toString(m.frames().size()), m.frames().isEmpty() ? "-" : frame.apply(m.frames().get(0)),
                m.completionFrame() == null ? "-" : frame.apply(m.completionFrame()), Text.micros(m.latencyNanos()),
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
