package io.rdmascope.cli;

import io.rdmascope.capture.live.LiveCaptureOptions;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * The capture verb's command line, checked and resolved before anything is opened: tshark/dumpcap
 * syntax for {@code -a} and {@code -b}, with rdmascope's units ({@code filesize} in MB, decimal).
 *
 * @param filter        the BPF filter, null for none
 * @param defaultFilter the filter is the RoCE default (not typed by the user)
 * @param output        {@code -w} target; "-" for standard output; null to only print
 * @param print         print a decoded line per frame
 * @param maxFrames     {@code -c}, 0 for none
 * @param duration      {@code -a duration:S}, null for none
 * @param fileSizeBytes {@code -b filesize:MB} in bytes, 0 for none
 * @param files         {@code -b files:N}, 0 for no limit
 */
record CaptureSettings(String filter, boolean defaultFilter, String output, boolean print, long maxFrames,
                       Duration duration, long fileSizeBytes, int files, int snapLength, int bufferBytes) {

    static final long MEGABYTE = 1_000_000L;

    /**
     * @param filter   {@code -f} as given, null when absent (the RoCE default), "" for none
     * @param snapLen  {@code -s}, 0 for the default
     * @param bufferMb {@code -B} in MiB, 0 for the default
     */
    static CaptureSettings parse(String filter, String output, boolean print, long count, List<String> autostop,
                                 List<String> ring, int snapLen, int bufferMb) {
        if (count < 0) {
            throw usage("-c needs a positive frame count, got " + count);
        }
        Duration duration = null;
        for (String a : autostop) {
            String[] kv = a.split(":", 2);
            if (kv.length != 2 || !kv[0].equals("duration")) {
                throw usage("unsupported autostop condition '" + a + "' (rdmascope knows -a duration:SECONDS; "
                        + "use -c N to stop after N frames)");
            }
            BigDecimal seconds = positiveNumber(kv[1], "-a duration:SECONDS needs a positive number of seconds");
            duration = Duration.ofNanos(seconds.movePointRight(9).longValue());
            if (duration.isZero()) {
                throw usage("-a duration:SECONDS needs a positive number of seconds, got '" + kv[1] + "'");
            }
        }
        long fileSize = 0;
        int files = 0;
        for (String b : ring) {
            String[] kv = b.split(":", 2);
            if (kv.length == 2 && kv[0].equals("filesize")) {
                BigDecimal mb = positiveNumber(kv[1], "-b filesize:MB needs a positive number of megabytes "
                        + "(1 MB = 1,000,000 bytes)");
                fileSize = mb.multiply(BigDecimal.valueOf(MEGABYTE)).longValue();
                if (fileSize < 1) {
                    throw usage("-b filesize:MB is too small: " + kv[1]);
                }
            } else if (kv.length == 2 && kv[0].equals("files")) {
                try {
                    files = Integer.parseInt(kv[1]);
                } catch (NumberFormatException e) {
                    files = 0;
                }
                if (files < 1) {
                    throw usage("-b files:N needs a positive whole number of files, got '" + kv[1] + "'");
                }
            } else {
                throw usage("unsupported ring buffer condition '" + b + "' (rdmascope knows -b filesize:MB and "
                        + "-b files:N)");
            }
        }
        if (!ring.isEmpty() && output == null) {
            throw usage("-b needs -w FILE: the ring buffer's files are named after it");
        }
        if (!ring.isEmpty() && "-".equals(output)) {
            throw usage("-b cannot write to standard output (-w -)");
        }
        if (files > 0 && fileSize == 0) {
            throw usage("-b files:N needs -b filesize:MB: a ring switches files at a size");
        }
        if (print && "-".equals(output)) {
            throw usage("-P with -w - would mix decoded lines into the capture on standard output");
        }
        if (snapLen < 0 || snapLen > LiveCaptureOptions.DEFAULT_SNAPLEN) {
            throw usage("-s SNAPLEN must be between 1 and " + LiveCaptureOptions.DEFAULT_SNAPLEN
                    + " (0 for the default), got " + snapLen);
        }
        if (bufferMb < 0 || bufferMb > 2047) {
            throw usage("-B MiB must be between 1 and 2047 (0 for the default), got " + bufferMb);
        }
        boolean isDefault = filter == null;
        String bpf = isDefault ? LiveCaptureOptions.DEFAULT_FILTER : filter.isBlank() ? null : filter;
        return new CaptureSettings(bpf, isDefault, output, print || output == null, count, duration, fileSize, files,
                snapLen == 0 ? LiveCaptureOptions.DEFAULT_SNAPLEN : snapLen,
                bufferMb == 0 ? LiveCaptureOptions.DEFAULT_BUFFER_BYTES : bufferMb << 20);
    }

    /** The library's options for interface {@code iface}. */
    LiveCaptureOptions options(String iface, boolean promiscuous, int queueFrames) {
        LiveCaptureOptions o = LiveCaptureOptions.on(iface);
        if (!defaultFilter) {
            o = o.withFilter(filter);
        }
        o = o.withSnapLength(snapLength).withBufferBytes(bufferBytes).withPromiscuous(promiscuous)
                .withMaxFrames(maxFrames).withMaxDuration(duration);
        if (queueFrames > 0) {
            o = o.withQueue(queueFrames, LiveCaptureOptions.DEFAULT_QUEUE_BYTES);
        }
        return o;
    }

    private static BigDecimal positiveNumber(String text, String message) {
        try {
            BigDecimal n = new BigDecimal(text.trim());
            if (n.signum() > 0 && n.compareTo(BigDecimal.valueOf(1_000_000_000L)) < 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw usage(message + ", got '" + text + "'");
    }

    private static DissectCommand.UsageError usage(String message) {
        return new DissectCommand.UsageError(message);
    }
}
