package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.filter.DisplayFilter;
import io.rdmascope.filter.FilterException;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.text.PacketSummary;
import io.rdmascope.text.ProtoTree;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rdmascope dissect}: tshark's reading modes over a capture file. */
@Command(name = "dissect", sortOptions = false,
        description = "Decode a capture like tshark: one line per frame, the full tree (-V), hex (-x), "
                + "selected fields (-T fields -e …) or JSON (-T json); -Y keeps the frames a display filter passes.")
final class DissectCommand implements Callable<Integer> {
    /** Flush the text buffer to the output once it holds this much. */
    private static final int FLUSH_BYTES = 1 << 16;

    @ParentCommand
    Main parent;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "pcap, pcapng or gzip-compressed capture")
    Path file;

    @Option(names = "-r", paramLabel = "FILE", description = "capture to read (as tshark -r)")
    Path readFile;

    @Option(names = "-V", description = "print the full detail tree of each frame")
    boolean verbose;

    @Option(names = "-x", description = "print a hex and ASCII dump of each frame")
    boolean hex;

    @Option(names = "-T", paramLabel = "FORMAT", description = "output format: text (default), fields, json")
    String format = "text";

    @Option(names = "-e", paramLabel = "FIELD", description = "field to print with -T fields or -T json (repeatable)")
    List<String> fields = new ArrayList<>();

    @Option(names = "-E", paramLabel = "KEY=VALUE",
            description = "-T fields options: header=y|n, separator=/t|/s|CHAR, aggregator=CHAR, "
                    + "occurrence=f|l|a, quote=d|s|n")
    List<String> fieldOptions = new ArrayList<>();

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER",
            description = "print only the frames this Wireshark display filter passes, keeping their numbers "
                    + "(docs/filters.md)")
    String displayFilter;

    @Option(names = "-c", paramLabel = "N", description = "stop after reading N frames (shown or not, as tshark)")
    long count = -1;

    @Option(names = "--roce-port", paramLabel = "PORT", description = "also decode RoCEv2 on this UDP port")
    List<Integer> rocePorts = new ArrayList<>();

    /** For the analysis fields (rdmascope.analysis.bad_icrc and the rest) a -Y filter may name. */
    @Mixin
    IcrcOption icrc;

    @Override
    public Integer call() throws IOException {
        Path input = readFile != null ? readFile : file;
        icrc.check(); // a bad --icrc is a usage error before any output, filter or not
        if (input == null) {
            throw new UsageError("no capture file given (rdmascope dissect FILE, or -r FILE)");
        }
        if (readFile != null && file != null) {
            throw new UsageError("give the capture once: either FILE or -r FILE");
        }
        FieldsLayout layout = FieldsLayout.parse(fieldOptions);
        FieldColumns selected = FieldColumns.resolve(fields);
        if (format.equals("fields") && selected.isEmpty()) {
            throw new UsageError("-T fields needs at least one -e FIELD");
        }
        if (!format.equals("fields") && !format.equals("json") && !format.equals("text")) {
            throw new UsageError("unknown output format '" + format + "' (use text, fields or json)");
        }
        boolean filterNamesAnalysis = displayFilter != null && displayFilter.contains("rdmascope.");
        if (filterNamesAnalysis) {
            checkFilter(); // a bad filter is reported before the replay runs
        }
        // Analysis needs the whole replay first (like tshark -2): only when -Y, -e or -V asks for it.
        AnalysisPass pass = filterNamesAnalysis || verbose || selected.needsAnalysis()
                ? AnalysisPass.replay(input, rocePorts, icrc.check()) : null;
        DisplayFilter filter = compileFilter(pass);
        DissectorChain chain = rocePorts.isEmpty() ? DissectorChain.standard()
                : DissectorChain.withRocePorts(rocePorts.stream().mapToInt(Integer::intValue).toArray());
        OutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        AsciiSink sink = new AsciiSink(FLUSH_BYTES * 2);
        Dissection d = new Dissection();
        JsonOutput json = format.equals("json") ? new JsonOutput(sink) : null;
        if (format.equals("fields") && layout.header()) {
            for (int i = 0; i < selected.columns().size(); i++) {
                if (i > 0) {
                    sink.append(layout.separator());
                }
                sink.append(selected.columns().get(i).abbrev());
            }
            sink.append('\n');
        }
        try (PacketSource source = CaptureFiles.open(input)) {
            long seen = 0;
            Frame frame;
            while ((count < 0 || seen < count) && (frame = source.next()) != null) {
                seen++;
                // Every frame is dissected, shown or not: frame.time_delta and the like need the previous one.
                chain.dissect(frame, d);
                if (pass != null) {
                    pass.saw(d);
                }
                if (filter != null && !filter.matches(d)) {
                    continue;
                }
                switch (format) {
                    case "fields" -> writeFields(sink, d, selected, layout, pass == null ? null : pass.analysis());
                    case "json" -> json.frame(d, selected, pass == null ? null : pass.analysis());
                    default -> writeText(sink, d, pass);
                }
                if (sink.length() >= FLUSH_BYTES) {
                    sink.writeTo(out);
                    sink.clear();
                }
            }
        } finally {
            if (json != null) {
                json.finish();
            }
            sink.writeTo(out);
            out.flush();
        }
        return Main.EXIT_OK;
    }

    /** Compiles the -Y filter with the analysis fields, before any replay, only to report its errors. */
    private void checkFilter() {
        try {
            DisplayFilter.compile(displayFilter, FieldRegistry.standard(),
                    List.of(new io.rdmascope.replay.AnalysisFields()));
        } catch (FilterException e) {
            throw new UsageError("invalid display filter: " + e.getMessage());
        }
    }

    /** The -Y filter, or null without one; a filter that does not compile is a usage error. */
    private DisplayFilter compileFilter(AnalysisPass pass) {
        if (displayFilter == null) {
            return null;
        }
        try {
            List<io.rdmascope.filter.FilterFieldProvider> providers = new ArrayList<>();
            if (pass != null && displayFilter.contains("rdmascope.")) {
                io.rdmascope.replay.AnalysisFields analysis = new io.rdmascope.replay.AnalysisFields();
                analysis.use(pass.analysis());
                providers.add(analysis);
            }
            DisplayFilter f = DisplayFilter.compile(displayFilter, FieldRegistry.standard(), providers);
            return f.matchesEverything() ? null : f;
        } catch (FilterException e) {
            throw new UsageError("invalid display filter: " + e.getMessage());
        }
    }

    private static void writeFields(AsciiSink sink, Dissection d, FieldColumns selected, FieldsLayout layout,
                                    io.rdmascope.replay.FrameAnalysis analysis) {
        for (int i = 0, n = selected.columns().size(); i < n; i++) {
            if (i > 0) {
                sink.append(layout.separator());
            }
            if (layout.quote() != 0) {
                sink.append(layout.quote());
            }
            FieldColumns.append(sink, selected.columns().get(i), d, layout.aggregator(), layout.occurrence(), analysis);
            if (layout.quote() != 0) {
                sink.append(layout.quote());
            }
        }
        sink.append('\n');
    }

    private void writeText(AsciiSink sink, Dissection d, AnalysisPass pass) {
        if (verbose) {
            StringBuilder tree = new StringBuilder(1024);
            ProtoTree.print(ProtoTree.build(d), tree);
            if (pass != null) {
                pass.appendTree(d, tree);
            }
            sink.append(tree);
        } else {
            PacketSummary.Columns c = PacketSummary.of(d);
            Frame f = d.frame();
            String number = Long.toString(f.number());
            sink.append("     ", 0, Math.max(0, 5 - number.length()));
            sink.append(number).append(' ');
            long rel = d.timeNanos() - d.referenceTimeNanos();
            AsciiSink time = new AsciiSink(24);
            time.appendSeconds(rel);
            String t = time.toString();
            t = t.substring(0, t.length() - 3); // microseconds, as tshark's default column
            sink.append("           ", 0, Math.max(0, 11 - t.length()));
            sink.append(t).append(' ');
            sink.append(c.source()).append(" \u2192 ").append(c.destination()).append(' ');
            sink.append(c.protocol()).append(' ').appendDecimal(io.rdmascope.proto.erf.Erf.shownWireLength(f)).append(' ').append(c.info())
                    .append('\n');
        }
        if (hex) {
            if (verbose) {
                sink.append('\n');
            }
            HexDump.append(sink, d.frame());
        }
        if (verbose || hex) {
            sink.append('\n');
        }
    }

    /** A usage mistake: reported in one line with exit status 2. */
    static final class UsageError extends RuntimeException {
        UsageError(String message) {
            super(message);
        }
    }
}
