package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.TcpReassembler;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Cuts one direction of an iWARP connection's byte stream into MPA PDUs (RFC 5044): first the
 * Request or Reply frame, then, once both are known (they say whether markers and CRCs are in use),
 * FPDUs. Markers, where the peer asked for them, sit every 512 octets counted from the first octet
 * after this direction's Request/Reply frame (RFC 5044 §4.3); they are taken out before the ULPDU is
 * decoded and checked (their FPDUPTR must point back at the FPDU that holds them, §4.2). A sender
 * whose markers do not check out so is tried against the one other layout seen on real streams (the
 * OSC iWARP stack: a marker clock that skips each FPDU's CRC field, FPDUPTR little-endian; see
 * docs/iwarp.md), and that layout kept for the direction when its markers check. The CRC32c
 * covers the FPDU from its first octet to its pad, markers included (§4.4), as Wireshark computes it.
 *
 * <p>After a gap the framing is lost: with markers the next marker points at an FPDU start; without
 * them each later segment start is tried (senders align FPDUs with segments, RFC 5044 §5.1) and taken
 * when its header is plausible and, where CRCs are in use, its CRC verifies.
 *
 * <p>A segment that arrives ahead of a hole is held by the reassembler; if it starts with an FPDU
 * that checks out the same way, its FPDUs are shown in its own frame at once (as Wireshark shows
 * them), marked not in order: the replay reads them only when the stream reaches them, in order.
 *
 * <p>Bytes are copied into a buffer that holds at most one PDU's worth beyond what it has cut (bytes
 * held while waiting for a Reply or a resynchronisation are capped at {@link #MAX_HELD}).
 */
final class MpaFramer implements TcpReassembler.Sink {
    /** Bytes held while the Reply is awaited or the framing is being searched for. */
    static final int MAX_HELD = 1 << 18;
    /** FPDUs remembered as already shown ahead of a hole, per direction. */
    private static final int MAX_SHOWN_AHEAD = 1_024;

    enum Phase { STARTUP, WAITING, FPDUS, RESYNC, DEAD }

    /** A window of stream bytes: {@code data[head, head + length)} are stream positions {@code [start, …)}. */
    private static final class Window {
        byte[] data;
        int head;
        int length;
        long start;

        Window(int capacity) {
            data = new byte[capacity];
        }

        long end() {
            return start + length;
        }

        int u8(long position) {
            return data[head + (int) (position - start)] & 0xFF;
        }

        int u16(long position) {
            return (u8(position) << 8) | u8(position + 1);
        }

        long u32(long position) {
            return ((long) u16(position) << 16) | u16(position + 2);
        }

        int index(long position) {
            return head + (int) (position - start);
        }
    }

    private final IwarpConnection connection;
    private final int direction;
    private Phase phase = Phase.STARTUP;
    private boolean markers;
    private long markerOrigin;
    // How this direction's sender places its markers. RFC 5044 §5: every 512th octet of the stream
    // counted from markerOrigin, FPDUPTR in network byte order. Some real senders (the OSC iWARP
    // stack, seen on a real capture) advance their marker clock over every octet but each FPDU's CRC
    // field and write FPDUPTR in host (little-endian) order. The byte order is settled by the first
    // FPDU with a marker past its first octet; the clock by the first such FPDU after the first FPDU
    // (before any CRC has gone by both clocks agree).
    private boolean crcUncounted;
    private boolean pointerLittleEndian;
    private boolean orderSettled;
    private boolean clockSettled;
    /** FPDUs cut in order since markerOrigin (modulo 128 after a resynchronisation: only the clock's phase matters). */
    private long fpduIndex;
    /** Octets of the raw stream the sender's marker clock skipped before the FPDU at main.start. */
    private long skew;
    /** A gap was crossed while the marker clock skips CRCs: where it stands must be found again. */
    private boolean clockLost;
    private boolean crc;
    private boolean resyncWhenConfigured;
    private long resumeAt;
    private int expectedDv = 1;
    private int expectedRv = 1;

    private final Window main = new Window(512);
    // Where the main window's bytes came from, piece by piece: stream start, length, frame, offset in
    // the frame being dissected (or -1).
    private long[] pieceStart = new long[8];
    private int[] pieceLength = new int[8];
    private long[] pieceFrame = new long[8];
    private int[] pieceOffset = new int[8];
    private int pieceHead;
    private int pieceCount;
    /** FPDUs already shown from a segment held ahead of a hole: start → raw length. */
    private final TreeMap<Long, Integer> shownAhead = new TreeMap<>();
    private final Window ahead = new Window(0);
    private long aheadFrame;
    private int aheadOffset;

    private byte[] image = new byte[256];
    private final CRC32C crc32c = new CRC32C();

    MpaFramer(IwarpConnection connection, int direction) {
        this.connection = connection;
        this.direction = direction;
    }

    boolean markers() {
        return markers;
    }

    // ---- the TCP reassembler's sink ---------------------------------------------------------------------

    @Override
    public void deliver(long position, ByteBuffer source, int index, int length, long frame, int frameOffset) {
        if (phase == Phase.DEAD) {
            connection.streams().frame.event(IwarpFrame.EventType.UNFRAMED, connection, direction, position,
                    position + length, frame);
            return;
        }
        if (main.length == 0 || position != main.end()) {
            clear(position);
        }
        ensure(length);
        source.get(index, main.data, main.head + main.length, length);
        main.length += length;
        addPiece(position, length, frame, frameOffset);
        parse();
        if ((phase == Phase.WAITING || phase == Phase.RESYNC) && main.length > MAX_HELD) {
            if (phase == Phase.WAITING) {
                giveUp(frame); // no Reply in sight: nothing can frame these bytes
            } else {
                consume(main.length - MAX_HELD / 2); // keep searching in the newest bytes only
            }
        }
        compact();
    }

    @Override
    public void gap(long from, long to, long frame) {
        IwarpFrame f = connection.streams().frame;
        f.event(IwarpFrame.EventType.GAP, connection, direction, from, to, frame);
        switch (phase) {
            case STARTUP -> {
                f.event(IwarpFrame.EventType.INVALID_STARTUP, connection, direction, from, to, frame);
                giveUp(frame);
                connection.startupLost(direction);
            }
            case WAITING -> {
                clear(to);
                resyncWhenConfigured = true;
                resumeAt = to;
            }
            case FPDUS, RESYNC -> {
                if (phase == Phase.FPDUS && main.length > 0) {
                    f.event(IwarpFrame.EventType.PDU_LOST, connection, direction, main.start, to, frame);
                }
                clear(to);
                phase = Phase.RESYNC;
                resumeAt = to;
                clockLost = markers && crcUncounted;
            }
            default -> {
            }
        }
    }

    @Override
    public void ahead(long position, ByteBuffer source, int index, int length, long frame, int frameOffset) {
        if (phase != Phase.FPDUS || connection.streams().current == null || (markers && crcUncounted)) {
            return; // where the sender's marker clock skips CRCs, markers ahead of a hole cannot be placed
        }
        if (ahead.data.length < length) {
            ahead.data = new byte[Math.max(length, 2 * ahead.data.length)];
        }
        source.get(index, ahead.data, 0, length);
        ahead.head = 0;
        ahead.length = length;
        ahead.start = position;
        aheadFrame = frame;
        aheadOffset = frameOffset;
        long p = position;
        while (p < ahead.end() && plausible(ahead, p, true) > 0) {
            int ulpdu = (logicalByte(ahead, p, 0) << 8) | logicalByte(ahead, p, 1);
            int logical = Mpa.ULPDU_LENGTH_LENGTH + ulpdu + Mpa.padFor(ulpdu) + Mpa.CRC_LENGTH;
            int raw = rawIndex(p, logical - 1, logical) + 1;
            if (p + raw > ahead.end()) {
                return; // only whole FPDUs of the segment are shown ahead of the hole
            }
            emitFpdu(ahead, p, raw, ulpdu, Mpa.padFor(ulpdu), logical, true, true);
            if (shownAhead.size() < MAX_SHOWN_AHEAD) {
                shownAhead.put(p, raw);
            }
            p += raw;
        }
    }

    /** The Request and Reply are both known: whether this direction carries markers, and CRCs. */
    void configure(boolean withMarkers, boolean withCrc) {
        if (phase != Phase.WAITING) {
            return;
        }
        markers = withMarkers;
        crc = withCrc;
        phase = resyncWhenConfigured ? Phase.RESYNC : Phase.FPDUS;
        parse();
        compact();
    }

    /**
     * The initiator's Request was not captured: this direction starts after it, with FPDUs once the
     * Reply says how (markers counted from here, RFC 5044 §5).
     */
    void startupMissed() {
        markerOrigin = 0;
        phase = Phase.WAITING;
    }

    /**
     * The Request and Reply were never seen (a connection taken up mid-stream): frame FPDUs without
     * markers or CRC checks from the first segment start that holds a plausible one.
     */
    void resyncFromStart() {
        markers = false;
        crc = false;
        phase = Phase.RESYNC;
        resumeAt = Long.MIN_VALUE;
    }

    /** The connection was rejected or cannot be framed: later bytes are not FPDUs. */
    void stop() {
        phase = Phase.DEAD;
        clear(main.end());
    }

    private void giveUp(long frame) {
        if (main.length > 0) {
            connection.streams().frame.event(IwarpFrame.EventType.UNFRAMED, connection, direction, main.start,
                    main.end(), frame);
        }
        stop();
    }

    // ---- framing --------------------------------------------------------------------------------------

    private void parse() {
        while (true) {
            boolean progress = switch (phase) {
                case STARTUP -> startup();
                case FPDUS -> fpdu();
                case RESYNC -> resync();
                default -> false;
            };
            if (!progress) {
                return;
            }
        }
    }

    private boolean startup() {
        byte[] key = direction == 0 ? Mpa.KEY_REQUEST : Mpa.KEY_REPLY;
        int n = Math.min(main.length, key.length);
        for (int i = 0; i < n; i++) {
            if (main.data[main.head + i] != key[i]) {
                connection.streams().frame.event(IwarpFrame.EventType.INVALID_STARTUP, connection, direction,
                        main.start, main.end(), lastFrame());
                giveUp(lastFrame());
                connection.startupLost(direction);
                return false;
            }
        }
        if (main.length < Mpa.REQ_REP_LENGTH) {
            return false;
        }
        int pd = main.u16(main.start + 18);
        boolean badLength = pd > Mpa.MAX_PRIVATE_DATA;
        int total = badLength ? Mpa.REQ_REP_LENGTH : Mpa.REQ_REP_LENGTH + pd;
        if (main.length < total) {
            return false;
        }
        int flags = main.u8(main.start + 16);
        int revision = main.u8(main.start + 17);
        IwarpPdu p = connection.streams().frame.newPdu();
        p.kind = direction == 0 ? IwarpPdu.Kind.REQUEST : IwarpPdu.Kind.REPLY;
        p.ulpduLength = pd;
        ensureImage(total);
        System.arraycopy(main.data, main.head, image, 0, total);
        System.arraycopy(image, 0, p.header, 0, Math.min(total, IwarpPdu.HEADER_COPY));
        p.headerLength = Math.min(total, IwarpPdu.HEADER_COPY);
        finish(p, main, main.start, total, total, true, false);
        consume(total);
        markerOrigin = main.start;
        phase = Phase.WAITING;
        if (badLength) {
            connection.streams().frame.event(IwarpFrame.EventType.INVALID_STARTUP, connection, direction,
                    p.streamStart, p.streamStart + total, lastFrame());
            stop();
            connection.startupLost(direction);
            return false;
        }
        connection.startup(direction, flags, revision);
        return phase != Phase.WAITING && phase != Phase.DEAD;
    }

    private boolean fpdu() {
        long p = main.start;
        int raw = rawLength(main, p);
        if (raw < 0 || main.length < raw) {
            return false;
        }
        if (markers && !(orderSettled && clockSettled)) {
            chooseLayout(p, raw);
            raw = rawLength(main, p);
        }
        int ulpdu = (logicalByte(main, p, 0) << 8) | logicalByte(main, p, 1);
        int pad = Mpa.padFor(ulpdu);
        int logical = Mpa.ULPDU_LENGTH_LENGTH + ulpdu + pad + Mpa.CRC_LENGTH;
        while (!shownAhead.isEmpty() && shownAhead.firstKey() < p) {
            shownAhead.pollFirstEntry();
        }
        Integer shown = shownAhead.get(p);
        boolean alreadyShown = shown != null && shown == raw;
        if (alreadyShown) {
            shownAhead.remove(p);
        }
        IwarpPdu pdu = emitFpdu(main, p, raw, ulpdu, pad, logical, !alreadyShown, false);
        consume(raw);
        fpduIndex++;
        skew = crcUncounted ? Mpa.CRC_LENGTH * fpduIndex : 0;
        if (pdu.badMarkers > 0 && pdu.crcStatus == Mpa.STATUS_BAD) {
            // Markers and CRC both disagree with the ULPDU length: the framing itself is lost.
            phase = Phase.RESYNC;
            resumeAt = main.start;
        } else if (pdu.crcStatus != Mpa.STATUS_BAD && ulpdu >= 2) {
            expectedDv = pdu.ddpVersion();
            expectedRv = pdu.rdmapVersion();
        }
        return true;
    }

    /**
     * Emits the FPDU at {@code p} of window {@code w}. {@code show}: give it layers in this frame;
     * {@code aheadOfHole}: it was cut from a segment held ahead of a hole (display only, not in order).
     */
    private IwarpPdu emitFpdu(Window w, long p, int raw, int ulpdu, int pad, int logical, boolean show,
                              boolean aheadOfHole) {
        IwarpPdu pdu = connection.streams().frame.newPdu();
        pdu.kind = IwarpPdu.Kind.FPDU;
        pdu.inOrder = !aheadOfHole;
        pdu.ulpduLength = ulpdu;
        pdu.pad = pad;
        copyLogical(w, p, logical);
        int copy = Math.min(ulpdu, IwarpPdu.HEADER_COPY);
        System.arraycopy(image, Mpa.ULPDU_LENGTH_LENGTH, pdu.header, 0, copy);
        pdu.headerLength = copy;
        int crcAt = logical - Mpa.CRC_LENGTH;
        pdu.crcOnWire = ((image[crcAt] & 0xFF) << 24) | ((image[crcAt + 1] & 0xFF) << 16)
                | ((image[crcAt + 2] & 0xFF) << 8) | (image[crcAt + 3] & 0xFF);
        pdu.crcComputed = crcOf(w, p, rawIndex(p, crcAt, logical));
        pdu.crcStatus = !crc ? Mpa.STATUS_UNVERIFIED
                : pdu.crcComputed == pdu.crcOnWire ? Mpa.STATUS_GOOD : Mpa.STATUS_BAD;
        if (markers) {
            pdu.markerClockSkipsCrc = crcUncounted;
            pdu.markerPointerLittleEndian = pointerLittleEndian;
            for (long m = nextMarker(p); m < markerLimit(p, raw); m += Mpa.MARKER_INTERVAL) {
                int value = (int) w.u32(m);
                pdu.addMarker(m, value, pointsBack(value, m - p));
            }
        }
        finish(pdu, w, p, raw, logical, show, aheadOfHole);
        return pdu;
    }

    /** Common to every PDU: where it lies, which frames carried it, and where the dissection shows it. */
    private void finish(IwarpPdu p, Window w, long at, int raw, int logical, boolean show, boolean aheadOfHole) {
        p.connection = connection;
        p.direction = direction;
        p.streamStart = at;
        p.rawLength = raw;
        p.endSeq = connection.direction(direction).sequence(at + raw);
        if (aheadOfHole) {
            p.addFrame(aheadFrame);
        } else {
            for (int i = pieceHead; i < pieceCount; i++) {
                long s = pieceStart[i];
                if (s < at + raw && s + pieceLength[i] > at) {
                    p.addFrame(pieceFrame[i]);
                }
            }
        }
        Dissection d = connection.streams().current;
        if (d == null || !show) {
            return;
        }
        long current = d.frame().number();
        p.imageLength = logical;
        int offset = aheadOfHole ? aheadOffset + (int) (at - ahead.start) : frameOffsetOf(at, raw, current);
        p.imageAt = p.markerCount == 0 && offset >= 0 ? offset : d.addReassembled(image, 0, logical);
        for (int i = 0; i < p.markerCount; i++) {
            long m = p.markerPositions[i];
            int holder = aheadOfHole ? aheadOffset + (int) (m - ahead.start)
                    : frameOffsetOf(m, Mpa.MARKER_LENGTH, current);
            p.markerAt[i] = holder >= 0 ? holder : d.addReassembled(w.data, w.index(m), Mpa.MARKER_LENGTH);
        }
    }

    /** Offset in the current frame of stream bytes {@code [at, at + length)}, when one piece of it holds them all; else -1. */
    private int frameOffsetOf(long at, int length, long currentFrame) {
        for (int i = pieceHead; i < pieceCount; i++) {
            if (pieceFrame[i] == currentFrame && pieceOffset[i] >= 0 && pieceStart[i] <= at
                    && at + length <= pieceStart[i] + pieceLength[i]) {
                return pieceOffset[i] + (int) (at - pieceStart[i]);
            }
        }
        return -1;
    }

    private boolean resync() {
        long from = Math.max(main.start, resumeAt);
        if (markers && !clockLost) {
            for (long m = nextMarker(from); ; m += Mpa.MARKER_INTERVAL) {
                if (m + Mpa.MARKER_LENGTH > main.end()) {
                    return false;
                }
                long fpduStart = m - (pointer((int) main.u32(m)) & 0xFFFC);
                if (fpduStart >= from) {
                    resumed(fpduStart);
                    return true;
                }
            }
        }
        for (int i = pieceHead; i < pieceCount; i++) {
            long c = pieceStart[i];
            if (c < from) {
                continue;
            }
            // Markers whose clock skips CRCs: where the clock stands is found from this candidate's markers.
            int verdict = markers && clockLost ? findClock(c) : plausible(main, c, false);
            if (verdict > 0) {
                resumed(c);
                return true;
            }
            if (verdict == 0) {
                // Wait for more bytes before judging this candidate; what lies before it is no FPDU start.
                if (c > main.start) {
                    consume((int) (c - main.start));
                }
                return false;
            }
        }
        consume(main.length); // no segment start here can begin an FPDU: drop and wait for the next
        return false;
    }

    private void resumed(long fpduStart) {
        if (resumeAt != Long.MIN_VALUE) { // not the first FPDU of a connection taken up mid-stream
            connection.streams().frame.event(IwarpFrame.EventType.RESYNC, connection, direction, resumeAt, fpduStart,
                    lastFrame());
        }
        consume((int) (fpduStart - main.start));
        phase = Phase.FPDUS;
    }

    /**
     * Whether an FPDU may start at {@code c} of window {@code w}: 1 yes, -1 no, 0 not enough bytes
     * yet. Its DDP and RDMAP versions must be those of this direction so far, its reserved bits
     * clear, its opcode defined and matching its buffer model, its ULPDU long enough for its header;
     * where CRCs are in use the CRC must verify, and where markers are, those inside it must point
     * back at {@code c} ({@code checkMarkers}: during resynchronisation the markers found {@code c}).
     */
    private int plausible(Window w, long c, boolean checkMarkers) {
        long end = w.end();
        if (c + rawIndex(c, 4, Integer.MAX_VALUE) > end) {
            return 0;
        }
        int ulpdu = (logicalByte(w, c, 0) << 8) | logicalByte(w, c, 1);
        int control = logicalByte(w, c, 2);
        int rdmap = logicalByte(w, c, 3);
        boolean tagged = (control & 0x80) != 0;
        int opcode = rdmap & 0x0F;
        boolean taggedOpcode = opcode == DdpRdmap.OP_WRITE || opcode == DdpRdmap.OP_READ_RESPONSE;
        if ((control & 0x3C) != 0 || (control & 0x03) != expectedDv || (rdmap >> 6) != expectedRv
                || (rdmap & 0x30) != 0 || opcode > DdpRdmap.OP_ATOMIC_RESPONSE || tagged != taggedOpcode
                || ulpdu < (tagged ? DdpRdmap.TAGGED_HEADER_LENGTH : DdpRdmap.UNTAGGED_HEADER_LENGTH)) {
            return -1;
        }
        if (!crc && !(markers && checkMarkers)) {
            return 1;
        }
        int logical = Mpa.ULPDU_LENGTH_LENGTH + ulpdu + Mpa.padFor(ulpdu) + Mpa.CRC_LENGTH;
        int raw = rawIndex(c, logical - 1, logical) + 1;
        if (c + raw > end) {
            return 0;
        }
        if (markers && checkMarkers) {
            for (long m = nextMarker(c); m < markerLimit(c, raw); m += Mpa.MARKER_INTERVAL) {
                if (!pointsBack((int) w.u32(m), m - c)) {
                    return -1;
                }
            }
        }
        if (!crc) {
            return 1;
        }
        int crcAt = logical - Mpa.CRC_LENGTH;
        int wire = (logicalByte(w, c, crcAt, logical) << 24) | (logicalByte(w, c, crcAt + 1, logical) << 16)
                | (logicalByte(w, c, crcAt + 2, logical) << 8) | logicalByte(w, c, crcAt + 3, logical);
        return crcOf(w, c, rawIndex(c, crcAt, logical)) == wire ? 1 : -1;
    }

    /** The CRC32c of {@code length} stream bytes from {@code p}, as Wireshark shows it (byte-swapped). */
    private int crcOf(Window w, long p, int length) {
        crc32c.reset();
        crc32c.update(w.data, w.index(p), length);
        return Integer.reverseBytes((int) crc32c.getValue());
    }

    // ---- markers: raw stream positions versus marker-free (logical) offsets -----------------------------

    private boolean isMarker(long position) {
        long c = position - markerOrigin - skew;
        return markers && c >= 0 && c % Mpa.MARKER_INTERVAL == 0;
    }

    private long nextMarker(long position) {
        long c = position - markerOrigin - skew;
        if (c <= 0) {
            return markerOrigin + skew;
        }
        long k = (c + Mpa.MARKER_INTERVAL - 1) / Mpa.MARKER_INTERVAL;
        return markerOrigin + skew + k * Mpa.MARKER_INTERVAL;
    }

    /** Markers of the FPDU at {@code p} of raw length {@code raw} lie before this position. */
    private long markerLimit(long p, int raw) {
        // A clock that skips the CRC can stop right before it (a marker between pad and CRC), not inside it.
        return crcUncounted ? p + raw - Mpa.CRC_LENGTH + 1 : p + raw;
    }

    /** The FPDUPTR a marker word carries, in this direction's byte order. */
    private int pointer(int marker) {
        int v = marker & 0xFFFF;
        return pointerLittleEndian ? ((v & 0xFF) << 8) | (v >>> 8) : v;
    }

    /** Whether a marker word {@code back} octets past its FPDU's start points back at it (RFC 5044 §5). */
    private boolean pointsBack(int marker, long back) {
        return back <= 0xFFFF && (pointer(marker) & 0xFFFC) == back;
    }

    private void layout(boolean withoutCrc, boolean littleEndian) {
        crcUncounted = withoutCrc;
        pointerLittleEndian = littleEndian;
        skew = crcUncounted ? Mpa.CRC_LENGTH * fpduIndex : 0;
    }

    /** Raw length of the FPDU at {@code p} of the main window under the current layout; -1: not enough bytes. */
    private int rawLength(Window w, long p) {
        if (w.end() < p + rawIndex(p, Mpa.ULPDU_LENGTH_LENGTH, Integer.MAX_VALUE)) {
            return -1;
        }
        int ulpdu = (logicalByte(w, p, 0) << 8) | logicalByte(w, p, 1);
        int logical = Mpa.ULPDU_LENGTH_LENGTH + ulpdu + Mpa.padFor(ulpdu) + Mpa.CRC_LENGTH;
        return rawIndex(p, logical - 1, logical) + 1;
    }

    /**
     * The markers of the FPDU at {@code p} (raw length {@code raw}) under the current layout: 1 all
     * point back and one lies past the FPDU's first octet, 0 none lies there, -1 one does not point back.
     */
    private int markerVerdict(Window w, long p, int raw) {
        int verdict = 0;
        for (long m = nextMarker(p); m < markerLimit(p, raw); m += Mpa.MARKER_INTERVAL) {
            if (m + Mpa.MARKER_LENGTH > w.end() || !pointsBack((int) w.u32(m), m - p)) {
                return -1;
            }
            if (m > p) {
                verdict = 1;
            }
        }
        return verdict;
    }

    /**
     * Before the layout is settled: if the markers of the in-order FPDU at {@code p} do not point back
     * under the current layout, takes the first other layout (changing only what is not yet settled)
     * under which they all do. What an FPDU with a marker past its first octet can tell is settled by
     * it, whether or not its markers check (a bad marker is then the sender's, IW-MPA-002).
     */
    private void chooseLayout(long p, int raw) {
        int verdict = markerVerdict(main, p, raw);
        if (verdict == 0) {
            return;
        }
        boolean tellsClock = fpduIndex > 0;
        if (verdict < 0) {
            boolean u = crcUncounted;
            boolean le = pointerLittleEndian;
            boolean found = false;
            for (int option = 1; option < 4 && !found; option++) {
                boolean flipClock = (option & 1) != 0;
                boolean flipOrder = (option & 2) != 0;
                if ((flipClock && (clockSettled || !tellsClock)) || (flipOrder && orderSettled)) {
                    continue;
                }
                layout(u ^ flipClock, le ^ flipOrder);
                int r = rawLength(main, p);
                found = r > 0 && r <= main.length && markerVerdict(main, p, r) > 0;
            }
            if (!found) {
                layout(u, le);
            }
        }
        orderSettled = true;
        clockSettled |= tellsClock;
    }

    /**
     * After a gap, with a marker clock that skips CRCs: the clock phase under which the FPDU at
     * {@code c} has markers, all pointing back at it. 1 found (and set), -1 none, 0 not enough bytes.
     */
    private int findClock(long c) {
        boolean waited = false;
        for (long index = 0; index < Mpa.MARKER_INTERVAL / Mpa.CRC_LENGTH; index++) {
            fpduIndex = index;
            skew = Mpa.CRC_LENGTH * index;
            int header = plausible(main, c, false);
            if (header < 0) {
                continue;
            }
            int raw = header == 0 ? -1 : rawLength(main, c);
            if (raw < 0 || c + raw > main.end()) {
                waited = true;
                continue;
            }
            if (markerVerdict(main, c, raw) > 0) {
                clockLost = false;
                return 1;
            }
        }
        return waited ? 0 : -1;
    }

    /**
     * Raw offset from {@code p} of marker-free byte {@code k} of an FPDU starting at {@code p} whose
     * marker-free length is {@code logical} ({@link Integer#MAX_VALUE} while unknown).
     */
    private int rawIndex(long p, int k, int logical) {
        if (!markers) {
            return k;
        }
        int crcAt = logical - Mpa.CRC_LENGTH;
        if (crcUncounted && k > crcAt) {
            return rawIndex(p, crcAt, logical) + (k - crcAt); // no marker inside the CRC
        }
        long pos = p;
        int done = 0;
        while (true) {
            if (isMarker(pos)) {
                pos += Mpa.MARKER_LENGTH;
                continue;
            }
            if (done == k) {
                return (int) (pos - p);
            }
            long step = Math.min(k - done, nextMarker(pos + 1) - pos);
            pos += step;
            done += (int) step;
        }
    }

    private int rawIndex(long p, int k) {
        return rawIndex(p, k, Integer.MAX_VALUE);
    }

    private int logicalByte(Window w, long p, int k) {
        return w.u8(p + rawIndex(p, k));
    }

    private int logicalByte(Window w, long p, int k, int logical) {
        return w.u8(p + rawIndex(p, k, logical));
    }

    /** Copies marker-free bytes {@code [0, logical)} of the FPDU at {@code p} into {@link #image}. */
    private void copyLogical(Window w, long p, int logical) {
        ensureImage(logical);
        if (!markers) {
            System.arraycopy(w.data, w.index(p), image, 0, logical);
            return;
        }
        int crcAt = logical - Mpa.CRC_LENGTH;
        long pos = p;
        int k = 0;
        while (k < logical) {
            if (isMarker(pos) && (!crcUncounted || k <= crcAt)) {
                pos += Mpa.MARKER_LENGTH;
                continue;
            }
            long limit = crcUncounted && k >= crcAt ? logical - k : Math.min(logical - k, nextMarker(pos + 1) - pos);
            int step = (int) limit;
            System.arraycopy(w.data, w.index(pos), image, k, step);
            pos += step;
            k += step;
        }
    }

    private void ensureImage(int length) {
        if (image.length < length) {
            image = new byte[Math.max(length, image.length * 2)];
        }
    }

    // ---- the main window --------------------------------------------------------------------------------

    private long lastFrame() {
        return pieceCount > pieceHead ? pieceFrame[pieceCount - 1] : 0;
    }

    private void ensure(int more) {
        if (main.head + main.length + more > main.data.length) {
            if (main.head > 0 && main.length + more <= main.data.length) {
                compactNow();
            } else {
                byte[] bigger = new byte[Math.max(main.length + more, main.data.length * 2)];
                System.arraycopy(main.data, main.head, bigger, 0, main.length);
                main.data = bigger;
                main.head = 0;
            }
        }
    }

    private void consume(int n) {
        main.head += n;
        main.length -= n;
        main.start += n;
        while (pieceHead < pieceCount && pieceStart[pieceHead] + pieceLength[pieceHead] <= main.start) {
            pieceHead++;
        }
        if (pieceHead == pieceCount) {
            pieceHead = 0;
            pieceCount = 0;
        }
    }

    private void clear(long newStart) {
        main.head = 0;
        main.length = 0;
        main.start = newStart;
        pieceHead = 0;
        pieceCount = 0;
    }

    private void compact() {
        if (main.length == 0) {
            main.head = 0;
            if (main.data.length > 1 << 16) {
                main.data = new byte[512]; // an idle connection does not keep a large buffer
            }
        } else if (main.head > main.data.length / 2) {
            compactNow();
        }
    }

    private void compactNow() {
        System.arraycopy(main.data, main.head, main.data, 0, main.length);
        main.head = 0;
    }

    private void addPiece(long position, int length, long frame, int frameOffset) {
        if (pieceHead > 0 && pieceCount == pieceStart.length) {
            int live = pieceCount - pieceHead;
            System.arraycopy(pieceStart, pieceHead, pieceStart, 0, live);
            System.arraycopy(pieceLength, pieceHead, pieceLength, 0, live);
            System.arraycopy(pieceFrame, pieceHead, pieceFrame, 0, live);
            System.arraycopy(pieceOffset, pieceHead, pieceOffset, 0, live);
            pieceHead = 0;
            pieceCount = live;
        }
        if (pieceCount == pieceStart.length) {
            int n = pieceCount * 2;
            pieceStart = Arrays.copyOf(pieceStart, n);
            pieceLength = Arrays.copyOf(pieceLength, n);
            pieceFrame = Arrays.copyOf(pieceFrame, n);
            pieceOffset = Arrays.copyOf(pieceOffset, n);
        }
        pieceStart[pieceCount] = position;
        pieceLength[pieceCount] = length;
        pieceFrame[pieceCount] = frame;
        pieceOffset[pieceCount] = frameOffset;
        pieceCount++;
    }
}
