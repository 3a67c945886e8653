package io.rdmascope.cli;

import io.rdmascope.capture.live.CaptureStatistics;
import io.rdmascope.capture.live.LiveCapture;
import io.rdmascope.capture.live.LiveCaptureException;
import io.rdmascope.capture.live.LiveCaptureOptions;
import io.rdmascope.capture.live.PcapngOutput;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code rdmascope capture}: live capture through libpcap, tshark's options. The capture thread
 * feeds a bounded queue; this (main) thread writes and decodes. On stop — Ctrl-C, {@code -c},
 * {@code -a} — everything is flushed and the counts, drops included, go to stderr.
 */
@Command(name = "capture", sortOptions = false, description = {
        "Capture live from an interface (Ethernet carrying RoCE, an RDMA sniffer device such as mlx5_0, lo).",
        "",
        "Writes pcapng with -w (one interface block recording the filter and OS), or prints one decoded line per "
                + "frame as 'dissect' does (-P, or no -w). Stops on Ctrl-C, -c or -a and reports what was captured, "
                + "written and dropped by the kernel, the interface and rdmascope's own queue. Needs root, or "
                + "CAP_NET_RAW and CAP_NET_ADMIN (docs/capture.md)."})
final class CaptureCommand implements Callable<Integer> {
    static final String APPLICATION = "rdmascope 0.1.0";

    @ParentCommand
    Main parent;

    @Spec
    CommandSpec spec;

    @Option(names = "-i", paramLabel = "IFACE", description = "interface name, or its number in 'rdmascope interfaces'")
    String iface;

    @Option(names = "-f", paramLabel = "BPF",
            description = "capture filter (libpcap syntax); default: udp port 4791 or ether proto 0x8915; -f '' for none")
    String filter;

    @Option(names = "-w", paramLabel = "FILE", description = "write pcapng to FILE ('-' for standard output)")
    String output;

    @Option(names = "-c", paramLabel = "N", description = "stop after N frames")
    long count;

    @Option(names = "-a", paramLabel = "duration:SECONDS", description = "stop after SECONDS")
    List<String> autostop = new ArrayList<>();

    @Option(names = "-b", paramLabel = "filesize:MB|files:N",
            description = "ring buffer: switch files at MB megabytes (10^6 bytes), keep the newest N files; "
                    + "files are named FILE_NNNNN_YYYYMMDDhhmmss.EXT as dumpcap names them")
    List<String> ring = new ArrayList<>();

    @Option(names = "-s", paramLabel = "SNAPLEN", description = "bytes kept per frame (default and maximum 262144)")
    int snapLength;

    @Option(names = "-P", description = "print decoded lines even when writing with -w")
    boolean print;

    @Option(names = "-p", description = "do not put the interface in promiscuous mode")
    boolean noPromiscuous;

    @Option(names = "-B", paramLabel = "MiB", description = "kernel buffer size in MiB (default 16)")
    int bufferMb;

    @Option(names = "--queue", paramLabel = "FRAMES",
            description = "frames the capture thread may queue ahead of the decoder/writer (default 262144)")
    int queueFrames;

    @Option(names = "--roce-port", paramLabel = "PORT", description = "also decode RoCEv2 on this UDP port")
    List<Integer> rocePorts = new ArrayList<>();

    @Option(names = "-D", description = "list the interfaces (as 'rdmascope interfaces') and exit")
    boolean listInterfaces;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (listInterfaces) {
            return InterfacesCommand.print(parent.stdout(), err, true);
        }
        CaptureSettings settings = CaptureSettings.parse(filter, output, print, count, autostop, ring, snapLength,
                bufferMb);
        if (iface == null || iface.isBlank()) {
            throw new DissectCommand.UsageError("no interface given: -i IFACE ('rdmascope interfaces' lists them)");
        }
        if (queueFrames < 0) {
            throw new DissectCommand.UsageError("--queue needs a positive number of frames, got " + queueFrames);
        }
        try (LiveCapture capture = LiveCapture.open(settings.options(iface, !noPromiscuous, queueFrames))) {
            return run(capture, settings, err);
        }
    }

    private int run(LiveCapture capture, CaptureSettings settings, PrintWriter err) throws IOException {
        PcapngOutput written = openOutput(capture, settings);
        err.println("rdmascope: capturing on " + capture.name() + " (link type " + capture.linkTypeName()
                + (capture.filter() == null ? ", no filter" : ", filter \"" + capture.filter() + "\"") + ")");
        for (String w : capture.warnings()) {
            err.println("rdmascope: warning: " + w);
        }
        err.flush();

        // Ctrl-C (SIGINT) and SIGTERM run this hook: it stops the capture and waits until the loop
        // below has drained the queue, closed the files and printed the summary.
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            capture.stop();
            try {
                finished.await(15, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rdmascope-stop");
        Runtime.getRuntime().addShutdownHook(hook);

        DissectorChain chain = rocePorts.isEmpty() ? DissectorChain.standard()
                : DissectorChain.withRocePorts(rocePorts.stream().mapToInt(Integer::intValue).toArray());
        LinePrinter lines = !settings.print() ? null
                : new LinePrinter(new BufferedOutputStream(parent.stdout(), 1 << 16), chain, written != null,
                        queueFrames > 0 ? queueFrames : LiveCaptureOptions.DEFAULT_QUEUE_FRAMES);
        long startNanos = System.nanoTime();
        LiveCaptureException failure = null;
        try {
            capture.start();
            while (true) {
                Frame f = capture.poll();
                if (f == null) {
                    // The queue is empty for now: make what we have visible, then wait.
                    if (lines != null) {
                        lines.idle();
                    }
                    try {
                        f = capture.poll(100, TimeUnit.MILLISECONDS);
                    } catch (LiveCaptureException e) {
                        failure = e;
                        break;
                    }
                    if (f == null) {
                        if (written != null) {
                            written.flush();
                        }
                        if (capture.isDone()) {
                            break;
                        }
                        continue;
                    }
                }
                if (written != null) {
                    written.write(f);
                }
                if (lines != null) {
                    lines.accept(f);
                }
            }
        } finally {
            try {
                try {
                    if (lines != null) {
                        lines.close();
                    }
                } finally {
                    if (written != null) {
                        written.close();
                    }
                }
            } finally {
                summary(err, capture, settings, written, lines, (System.nanoTime() - startNanos) / 1e9);
                finished.countDown();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // shutting down: the hook is running and returns now that we are finished
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return Main.EXIT_OK;
    }

    private PcapngOutput openOutput(LiveCapture capture, CaptureSettings settings) throws IOException {
        if (settings.output() == null) {
            return null;
        }
        List<PcapngOutput.Interface> interfaces = List.of(PcapngOutput.Interface.of(capture));
        if (settings.output().equals("-")) {
            return PcapngOutput.stream(new FilterOutputStream(parent.stdout()) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    out.flush();   // standard output stays open
                }
            }, interfaces, APPLICATION);
        }
        Path path = Path.of(settings.output());
        if (settings.fileSizeBytes() > 0) {
            return PcapngOutput.ring(path, settings.fileSizeBytes(), settings.files(), interfaces, APPLICATION,
                    Clock.systemDefaultZone());
        }
        return PcapngOutput.file(path, interfaces, APPLICATION);
    }

    /** The stop report on stderr: why, how many captured/written/printed, every kind of drop, warnings. */
    static void summary(PrintWriter err, LiveCapture capture, CaptureSettings settings, PcapngOutput written,
                        LinePrinter lines, double seconds) {
        long printed = lines == null ? 0 : lines.printed();
        CaptureStatistics s = capture.statistics();
        String why = switch (capture.stopReason()) {
            case REQUESTED -> "interrupted";
            case FRAME_COUNT -> "-c " + settings.maxFrames() + " reached";
            case DURATION -> "-a duration elapsed";
            case FAILED -> "libpcap failed";
            case RUNNING -> "stopped";
        };
        err.println(String.format(Locale.ROOT, "rdmascope: capture on %s stopped (%s) after %.1f s",
                capture.name(), why, seconds));
        StringBuilder line = new StringBuilder("rdmascope: ").append(frames(s.captured())).append(" captured, ");
        if (written == null) {
            line.append(printed).append(" printed (nothing written: no -w)");
        } else {
            line.append(written.framesWritten()).append(" written to ").append(where(written, settings));
            if (settings.print()) {
                line.append(", ").append(printed).append(" printed");
            }
        }
        err.println(line);
        boolean reliable = s.dropCountsReliable();
        err.println("rdmascope: dropped: " + (reliable ? count(s.droppedByKernel()) : "not counted") + " by the kernel, "
                + (reliable ? count(s.droppedByInterface()) : "not counted") + " by the interface, "
                + s.droppedByQueue() + " by rdmascope's queue");
        if (reliable && s.droppedByKernel() > 0) {
            err.println("rdmascope: warning: " + frames(s.droppedByKernel()) + " lost in the kernel: its buffer was "
                    + "full (raise -B, now " + (settings.bufferBytes() >> 20) + " MiB, or capture less with -f or -s)");
        }
        if (reliable && s.droppedByInterface() > 0) {
            err.println("rdmascope: warning: " + frames(s.droppedByInterface()) + " dropped by the interface or its "
                    + "driver (counted for all traffic on " + capture.name() + ", not only what the filter matches)");
        }
        if (lines != null && lines.skipped() > 0) {
            err.println("rdmascope: warning: " + frames(lines.skipped()) + " not printed: decoding and printing fell "
                    + "behind (every one of them was written)");
        }
        if (s.droppedByQueue() > 0) {
            err.println("rdmascope: warning: " + frames(s.droppedByQueue()) + " dropped by rdmascope's queue: "
                    + (written == null ? "decoding and printing fell behind the capture (capture with -w, and -P "
                    + "if you want the lines: printing then runs apart and never costs the file a frame)"
                    : "writing fell behind the capture (a faster disk, or raise --queue)"));
        }
        if (!reliable) {
            err.println("rdmascope: warning: libpcap does not count drops on " + capture.name()
                    + " (RDMA sniffer): frames may have been lost without any count");
        }
        if (s.anyDropped()) {
            err.println("rdmascope: warning: the capture is incomplete");
        }
        err.flush();
    }

    private static String where(PcapngOutput written, CaptureSettings settings) {
        if (settings.output().equals("-")) {
            return "standard output";
        }
        List<Path> files = written.files();
        if (settings.fileSizeBytes() == 0 || files.size() <= 1 && written.deletedFiles().isEmpty()) {
            return files.isEmpty() ? settings.output() : files.get(files.size() - 1).toString();
        }
        String text = written.filesOpened() + " files (" + files.get(0).getFileName() + " … "
                + files.get(files.size() - 1).getFileName() + ")";
        if (!written.deletedFiles().isEmpty()) {
            text += ", the oldest " + written.deletedFiles().size() + " deleted to keep " + settings.files();
        }
        return text;
    }

    private static String frames(long n) {
        return n == 1 ? "1 frame" : n + " frames";
    }

    private static String count(long n) {
        return n < 0 ? "not counted" : Long.toString(n);
    }
}
