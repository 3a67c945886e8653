package io.rdmascope.samples;

import io.rdmascope.frame.LinkTypes;

import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * What generators outside this package (the iWARP scenarios of {@code io.rdmascope.samples.iwarp})
 * need of a {@link Fabric}: its capture and clock, its random source and the truth being written.
 * The RoCE helpers reach these directly; this keeps them package-private for everyone else.
 */
public final class FabricAccess {
    private FabricAccess() {
    }

    /** Captures an Ethernet frame at the current clock; returns its frame number. */
    public static int capture(Fabric f, byte[] ethernetFrame) {
        return f.trace.add(ethernetFrame, LinkTypes.ETHERNET);
    }

    /** The clock, in nanoseconds since the epoch. */
    public static long now(Fabric f) {
        return f.trace.now();
    }

    /** Time of captured frame {@code number}. */
    public static long timeOf(Fabric f, int number) {
        return f.trace.timeOf(number);
    }

    /** Back-to-back packets from one sender (serialisation at 100 Gb/s plus scheduling jitter). */
    public static void nextPacket(Fabric f, int bytes) {
        f.trace.nextPacket(bytes);
    }

    /** A receiver's turnaround before it answers. */
    public static void turnaround(Fabric f) {
        f.trace.turnaround();
    }

    public static Random random(Fabric f) {
        return f.random;
    }

    /** An IPv6 address as truth files write it (RFC 5952). */
    public static String ipv6Text(byte[] address) {
        return Gids.text(address);
    }

    /** Starts a connection's truth: its transport, encapsulation, two endpoints and how it is set up. */
    public static ConnectionTruth connection(Fabric f, String transport, String encapsulation,
                                             Truth.Endpoint requester, Truth.Endpoint responder, String setup) {
        TruthLog.ConnectionRecord r = f.truth.connection(transport, encapsulation);
        r.requester = requester;
        r.responder = responder;
        r.setup = setup;
        return new ConnectionTruth(f, r);
    }

    /** A connection's truth, as it is filled in. */
    public static final class ConnectionTruth {
        private final Fabric fabric;
        private final TruthLog.ConnectionRecord record;

        private ConnectionTruth(Fabric fabric, TruthLog.ConnectionRecord record) {
            this.fabric = fabric;
            this.record = record;
        }

        /** A lifecycle transition at {@code frame}, and the {@code qp_state} observation it makes. */
        public void transition(int frame, String state) {
            record.lifecycle.add(new Truth.Transition(frame, state));
            fabric.truth.observe(Expected.QP_STATE, frame, record.id, null, state);
        }

        /** An observation (and the finding its kind raises) on this connection; {@code psn} may be null. */
        public void observe(Expected kind, Integer frame, Integer psn, String detail) {
            fabric.truth.observe(kind, frame, record.id, psn, detail);
        }

        /** A message of this connection, from its requester side as given (truth files name the sender). */
        public MessageTruth message(String kind, int firstPsn, int lastPsn, long bytes) {
            return new MessageTruth(fabric.truth.message(record.id, kind, firstPsn, lastPsn, bytes));
        }
    }

    /** A message's truth: frames as they are captured, and how it ends. */
    public static final class MessageTruth {
        private final TruthLog.MessageRecord record;

        private MessageTruth(TruthLog.MessageRecord record) {
            this.record = record;
        }

        /** A request frame carrying its bytes (kept sorted, each once). */
        public void frame(int frame) {
            insert(record.frames, frame);
        }

        public void responseFrame(int frame) {
            insert(record.responseFrames, frame);
        }

        public List<Integer> frames() {
            return Collections.unmodifiableList(record.frames);
        }

        public void bytes(long bytes) {
            record.bytes = bytes;
        }

        public long bytes() {
            return record.bytes;
        }

        public void invalidatedRkey(Long rkey) {
            record.invalidatedRkey = rkey;
        }

        public void immediate(Long value) {
            record.immediate = value;
        }

        /** Completed, failed or incomplete, with the frame and latency where one applies. */
        public void end(String status, Integer frame, Long latencyNanos) {
            record.status = status;
            record.completionFrame = frame;
            record.latencyNanos = latencyNanos;
        }

        public String status() {
            return record.status;
        }

        private static void insert(List<Integer> list, int frame) {
            int i = Collections.binarySearch(list, frame);
            if (i < 0) {
                list.add(-i - 1, frame);
            }
        }
    }
}
