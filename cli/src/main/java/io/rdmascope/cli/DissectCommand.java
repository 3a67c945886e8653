package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;
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

    @Mixin
    ReplayOptions input;

    @Option(names = "-t", paramLabel = "FORMAT", defaultValue = "r",
            description = "time format as tshark: a, ad, adoy, d, dd, e, r (default), u, ud, udoy; to the "
                    + "capture's precision (ns when it has ns)")
    String timeFormat;

    @Option(names = "-w", paramLabel = "FILE",
            description = "also write the frames -Y keeps (up to -c) to FILE as pcapng, timestamps and link types "
                    + "kept; '-' writes them to standard output instead of any text")
    Path writeFile;

    @Option(names = "-o", paramLabel = "PREF:VALUE",
            description = "a preference, as tshark -o; the one supported: tcp.relative_sequence_numbers:TRUE|FALSE "
                    + "(FALSE shows raw TCP sequence and acknowledgment numbers)")
    List<String> preferences = new ArrayList<>();

    @Option(names = "-q", description = "no per-frame output (with -z: only the statistics, as tshark -q)")
    boolean quiet;

    @Option(names = "-z", paramLabel = "STATISTIC",
            description = "print a statistic after the frames: io,phs; conv,TYPE; endpoints,TYPE (TYPE eth, ip, "
                    + "ipv6, udp, tcp or ib); rdma,srt (repeatable; docs/cli.md)")
    List<String> statistics = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        Path captureFile = readFile != null ? readFile : file;
        input.icrc.check(); // a bad --icrc is a usage error before any output, filter or not
        if (captureFile == null) {
            throw new UsageError("no capture file given (rdmascope dissect FILE, or -r FILE)");
        }
        if (readFile != null && file != null) {
            throw new UsageError("give the capture once: either FILE or -r FILE");
        }
        if (!format.equals("fields") && !format.equals("json") && !format.equals("text")) {
            throw new UsageError("unknown output format '" + format + "' (use text, fields or json)");
        }
        if (!fields.isEmpty() && format.equals("text")) {
            // tshark: 'Output fields were specified with "-e", but "-Tek, -Tfields, -Tjson or -Tpdml" was not specified.'
            throw new UsageError("-e FIELD needs -T fields or -T json (as tshark, which refuses -e without them)");
        }
        FieldsLayout layout = FieldsLayout.parse(fieldOptions);
        FieldColumns selected = FieldColumns.resolve(fields);
        if (format.equals("fields") && selected.isEmpty()) {
            throw new UsageError("-T fields needs at least one -e FIELD");
        }
        TimeFormat time = TimeFormat.parse(timeFormat);
        boolean relativeTcp = relativeTcpSequenceNumbers(preferences);
        boolean captureToStdout = writeFile != null && writeFile.toString().equals("-");
        if (captureToStdout && !statistics.isEmpty()) {
            throw new UsageError("-w - writes the capture to standard output: -z has nowhere to print");
        }
        // As tshark: with -w - standard output carries the capture alone.
        boolean silent = quiet || captureToStdout;
        List<FrameStatistic> stats = new ArrayList<>();
        for (String z : statistics) {
            stats.add(FrameStatistic.parse(z, input.icrc.check()));
        }
        input.checkFilter(); // a bad filter is reported before any replay runs
        // Analysis needs the whole replay first (like tshark -2): only when -Y, -e or -V asks for it.
        AnalysisPass pass = input.namesAnalysis() || verbose || selected.needsAnalysis()
                ? AnalysisPass.replay(captureFile, input) : null;
        ReplayOptions.Selection selection = input.select(captureFile, pass == null ? null : pass.analysis());
        DissectorChain chain = input.chain().withRelativeTcpSequenceNumbers(relativeTcp);
        OutputStream out = new BufferedOutputStream(parent.stdout(), 1 << 16);
        AsciiSink sink = new AsciiSink(FLUSH_BYTES * 2);
        Dissection d = new Dissection();
        JsonOutput json = format.equals("json") && !silent ? new JsonOutput(sink) : null;
        if (format.equals("fields") && layout.header() && !silent) {
            for (int i = 0; i < selected.columns().size(); i++) {
                if (i > 0) {
                    sink.append(layout.separator());
                }
                sink.append(selected.columns().get(i).abbrev());
            }
            sink.append('\n');
        }
        try (PacketSource source = CaptureFiles.open(captureFile);
             FrameWriter writer = writeFile == null ? null
                     : captureToStdout ? FrameWriter.create(out, source) : FrameWriter.create(writeFile, source)) {
            long seen = 0;
            long previous = Long.MIN_VALUE;
            long previousShown = Long.MIN_VALUE;
            Frame frame;
            while (selection.more(seen) && (frame = source.next()) != null) {
                seen++;
                // Every frame is dissected, shown or not: frame.time_delta and the like need the previous one.
                chain.dissect(frame, d);
                long now = d.timeNanos();
                long prevCaptured = previous == Long.MIN_VALUE ? now : previous;
                previous = now;
                if (pass != null) {
                    pass.saw(d);
                }
                if (!selection.passes(d)) {
                    continue;
                }
                long prevShown = previousShown == Long.MIN_VALUE ? now : previousShown;
                previousShown = now;
                if (writer != null) {
                    writer.write(frame);
                }
                for (FrameStatistic z : stats) {
                    z.frame(d);
                }
                if (silent) {
                    continue;
                }
                switch (format) {
                    case "fields" -> writeFields(sink, d, selected, layout, pass == null ? null : pass.analysis());
                    case "json" -> json.frame(d, selected, pass == null ? null : pass.analysis());
                    default -> writeText(sink, d, time.format(now, source.timestampDigits(frame.interfaceId()),
                            d.referenceTimeNanos(), prevCaptured, prevShown), pass);
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
        if (!stats.isEmpty()) {
            StringBuilder text = new StringBuilder(4096);
            for (int i = stats.size() - 1; i >= 0; i--) {
                stats.get(i).print(text); // last -z first, as tshark
            }
            out.write(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.flush();
        }
        return Main.EXIT_OK;
    }

    /** Wireshark's name of the one preference {@code -o} sets. */
    static final String RELATIVE_SEQUENCE_NUMBERS = "tcp.relative_sequence_numbers";

    /**
     * The value of tcp.relative_sequence_numbers the {@code -o} options give (the last one wins, as in
     * tshark; true when none does). tshark reads a boolean preference's TRUE/FALSE in any case.
     */
    static boolean relativeTcpSequenceNumbers(List<String> preferences) {
        boolean relative = true;
        for (String p : preferences) {
            int colon = p.indexOf(':');
            String name = colon < 0 ? p : p.substring(0, colon);
            if (!name.equals(RELATIVE_SEQUENCE_NUMBERS)) {
                throw new UsageError("unknown preference '" + name + "' for -o (the one supported: "
                        + RELATIVE_SEQUENCE_NUMBERS + ":TRUE|FALSE)");
            }
            String value = colon < 0 ? "" : p.substring(colon + 1).trim();
            if (value.equalsIgnoreCase("TRUE")) {
                relative = true;
            } else if (value.equalsIgnoreCase("FALSE")) {
                relative = false;
            } else {
                throw new UsageError("-o " + RELATIVE_SEQUENCE_NUMBERS + " takes TRUE or FALSE, not '" + value + "'");
            }
        }
        return relative;
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

    private void writeText(AsciiSink sink, Dissection d, String t, AnalysisPass pass) {
        if (verbose) {
            StringBuilder tree = new StringBuilder(1024);
            ProtoTree.print(ProtoTree.build(d), tree);
            if (pass != null) {
                pass.appendTree(d, tree);
            }
            sink.append(tree);
        } else {
            SummaryLine.append(sink, d, t);
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
