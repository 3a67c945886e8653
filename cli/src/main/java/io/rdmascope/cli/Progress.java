package io.rdmascope.cli;

import io.rdmascope.capture.CaptureFileReader;
import io.rdmascope.capture.ErfReader;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapReader;
import io.rdmascope.capture.PcapngReader;
import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A progress line on stderr for verbs that read a whole capture ({@code summary}; {@code messages},
 * {@code flows} and {@code check} can use it the same way): call {@link #frame} for every frame read
 * and {@link #close} when done.
 *
 * <p>It stays silent unless the work has run for a second already and stderr is a terminal; then it
 * rewrites one line ({@code \r}) with the frames read and, for an uncompressed file, the share of the
 * file read, every half second, and erases it when done, so nothing of it is left in a terminal and
 * nothing ever reaches a redirected stderr or a pipe.
 *
 * <p>How "stderr is a terminal" is decided (Java 17 has no isatty for file descriptor 2, and
 * {@code System.console() != null} only says that stdin and stdout are terminals): on Linux, the
 * link {@code /proc/self/fd/2} names a terminal device ({@code /dev/pts/N}, {@code /dev/ttyX},
 * {@code /dev/console}); where there is no {@code /proc}, a child {@code sh -c 'test -t 2'} that
 * inherits our stderr answers. The check runs once, lazily, only when a line would be shown, so
 * short runs never pay for it.
 *
 * <p>Per frame the cost is an addition and a mask test; the clock is read every 16,384 frames.
 */
final class Progress implements AutoCloseable {
    static final long DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long REPAINT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final int CHECK_EVERY = 1 << 14;

    private final PrintWriter err;
    private final String name;
    /** Bytes of the file, or 0 when the share read cannot be told (compressed input, a pipe). */
    private final long total;
    /** Bytes a record takes in the file besides the captured bytes (file format framing). */
    private final int overhead;
    private final LongSupplier clock;
    private final BooleanSupplier terminal;
    private final long started;

    private long frames;
    private long bytes;
    private long nextPaint;
    /** Null until decided; then whether to show anything. */
    private Boolean show;
    private int shown;

    Progress(PrintWriter err, String name, long total, int overhead, LongSupplier clock, BooleanSupplier terminal) {
        this.err = err;
        this.name = name;
        this.total = total;
        this.overhead = overhead;
        this.clock = clock;
        this.terminal = terminal;
        this.started = clock.getAsLong();
        this.nextPaint = started + DELAY_NANOS;
    }

    /** Progress over reading {@code file} through {@code source}, written to {@code err}. */
    static Progress of(PrintWriter err, Path file, PacketSource source) {
        long size = 0;
        int overhead = 0;
        boolean compressed = source instanceof CaptureFileReader r && r.compressed();
        try {
            size = !compressed && Files.isRegularFile(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            size = 0;
        }
        if (source instanceof PcapReader) {
            overhead = 16; // record header
        } else if (source instanceof PcapngReader) {
            overhead = 32; // enhanced packet block framing, before padding and options
        } else if (source instanceof ErfReader) {
            overhead = 0; // a frame is its whole record
        }
        Path fileName = file.getFileName();
        return new Progress(err, fileName == null ? file.toString() : fileName.toString(), size, overhead,
                System::nanoTime, Progress::stderrIsATerminal);
    }

    /** Counts one frame read. */
    void frame(Frame f) {
        bytes += f.capturedLength() + overhead;
        if ((++frames & (CHECK_EVERY - 1)) == 0) {
            tick();
        }
    }

    private void tick() {
        long now = clock.getAsLong();
        if (now < nextPaint) {
            return;
        }
        if (show == null) {
            show = terminal.getAsBoolean();
        }
        if (!show) {
            nextPaint = Long.MAX_VALUE;
            return;
        }
        nextPaint = now + REPAINT_NANOS;
        paint(line(now));
    }

    String line(long now) {
        StringBuilder s = new StringBuilder(80).append("rdmascope: ").append(name).append(": ")
                .append(frames).append(" frames");
        if (total > 0) {
            s.append(String.format(Locale.ROOT, ", %d%%", Math.min(99, bytes * 100 / total)));
        }
        s.append(String.format(Locale.ROOT, " (%.0f s)", (now - started) / 1e9));
        return s.toString();
    }

    private void paint(String line) {
        StringBuilder s = new StringBuilder(line.length() + 16).append('\r').append(line);
        if (line.length() < shown) {
            s.append(" ".repeat(shown - line.length()));
        }
        shown = Math.max(shown, line.length());
        err.print(s);
        err.flush();
    }

    /** Erases the line if one was shown. */
    @Override
    public void close() {
        if (shown > 0) {
            err.print("\r" + " ".repeat(shown) + "\r");
            err.flush();
            shown = 0;
        }
    }

    /** Whether file descriptor 2 is a terminal (see the class comment). */
    static boolean stderrIsATerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            if (Files.isDirectory(Path.of("/proc/self/fd"))) {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")
                        || target.equals("/dev/console");
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("sh", "-c", "test -t 2").redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
