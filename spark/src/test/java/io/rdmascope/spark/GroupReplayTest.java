package io.rdmascope.spark;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The skew guard (issue 21): one very busy host pair must not need to fit in memory. Spark hands
 * {@code flatMapSortedGroups}' function one group as an iterator over its sorted rows (its sorter spills
 * to disk); this holds {@link GroupReplay} to its side of that: it pulls a frame only when it needs one
 * to produce output, hands each message on as soon as the engine finishes it, and keeps no frame once
 * replayed. A group function that gathered its frames into a list first fails both.
 */
class GroupReplayTest {
    /** One host pair's traffic: a single RC connection, every frame between the same two hosts. */
    private static final int FRAMES = 40_000;

    @TempDir
    Path dir;

    @Test
    void aBusyHostPairIsReplayedAsItsFramesArriveAndNoneIsKept() throws IOException {
        Path capture = Scenarios.writeMixedLarge(dir, 7, FRAMES, 1, false);
        Frames frames = new Frames(capture);
        Iterator<ReplayRow> out = new GroupReplay(Map.of()).call(GroupReplay.key("v", "pair"), frames);

        assertTrue(out.hasNext());
        assertEquals(ReplayRow.MESSAGE, out.next().getKind());
        assertTrue(frames.read < FRAMES / 100, "the first message leaves after " + frames.read + " frames, not the group's end");

        long messages = 1;
        long messagesByHalf = 0;
        while (out.hasNext()) {
            if (out.next().getKind().equals(ReplayRow.MESSAGE)) {
                messages++;
                if (frames.read <= FRAMES / 2) {
                    messagesByHalf++;
                }
            }
        }
        assertEquals(FRAMES, frames.read, "every frame replayed");
        assertTrue(messages > 1_000, "messages: " + messages);
        // Output keeps pace with input: about half the messages are out by the time half the frames are in.
        assertTrue(messagesByHalf > messages / 3, messagesByHalf + " of " + messages + " messages by half the frames");

        // The replay (still reachable through `out`) holds no frame: their bytes are garbage once replayed.
        System.gc();
        long kept = frames.seen.stream().filter(r -> r.get() != null).count();
        assertTrue(kept <= frames.seen.size() / 100, kept + " of " + frames.seen.size() + " frames' bytes still held");
    }

    /** The group's rows, read lazily from a capture as Spark's sorted iterator hands them over; counts what was pulled. */
    private static final class Frames implements Iterator<FrameRow> {
        final List<WeakReference<byte[]>> seen = new ArrayList<>();
        int read;
        private final PacketSource source;
        private Frame next;

        Frames(Path capture) throws IOException {
            source = CaptureFiles.open(capture);
            next = source.next();
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public FrameRow next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            FrameRow row = FrameRow.of("v", next.number(), next);
            row.setPair("pair");
            seen.add(new WeakReference<>(row.getBytes()));
            read++;
            try {
                next = source.next();
                if (next == null) {
                    source.close();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return row;
        }
    }
}
