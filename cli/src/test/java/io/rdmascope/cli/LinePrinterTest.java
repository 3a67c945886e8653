package io.rdmascope.cli;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Live decoded lines: inline they are all printed; on their own thread a slow terminal skips, counted. */
class LinePrinterTest {
    private static Frame frame(int i) {
        return Frame.of(i, 1_700_000_000_000_000_000L + i * 1000L, LinkTypes.ETHERNET,
                LiveCli.roceFrame(i));
    }

    @Test
    void inlineEveryFrameIsPrintedInOrder() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LinePrinter p = new LinePrinter(out, DissectorChain.standard(), false, 16);
        for (int i = 1; i <= 100; i++) {
            p.accept(frame(i));
        }
        p.close();
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(100, lines.length);
        assertTrue(lines[99].startsWith("  100 "), lines[99]);
        assertEquals(100, p.printed());
        assertEquals(0, p.skipped());
    }

    @Test
    void onItsOwnThreadASlowTerminalSkipsFramesAndCountsThem() throws IOException {
        OutputStream slow = new OutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public void write(byte[] b, int off, int len) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        LinePrinter p = new LinePrinter(new java.io.BufferedOutputStream(slow, 64), DissectorChain.standard(), true, 8);
        for (int i = 1; i <= 2000; i++) {
            p.accept(frame(i));
        }
        p.close();
        assertTrue(p.skipped() > 0, "the printer was slower than the frames");
        assertEquals(2000, p.printed() + p.skipped());
    }

    @Test
    void aFailingOutputSurfacesAsAnError() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        LinePrinter p = new LinePrinter(broken, DissectorChain.standard(), true, 8);
        IOException e = assertThrows(IOException.class, () -> {
            p.accept(frame(1));
            p.close();
        });
        assertEquals("Broken pipe", e.getMessage());
    }
}
