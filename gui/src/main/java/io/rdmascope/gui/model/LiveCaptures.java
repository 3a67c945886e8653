package io.rdmascope.gui.model;

import io.rdmascope.capture.live.CaptureInterface;
import io.rdmascope.capture.live.CaptureInterfaces;
import io.rdmascope.capture.live.CaptureStatistics;
import io.rdmascope.capture.live.LiveCapture;
import io.rdmascope.capture.live.LiveCaptureException;
import io.rdmascope.capture.live.LiveCaptureOptions;
import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where live frames come from: libpcap through the capture module ({@link #pcap()}), or, in tests,
 * a fake that replays a file. The GUI's live view and its view model see only this.
 */
public interface LiveCaptures {

    /** The interfaces one may capture on, in libpcap's order. */
    List<CaptureInterface> interfaces() throws LiveCaptureException;

    /** Opens {@code iface} with a capture (BPF) filter, null for none; capture starts with {@link Session#start()}. */
    Session open(String iface, String filter) throws LiveCaptureException;

    /** One running capture. */
    interface Session extends AutoCloseable {
        void start();

        /** The next frame, waiting at most {@code timeout}; null when none came. */
        Frame poll(long timeout, TimeUnit unit) throws IOException;

        /** True once the capture has stopped and every frame has been taken. */
        boolean isDone();

        /** Asks the capture to stop; frames already received still come. */
        void stop();

        CaptureStatistics statistics();

        /** The interface's name. */
        String name();

        @Override
        void close();
    }

    /** Live capture through libpcap ({@link LiveCapture}). */
    static LiveCaptures pcap() {
        return new LiveCaptures() {
            @Override
            public List<CaptureInterface> interfaces() throws LiveCaptureException {
                return CaptureInterfaces.list();
            }

            @Override
            public Session open(String iface, String filter) throws LiveCaptureException {
                LiveCapture c = LiveCapture.open(LiveCaptureOptions.on(iface).withFilter(filter));
                return new Session() {
                    @Override
                    public void start() {
                        c.start();
                    }

                    @Override
                    public Frame poll(long timeout, TimeUnit unit) throws IOException {
                        return c.poll(timeout, unit);
                    }

                    @Override
                    public boolean isDone() {
                        return c.isDone();
                    }

                    @Override
                    public void stop() {
                        c.stop();
                    }

                    @Override
                    public CaptureStatistics statistics() {
                        return c.statistics();
                    }

                    @Override
                    public String name() {
                        return c.name();
                    }

                    @Override
                    public void close() {
                        c.close();
                    }
                };
            }
        };
    }
}
