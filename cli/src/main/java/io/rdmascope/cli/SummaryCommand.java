package io.rdmascope.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmascope summary}: one page about a capture, like capinfos, {@code tshark -q -z io,phs} and a
 * conversation and findings overview together. One pass reads, dissects and replays the file.
 */
@Command(name = "summary", sortOptions = false,
        description = {"Summarise a capture: facts, protocol hierarchy, opcodes, conversations, findings.",
                "File facts (format, link types, frames, bytes, time span, rate), the protocol hierarchy (like "
                        + "tshark -q -z io,phs), InfiniBand opcode counts, the queue-pair conversations (messages "
                        + "and bytes each way, goodput, retransmissions, NAKs, latency) and the findings of the "
                        + "default rules by severity. --json prints the same content as one JSON object. On a "
                        + "terminal, a progress line shows on stderr after a second."})
final class SummaryCommand implements Callable<Integer> {
    /** Made on first use, so the text output never pays for starting Jackson. */
    private static final class Json {
        static final ObjectWriter WRITER;

        static {
            // The same printer as ReplayJson: two-space indent, LF, "key": value, [] for empty arrays;
            // decimals (rates) as plain digits.
            DefaultIndenter lf = new DefaultIndenter("  ", "\n");
            Separators separators = Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("").withArrayEmptySeparator("");
            WRITER = new ObjectMapper().writer(new DefaultPrettyPrinter(separators).withObjectIndenter(lf)
                    .withArrayIndenter(lf)).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    .with(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        }
    }

    @ParentCommand
    Main parent;

    @Spec
    CommandSpec spec;

    @Mixin
    CaptureArgs capture;

    @Override
    public Integer call() throws IOException {
        ReplayOptions options = capture.replay;
        CaptureSummary.Result result = capture.union()
                ? CaptureSummary.readUnion(capture.vantage(), options.chain(), options.icrc.check(), options.threads(),
                        spec.commandLine().getErr())
                : CaptureSummary.read(capture.file(), options.chain(), options.select(capture.file()),
                        options.icrc.check(), options.threads(), spec.commandLine().getErr());
        OutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        write(out, result.summary(), capture.json, parent.terminalColumns());
        out.flush();
        result.rethrowFailure();
        return Main.EXIT_OK;
    }

    /** @param width the terminal width long lines wrap at (findings' summaries), or 0 for none */
    static void write(OutputStream out, CaptureSummary summary, boolean json, int width) throws IOException {
        if (json) {
            Json.WRITER.writeValue(out, summary);
            out.write('\n');
        } else {
            out.write(Text.wrap(SummaryText.render(summary), width, 4).getBytes(StandardCharsets.UTF_8));
        }
    }
}
