package io.rdmascope.capture.live;

import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapStat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A live capture through libpcap (pcap4j): a capture thread reads frames from libpcap as fast as it
 * can and hands them to a bounded queue; the consumer — a writer, a decoder, the GUI — takes them
 * with {@link #next()} or {@link #poll} on its own thread, so decoding never holds up the kernel.
 * <pre>{@code
 * try (LiveCapture capture = LiveCapture.open(LiveCaptureOptions.on("eth0").withMaxFrames(1000))) {
 *     capture.start();
 *     Frame f;
 *     while ((f = capture.next()) != null) { ... }
 *     CaptureStatistics s = capture.statistics();
 * }
 * }</pre>
 *
 * <p>Frames own their bytes: each is copied once out of libpcap's ring buffer into a fresh array,
 * which the frame wraps (see {@link FrameReads} for how the capture thread reads). They are numbered 1, 2, … in the order the consumer
 * receives them (a frame dropped by the queue takes no number), on interface 0, with nanosecond
 * timestamps where libpcap offers them.
 *
 * <p>Stopping ({@link #stop()}, the frame count, the duration) is graceful: frames libpcap had
 * received before the stop are still read out of the kernel buffer and delivered, then the
 * statistics are taken and the handle closed, then {@link #next()} returns null once the queue is
 * empty. If libpcap fails mid-capture, the frames before the failure are delivered and {@code next()}
 * then throws.
 *
 * <p>Thread-safety: {@code stop}, {@code statistics} and the accessors may be called from any
 * thread; {@code next}/{@code poll} from one consumer thread.
 */
public final class LiveCapture implements PacketSource {

    /** Why the capture ended. */
    public enum StopReason {
        /** Still running (or not started). */
        RUNNING,
        /** {@link #stop()} was called (Ctrl-C, the GUI's stop button). */
        REQUESTED,
        /** The frame count was reached. */
        FRAME_COUNT,
        /** The duration elapsed. */
        DURATION,
        /** libpcap reported an error (the interface went away, say). */
        FAILED
    }

    /** How often the capture thread refreshes libpcap's statistics while running. */
    private static final long STATS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** After a stop, frames stamped later than the stop by more than this are not delivered. */
    private static final long STOP_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longest the drain after a stop may take when traffic keeps flowing. */
    private static final long DRAIN_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Added to the read timeout for the drain after a stop (timer granularity). */
    private static final long DRAIN_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * Pause of the capture thread when the kernel buffer is empty: 1 ms, doubling while nothing
     * comes, up to 8 ms (an idle capture costs ~125 wake-ups a second; 8 ms of traffic at a million
     * frames a second is a few MB, well inside the kernel buffer).
     */
    private static final long IDLE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long IDLE_WAIT_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(8);

    private final LiveCaptureOptions options;
    private final CaptureInterface captureInterface;
    private final PcapHandle handle;
    private final int linkType;
    private final String linkTypeName;
    private final String filter;
    private final List<String> warnings;
    private final FrameQueue queue;
    private final FrameReads reads;
    private final Thread thread;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private volatile boolean stopRequested;
    /** Wall-clock time of the stop, nanoseconds since the epoch (comparable with frame timestamps). */
    private volatile long stopEpochNanos = Long.MAX_VALUE;
    private volatile StopReason stopReason = StopReason.RUNNING;
    private volatile boolean finished;
    private volatile LiveCaptureException failure;
    private volatile boolean failureReported;
    private volatile long captured;
    private volatile long pcapReceived = -1;
    private volatile long droppedByKernel = -1;
    private volatile long droppedByInterface = -1;
    private volatile long startEpochNanos;

    private LiveCapture(LiveCaptureOptions options, CaptureInterface captureInterface, PcapHandle handle,
                        int dlt, String filter, List<String> warnings, boolean directReads) {
        this.options = options;
        this.captureInterface = captureInterface;
        this.handle = handle;
        this.linkType = LinkTypeMapping.linkType(dlt);
        this.linkTypeName = CaptureInterfaces.linkTypeName(dlt);
        this.filter = filter;
        this.warnings = List.copyOf(warnings);
        this.queue = new FrameQueue(options.queueFrames(), options.queueBytes());
        this.reads = FrameReads.of(handle, directReads);
        this.thread = new Thread(this::run, "rdmascope-capture-" + captureInterface.name());
        this.thread.setDaemon(true);
    }

    /**
     * Opens the interface and installs the filter; capture starts with {@link #start()} (frames
     * that arrive between the two wait in the kernel buffer).
     *
     * @throws LiveCaptureException one-line reason: libpcap missing, no permission, no such
     *                              interface (listing the valid ones), interface down, bad filter
     */
    public static LiveCapture open(LiveCaptureOptions options) throws LiveCaptureException {
        return open(options, true);
    }

    /** {@code directReads} false: read every frame through pcap4j's own call (the fallback; tests). */
    static LiveCapture open(LiveCaptureOptions options, boolean directReads) throws LiveCaptureException {
        LibPcap.load();
        CaptureInterface iface = CaptureInterfaces.resolve(options.interfaceName());
        PcapHandle handle;
        try {
            PcapHandle.Builder builder = new PcapHandle.Builder(iface.name())
                    .snaplen(options.snapLength())
                    .promiscuousMode(options.promiscuous() ? PcapNetworkInterface.PromiscuousMode.PROMISCUOUS
                            : PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                    .timeoutMillis(options.timeoutMillis())
                    .timestampPrecision(PcapHandle.TimestampPrecision.NANO)
                    .immediateMode(options.immediate());
            if (options.bufferBytes() > 0) {
                builder.bufferSize(options.bufferBytes());
            }
            handle = builder.build();
        } catch (PcapNativeException e) {
            throw PcapErrors.openFailed(iface.name(), e.getReturnCode(), e.getMessage(), List.of());
        }
        try {
            // Non-blocking reads: with TPACKET_V3 a blocking read ignores the timeout on an idle
            // interface (libpcap leaves the wait to the kernel's block timer, which only fires for a
            // block holding frames), so a blocked capture thread could never see a stop or a
            // duration; and pcap_breakloop wakes a blocked read only from libpcap 1.10 on.
            handle.setBlockingMode(PcapHandle.BlockingMode.NONBLOCKING);
            int dlt = handle.getDlt().value();
            List<String> warnings = new ArrayList<>();
            String applied = null;
            if (options.filter() != null) {
                try {
                    handle.setFilter(options.filter(), BpfProgram.BpfCompileMode.OPTIMIZE,
                            PcapHandle.PCAP_NETMASK_UNKNOWN);
                    applied = options.filter();
                } catch (PcapNativeException e) {
                    LiveCaptureException bad = PcapErrors.badFilter(options.filter(), e.getMessage());
                    if (!options.defaultFilter()) {
                        throw bad;
                    }
                    warnings.add("the default filter does not apply to link type "
                            + CaptureInterfaces.linkTypeName(dlt) + " (" + bad.getMessage()
                            + "); capturing every frame");
                }
            }
            if (iface.rdmaSniffer()) {
                warnings.add(iface.name() + " is an RDMA sniffer device: libpcap reports 0 kernel and interface "
                        + "drops for it whatever is lost; only rdmascope's own queue drops are counted");
            }
            return new LiveCapture(options, iface, handle, dlt, applied, warnings, directReads);
        } catch (LiveCaptureException | RuntimeException e) {
            handle.close();
            throw e;
        } catch (PcapNativeException e) {
            handle.close();
            throw PcapErrors.openFailed(iface.name(), e.getReturnCode(), e.getMessage(), List.of());
        } catch (NotOpenException e) {
            handle.close();
            throw new IllegalStateException("libpcap handle closed while opening", e);
        }
    }

    /** Starts the capture thread; later calls do nothing. */
    public synchronized void start() {
        if (closed.get()) {
            throw new IllegalStateException("capture closed");
        }
        if (finished) {
            return;   // stopped before it started
        }
        if (started.compareAndSet(false, true)) {
            startEpochNanos = epochNanos();
            thread.start();
        }
    }

    /**
     * Asks the capture to stop. Frames the kernel had already received are still delivered; then
     * {@link #next()} returns null. Safe from any thread, a signal handler's thread included;
     * idempotent.
     */
    public void stop() {
        stopWith(StopReason.REQUESTED);
    }

    private void stopWith(StopReason reason) {
        if (!stopRequested) {
            synchronized (this) {
                if (!stopRequested) {
                    stopEpochNanos = epochNanos();
                    if (stopReason == StopReason.RUNNING) {
                        stopReason = reason;
                    }
                    stopRequested = true;
                }
            }
        }
        if (!started.get()) {
            // Never started: nothing to drain.
            finishWithoutThread();
        } else {
            LockSupport.unpark(thread);   // out of an idle pause at once
        }
    }

    private synchronized void finishWithoutThread() {
        if (!started.get() && !finished) {
            takeStatistics();
            handle.close();
            finished = true;
        }
    }

    /**
     * Waits until the capture thread has finished (stopped and handle closed). Frames may still be
     * queued for the consumer.
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        if (!started.get()) {
            return finished;
        }
        thread.join(Math.max(1, timeout.toMillis()));
        return !thread.isAlive();
    }

    /**
     * The next frame, waiting for one; null once the capture has stopped and every frame was
     * delivered.
     *
     * @throws LiveCaptureException when libpcap failed mid-capture (after the frames before the failure)
     */
    @Override
    public Frame next() throws IOException {
        start();
        while (true) {
            Frame f;
            try {
                f = queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for a frame");
            }
            if (f != null) {
                return f;
            }
            if (finished && queue.isEmpty()) {
                throwFailureOnce();
                return null;
            }
        }
    }

    /** The next frame if one is queued now, else null (which does not mean the end: see {@link #isDone()}). */
    public Frame poll() {
        start();
        return queue.poll();
    }

    /**
     * The next frame, waiting at most {@code timeout}; null when none came (see {@link #isDone()}).
     *
     * @throws LiveCaptureException when the capture has ended in a libpcap failure and nothing is queued
     */
    public Frame poll(long timeout, TimeUnit unit) throws IOException {
        start();
        try {
            Frame f = queue.poll(timeout, unit);
            if (f == null && finished && queue.isEmpty()) {
                throwFailureOnce();
            }
            return f;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for a frame");
        }
    }

    private void throwFailureOnce() throws LiveCaptureException {
        LiveCaptureException f = failure;
        if (f != null && !failureReported) {
            failureReported = true;
            throw f;
        }
    }

    /** True once the capture has stopped and the consumer has taken every frame. */
    public boolean isDone() {
        return finished && queue.isEmpty();
    }

    /** The capture's counts so far (final once the capture thread has finished). */
    public CaptureStatistics statistics() {
        long dropped = queue.dropped();
        return new CaptureStatistics(captured, queue.accepted(), dropped, pcapReceived, droppedByKernel,
                interfaceDropsCounted() ? droppedByInterface : -1, !captureInterface.rdmaSniffer());
    }

    /**
     * Whether libpcap counts interface drops here: on Linux it reads the interface's
     * {@code rx_missed_errors + rx_fifo_errors} only in promiscuous mode, which the {@code any}
     * device never uses, and leaves {@code ps_ifdrop} at 0 otherwise — a 0 that would mean "not
     * looked", so it is reported as unknown instead.
     */
    private boolean interfaceDropsCounted() {
        return !com.sun.jna.Platform.isLinux() || options.promiscuous() && !"any".equals(captureInterface.name());
    }

    /** Why the capture stopped, or {@link StopReason#RUNNING}. */
    public StopReason stopReason() {
        return stopReason;
    }

    /** The failure that ended the capture, or null. */
    public LiveCaptureException failure() {
        return failure;
    }

    @Override
    public String name() {
        return captureInterface.name();
    }

    public CaptureInterface captureInterface() {
        return captureInterface;
    }

    /** LINKTYPE_ of every frame (what a capture file records). */
    public int linkType() {
        return linkType;
    }

    /** libpcap's name of the link type, e.g. {@code EN10MB}. */
    public String linkTypeName() {
        return linkTypeName;
    }

    /** The filter installed, or null when the capture is unfiltered. */
    public String filter() {
        return filter;
    }

    public int snapLength() {
        return options.snapLength();
    }

    public LiveCaptureOptions options() {
        return options;
    }

    /** Things the user should know before trusting the capture (a default filter dropped, uncounted drops). */
    public List<String> warnings() {
        return warnings;
    }

    /** How frames are read from libpcap: "direct" or "pcap4j" (see {@link FrameReads}). */
    String readPath() {
        return reads.kind();
    }

    /** When capture started, nanoseconds since the epoch; 0 before {@link #start()}. */
    public long startEpochNanos() {
        return startEpochNanos;
    }

    /** Stops the capture, waits briefly for the capture thread, and discards frames not taken. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stop();
        if (started.get()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        queue.clear();
    }

    /** The operating system as pcapng's {@code if_os}/{@code shb_os} record it, e.g. {@code "Linux 6.1.0-18-amd64"}. */
    public static String operatingSystem() {
        return System.getProperty("os.name", "unknown") + " " + System.getProperty("os.version", "");
    }

    // ---- the capture thread ------------------------------------------------------------------

    private void run() {
        long frameLimit = options.maxFrames();
        long deadline = options.maxDuration() == null ? Long.MAX_VALUE
                : System.nanoTime() + options.maxDuration().toNanos();
        long nextStats = System.nanoTime() + STATS_INTERVAL_NANOS;
        // After a stop, the kernel's partly filled block is handed over within one read timeout.
        long drainWindow = TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis()) + DRAIN_MARGIN_NANOS;
        long drainUntil = Long.MAX_VALUE;
        long drainLimit = Long.MAX_VALUE;
        long count = 0;
        long idleWait = IDLE_WAIT_NANOS;
        try {
            while (true) {
                long now = System.nanoTime();
                if (!stopRequested && now >= deadline) {
                    stopWith(StopReason.DURATION);
                }
                if (stopRequested && drainUntil == Long.MAX_VALUE) {
                    drainUntil = now + drainWindow;
                    drainLimit = now + DRAIN_LIMIT_NANOS;
                }
                if (now >= drainLimit) {
                    break;   // traffic kept coming during the drain
                }
                int rc = reads.next();
                if (rc == FrameReads.BREAK) {
                    break;   // pcap_breakloop
                }
                if (rc == FrameReads.NONE) {
                    // Non-blocking: nothing is ready in the kernel buffer now.
                    if (now >= drainUntil) {
                        break;
                    }
                    if (now >= nextStats) {
                        takeStatistics();
                        nextStats = now + STATS_INTERVAL_NANOS;
                    }
                    LockSupport.parkNanos(stopRequested ? IDLE_WAIT_NANOS : idleWait);
                    idleWait = Math.min(idleWait * 2, IDLE_WAIT_MAX_NANOS);
                    continue;
                }
                idleWait = IDLE_WAIT_NANOS;
                byte[] data = reads.data;
                long timeNanos = reads.timeNanos;
                if (stopRequested && timeNanos > stopEpochNanos + STOP_SLACK_NANOS) {
                    break;   // arrived after the stop: not part of this capture
                }
                int wire = reads.wireLength;
                count++;
                captured = count;
                Frame frame = new Frame(queue.accepted() + 1, timeNanos, data.length, Math.max(wire, data.length),
                        linkType, 0, ByteBuffer.wrap(data).asReadOnlyBuffer(), 0);
                queue.offer(frame);
                if (frameLimit > 0 && count >= frameLimit) {
                    stopWith(StopReason.FRAME_COUNT);
                    break;
                }
                if ((count & 0xFF) == 0 && now >= nextStats) {
                    takeStatistics();
                    nextStats = now + STATS_INTERVAL_NANOS;
                }
            }
        } catch (PcapNativeException e) {
            failure = PcapErrors.readFailed(captureInterface.name(), e.getMessage());
            stopReason = StopReason.FAILED;
        } catch (NotOpenException e) {
            // closed under us: only close() does that, after stop()
        } catch (RuntimeException | Error e) {
            failure = new LiveCaptureException(LiveCaptureException.Reason.FAILED,
                    "capture on " + captureInterface.name() + " failed: " + e, e);
            stopReason = StopReason.FAILED;
        } finally {
            stopRequested = true;
            takeStatistics();
            handle.close();
            finished = true;
        }
    }

    /** Capture thread (or before start): reads pcap_stats into the volatile fields. */
    private void takeStatistics() {
        try {
            PcapStat s = handle.getStats();
            pcapReceived = s.getNumPacketsReceived();
            droppedByKernel = s.getNumPacketsDropped();
            droppedByInterface = s.getNumPacketsDroppedByIf();
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            // Not every source has statistics (a savefile, some pseudo-devices): keep the last values.
        }
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
