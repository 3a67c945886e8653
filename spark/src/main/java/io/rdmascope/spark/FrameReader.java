package io.rdmascope.spark;

import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.HostPair;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Reads one capture file into {@link FrameRow}s, lazily (a file never has to fit in memory): each frame
 * numbered within its vantage and keyed by its host pair, found by dissecting it. A vantage replayed
 * whole (a dependency across host pairs showed up, docs/fleet.md) gets one key for all its frames.
 * Damage part-way ends the file where it is, as the CLI does; the first pass reported it already.
 */
final class FrameReader implements FlatMapFunction<CaptureFile, FrameRow> {
    /** The host-pair key of every frame of a vantage replayed whole. */
    static final String WHOLE_VANTAGE = "*";

    private final Set<String> wholeVantages;
    private final Broadcast<SerializableConfiguration> hadoop;

    /** @param hadoop the job's Hadoop configuration, which says how to reach the input's file system */
    FrameReader(Set<String> wholeVantages, Broadcast<SerializableConfiguration> hadoop) {
        this.wholeVantages = Set.copyOf(wholeVantages);
        this.hadoop = hadoop;
    }

    @Override
    public Iterator<FrameRow> call(CaptureFile file) {
        boolean whole = wholeVantages.contains(file.getVantage());
        PacketSource source = CaptureInput.openUnchecked(file.getUri(), hadoop.value().value());
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        return new Iterator<>() {
            private long number = file.getFirstFrame();
            private Frame next = read();

            private Frame read() {
                try {
                    Frame f = source.next();
                    if (f == null) {
                        source.close();
                    }
                    return f;
                } catch (IOException e) {
                    closeQuietly();
                    if (e instanceof io.rdmascope.capture.CaptureFormatException) {
                        return null; // damage: the frames before it are replayed, the scan reports the error
                    }
                    throw new UncheckedIOException(file.getName() + ": " + e.getMessage(), e);
                }
            }

            private void closeQuietly() {
                try {
                    source.close();
                } catch (Exception ignored) {
                    // already failing
                }
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
                Frame f = next;
                FrameRow row = FrameRow.of(file.getVantage(), number++, f);
                if (whole) {
                    row.setPair(WHOLE_VANTAGE);
                } else {
                    chain.dissect(f, d);
                    row.setPair(HostPair.keyOf(d));
                }
                next = read();
                return row;
            }
        };
    }
}
