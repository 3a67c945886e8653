package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;

/**
 * Dissects single frames of an index on demand, as the packet list and the detail pane need them
 * (the fast path for columns, then {@link io.rdmascope.text.ProtoTree} for the one frame shown).
 * Times read as in a dissection of the whole file: {@code frame.time_relative} counts from the
 * first frame and {@code frame.time_delta} from the frame before.
 *
 * <p>TCP sequence and acknowledgment numbers are shown raw, as Wireshark shows them with {@code
 * tcp.relative_sequence_numbers} off: relative ones count from each connection's first segments,
 * which a frame decoded on its own (random access) has not seen, so they would change with the order
 * the user visits frames in (docs/tshark-parity.md).
 *
 * <p>Not thread-safe, like the {@link Dissection} it reuses: one decoder per thread.
 */
public final class FrameDecoder {
    private final FrameIndex index;
    private final DissectorChain chain;
    private final Dissection d = new Dissection();

    public FrameDecoder(FrameIndex index, DissectorChain chain) {
        this.index = index;
        this.chain = chain.withRelativeTcpSequenceNumbers(false);
    }

    public FrameIndex index() {
        return index;
    }

    /**
     * Dissects frame {@code number} and returns the dissection, valid until the next call (it is
     * reused).
     */
    public Dissection dissect(int number) {
        Frame f = index.frame(number);
        if (number == 1) {
            // A fresh dissection: frame 1 has no previous frame (frame.time_delta 0).
            Dissection first = new Dissection();
            chain.dissect(f, first);
            return first;
        }
        d.setReferenceTimeNanos(index.firstTimeNanos());
        d.reset(index.frame(number - 1)); // so that the frame before is the "previous" one
        chain.dissect(f, d);
        return d;
    }

    /**
     * Time column text: seconds since the first frame with the capture's precision ({@code digits}
     * fraction digits, truncated), as tshark's default {@code -t r} prints it.
     */
    public static String relativeTime(long nanos, int digits) {
        return TimeFormat.RELATIVE.format(nanos, 0, digits, java.time.ZoneOffset.UTC);
    }
}
