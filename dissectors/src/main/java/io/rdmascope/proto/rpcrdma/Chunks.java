package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.Fragments;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The RPC messages one connection moves in chunks (RFC 8166 §3.4-3.5), put back together as
 * Wireshark's packet-rpcrdma.c does: a call's read chunks are the client's memory the server fetches
 * with RDMA READs (§3.5.3: the bytes that belong at each chunk's XDR position, the whole call for a
 * "long call" at position 0), a reply chunk the client's memory the server RDMA WRITEs a long reply
 * into (§3.5.4). This class keeps, per connection, the calls whose chunks are awaited, which chunk
 * segment each RDMA READ and WRITE in progress fills, and the bytes that came; the dissector shows a
 * call whole at the READ response that completes its read chunks, and a reply whole at the
 * RDMA_NOMSG SEND that follows its reply chunk's WRITEs.
 *
 * <p>Bounded: at most {@link #MAX_PENDING} calls awaited per kind (the oldest is forgotten), at most
 * {@link #MAX_CHUNK_BYTES} bytes per message and {@link #MAX_FRAGMENTS} frames; a message past a bound
 * is not shown whole and counts in {@link #overflowed()}.
 */
final class Chunks {
    /** Calls with chunks awaited per connection and kind: more than any client keeps in flight (Linux: 128 credits). */
    static final int MAX_PENDING = 256;
    /** Bytes of one message put together: above the usual 1 MiB NFS rsize/wsize plus its RPC header. */
    static final int MAX_CHUNK_BYTES = (1 << 20) + 4096;
    static final int MAX_FRAGMENTS = 1_024;

    /** One segment of a chunk (RFC 8166 §4.2.1): handle, length, offset, and for a read chunk its XDR position. */
    record Segment(long handle, long length, long offset, long position) {
        boolean holds(long key, long va) {
            return key == handle && Long.compareUnsigned(va - offset, length) < 0;
        }
    }

    /**
     * A message whose bytes are awaited: a call's read chunks (with the bytes it sent inline) or a
     * call's reply chunk. {@code data[i]} collects segment {@code i}'s bytes by offset.
     */
    static final class Awaited {
        final long xid;
        final List<Segment> segments;
        final byte[] inline;
        final byte[][] data;
        final long[] received;
        private long[] frames = new long[4];
        private int frameCount;
        boolean overflow;

        Awaited(long xid, List<Segment> segments, byte[] inline) {
            this.xid = xid;
            this.segments = segments;
            this.inline = inline;
            this.data = new byte[segments.size()][];
            this.received = new long[segments.size()];
            long total = inline.length;
            for (int i = 0; i < segments.size(); i++) {
                total += segments.get(i).length();
                if (total > MAX_CHUNK_BYTES) {
                    overflow = true;
                    break;
                }
                data[i] = new byte[(int) segments.get(i).length()];
            }
        }

        /** Notes that frame {@code frame} carried bytes of this message (once per frame). */
        void frame(long frame) {
            if (frameCount > 0 && frames[frameCount - 1] == frame) {
                return;
            }
            if (frameCount == frames.length) {
                if (frameCount == MAX_FRAGMENTS) {
                    overflow = true;
                    return;
                }
                frames = Arrays.copyOf(frames, frameCount * 2);
            }
            frames[frameCount++] = frame;
        }

        /** Copies {@code length} bytes at frame offset {@code at} of {@code d} to segment {@code i} at {@code into}. */
        void fill(Dissection d, int i, long into, int at, int length) {
            int n = (int) Math.max(0, Math.min(length, segments.get(i).length() - into));
            if (!overflow && n > 0) {
                d.buffer().get(d.base() + at, data[i], (int) into, n);
                received[i] += n;
            }
        }

        /** Whether every segment's bytes have come. */
        boolean complete() {
            for (int i = 0; i < segments.size(); i++) {
                if (received[i] < segments.get(i).length()) {
                    return false;
                }
            }
            return true;
        }

        /** The frames the message came in, as a frame list. */
        byte[] frameList() {
            return Fragments.frameList(frames, frameCount);
        }

        /**
         * The call's XDR stream: the inline bytes with each read chunk's bytes inserted at its position
         * (RFC 8166 §3.5.3: positions count in the whole stream; the segments of one chunk share a
         * position and follow each other).
         */
        byte[] readCall() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int inlineAt = 0;
            for (int i = 0; i < segments.size(); i++) {
                int position = (int) Math.min(segments.get(i).position(), Integer.MAX_VALUE);
                int take = Math.max(0, Math.min(inline.length - inlineAt, position - out.size()));
                out.write(inline, inlineAt, take);
                inlineAt += take;
                out.write(data[i], 0, data[i].length);
            }
            out.write(inline, inlineAt, inline.length - inlineAt);
            return out.toByteArray();
        }

        /** The reply chunk's bytes: each segment's first {@code written[i]} bytes (what the reply says it wrote). */
        byte[] replyChunk(long[] written) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < segments.size() && i < written.length; i++) {
                out.write(data[i], 0, (int) Math.min(written[i], received[i]));
            }
            return out.toByteArray();
        }
    }

    /** An RDMA READ or WRITE in progress: the message and segment it fills, and where it is in the segment. */
    private static final class Transfer {
        final Awaited message;
        final int segment;
        long into;
        long remaining;

        Transfer(Awaited message, int segment, long into, long remaining) {
            this.message = message;
            this.segment = segment;
            this.into = into;
            this.remaining = remaining;
        }
    }

    private final ArrayDeque<Awaited> readCalls = new ArrayDeque<>();
    private final ArrayDeque<Awaited> replyChunks = new ArrayDeque<>();
    /** READ Requests whose responses are awaited, oldest first (IBTA 9.5: responses come in request order). */
    private final ArrayDeque<Transfer> reads = new ArrayDeque<>();
    private Transfer write;
    private long overflowed;

    /** Messages not shown whole because a bound was passed (or forgotten to stay within one). */
    long overflowed() {
        return overflowed;
    }

    /**
     * A call whose read chunks the server will fetch; {@code inline} is the part it sent inline, in
     * frame {@code sendFrame}, the first of the message's frames as tshark lists them when it holds
     * any of the message (a long call's RDMA_NOMSG holds none, and tshark lists only the READs).
     */
    void awaitReadChunks(long xid, List<Segment> segments, byte[] inline, long sendFrame) {
        Awaited a = new Awaited(xid, segments, inline);
        if (inline.length > 0) {
            a.frame(sendFrame);
        }
        add(readCalls, a);
    }

    /** A call whose reply may come in a reply chunk of {@code segments}. */
    void awaitReplyChunk(long xid, List<Segment> segments) {
        add(replyChunks, new Awaited(xid, segments, new byte[0]));
    }

    private void add(ArrayDeque<Awaited> awaited, Awaited a) {
        if (a.overflow) {
            overflowed++;
        }
        if (awaited.size() == MAX_PENDING) {
            awaited.poll();
            overflowed++;
        }
        awaited.add(a);
    }

    /** An RDMA READ Request (to the client): the read chunk segment it fetches, if one of an awaited call's. */
    void readRequest(long key, long va, long length) {
        for (Awaited a : readCalls) {
            for (int i = 0; i < a.segments.size(); i++) {
                Segment s = a.segments.get(i);
                if (s.holds(key, va)) {
                    if (reads.size() == MAX_PENDING) {
                        reads.poll();
                    }
                    reads.add(new Transfer(a, i, va - s.offset(), length));
                    return;
                }
            }
        }
    }

    /**
     * An RDMA READ response (to the server) carrying {@code [at, at + length)}; {@code last}: a Last or
     * Only. Returns the call it completes, removed from those awaited, else null.
     */
    Awaited readResponse(Dissection d, int at, int length, boolean last) {
        Transfer t = last ? reads.poll() : reads.peek();
        if (t == null) {
            return null;
        }
        t.message.frame(d.frame().number());
        t.message.fill(d, t.segment, t.into, at, length);
        t.into += length;
        if (last && t.message.complete()) {
            readCalls.remove(t.message);
            return t.message;
        }
        return null;
    }

    /** An RDMA WRITE (to the client) starting with a RETH ({@code key}, {@code va}), or continuing one ({@code first} false). */
    void write(Dissection d, boolean first, long key, long va, int at, int length) {
        if (first) {
            write = null;
            for (Iterator<Awaited> it = replyChunks.iterator(); it.hasNext() && write == null; ) {
                Awaited a = it.next();
                for (int i = 0; i < a.segments.size(); i++) {
                    if (a.segments.get(i).holds(key, va)) {
                        write = new Transfer(a, i, va - a.segments.get(i).offset(), Long.MAX_VALUE);
                        break;
                    }
                }
            }
        }
        if (write != null) {
            write.message.frame(d.frame().number());
            write.message.fill(d, write.segment, write.into, at, length);
            write.into += length;
        }
    }

    /** The reply chunk awaited for call {@code xid}, removed, else null. */
    Awaited replyChunk(long xid) {
        for (Iterator<Awaited> it = replyChunks.iterator(); it.hasNext(); ) {
            Awaited a = it.next();
            if (a.xid == xid) {
                it.remove();
                if (a.overflow) {
                    overflowed++;
                    return null;
                }
                return a;
            }
        }
        return null;
    }

    /** Counts a completed call that passed a bound (it is not shown whole). */
    void overflowedOnce() {
        overflowed++;
    }
}
