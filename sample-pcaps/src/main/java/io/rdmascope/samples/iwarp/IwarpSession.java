package io.rdmascope.samples.iwarp;

import io.rdmascope.build.EthernetFrame;
import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpBuilder;
import io.rdmascope.proto.iwarp.Mpa;
import io.rdmascope.samples.Expected;
import io.rdmascope.samples.Fabric;
import io.rdmascope.samples.FabricAccess;
import io.rdmascope.samples.FabricAccess.ConnectionTruth;
import io.rdmascope.samples.FabricAccess.MessageTruth;
import io.rdmascope.samples.Host;
import io.rdmascope.samples.Truth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * One iWARP connection between an initiator (side 0) and a responder (side 1), played segment by
 * segment onto the capture while its truth is written down. A scenario posts messages (which appends
 * their FPDUs to the sender's byte stream), then transmits the stream as TCP segments of the sizes
 * and {@link Fate}s it chooses, and has the receiver acknowledge.
 *
 * <p>Two small models decide the truth. The receiver's TCP (what arrived, in order) gives every
 * acknowledgement its value. The observer (what the capture shows, put back in order as any analyser
 * must: held out-of-order segments, holes that the receiver's acknowledgements reveal as capture
 * gaps) decides in which frame each FPDU becomes readable, and from there which frame completes each
 * message: a Send or Write when the receiver's acknowledgement covers its last byte, a Read when its
 * last Read Response is read. The rules are RFC 5040/5041/5044's; the checks that find deliberate
 * violations are those a passive observer can make (MSN and offsets in sequence, queues, CRCs, markers).
 *
 * <p>Messages are requested by the initiator: a truth file names a connection's requester as every
 * message's source.
 */
public final class IwarpSession {
    /** What becomes of one transmitted segment. */
    public enum Fate {
        /** Captured and received. */
        DELIVERED,
        /** Lost before the capture point: neither captured nor received. */
        LOST,
        /** Captured, then lost before the receiver. */
        LOST_AFTER_CAPTURE,
        /** Received, but the capture missed it. */
        NOT_CAPTURED
    }

    /**
     * What the MPA Request and Reply negotiate, and how the NICs at both ends deviate from the RFCs
     * the way real hardware was seen to (issue 16; {@link Nic}).
     */
    public record Options(boolean crc, boolean markersToInitiator, boolean markersToResponder, int requestRevision,
                          int replyRevision, byte[] requestData, byte[] replyData, boolean reject, boolean ipv6,
                          Nic nic, boolean oscMarkers) {
        public Options(boolean crc, boolean markersToInitiator, boolean markersToResponder, int requestRevision,
                       int replyRevision, byte[] requestData, byte[] replyData, boolean reject, boolean ipv6) {
            this(crc, markersToInitiator, markersToResponder, requestRevision, replyRevision, requestData, replyData,
                    reject, ipv6, Nic.RFC, false);
        }

        public static Options standard() {
            return new Options(true, false, false, 1, 1, new byte[0], new byte[0], false, false, Nic.RFC, false);
        }

        /**
         * Markers placed as the OSC iWARP stack does on a real capture (docs/iwarp.md), not as RFC 5044
         * §5 says: its marker clock skips each FPDU's CRC field and FPDUPTR is little-endian.
         */
        public Options withOscMarkers() {
            return new Options(crc, markersToInitiator, markersToResponder, requestRevision, replyRevision,
                    requestData, replyData, reject, ipv6, nic, true);
        }

        /** Both NICs behave as {@code kind} does. */
        public Options nic(Nic kind) {
            return new Options(crc, markersToInitiator, markersToResponder, requestRevision, replyRevision,
                    requestData, replyData, reject, ipv6, kind, oscMarkers);
        }

        public Options crc(boolean on) {
            return new Options(on, markersToInitiator, markersToResponder, requestRevision, replyRevision, requestData,
                    replyData, reject, ipv6, nic, oscMarkers);
        }

        public Options markers(boolean toInitiator, boolean toResponder) {
            return new Options(crc, toInitiator, toResponder, requestRevision, replyRevision, requestData, replyData,
                    reject, ipv6, nic, oscMarkers);
        }

        public Options revisions(int request, int reply, byte[] requestPrivateData, byte[] replyPrivateData) {
            return new Options(crc, markersToInitiator, markersToResponder, request, reply, requestPrivateData,
                    replyPrivateData, reject, ipv6, nic, oscMarkers);
        }

        public Options rejected() {
            return new Options(crc, markersToInitiator, markersToResponder, requestRevision, replyRevision,
                    requestData, replyData, true, ipv6, nic, oscMarkers);
        }

        public Options overIpv6() {
            return new Options(crc, markersToInitiator, markersToResponder, requestRevision, replyRevision,
                    requestData, replyData, reject, true, nic, oscMarkers);
        }
    }

    /**
     * How a NIC numbers and writes what RFC 5040/5041 define. {@link #RFC}: as they say. The others
     * model hardware seen in public captures (docs/iwarp-nics.md): the iWARP NIC of the Wireshark
     * wiki's 2008 iwarp_rdma sample captures numbers all untagged messages of a direction with one MSN
     * counter (Send 1 on queue 0, Read Request 2 on queue 1, Send 3 on queue 0; RFC 5041 §5.1 keeps
     * one per queue) and writes a Read Request's STags, offsets and size in little-endian byte order
     * (RFC 5040 §4.4: network order), its peer answering the byte-reversed sink.
     */
    public enum Nic {
        RFC(false, false),
        /** One MSN counter across queues, Read Requests in network order. */
        SHARED_MSN(true, false),
        /** Per-queue MSNs, Read Requests little-endian. */
        LITTLE_ENDIAN_READ(false, true),
        /** Both, as the NIC of the wiki's captures. */
        SHARED_MSN_LITTLE_ENDIAN_READ(true, true);

        final boolean sharedMsn;
        final boolean littleEndianReadRequest;

        Nic(boolean sharedMsn, boolean littleEndianReadRequest) {
            this.sharedMsn = sharedMsn;
            this.littleEndianReadRequest = littleEndianReadRequest;
        }
    }

    /** One FPDU in a stream. */
    static final class Fpdu {
        final int start;
        final int end;
        final Msg message;
        final boolean response;
        final int opcode;
        final boolean tagged;
        final boolean last;
        final long queue;
        final long msn;
        final long offset;
        final long stag;
        final int payload;
        final boolean corruptCrc;
        /** Octets the sender's marker clock had skipped when this FPDU began. */
        long clockSkipped;
        final boolean badMarker;
        /** A marker lies past its first octet: with OSC-style markers, the reader can tell the layout from it. */
        boolean markerPastStart;
        boolean read;
        boolean lost;

        Fpdu(int start, int end, Msg message, boolean response, int opcode, boolean tagged, boolean last, long queue,
             long msn, long offset, long stag, int payload, boolean corruptCrc, boolean badMarker) {
            this.start = start;
            this.end = end;
            this.message = message;
            this.response = response;
            this.opcode = opcode;
            this.tagged = tagged;
            this.last = last;
            this.queue = queue;
            this.msn = msn;
            this.offset = offset;
            this.stag = stag;
            this.payload = payload;
            this.corruptCrc = corruptCrc;
            this.badMarker = badMarker;
        }
    }

    /** A posted message (or a Terminate, which is no message). */
    public final class Msg {
        final String kind;
        final MessageTruth truth;
        final long msn;
        final List<Fpdu> fpdus = new ArrayList<>();
        final List<Fpdu> responses = new ArrayList<>();
        long sinkStag;
        long sinkOffset;
        int size;
        long firstTime = -1;
        long responseBytes;
        boolean whole;
        boolean ended;

        Msg(String kind, MessageTruth truth, long msn) {
            this.kind = kind;
            this.truth = truth;
            this.msn = msn;
        }

        /** The capture frames that carried this message's first FPDU (its first request frame). */
        public List<Integer> frames() {
            return truth == null ? List.of() : truth.frames();
        }
    }

    /** One direction's byte stream and what the receiver and the observer made of it. */
    final class Stream {
        final int side;
        final int isn;
        byte[] bytes = new byte[4096];
        int length;
        int sent;
        long markerOrigin = -1;
        /** Octets the sender's marker clock has skipped so far (the CRC fields, with OSC-style markers). */
        long clockSkipped;
        final List<Fpdu> fpdus = new ArrayList<>();
        final Map<Long, Long> nextMsn = new HashMap<>();
        /** A shared-MSN NIC's one counter for all queues. */
        long nextSharedMsn = 1;
        // the receiver's TCP
        int received;
        final TreeMap<Integer, Integer> receivedAhead = new TreeMap<>();
        // the observer: what the capture shows, put in order
        int seen;
        final TreeMap<Integer, int[]> heldAhead = new TreeMap<>();
        boolean duplicateAck;
        int nextFpdu;
        boolean resyncing;
        final List<int[]> segments = new ArrayList<>();
        // the observer's view of the DDP sequence
        final Map<Long, Long> expectedMsn = new HashMap<>();
        /** For a shared-MSN NIC: the next MSN of the one counter, and whether the deviation showed yet. */
        long expectedSharedMsn = 1;
        boolean sharedMsnSeen;
        boolean readByteOrderSeen;
        /** With OSC-style markers: the observer has seen an FPDU tell the layout (reported once). */
        boolean markerLayoutSeen;
        final Map<Long, Msg> openUntagged = new HashMap<>();
        final Map<Long, Long> nextOffset = new HashMap<>();
        boolean afterGap;
        final List<Msg> unacknowledged = new ArrayList<>();
        final List<Msg> reads = new ArrayList<>();
        boolean fin;

        Stream(int side, int isn) {
            this.side = side;
            this.isn = isn;
        }

        int seq(int position) {
            return isn + 1 + position;
        }

        void append(byte[] b) {
            if (length + b.length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(length + b.length, bytes.length * 2));
            }
            System.arraycopy(b, 0, bytes, length, b.length);
            length += b.length;
        }
    }

    private final Fabric fabric;
    private final Random random;
    private final Host[] hosts;
    private final int[] ports;
    private final int[] ipIds;
    private final Options options;
    private final Stream[] streams = new Stream[2];
    private final ConnectionTruth truth;
    private final int mulpdu;
    private final List<Msg> messages = new ArrayList<>();
    private boolean error;
    private String state;
    private final boolean[] finSeen = new boolean[2];

    private IwarpSession(Fabric fabric, Host initiator, Host responder, Options options, int mulpdu) {
        this.fabric = fabric;
        this.random = FabricAccess.random(fabric);
        this.hosts = new Host[] {initiator, responder};
        this.options = options;
        this.mulpdu = mulpdu;
        this.ports = new int[] {0x8000 + random.nextInt(0x7000), 4_791 + 1 + random.nextInt(5_000)};
        this.ipIds = new int[] {random.nextInt(0x10000), random.nextInt(0x10000)};
        streams[0] = new Stream(0, random.nextInt());
        streams[1] = new Stream(1, random.nextInt());
        String family = options.ipv6() ? "tcp_ipv6" : "tcp_ipv4";
        this.truth = FabricAccess.connection(fabric, "IWARP", family, endpoint(initiator), endpoint(responder), "mpa");
    }

    private Truth.Endpoint endpoint(Host h) {
        String address = options.ipv6() ? FabricAccess.ipv6Text(h.ipv6()) : h.ipv4Text();
        StringBuilder mac = new StringBuilder();
        for (byte b : h.mac()) {
            mac.append(mac.length() == 0 ? "" : ":").append(String.format("%02x", b & 0xFF));
        }
        return new Truth.Endpoint(address, mac.toString(), 0, null, null);
    }

    /**
     * Opens a connection: TCP handshake, then the MPA Request and Reply (each acknowledged), so that
     * FPDUs may flow. FPDUs carry at most {@code mulpdu} bytes of ULPDU (siw's default is about an MSS).
     */
    public static IwarpSession connect(Fabric fabric, Host initiator, Host responder, Options options, int mulpdu) {
        IwarpSession s = new IwarpSession(fabric, initiator, responder, options, mulpdu);
        s.handshake();
        return s;
    }

    private void handshake() {
        Stream a = streams[0];
        Stream b = streams[1];
        frame(0, a.isn, 0, 0x002, new byte[0]);
        FabricAccess.turnaround(fabric);
        frame(1, b.isn, a.isn + 1, 0x012, new byte[0]);
        FabricAccess.turnaround(fabric);
        frame(0, a.isn + 1, b.isn + 1, 0x010, new byte[0]);
        FabricAccess.turnaround(fabric);
        int requestFlags = (options.markersToInitiator() ? Mpa.FLAG_MARKERS : 0) | (options.crc() ? Mpa.FLAG_CRC : 0);
        a.append(IwarpBuilder.startupFrame(true, requestFlags, options.requestRevision(), options.requestData()));
        int request = transmitOne(0, 0, a.length, Fate.DELIVERED);
        transition(request, "mpa_request");
        if (options.requestRevision() != 1 && options.requestRevision() != 2) {
            truth.observe(Expected.MPA_INVALID_STARTUP, request, null, "MPA revision " + options.requestRevision());
        }
        if (options.markersToResponder()) {
            a.markerOrigin = a.length;
        }
        FabricAccess.turnaround(fabric);
        ack(0);
        FabricAccess.turnaround(fabric);
        int replyFlags = (options.markersToResponder() ? Mpa.FLAG_MARKERS : 0) | (options.crc() ? Mpa.FLAG_CRC : 0)
                | (options.reject() ? Mpa.FLAG_REJECT : 0);
        b.append(IwarpBuilder.startupFrame(false, replyFlags, options.replyRevision(), options.replyData()));
        int reply = transmitOne(1, 0, b.length, Fate.DELIVERED);
        if (options.replyRevision() != 1 && options.replyRevision() != 2) {
            truth.observe(Expected.MPA_INVALID_STARTUP, reply, null, "MPA revision " + options.replyRevision());
        }
        if (options.reject()) {
            transition(reply, "rejected");
            truth.observe(Expected.MPA_REJECT, reply, null, "MPA Reply with the Reject flag");
        } else {
            transition(reply, "established");
        }
        if (options.markersToInitiator()) {
            b.markerOrigin = b.length;
        }
        FabricAccess.turnaround(fabric);
        ack(1);
        idle();
    }

    // ---- posting ----------------------------------------------------------------------------------------

    /** A Send (or Send with SE) of {@code bytes} from the initiator, cut into FPDUs of the session's MULPDU. */
    public Msg send(int bytes, boolean solicited) {
        return untaggedMessage("SEND", solicited ? DdpRdmap.OP_SEND_SE : DdpRdmap.OP_SEND, bytes, 0, null, -1, -1,
                -1, false);
    }

    /** A Send with Invalidate (or with SE and Invalidate) naming {@code stag}. */
    public Msg sendWithInvalidate(int bytes, long stag, boolean solicited) {
        return untaggedMessage("SEND_WITH_INV", solicited ? DdpRdmap.OP_SEND_SE_INVALIDATE
                : DdpRdmap.OP_SEND_INVALIDATE, bytes, stag, null, -1, -1, -1, false);
    }

    /**
     * A Send that breaks a DDP rule on purpose: its MSN is {@code msn} instead of the queue's next
     * ({@code msn < 0}: the right one), it goes to {@code queue} ({@code < 0}: 0), or its
     * {@code skipAt}-th FPDU claims a message offset 8 bytes too far ({@code < 0}: none).
     */
    public Msg sendBroken(int bytes, long msn, long queue, int skipAt, boolean corruptCrcOfFirst) {
        return untaggedMessage("SEND", DdpRdmap.OP_SEND, bytes, 0, null, msn, queue, skipAt, corruptCrcOfFirst);
    }

    private Msg untaggedMessage(String kind, int opcode, int bytes, long invalidate, byte[] header, long msnOverride,
                                long queueOverride, int skipAt, boolean corruptCrc) {
        Stream s = streams[0];
        long queue = queueOverride >= 0 ? queueOverride : DdpRdmap.QN_SEND;
        long msn = msnOverride >= 0 ? msnOverride : nextMsn(s, queue);
        s.nextMsn.put(queue, msn + 1);
        Msg m = new Msg(kind, truth.message(kind, (int) msn, (int) msn, bytes), msn);
        if (opcode == DdpRdmap.OP_SEND_INVALIDATE || opcode == DdpRdmap.OP_SEND_SE_INVALIDATE) {
            m.truth.invalidatedRkey(invalidate);
        }
        m.truth.bytes(0);
        int room = mulpdu - DdpRdmap.UNTAGGED_HEADER_LENGTH;
        int offset = 0;
        int index = 0;
        do {
            int n = Math.min(room, bytes - offset);
            boolean last = offset + n == bytes;
            long mo = offset + (index == skipAt ? 8 : 0);
            byte[] ulpdu = IwarpBuilder.untagged(opcode, last, invalidate, queue, msn, mo, new byte[0], payload(n));
            addFpdu(s, m, false, ulpdu, opcode, false, last, queue, msn, mo, 0, n, corruptCrc && index == 0, false);
            offset += n;
            index++;
        } while (offset < bytes);
        messages.add(m);
        return m;
    }

    /** An RDMA Write of {@code bytes} from the initiator to the responder's {@code stag} at {@code offset}. */
    public Msg write(int bytes, long stag, long offset) {
        return write(bytes, stag, offset, -1);
    }

    /** A Write whose FPDU number {@code badMarkerAt} carries markers pointing the wrong way ({@code < 0}: none). */
    public Msg write(int bytes, long stag, long offset, int badMarkerAt) {
        Stream s = streams[0];
        Msg m = new Msg("WRITE", truth.message("WRITE", 0, 0, 0), 0);
        int room = mulpdu - DdpRdmap.TAGGED_HEADER_LENGTH;
        int done = 0;
        int index = 0;
        do {
            int n = Math.min(room, bytes - done);
            boolean last = done + n == bytes;
            byte[] ulpdu = IwarpBuilder.tagged(DdpRdmap.OP_WRITE, last, stag, offset + done, payload(n));
            addFpdu(s, m, false, ulpdu, DdpRdmap.OP_WRITE, true, last, -1, 0, offset + done, stag, n, false,
                    index == badMarkerAt);
            done += n;
            index++;
        } while (done < bytes);
        messages.add(m);
        return m;
    }

    /** An RDMA Read by the initiator of {@code bytes} from the responder's source into its own sink. */
    public Msg read(int bytes, long sinkStag, long sinkOffset, long sourceStag, long sourceOffset) {
        Stream s = streams[0];
        long msn = nextMsn(s, DdpRdmap.QN_READ_REQUEST);
        s.nextMsn.put((long) DdpRdmap.QN_READ_REQUEST, msn + 1);
        Msg m = new Msg("READ", truth.message("READ", (int) msn, (int) msn, 0), msn);
        m.sinkStag = sinkStag;
        m.sinkOffset = sinkOffset;
        m.size = bytes;
        byte[] header = options.nic().littleEndianReadRequest
                ? IwarpBuilder.readRequest(reversed(sinkStag), Long.reverseBytes(sinkOffset), reversed(bytes),
                        reversed(sourceStag), Long.reverseBytes(sourceOffset))
                : IwarpBuilder.readRequest(sinkStag, sinkOffset, bytes, sourceStag, sourceOffset);
        byte[] ulpdu = IwarpBuilder.untagged(DdpRdmap.OP_READ_REQUEST, true, 0, DdpRdmap.QN_READ_REQUEST, msn, 0, header,
                new byte[0]);
        addFpdu(s, m, false, ulpdu, DdpRdmap.OP_READ_REQUEST, false, true, DdpRdmap.QN_READ_REQUEST, msn, 0, 0, 0,
                false, false);
        messages.add(m);
        return m;
    }

    private static long reversed(long u32) {
        return Integer.reverseBytes((int) u32) & 0xFFFFFFFFL;
    }

    /**
     * The MSN of the next untagged message {@code s} sends on {@code queue}: the queue's own counter
     * (RFC 5041 §5.1), or the one counter of a shared-MSN NIC, which every queue's message advances.
     */
    private long nextMsn(Stream s, long queue) {
        if (!options.nic().sharedMsn) {
            return s.nextMsn.getOrDefault(queue, 1L);
        }
        return s.nextSharedMsn++;
    }

    /** The responder's Read Responses to {@code read}, queued in its stream: tagged segments to the sink. */
    public void respond(Msg read) {
        respondTo(read, read.sinkStag, read.sinkOffset, read.size);
    }

    /** Read Responses that answer no Read Request (a responder bug). */
    public void respondUnasked(long stag, long offset, int bytes) {
        respondTo(null, stag, offset, bytes);
    }

    private void respondTo(Msg read, long stag, long offset, int bytes) {
        Stream s = streams[1];
        int room = mulpdu - DdpRdmap.TAGGED_HEADER_LENGTH;
        int done = 0;
        do {
            int n = Math.min(room, bytes - done);
            boolean last = done + n == bytes;
            byte[] ulpdu = IwarpBuilder.tagged(DdpRdmap.OP_READ_RESPONSE, last, stag, offset + done, payload(n));
            addFpdu(s, read, true, ulpdu, DdpRdmap.OP_READ_RESPONSE, true, last, -1, 0, offset + done, stag, n, false,
                    false);
            done += n;
        } while (done < bytes);
    }

    /**
     * A Terminate from the responder (RFC 5040 §4.8): layer, error type and code, and the DDP header
     * of the initiator's segment it names (the first FPDU of {@code culprit}).
     */
    public void terminate(int layer, int errorType, int errorCode, Msg culprit) {
        Stream s = streams[1];
        long msn = nextMsn(s, DdpRdmap.QN_TERMINATE);
        s.nextMsn.put((long) DdpRdmap.QN_TERMINATE, msn + 1);
        Fpdu named = culprit.fpdus.get(0);
        byte[] ulpduOfCulprit = ulpduOf(streams[0], named);
        byte[] ddpHeader = Arrays.copyOf(ulpduOfCulprit, named.tagged ? DdpRdmap.TAGGED_HEADER_LENGTH
                : DdpRdmap.UNTAGGED_HEADER_LENGTH);
        byte[] header = IwarpBuilder.terminate(layer, errorType, errorCode, ulpduOfCulprit.length, ddpHeader, null);
        byte[] ulpdu = IwarpBuilder.untagged(DdpRdmap.OP_TERMINATE, true, 0, DdpRdmap.QN_TERMINATE, msn, 0, header,
                new byte[0]);
        addFpdu(s, null, false, ulpdu, DdpRdmap.OP_TERMINATE, false, true, DdpRdmap.QN_TERMINATE, msn, 0, 0, 0,
                false, false);
    }

    /** The ULPDU an FPDU of stream {@code s} carries (markers removed), read back from the stream. */
    private static byte[] ulpduOf(Stream s, Fpdu f) {
        byte[] out = new byte[f.end - f.start];
        int n = 0;
        for (int p = f.start; p < f.end; p++) {
            if (IwarpBuilder.isMarker(p - f.clockSkipped, s.markerOrigin)) {
                p += Mpa.MARKER_LENGTH - 1;
                continue;
            }
            out[n++] = s.bytes[p];
        }
        int length = ((out[0] & 0xFF) << 8) | (out[1] & 0xFF);
        return Arrays.copyOfRange(out, 2, 2 + length);
    }

    private void addFpdu(Stream s, Msg m, boolean response, byte[] ulpdu, int opcode, boolean tagged, boolean last,
                         long queue, long msn, long offset, long stag, int payload, boolean corruptCrc,
                         boolean badMarker) {
        int start = s.length;
        long skipped = s.clockSkipped;
        byte[] wire = IwarpBuilder.fpdu(ulpdu, start, s.markerOrigin, skipped, options.oscMarkers(), options.crc(),
                corruptCrc, badMarker);
        s.append(wire);
        if (options.oscMarkers()) {
            s.clockSkipped += Mpa.CRC_LENGTH;
        }
        Fpdu f = new Fpdu(start, s.length, m, response, opcode, tagged, last, queue, msn, offset, stag, payload,
                corruptCrc && options.crc(), badMarker && s.markerOrigin >= 0
                && hasMarker(s, start, s.length - (options.oscMarkers() ? Mpa.CRC_LENGTH - 1 : 0), skipped));
        f.clockSkipped = skipped;
        f.markerPastStart = s.markerOrigin >= 0
                && hasMarker(s, start + 1, s.length - (options.oscMarkers() ? Mpa.CRC_LENGTH - 1 : 0), skipped);
        s.fpdus.add(f);
        if (m != null) {
            (response ? m.responses : m.fpdus).add(f);
        }
    }

    /**
     * A Send payload size (at most {@code limit}) whose FPDU, queued next by the initiator, ends its
     * pad exactly where a marker falls, so the marker sits between pad and CRC; -1 if none fits.
     */
    public int sendSizeWithMarkerBeforeCrc(int limit) {
        Stream s = streams[0];
        for (int n = 1; n <= limit; n++) {
            int logical = Mpa.ULPDU_LENGTH_LENGTH + DdpRdmap.UNTAGGED_HEADER_LENGTH + n;
            logical += Mpa.padFor(DdpRdmap.UNTAGGED_HEADER_LENGTH + n);
            long pos = s.length - s.clockSkipped;
            int k = 0;
            while (k < logical) {
                if (IwarpBuilder.isMarker(pos, s.markerOrigin)) {
                    pos += Mpa.MARKER_LENGTH;
                    continue;
                }
                pos++;
                k++;
            }
            if (IwarpBuilder.isMarker(pos, s.markerOrigin)) {
                return n;
            }
        }
        return -1;
    }

    private static boolean hasMarker(Stream s, int start, int end, long clockSkipped) {
        for (int p = start; p < end; p++) {
            if (IwarpBuilder.isMarker(p - clockSkipped, s.markerOrigin)) {
                return true;
            }
        }
        return false;
    }

    private byte[] payload(int n) {
        // Printable bytes: Wireshark's RPC-over-RDMA heuristic would claim some random Send payloads.
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + random.nextInt(26));
        }
        return b;
    }

    // ---- transmitting ------------------------------------------------------------------------------------

    /**
     * Sends {@code side}'s queued FPDUs one per segment (RFC 5044 §8: senders align FPDUs with segments),
     * the n-th with the n-th fate; those past the fates given are delivered.
     */
    public List<Integer> transmit(int side, Fate... fates) {
        Stream s = streams[side];
        List<Integer> frames = new ArrayList<>();
        int i = 0;
        for (Fpdu f : s.fpdus) {
            if (f.start >= s.sent) {
                frames.add(transmitOne(side, f.start, f.end, i < fates.length ? fates[i] : Fate.DELIVERED));
                FabricAccess.nextPacket(fabric, f.end - f.start);
                i++;
            }
        }
        return frames;
    }

    /**
     * Sends {@code side}'s queued bytes as segments of the given sizes (the last size repeats until
     * nothing is left), each with its fate ({@code fates} shorter than the segments: the rest are
     * delivered). Returns the frames (-1 for a segment not captured).
     */
    public List<Integer> transmit(int side, int[] sizes, Fate... fates) {
        Stream s = streams[side];
        List<Integer> frames = new ArrayList<>();
        int i = 0;
        while (s.sent < s.length) {
            int size = sizes[Math.min(i, sizes.length - 1)];
            int end = Math.min(s.length, s.sent + size);
            Fate fate = i < fates.length ? fates[i] : Fate.DELIVERED;
            frames.add(transmitOne(side, s.sent, end, fate));
            FabricAccess.nextPacket(fabric, size);
            i++;
        }
        return frames;
    }

    /** Sends stream bytes {@code [from, to)} of {@code side} again (a retransmission), with its fate. */
    public int resend(int side, int from, int to, Fate fate) {
        return transmitOne(side, from, to, fate);
    }

    /** Start and end stream positions of FPDU {@code index} of message {@code m}. */
    public int[] fpduRange(Msg m, int index) {
        Fpdu f = m.fpdus.get(index);
        return new int[] {f.start, f.end};
    }

    private int transmitOne(int side, int from, int to, Fate fate) {
        Stream s = streams[side];
        Stream peer = streams[1 - side];
        byte[] payload = Arrays.copyOfRange(s.bytes, from, to);
        int ack = peer.seq(peer.received);
        s.sent = Math.max(s.sent, to);
        int frame = -1;
        boolean captured = fate == Fate.DELIVERED || fate == Fate.LOST_AFTER_CAPTURE;
        if (captured) {
            frame = frame(side, s.seq(from), ack, 0x018, payload);
        } else {
            ipIds[side]++; // it left the sender all the same
        }
        if (fate == Fate.DELIVERED || fate == Fate.NOT_CAPTURED) {
            receive(s, from, to);
        }
        if (captured) {
            observeData(s, from, to, frame);
            observeAck(peer, ack, frame);
        }
        return frame;
    }

    /** The receiver of {@code side}'s stream acknowledges what it has in order, in a segment without data. */
    public int ack(int side) {
        Stream s = streams[side];
        Stream other = streams[1 - side];
        int ack = s.seq(s.received);
        int frame = frame(1 - side, other.seq(other.sent), ack, 0x010, new byte[0]);
        observeAck(s, ack, frame);
        return frame;
    }

    /** Both sides close: FIN from the initiator, FIN from the responder, final ACK. */
    public void close() {
        idle();
        Stream a = streams[0];
        Stream b = streams[1];
        int fin1 = frame(0, a.seq(a.sent), b.seq(b.received), 0x011, new byte[0]);
        observeAck(b, b.seq(b.received), fin1);
        finSeen[0] = true;
        transition(fin1, "closing");
        completeByAck(b, fin1);
        FabricAccess.turnaround(fabric);
        int fin2 = frame(1, b.seq(b.sent), a.seq(a.received) + 1, 0x011, new byte[0]);
        observeAck(a, a.seq(a.received), fin2);
        finSeen[1] = true;
        transition(fin2, "closed");
        FabricAccess.turnaround(fabric);
        frame(0, a.seq(a.sent) + 1, b.seq(b.received) + 1, 0x010, new byte[0]);
    }

    /** The capture ends here: what never completed is reported incomplete. */
    public void end() {
        List<Msg> open = new ArrayList<>();
        for (Msg m : messages) {
            if (!m.ended && m.truth != null && !m.truth.frames().isEmpty()) {
                open.add(m);
            }
        }
        open.sort((x, y) -> Integer.compare(x.truth.frames().get(0), y.truth.frames().get(0)));
        for (Msg m : open) {
            m.ended = true;
            m.truth.end("incomplete", null, null);
            truth.observe(Expected.IWARP_MESSAGE_INCOMPLETE, m.truth.frames().get(0), (int) m.msn,
                    m.kind + ("READ".equals(m.kind) ? " never answered" : " never acknowledged"));
        }
    }

    public void idle() {
        FabricAccess.turnaround(fabric);
        fabric.idle();
    }

    public void turnaround() {
        FabricAccess.turnaround(fabric);
    }

    private int frame(int side, int seq, int ack, int flags, byte[] payload) {
        Host from = hosts[side];
        Host to = hosts[1 - side];
        EthernetFrame e = EthernetFrame.between(from.mac(), to.mac()).ipId(ipIds[side]++ & 0xFFFF);
        if (options.ipv6()) {
            e.ipv6(from.ipv6(), to.ipv6());
        } else {
            e.ipv4(from.ipv4(), to.ipv4());
        }
        byte[] bytes = e.tcp(ports[side], ports[1 - side], seq & 0xFFFFFFFFL, ack & 0xFFFFFFFFL, flags, payload);
        return FabricAccess.capture(fabric, bytes);
    }

    private void transition(int frame, String newState) {
        if (newState.equals(state)) {
            return;
        }
        state = newState;
        truth.transition(frame, newState);
    }

    // ---- the receiver's TCP --------------------------------------------------------------------------------

    private static void receive(Stream s, int from, int to) {
        if (to <= s.received) {
            return;
        }
        if (from > s.received) {
            s.receivedAhead.merge(from, to, Math::max);
            return;
        }
        s.received = to;
        while (!s.receivedAhead.isEmpty() && s.receivedAhead.firstKey() <= s.received) {
            s.received = Math.max(s.received, s.receivedAhead.pollFirstEntry().getValue());
        }
    }

    // ---- the observer ------------------------------------------------------------------------------------

    private void observeData(Stream s, int from, int to, int frame) {
        s.segments.add(new int[] {from, to, frame});
        if (to <= s.seen) {
            truth.observe(Expected.TCP_RETRANSMISSION, frame, null, "TCP bytes sent again");
            retransmitted(s, from, to, frame);
            return;
        }
        if (from > s.seen) {
            s.heldAhead.put(from, new int[] {to, frame});
            return;
        }
        if (from < s.seen) {
            truth.observe(Expected.TCP_RETRANSMISSION, frame, null, "TCP bytes sent again");
            retransmitted(s, from, to, frame);
        } else if (!s.heldAhead.isEmpty()) {
            if (s.duplicateAck) {
                truth.observe(Expected.TCP_RETRANSMISSION, frame, null,
                        "TCP segment sent again after the receiver's duplicate ACK: lost before the capture point");
                retransmitted(s, from, to, frame);
            } else {
                truth.observe(Expected.TCP_OUT_OF_ORDER, frame, null, "TCP segment arrived after later bytes");
            }
        }
        s.seen = to;
        drain(s);
        readFpdus(s, frame);
    }

    private static void drain(Stream s) {
        while (!s.heldAhead.isEmpty() && s.heldAhead.firstKey() <= s.seen) {
            int[] held = s.heldAhead.pollFirstEntry().getValue();
            s.seen = Math.max(s.seen, held[0]);
        }
        if (s.heldAhead.isEmpty()) {
            s.duplicateAck = false;
        }
    }

    /** An acknowledgement of stream {@code s} captured in {@code frame}. */
    private void observeAck(Stream s, int ack, int frame) {
        int position = ack - s.isn - 1;
        if (position == s.seen && !s.heldAhead.isEmpty()) {
            s.duplicateAck = true;
        } else if (position > s.seen && position <= s.length) {
            while (position > s.seen) {
                int gapEnd = s.heldAhead.isEmpty() ? position : Math.min(position, s.heldAhead.firstKey());
                if (gapEnd > s.seen) {
                    truth.observe(Expected.TCP_MISSING_FROM_CAPTURE, frame, null, (gapEnd - s.seen) + " bytes of the "
                            + (s.side == 0 ? "initiator's" : "responder's")
                            + " stream acknowledged but not in the capture");
                    for (Fpdu f : s.fpdus) {
                        if (f.start < gapEnd && f.end > s.seen) {
                            f.lost = true;
                        }
                    }
                    s.seen = gapEnd;
                    s.resyncing = true;
                    s.afterGap = true;
                }
                drain(s);
                readFpdus(s, frame);
            }
        }
        completeByAck(s, frame);
    }

    private void completeByAck(Stream s, int frame) {
        int position = s.received;
        for (Msg m : new ArrayList<>(s.unacknowledged)) {
            Fpdu last = m.fpdus.get(m.fpdus.size() - 1);
            if (last.read && last.end <= position) {
                s.unacknowledged.remove(m);
                complete(m, frame, "completed");
            } else {
                break;
            }
        }
    }

    private void readFpdus(Stream s, int frame) {
        while (s.nextFpdu < s.fpdus.size()) {
            Fpdu f = s.fpdus.get(s.nextFpdu);
            if (f.end > s.seen) {
                return;
            }
            s.nextFpdu++;
            if (f.lost) {
                continue;
            }
            if (s.resyncing) {
                s.resyncing = false;
                truth.observe(Expected.MPA_RESYNC, frame, null, "MPA framing found again after the gap");
            }
            f.read = true;
            read(s, f, frame);
        }
    }

    /** One FPDU as the observer reads it: CRC, markers, then the DDP/RDMAP checks and message assembly. */
    private void read(Stream s, Fpdu f, int frame) {
        if (f.corruptCrc) {
            truth.observe(Expected.MPA_CRC_ERROR, frame, null, "CRC does not verify");
        }
        if (f.badMarker) {
            truth.observe(Expected.MPA_MARKER_ERROR, frame, null, "marker(s) do not point back at the FPDU");
        } else if (options.oscMarkers() && f.markerPastStart && !s.markerLayoutSeen) {
            // The first FPDU with a marker past its first octet shows the little-endian FPDUPTR (RFC 5044 §5
            // has network order); a reader keeping sync must read the direction's markers off the RFC's layout.
            s.markerLayoutSeen = true;
            truth.observe(Expected.MPA_MARKER_LAYOUT, frame, null, "markers in the OSC iWARP stack's layout (clock "
                    + "skipping CRC fields, FPDUPTR little-endian), not RFC 5044 §5's");
        }
        long time = FabricAccess.timeOf(fabric, firstFrameOf(s, f));
        if (f.opcode == DdpRdmap.OP_READ_RESPONSE) {
            readResponse(f, frame);
            return;
        }
        if (f.opcode == DdpRdmap.OP_TERMINATE) {
            terminated(f, frame);
            return;
        }
        Msg m = f.message;
        if (!f.tagged) {
            long expectedQueue = f.opcode == DdpRdmap.OP_READ_REQUEST ? DdpRdmap.QN_READ_REQUEST : DdpRdmap.QN_SEND;
            if (f.queue != expectedQueue) {
                truth.observe(Expected.DDP_INVALID_QUEUE, frame, (int) f.msn, "on queue " + f.queue);
            }
            Msg open = s.openUntagged.get(f.queue);
            if (open == null || open.msn != f.msn) {
                if (!s.afterGap && f.offset != 0) {
                    truth.observe(Expected.DDP_SEGMENT_SEQUENCE, frame, (int) f.msn, "no first segment");
                }
                long expected = s.expectedMsn.getOrDefault(f.queue, 1L);
                if (options.nic().sharedMsn && !s.afterGap && f.msn == s.expectedSharedMsn && f.msn != expected
                        && !s.sharedMsnSeen) {
                    // the first message whose shared number is not its queue's own: the NIC shows its counter
                    s.sharedMsnSeen = true;
                    truth.observe(Expected.DDP_MSN_SHARED_COUNTER, frame, (int) f.msn, "MSN " + f.msn + " on queue "
                            + f.queue + ": one counter across queues");
                } else if (s.sharedMsnSeen ? !s.afterGap && f.msn != s.expectedSharedMsn
                        : !s.afterGap && f.msn != expected) {
                    truth.observe(Expected.DDP_MSN_SEQUENCE, frame, (int) f.msn, "MSN " + f.msn + ", expected "
                            + (s.sharedMsnSeen ? s.expectedSharedMsn : expected));
                }
                s.expectedMsn.put(f.queue, f.msn + 1);
                s.expectedSharedMsn = f.msn + 1;
                s.openUntagged.put(f.queue, m);
            } else if (!s.afterGap && f.offset != s.nextOffset.getOrDefault(f.queue, 0L)) {
                truth.observe(Expected.DDP_SEGMENT_SEQUENCE, frame, (int) f.msn, "message offset " + f.offset);
            }
            s.nextOffset.put(f.queue, f.offset + f.payload);
            if (f.last) {
                s.openUntagged.remove(f.queue);
            }
        }
        s.afterGap = false;
        if (m.firstTime < 0) {
            m.firstTime = time;
        }
        for (int[] seg : s.segments) {
            if (seg[0] < f.end && seg[1] > f.start) {
                m.truth.frame(seg[2]);
            }
        }
        if (f.opcode != DdpRdmap.OP_READ_REQUEST) {
            m.truth.bytes(m.truth.bytes() + f.payload);
        }
        if (f.last) {
            m.whole = true;
            if (f.opcode == DdpRdmap.OP_READ_REQUEST) {
                s.reads.add(m);
            } else {
                s.unacknowledged.add(m);
            }
        }
    }

    private void readResponse(Fpdu f, int frame) {
        Stream requester = streams[0];
        Msg m = f.message;
        if (m == null || !requester.reads.contains(m)) {
            truth.observe(Expected.RDMAP_UNMATCHED_READ_RESPONSE, frame, null, "answers no Read Request");
            return;
        }
        for (int[] seg : streams[1].segments) {
            if (seg[0] < f.end && seg[1] > f.start) {
                m.truth.responseFrame(seg[2]);
            }
        }
        if (options.nic().littleEndianReadRequest && m.responseBytes == 0 && !requester.readByteOrderSeen
                && (reversed(m.sinkStag) != m.sinkStag || Long.reverseBytes(m.sinkOffset) != m.sinkOffset)) {
            // the first answered Read: its responses fill the sink the request named byte-reversed
            requester.readByteOrderSeen = true;
            truth.observe(Expected.RDMAP_READ_REQUEST_BYTE_ORDER, m.truth.frames().get(0), (int) m.msn,
                    "Read Request fields in little-endian byte order");
        }
        m.responseBytes = f.offset - m.sinkOffset + f.payload;
        m.truth.bytes(m.responseBytes);
        if (f.last) {
            requester.reads.remove(m);
            complete(m, frame, "completed");
        }
    }

    private void terminated(Fpdu f, int frame) {
        truth.observe(Expected.RDMAP_TERMINATE, frame, (int) f.msn, "Terminate");
        transition(frame, "error");
        error = true;
        List<Msg> failed = new ArrayList<>();
        for (Stream s : streams) {
            failed.addAll(s.unacknowledged);
            s.unacknowledged.clear();
            failed.addAll(s.reads);
            s.reads.clear();
            for (Msg m : s.openUntagged.values()) {
                if (m != null) {
                    failed.add(m);
                }
            }
            s.openUntagged.clear();
        }
        failed.sort((x, y) -> Integer.compare(x.truth.frames().get(0), y.truth.frames().get(0)));
        for (Msg m : failed) {
            complete(m, frame, "failed");
        }
    }

    private void complete(Msg m, int frame, String status) {
        m.ended = true;
        m.truth.end(status, frame, FabricAccess.timeOf(fabric, frame) - m.firstTime);
    }

    /** The frame that carried the first byte of {@code f} as the observer put the stream together. */
    private static int firstFrameOf(Stream s, Fpdu f) {
        int best = -1;
        for (int[] seg : s.segments) {
            if (seg[0] <= f.start && seg[1] > f.start) {
                if (best < 0) {
                    best = seg[2]; // the first captured copy of that byte
                }
            }
        }
        return best;
    }

    private void retransmitted(Stream s, int from, int to, int frame) {
        for (Msg m : messages) {
            if (m.ended || m.truth == null) {
                continue;
            }
            boolean overlaps = false;
            for (Fpdu f : m.fpdus) {
                if (f.read && f.start < to && f.end > from) {
                    overlaps = true;
                }
            }
            if (overlaps && streams[0] == s) {
                m.truth.frame(frame);
            }
        }
    }

    public boolean inError() {
        return error;
    }
}
