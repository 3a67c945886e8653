package io.rdmascope.cli;

import io.rdmascope.capture.CaptureMerge;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmascope merge -w OUT IN...}: mergecap's habits (issue 20). The frames of every input in
 * time order into one pcapng, or one file after the other with {@code -a}; each input's interfaces
 * kept apart and named (docs/cli.md).
 */
@Command(name = "merge", sortOptions = false, description = {
        "Merge capture files (pcap, pcapng, ERF, gzipped) into one pcapng, as mergecap does.",
        "",
        "Frames go out in timestamp order (on equal timestamps the file named first goes first), or one file "
                + "after the other with -a. Every interface of every input stays an interface of its own, named "
                + "by its pcapng if_name or else by its file, so the merged file still tells which capture point "
                + "each frame came from (mergecap -I none)."})
final class MergeCommand implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @Option(names = "-w", paramLabel = "OUTFILE", required = true,
            description = "the merged pcapng ('-' for standard output)")
    String output;

    @Option(names = "-a", description = "concatenate: each file's frames after the previous file's, in the order given")
    boolean concatenate;

    @Option(names = "-F", paramLabel = "FORMAT", description = "output format; pcapng, the only one written")
    String format;

    @Parameters(paramLabel = "INFILE", arity = "1..*", description = "capture files to merge")
    List<Path> inputs = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        if (format != null && !format.equals("pcapng")) {
            throw new DissectCommand.UsageError("-F " + format + ": merge writes pcapng only");
        }
        for (Path in : inputs) {
            if (!Files.isReadable(in)) {
                throw new java.io.FileNotFoundException(in + " (no such file or not readable)");
            }
        }
        boolean toStdout = output.equals("-");
        if (!toStdout) {
            Path out = Path.of(output).toAbsolutePath().normalize();
            for (Path in : inputs) {
                if (Files.exists(out) && Files.isSameFile(in, out)) {
                    throw new DissectCommand.UsageError("-w " + output + " is also an input");
                }
            }
        }
        try (OutputStream out = new BufferedOutputStream(
                toStdout ? parent.stdout() : Files.newOutputStream(Path.of(output)), 1 << 16)) {
            CaptureMerge.merge(inputs, concatenate, out, "rdmascope 0.1.0 merge");
        }
        return Main.EXIT_OK;
    }
}
