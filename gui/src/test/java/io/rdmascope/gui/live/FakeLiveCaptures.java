package io.rdmascope.gui.live;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.live.CaptureInterface;
import io.rdmascope.capture.live.CaptureStatistics;
import io.rdmascope.capture.live.LiveCaptureException;
import io.rdmascope.frame.Frame;
import io.rdmascope.gui.model.LiveCaptures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Live capture without libpcap: "captures" the frames of a file, as fresh copies the way pcap4j
 * delivers them. After {@code stopHookAfter} frames it runs a hook (a test presses Stop there);
 * once stopped it delivers nothing more. With {@code waitForStop} it delivers every frame and then
 * keeps running, empty, until stopped (as a quiet interface would).
 */
final class FakeLiveCaptures implements LiveCaptures {
    private final Path file;
    private final int stopHookAfter;
    private final boolean waitForStop;
    Runnable stopHook = () -> { };
    String openedInterface;
    String openedFilter;
    LiveCaptureException refuse;

    FakeLiveCaptures(Path file, int stopHookAfter, boolean waitForStop) {
        this.file = file;
        this.stopHookAfter = stopHookAfter;
        this.waitForStop = waitForStop;
    }

    @Override
    public List<CaptureInterface> interfaces() {
        return List.of(new CaptureInterface(1, "lo", null, List.of("127.0.0.1"), true, true, true),
                new CaptureInterface(2, "eth0", null, List.of("10.0.0.1"), false, true, true),
                new CaptureInterface(3, "mlx5_0", CaptureInterface.RDMA_SNIFFER_DESCRIPTION, List.of(), false, true, true));
    }

    @Override
    public Session open(String iface, String filter) throws LiveCaptureException {
        if (refuse != null) {
            throw refuse;
        }
        openedInterface = iface;
        openedFilter = filter;
        List<byte[]> frames = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(file)) {
            Frame f;
            while ((f = s.next()) != null) {
                frames.add(f.toByteArray());
                times.add(f.timeNanos());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Session() {
            int next;
            volatile boolean stopped;

            @Override
            public void start() {
            }

            @Override
            public Frame poll(long timeout, TimeUnit unit) {
                if (!stopped && next == stopHookAfter) {
                    stopHook.run();
                }
                if (stopped || next >= frames.size()) {
                    if (!stopped && waitForStop) {
                        try {
                            unit.sleep(Math.min(timeout, 5));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return null;
                }
                byte[] b = frames.get(next);
                long t = times.get(next);
                next++;
                return Frame.of(next, t, 1, b);
            }

            @Override
            public boolean isDone() {
                return stopped || !waitForStop && next >= frames.size();
            }

            @Override
            public void stop() {
                stopped = true;
            }

            @Override
            public CaptureStatistics statistics() {
                return new CaptureStatistics(next, next, 0, next + 3, 3, 0, true);
            }

            @Override
            public String name() {
                return iface;
            }

            @Override
            public void close() {
            }
        };
    }
}
