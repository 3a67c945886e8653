package io.rdmascope.cli;

import io.rdmascope.frame.Frame;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The progress line: silent for short runs and when stderr is no terminal; erased when done. */
class ProgressTest {
    private static final int CHUNK = 1 << 14; // frames between clock reads
    private final Frame frame = new Frame(1, 0, 84, 84, 1, 0, ByteBuffer.allocate(100), 0);

    private static final class Run {
        final StringWriter text = new StringWriter();
        final AtomicLong now = new AtomicLong(5_000_000_000L);
        final AtomicInteger terminalAsked = new AtomicInteger();
        final Progress progress;

        Run(boolean terminal, long total) {
            progress = new Progress(new PrintWriter(text), "big.pcap", total, 16, now::get, () -> {
                terminalAsked.incrementAndGet();
                return terminal;
            });
        }
    }

    private void frames(Run r, int n) {
        for (int i = 0; i < n; i++) {
            r.progress.frame(frame);
        }
    }

    @Test
    void silentDuringTheFirstSecond() {
        Run r = new Run(true, 100L * 4 * CHUNK);
        frames(r, 3 * CHUNK);
        r.now.addAndGet(999_000_000L);
        frames(r, CHUNK);
        r.progress.close();
        assertEquals("", r.text.toString());
        assertEquals(0, r.terminalAsked.get(), "a short run never checks the terminal");
    }

    @Test
    void afterASecondOnATerminalOneRewrittenLineWithFramesAndShareThenErased() {
        Run r = new Run(true, 100L * 4 * CHUNK); // each frame is 100 bytes of file: 84 + 16
        frames(r, CHUNK);
        r.now.addAndGet(1_000_000_000L);
        frames(r, CHUNK);
        String first = "\rrdmascope: big.pcap: 32768 frames, 50% (1 s)";
        assertEquals(first, r.text.toString());
        r.now.addAndGet(100_000_000L);
        frames(r, CHUNK);
        assertEquals(first, r.text.toString(), "no repaint within half a second");
        r.now.addAndGet(1_400_000_000L);
        frames(r, CHUNK);
        String second = "\rrdmascope: big.pcap: 65536 frames, 99% (3 s)";
        assertEquals(first + second, r.text.toString());
        r.progress.close();
        String erase = "\r" + " ".repeat(second.length() - 1) + "\r";
        assertEquals(first + second + erase, r.text.toString());
        assertEquals(1, r.terminalAsked.get(), "asked once");
    }

    @Test
    void withoutATerminalNothingEver() {
        Run r = new Run(false, 0);
        for (int second = 0; second < 5; second++) {
            r.now.addAndGet(1_000_000_000L);
            frames(r, CHUNK);
        }
        r.progress.close();
        assertEquals("", r.text.toString());
        assertEquals(1, r.terminalAsked.get(), "asked once, then never again");
    }

    @Test
    void withoutAKnownSizeOnlyFrames() {
        Run r = new Run(true, 0);
        r.now.addAndGet(2_000_000_000L);
        frames(r, CHUNK);
        assertEquals("\rrdmascope: big.pcap: 16384 frames (2 s)", r.text.toString());
    }
}
