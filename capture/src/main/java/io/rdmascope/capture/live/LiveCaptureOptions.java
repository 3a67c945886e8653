package io.rdmascope.capture.live;

import java.time.Duration;
import java.util.Objects;

/**
 * How to capture: interface, filter, snap length, buffers and when to stop. Build from
 * {@link #on(String)} and the {@code with…} methods.
 *
 * @param interfaceName  the interface, by name or by its 1-based number in {@link CaptureInterfaces#list()}
 * @param filter         a libpcap (BPF) filter expression; null or empty for none
 * @param defaultFilter  {@code filter} is {@link #DEFAULT_FILTER} chosen for the user: if it does not
 *                       compile for the interface's link type (an InfiniBand sniffer, NFLOG), the
 *                       capture runs unfiltered and says so in {@link LiveCapture#warnings()} instead
 *                       of failing
 * @param snapLength     bytes kept per frame (libpcap's snaplen)
 * @param promiscuous    put the interface in promiscuous mode
 * @param bufferBytes    kernel ring buffer size (libpcap's buffer size)
 * @param timeoutMillis  libpcap read timeout: how long a partly filled kernel block waits before
 *                       delivery, and how often the capture thread looks at its stop conditions
 * @param immediate      libpcap immediate mode: every frame delivered at once (more wake-ups)
 * @param queueFrames    capacity of the queue between the capture thread and the consumer, in frames
 * @param queueBytes     capacity of that queue in captured bytes
 * @param maxFrames      stop after this many frames (0: no limit)
 * @param maxDuration    stop after this long (null: no limit)
 */
public record LiveCaptureOptions(String interfaceName, String filter, boolean defaultFilter, int snapLength,
                                 boolean promiscuous, int bufferBytes, int timeoutMillis, boolean immediate,
                                 int queueFrames, long queueBytes, long maxFrames, Duration maxDuration) {

    /** RoCEv2 (UDP port 4791) and RoCEv1 (ethertype 0x8915). */
    public static final String DEFAULT_FILTER = "udp port 4791 or ether proto 0x8915";
    /** tcpdump's and dumpcap's default: large enough for any frame. */
    public static final int DEFAULT_SNAPLEN = 262_144;
    /** Kernel buffer: 16 MiB (dumpcap's default is 2 MB; RDMA links fill that in a millisecond). */
    public static final int DEFAULT_BUFFER_BYTES = 16 << 20;
    public static final int DEFAULT_TIMEOUT_MILLIS = 100;
    public static final int DEFAULT_QUEUE_FRAMES = 262_144;
    public static final long DEFAULT_QUEUE_BYTES = 128L << 20;

    public LiveCaptureOptions {
        Objects.requireNonNull(interfaceName, "interfaceName");
        if (snapLength < 1) {
            throw new IllegalArgumentException("snap length must be positive: " + snapLength);
        }
        if (bufferBytes < 0 || timeoutMillis < 1 || queueFrames < 1 || queueBytes < 1 || maxFrames < 0) {
            throw new IllegalArgumentException("buffer, timeout and queue sizes must be positive, counts not negative");
        }
        if (maxDuration != null && (maxDuration.isNegative() || maxDuration.isZero())) {
            throw new IllegalArgumentException("duration must be positive: " + maxDuration);
        }
        if (filter != null && filter.isBlank()) {
            filter = null;
        }
    }

    /** Capture on {@code iface} with every default: the RoCE filter, promiscuous, 256 KiB snap length. */
    public static LiveCaptureOptions on(String iface) {
        return new LiveCaptureOptions(iface, DEFAULT_FILTER, true, DEFAULT_SNAPLEN, true, DEFAULT_BUFFER_BYTES,
                DEFAULT_TIMEOUT_MILLIS, false, DEFAULT_QUEUE_FRAMES, DEFAULT_QUEUE_BYTES, 0, null);
    }

    /** A filter chosen by the user (null or empty: capture everything); failures to compile are errors. */
    public LiveCaptureOptions withFilter(String expression) {
        return new LiveCaptureOptions(interfaceName, expression, false, snapLength, promiscuous, bufferBytes,
                timeoutMillis, immediate, queueFrames, queueBytes, maxFrames, maxDuration);
    }

    public LiveCaptureOptions withSnapLength(int bytes) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, bytes, promiscuous, bufferBytes,
                timeoutMillis, immediate, queueFrames, queueBytes, maxFrames, maxDuration);
    }

    public LiveCaptureOptions withPromiscuous(boolean on) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, on, bufferBytes,
                timeoutMillis, immediate, queueFrames, queueBytes, maxFrames, maxDuration);
    }

    public LiveCaptureOptions withBufferBytes(int bytes) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, promiscuous, bytes,
                timeoutMillis, immediate, queueFrames, queueBytes, maxFrames, maxDuration);
    }

    public LiveCaptureOptions withTimeoutMillis(int millis) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, promiscuous, bufferBytes,
                millis, immediate, queueFrames, queueBytes, maxFrames, maxDuration);
    }

    public LiveCaptureOptions withImmediate(boolean on) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, promiscuous, bufferBytes,
                timeoutMillis, on, queueFrames, queueBytes, maxFrames, maxDuration);
    }

    public LiveCaptureOptions withQueue(int frames, long bytes) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, promiscuous, bufferBytes,
                timeoutMillis, immediate, frames, bytes, maxFrames, maxDuration);
    }

    /** Stop after {@code frames} frames (0: no limit). */
    public LiveCaptureOptions withMaxFrames(long frames) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, promiscuous, bufferBytes,
                timeoutMillis, immediate, queueFrames, queueBytes, frames, maxDuration);
    }

    /** Stop after {@code duration} (null: no limit). */
    public LiveCaptureOptions withMaxDuration(Duration duration) {
        return new LiveCaptureOptions(interfaceName, filter, defaultFilter, snapLength, promiscuous, bufferBytes,
                timeoutMillis, immediate, queueFrames, queueBytes, maxFrames, duration);
    }
}
