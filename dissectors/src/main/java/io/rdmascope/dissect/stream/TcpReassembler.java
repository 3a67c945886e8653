package io.rdmascope.dissect.stream;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

/**
 * One direction of a TCP connection put back in order (RFC 9293 §3.10.7.4: data is delivered in
 * sequence-number order). Segments arrive in capture order; their bytes go to a {@link Sink} exactly
 * once, in stream order:
 * <ul>
 *   <li>a segment at the next expected sequence number is delivered at once, then whatever it made
 *       contiguous among the segments held;</li>
 *   <li>a segment wholly behind it is a retransmission: nothing is delivered again; one that overlaps
 *       it delivers only its new tail;</li>
 *   <li>a segment ahead of it is held (copied) until the hole before it fills;</li>
 *   <li>a hole becomes a gap, reported to the sink and skipped, when the other side acknowledges
 *       bytes the capture never showed ({@link #peerAck}), when the held bytes exceed
 *       {@link #MAX_BUFFERED_BYTES}, or at the end ({@link #flush}).</li>
 * </ul>
 * Positions are stream offsets from the first byte followed (a long: no 32-bit wrap); sequence
 * numbers are compared modulo 2^32.
 */
public final class TcpReassembler {
    /** Bytes held out of order per direction before the oldest hole is given up as a gap. */
    public static final int MAX_BUFFERED_BYTES = 1 << 20;
    /** Segments held out of order per direction, likewise. */
    public static final int MAX_BUFFERED_SEGMENTS = 1_024;
    /** An acknowledgement further ahead than this is not believed (a garbled or reset segment). */
    private static final long MAX_ACK_JUMP = 1L << 30;

    /** Receives a direction's bytes in stream order. */
    public interface Sink {
        /**
         * Bytes {@code [index, index + length)} of {@code source} are the stream's bytes from
         * {@code position} on. {@code frameOffset} is their offset in the frame being dissected when
         * they are that frame's own bytes, else -1 (they were held from frame {@code frame}).
         */
        void deliver(long position, ByteBuffer source, int index, int length, long frame, int frameOffset);

        /** Stream bytes {@code [from, to)} will never be delivered: the capture does not hold them. */
        void gap(long from, long to, long frame);

        /**
         * Bytes of the frame being dissected that arrived ahead of a hole and are held (they will be
         * delivered once the hole fills or is given up). A sink may look at them now, for display only.
         */
        default void ahead(long position, ByteBuffer source, int index, int length, long frame, int frameOffset) {
        }
    }

    /** What one segment was, for the analysis of the capture. */
    public enum Arrival {
        /** No payload. */
        EMPTY,
        /** Not followed yet (no starting point known). */
        UNSYNCED,
        /** The next bytes expected. */
        IN_ORDER,
        /** Filled a hole after the receiver asked for it again (duplicate ACK): sent again after a loss. */
        FILLED_AFTER_LOSS,
        /** Filled a hole without the receiver asking: it was merely late. */
        FILLED_LATE,
        /** Ahead of a hole: held. */
        OUT_OF_ORDER,
        /** Every byte delivered before: sent again. */
        RETRANSMISSION,
        /** Partly delivered before: its new tail was delivered. */
        PARTIAL_RETRANSMISSION
    }

    private record Held(byte[] bytes, long frame) {
    }

    private boolean synced;
    private int isn;
    private long next;
    private final TreeMap<Long, Held> held = new TreeMap<>();
    private int heldBytes;
    private boolean duplicateAckSinceHole;
    /** Stream position of the FIN, which takes one sequence number after the last byte (-1: none seen). */
    private long finAt = -1;
    private long gaps;
    private long gapBytes;

    /** Starts following at sequence number {@code seq}: that byte is stream position 0. */
    public void syncAt(int seq) {
        synced = true;
        isn = seq;
        next = 0;
        finAt = -1;
        held.clear();
        heldBytes = 0;
    }

    public boolean isSynced() {
        return synced;
    }

    /** Stream position of sequence number {@code seq} (modulo 2^32, nearest the next expected byte). */
    public long position(int seq) {
        return next + (int) (seq - nextSeq());
    }

    /** Sequence number of stream position {@code position}. */
    public int sequence(long position) {
        return (int) (isn + position);
    }

    /** The next stream position expected. */
    public long next() {
        return next;
    }

    private int nextSeq() {
        return (int) (isn + next);
    }

    /** Holes given up as gaps so far, and the bytes they held. */
    public long gaps() {
        return gaps;
    }

    public long gapBytes() {
        return gapBytes;
    }

    /** Bytes held out of order now. */
    public int heldBytes() {
        return heldBytes;
    }

    /**
     * One segment: sequence number {@code seq}, {@code captured} payload bytes at {@code
     * source[index…]} (offset {@code frameOffset} in frame {@code frame}), {@code wire} payload bytes
     * on the wire ({@code tcp.len}; more than captured when the snap length cut it), and whether it
     * carries a FIN (which takes the sequence number after its last byte, RFC 9293 §3.4).
     */
    public Arrival segment(int seq, ByteBuffer source, int index, int captured, int wire, boolean fin, long frame,
                           int frameOffset, Sink sink) {
        if (!synced) {
            return wire <= 0 ? Arrival.EMPTY : Arrival.UNSYNCED;
        }
        if (fin && finAt < 0) {
            finAt = position(seq) + Math.max(0, wire);
            passFin();
        }
        if (wire <= 0) {
            return Arrival.EMPTY;
        }
        long pos = position(seq);
        long end = pos + wire;
        if (end <= next) {
            return Arrival.RETRANSMISSION;
        }
        if (pos > next) {
            hold(pos, source, index, captured, frame, sink);
            if (captured > 0 && held.containsKey(pos)) {
                sink.ahead(pos, source, index, captured, frame, frameOffset);
            }
            return Arrival.OUT_OF_ORDER;
        }
        Arrival arrival;
        if (pos < next) {
            arrival = Arrival.PARTIAL_RETRANSMISSION;
        } else if (held.isEmpty()) {
            arrival = Arrival.IN_ORDER;
        } else {
            arrival = duplicateAckSinceHole ? Arrival.FILLED_AFTER_LOSS : Arrival.FILLED_LATE;
        }
        int skip = (int) (next - pos);
        if (skip < captured) {
            sink.deliver(next, source, index + skip, captured - skip, frame, frameOffset + skip);
            next += captured - skip;
        }
        if (wire > captured && next < end) {
            gap(end, frame, sink); // the snap length cut the segment: its tail is not in the capture
        }
        drain(sink);
        return arrival;
    }

    private void hold(long pos, ByteBuffer source, int index, int captured, long frame, Sink sink) {
        if (captured > 0) {
            byte[] copy = new byte[captured];
            source.get(index, copy, 0, captured);
            Held previous = held.put(pos, new Held(copy, frame));
            heldBytes += captured - (previous == null ? 0 : previous.bytes().length);
        }
        while (heldBytes > MAX_BUFFERED_BYTES || held.size() > MAX_BUFFERED_SEGMENTS) {
            gap(held.firstKey(), frame, sink); // give the oldest hole up
            drain(sink);
        }
    }

    /** Delivers the held segments that the stream has reached. */
    private void drain(Sink sink) {
        while (!held.isEmpty()) {
            Map.Entry<Long, Held> first = held.firstEntry();
            long pos = first.getKey();
            if (pos > next) {
                return;
            }
            held.pollFirstEntry();
            byte[] bytes = first.getValue().bytes();
            heldBytes -= bytes.length;
            long end = pos + bytes.length;
            if (end > next) {
                int skip = (int) (next - pos);
                sink.deliver(next, ByteBuffer.wrap(bytes), skip, bytes.length - skip, first.getValue().frame(), -1);
                next = end;
            }
        }
        duplicateAckSinceHole = false;
        passFin();
    }

    /** Once every byte before the FIN is in, the FIN's sequence number counts as received too. */
    private void passFin() {
        if (finAt >= 0 && next == finAt) {
            next = finAt + 1;
        }
    }

    private void gap(long to, long frame, Sink sink) {
        if (to > next) {
            sink.gap(next, to, frame);
            gaps++;
            gapBytes += to - next;
            next = to;
        }
    }

    /**
     * The other side acknowledged everything before sequence number {@code ack} (in frame {@code
     * frame}). Bytes it acknowledged that were never captured are a gap: reported, skipped, and what
     * was held behind them delivered. An acknowledgement of exactly the next byte while a hole is open
     * is a duplicate ACK: the receiver asks for the hole again. Returns whether a gap was found.
     */
    public boolean peerAck(int ack, long frame, Sink sink) {
        if (!synced) {
            return false;
        }
        long ackPos = position(ack);
        if (ackPos == next && !held.isEmpty()) {
            duplicateAckSinceHole = true;
            return false;
        }
        if (ackPos <= next || ackPos - next > MAX_ACK_JUMP) {
            return false;
        }
        boolean found = false;
        while (next < ackPos) {
            Long firstHeld = held.isEmpty() ? null : held.firstKey();
            long to = firstHeld == null ? ackPos : Math.min(ackPos, firstHeld);
            if (to > next) {
                gap(to, frame, sink);
                found = true;
            }
            drain(sink);
            if (held.isEmpty() && next >= ackPos) {
                break;
            }
            if (held.isEmpty()) {
                gap(ackPos, frame, sink);
                found = true;
            }
        }
        return found;
    }

    /** The capture ended: every hole still open becomes a gap and everything held is delivered. */
    public void flush(long frame, Sink sink) {
        while (!held.isEmpty()) {
            gap(held.firstKey(), frame, sink);
            drain(sink);
        }
    }
}
