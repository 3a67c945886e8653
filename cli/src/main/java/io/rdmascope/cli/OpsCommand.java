package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.ops.Operation;
import io.rdmascope.ops.OperationTracker;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

import static io.rdmascope.cli.Table.Column.left;
import static io.rdmascope.cli.Table.Column.right;

/**
 * {@code rdmascope ops}: the storage operations of a capture (issue 19), one row per NVMe-oF command,
 * iSCSI task, RPC call or SMB2 request, in order of the command's frame: like tshark's
 * {@code -z scsi,srt} or {@code -z rpc,srt}, but per command rather than per procedure.
 */
@Command(name = "ops", sortOptions = false,
        description = {"List the storage operations of a capture: NVMe-oF commands, iSCSI tasks (iSER), RPC calls "
                + "(RPC-over-RDMA) and SMB2 requests (SMB Direct), in order of the command's frame.",
                "One row per operation: protocol, queue, opcode, id, size, command, response and data frames, "
                        + "latency split into delivery (command to its transport ACK), data movement and completion, "
                        + "and status (completed, failed with the protocol's status, or unanswered with why). "
                        + "--json prints the operations as JSON objects (a stable contract, docs/cli.md)."})
final class OpsCommand implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @Mixin
    CaptureArgs capture;

    @Option(names = "--wide", description = "every column, however wide the terminal (see docs/cli.md)")
    boolean wide;

    @Override
    public Integer call() throws IOException {
        if (capture.union()) {
            throw new DissectCommand.UsageError("ops reads one capture (got " + capture.inputs.size() + ")");
        }
        ReplayOptions options = capture.replay;
        Result result = read(capture.file(), options.chain(), options.select(capture.file()));
        BufferedOutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        if (capture.json) {
            ReplayJson.writeArray(out, result.operations());
        } else {
            Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            TABLE.print(text, result.operations(), OpsCommand::cells, wide ? 0 : parent.terminalColumns());
            if (result.overflowed() > 0) {
                text.write(result.overflowed() + " commands dropped: more than "
                        + OperationTracker.MAX_OUTSTANDING_PER_QUEUE + " outstanding on one queue\n");
            }
            text.flush();
        }
        out.flush();
        if (result.failure() != null) {
            throw result.failure();
        }
        return Main.EXIT_OK;
    }

    /**
     * @param operations every operation, in order of command frame
     * @param overflowed commands dropped because their queue held too many outstanding ones
     * @param failure    the error that cut the reading short, or null
     */
    record Result(List<Operation> operations, long overflowed, IOException failure) {
    }

    /** Reads and dissects the frames the selection keeps and tracks their operations. */
    static Result read(Path file, DissectorChain chain, ReplayOptions.Selection selection) throws IOException {
        List<Operation> operations = new ArrayList<>();
        OperationTracker tracker = OperationTracker.standard(operations::add);
        IOException failure = null;
        try (PacketSource source = CaptureFiles.open(file)) {
            Dissection d = new Dissection();
            long read = 0;
            Frame frame;
            while (selection.more(read) && (frame = source.next()) != null) {
                read++;
                chain.dissect(frame, d);
                if (selection.passes(d)) {
                    tracker.accept(d);
                }
            }
        } catch (IOException e) {
            failure = e;
        }
        tracker.finish();
        operations.sort(Comparator.comparingLong(Operation::commandFrame));
        return new Result(List.copyOf(operations), tracker.overflowed(), failure);
    }

    /** Least important first when the terminal is narrow: Queue, the split, Data frames, Size. */
    private static final Table TABLE = new Table(left("Protocol"), left("Queue").drop(1), left("Operation").shrink(),
            right("ID"), right("Size").drop(6), right("Command"), right("Response"), left("Data").drop(5),
            right("Latency(µs)"), right("Delivery(µs)").drop(2), right("Data(µs)").drop(3),
            right("Completion(µs)").drop(4), left("Status").shrink());

    private static String[] cells(Operation o) {
        return new String[] {o.protocol(), o.queue(), o.description(), o.idText(), Long.toString(o.size()),
                Long.toString(o.commandFrame()), o.responseFrame() == null ? "-" : o.responseFrame().toString(),
                frames(o.dataFrames()), Text.micros(o.latencyNs()), Text.micros(o.deliveryNs()), Text.micros(o.dataNs()),
                Text.micros(o.completionNs()), status(o)};
    }

    /** Up to three frames listed, more as "first…last (n)". */
    private static String frames(List<Long> frames) {
        if (frames.isEmpty()) {
            return "-";
        }
        if (frames.size() <= 3) {
            StringBuilder sb = new StringBuilder();
            for (Long f : frames) {
                sb.append(sb.isEmpty() ? "" : ",").append(f);
            }
            return sb.toString();
        }
        return frames.get(0) + "\u2026" + frames.get(frames.size() - 1) + " (" + frames.size() + ")";
    }

    /**
     * "completed"; "failed: REASON (0xCODE)"; "unanswered: teardown (DREQ frame 28, 29.087 ms later)", over
     * iWARP "(FIN frame …", "(RST frame …" or "(Terminate frame …".
     */
    static String status(Operation o) {
        if (o.reason() == null) {
            return o.status();
        }
        String text = o.status() + ": " + o.reason();
        if (o.statusCode() != null && !o.reason().startsWith("0x")) {
            text += String.format(" (0x%x)", o.statusCode());
        }
        if (o.teardownFrame() != null && (Operation.TEARDOWN.equals(o.reason())
                || Operation.AFTER_TEARDOWN.equals(o.reason()))) {
            long after = o.teardownAfterNs();
            // Text.micros shows thousandths of its unit: of microseconds here, so milliseconds to the µs.
            text += " (" + o.teardownBy() + " frame " + o.teardownFrame() + ", " + Text.micros(Math.abs(after) / 1000) + " ms "
                    + (after >= 0 ? "later" : "earlier") + ")";
        }
        return text;
    }
}
