package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges capture files into one pcapng, as {@code mergecap} does (issue 20): chronologically by
 * default (a k-way merge on timestamps; on equal timestamps the file named first goes first, as
 * mergecap), or one file after the other ({@code concatenate}, mergecap's {@code -a}).
 *
 * <p>Every interface of every input becomes an interface of its own in the output, with its link
 * type and timestamp resolution (snap length: none, so that no frame is ever cut), and its name: the pcapng {@code if_name} where the
 * input has one, else the input's file name — so the output still tells which vantage point each
 * frame came from. mergecap by default merges interfaces that look alike across files ({@code -I
 * all}); keeping them apart is its {@code -I none}, chosen here because the vantage point is what a
 * merged capture is for (docs/cli.md).
 *
 * <p>ERF records are copied as they were, padding included; mergecap drops an ERF record's padding and
 * rewrites its {@code rlen}. tshark shows both the same (docs/cli.md).
 *
 * <p>Bad input loses nothing before it: an input that turns out damaged stops contributing at the
 * damage, the others are merged to their ends, and the first such error is thrown once the output is
 * complete.
 */
public final class CaptureMerge {
    private CaptureMerge() {
    }

    /** What a merge wrote. */
    public record Result(long frames, int interfaces) {
    }

    /** One input as it is read: its source, the frame waiting to be written, its interfaces in the output. */
    private static final class Input {
        final Path path;
        final PacketSource source;
        final Map<Integer, Integer> outputInterface = new HashMap<>();
        Frame pending;
        boolean done;

        Input(Path path, PacketSource source) {
            this.path = path;
            this.source = source;
        }
    }

    /**
     * Merges {@code files} into a pcapng written to {@code out}.
     *
     * @param application the {@code shb_userappl} written in the section header
     * @throws IOException the first input that could not be opened (before anything is written), or
     *                     the first damaged input (after everything readable was written)
     */
    public static Result merge(List<Path> files, boolean concatenate, OutputStream out, String application)
            throws IOException {
        List<Input> inputs = new ArrayList<>(files.size());
        try {
            for (Path f : files) {
                inputs.add(new Input(f, CaptureFiles.open(f)));
            }
            PcapngWriter writer = new PcapngWriter(out, null, null, application);
            IOException firstDamage = null;
            int[] interfaces = {0};
            for (Input in : inputs) {
                IOException damage = advance(in);
                firstDamage = firstDamage != null ? firstDamage : damage;
            }
            // Interfaces in the order of the inputs (as mergecap -I none writes them), each input's in its
            // own order; one a pcapng declares later is added when its first frame comes.
            for (Input in : inputs) {
                if (in.source instanceof PcapngReader r) {
                    for (PcapngReader.CaptureInterface c : r.interfaces()) {
                        declare(writer, in, c.id(), c.linkType(), interfaces);
                    }
                } else if (!in.done) {
                    declare(writer, in, in.pending.interfaceId(), in.pending.linkType(), interfaces);
                }
            }
            long frames = 0;
            if (concatenate) {
                for (Input in : inputs) {
                    while (!in.done) {
                        write(writer, in, interfaces);
                        frames++;
                        IOException damage = advance(in);
                        firstDamage = firstDamage != null ? firstDamage : damage;
                    }
                }
            } else {
                while (true) {
                    Input earliest = null;
                    for (Input in : inputs) {
                        // Strictly earlier wins: on a tie the file named first keeps its place (mergecap's order).
                        if (!in.done && (earliest == null || in.pending.timeNanos() < earliest.pending.timeNanos())) {
                            earliest = in;
                        }
                    }
                    if (earliest == null) {
                        break;
                    }
                    write(writer, earliest, interfaces);
                    frames++;
                    IOException damage = advance(earliest);
                    firstDamage = firstDamage != null ? firstDamage : damage;
                }
            }
            writer.flush();
            if (firstDamage != null) {
                throw firstDamage;
            }
            return new Result(frames, interfaces[0]);
        } finally {
            for (Input in : inputs) {
                in.source.close();
            }
        }
    }

    /** Reads the input's next frame; a damaged input ends there and its error is returned. */
    private static IOException advance(Input in) {
        try {
            in.pending = in.source.next();
            in.done = in.pending == null;
            return null;
        } catch (IOException e) {
            in.pending = null;
            in.done = true;
            return e instanceof CaptureFormatException ? e
                    : new IOException(in.path.getFileName() + ": " + e.getMessage(), e);
        }
    }

    private static void declare(PcapngWriter writer, Input in, int inputInterface, int linkType, int[] interfaces)
            throws IOException {
        if (!in.outputInterface.containsKey(inputInterface)) {
            in.outputInterface.put(inputInterface, describe(writer, in, inputInterface, linkType));
            interfaces[0]++;
        }
    }

    private static void write(PcapngWriter writer, Input in, int[] interfaces) throws IOException {
        Frame f = in.pending;
        declare(writer, in, f.interfaceId(), f.linkType(), interfaces);
        int id = in.outputInterface.get(f.interfaceId());
        if (f.linkType() == LinkTypes.ERF && f.wireLength() < f.capturedLength()) {
            // An ERF record's wire length counts the payload only, while the bytes carried are the whole
            // record (header, extension headers, padding): the block's original length may not be below
            // its captured length (pcapng EPB). The record itself is copied as it was.
            writer.write(id, f.timeNanos(), f.buffer().slice(f.offset(), f.capturedLength()), f.capturedLength());
        } else {
            writer.write(id, f);
        }
    }

    /** An output interface for input interface {@code inputInterface}, described as the input describes it. */
    private static int describe(PcapngWriter writer, Input in, int inputInterface, int linkType) throws IOException {
        String fileName = in.path.getFileName() == null ? in.path.toString() : in.path.getFileName().toString();
        String name = fileName;
        String filter = null;
        String os = null;
        if (in.source instanceof PcapngReader r) {
            for (PcapngReader.CaptureInterface c : r.interfaces()) {
                if (c.id() == inputInterface) {
                    name = c.name() != null ? c.name() : fileName;
                    filter = c.filter();
                    os = c.os();
                }
            }
        }
        // Snap length 0 (no limit): a frame longer than its input's declared snap length (files that
        // say 65535 and hold jumbo frames exist) is copied whole, never cut by the writer.
        return writer.addInterface(linkType, 0, name, filter, os, in.source.timestampDigits(inputInterface));
    }
}
