package io.rdmascope.capture;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.erf.Erf;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Reads Endace ERF files ("Extensible Record Format"): records one after the other, no file header.
 * Obtain one through {@link CaptureFiles#open}, which recognises ERF by the plausibility of its first
 * records ({@link #looksLikeErf}), since the format has no magic number.
 *
 * <p>A record is a 16-byte header (64-bit little-endian timestamp, type, flags, then big-endian
 * {@code rlen}, {@code lctr}, {@code wlen}), 8-byte extension headers while the type's (then each
 * extension header's) top bit says another follows, a 2-byte pad for Ethernet types, the packet, and
 * padding up to {@code rlen}. Layout from Wireshark's {@code wiretap/erf.c} and {@code erf_record.h}.
 *
 * <p>Each record becomes one frame of link type {@link LinkTypes#ERF} holding the <em>whole</em>
 * record, header included, which is what the ERF dissector decodes (as for pcap link type 197):
 * <ul>
 *   <li>time: the ERF timestamp, seconds in the upper 32 bits and a binary fraction in the lower 32,
 *       rounded to the nearest nanosecond as Wireshark rounds it;</li>
 *   <li>{@code capturedLength}: {@code rlen}, the whole record with its padding;</li>
 *   <li>{@code wireLength}: {@code wlen}, which is what TShark 4.0 reports as {@code frame.len} for a
 *       record of an ERF file (measured, not assumed: the header is not counted).</li>
 * </ul>
 *
 * <p>Pitfalls:
 * <ul>
 *   <li>{@code wireLength} is usually <em>smaller</em> than {@code capturedLength} here, because the
 *       captured bytes include the ERF header. TShark's {@code frame.cap_len} for the record is
 *       min(wlen, rlen - 16 - extension headers - Ethernet pad), i.e. without the header and
 *       padding; {@code packetCapturedLength} computes that.</li>
 *   <li>Interface ids are numbered in order of first appearance, as TShark 4.0 does: a new
 *       interface for each new combination of ERF port (flags bits 0-1), Host ID and Source ID
 *       (from Host ID / Flow ID extension headers). Wireshark also learns interfaces and an
 *       implicit Host ID from provenance (META) records; that is not done here.</li>
 *   <li>PAD records (type byte exactly 48) carry no packet and are skipped, as Wireshark does.</li>
 *   <li>A non-PAD record of exactly 16 bytes is corrupt for Wireshark ("0 byte packet") and here.</li>
 * </ul>
 */
public final class ErfReader extends CaptureFileReader {

    static final int HEADER_LENGTH = 16;
    static final int EXTENSION_HEADER_LENGTH = 8;
    static final int ETH_PAD_LENGTH = 2;

    static final int TYPE_COLOR_ETH = 11;
    static final int TYPE_DSM_COLOR_ETH = 16;
    static final int TYPE_COLOR_HASH_ETH = 20;
    static final int TYPE_META = 27;
    static final int TYPE_PAD = 48;

    /** Flags: capture port in bits 0-1, varying-length records in bit 2; bit 7 is reserved. */
    static final int FLAGS_PORT = 0x03;
    static final int FLAGS_VLEN = 0x04;
    static final int FLAGS_RESERVED = 0x80;

    private static final int EXT_FLOW_ID = 16;
    private static final int EXT_HOST_ID = 17;

    /** Detection allows this much padding after the packet: DAG cards can align records to 64 bytes. */
    private static final int MAX_PADDING = 63;
    private static final long SECONDS_PER_YEAR = 365L * 24 * 3600;

    /** Capture position of the next record. */
    private long pos;
    private final InterfaceIds interfaces = new InterfaceIds();

    private ErfReader(CaptureBytes bytes) {
        super(bytes);
    }

    /** Starts reading at position 0; the caller has checked {@link #looksLikeErf}. */
    static ErfReader open(CaptureBytes bytes) {
        // Lengths are big-endian; the one little-endian field, the timestamp, is swapped by hand.
        bytes.order(ByteOrder.BIG_ENDIAN);
        return new ErfReader(bytes);
    }

    @Override
    Frame read() throws IOException {
        while (true) {
            long at = pos;
            if (!bytes.ensure(at, HEADER_LENGTH)) {
                long left = bytes.remaining(at);
                if (left == 0) {
                    return null;
                }
                throw error(at, "truncated record header", "16 bytes needed, " + left + " remain");
            }
            int typeByte = bytes.u8(at + 8);
            int type = typeByte & 0x7F;
            int flags = bytes.u8(at + 9);
            int rlen = bytes.u16(at + 10);
            int wlen = bytes.u16(at + 14);
            if (type > TYPE_PAD) {
                throw error(at, "unknown ERF record type", "type " + type + " (0x"
                        + Integer.toHexString(typeByte) + ")");
            }
            boolean pad = typeByte == TYPE_PAD;
            if (rlen < HEADER_LENGTH) {
                throw error(at, "record too short", "rlen says " + rlen + " bytes, less than the 16-byte header");
            }
            if (rlen == HEADER_LENGTH && !pad) {
                // Wireshark refuses these too ("File has 0 byte packet").
                throw error(at, "record too short", "rlen says 16 bytes: a header without a packet");
            }
            if (!bytes.ensure(at, rlen)) {
                throw error(at, "truncated record",
                        "rlen says " + rlen + " bytes, " + bytes.remaining(at) + " remain");
            }
            pos = at + rlen;
            if (pad) {
                continue;
            }
            long key = portKey(flags);
            long headers = HEADER_LENGTH;
            boolean more = (typeByte & 0x80) != 0;
            while (more) {
                if (headers + EXTENSION_HEADER_LENGTH > rlen) {
                    throw error(at, "extension headers overrun the record",
                            "rlen says " + rlen + " bytes, extension header at +" + headers + " needs 8");
                }
                long ext = at + headers;
                int extType = bytes.u8(ext);
                key = interfaceKey(key, extType & 0x7F, ext);
                more = (extType & 0x80) != 0;
                headers += EXTENSION_HEADER_LENGTH;
            }
            if (isEthernet(type) && headers + ETH_PAD_LENGTH > rlen) {
                throw error(at, "record too short", "an Ethernet record of " + rlen
                        + " bytes has no room for its 2-byte pad after " + headers + " bytes of headers");
            }
            long timestamp = Long.reverseBytes(bytes.i64(at));
            long timeNanos = (timestamp >>> 32) * 1_000_000_000L + nanos(timestamp & 0xFFFF_FFFFL);
            return bytes.frame(++number, timeNanos, rlen, wlen, LinkTypes.ERF, interfaces.id(key), at);
        }
    }

    /**
     * A binary fraction of a second (units of 2^-32 s) to nanoseconds, rounding half up as
     * Wireshark does; a fraction within half a nanosecond of 1 gives 10^9, carrying into the seconds.
     */
    static long nanos(long fraction) {
        return (fraction * 1_000_000_000L + 0x8000_0000L) >>> 32;
    }

    static boolean isEthernet(int type) {
        return Erf.isEthernetType(type);
    }

    /*
     * Interface keys pack what distinguishes an interface for Wireshark: bits 0-1 the port, 2-9 the
     * Source ID, 10-57 the Host ID, bit 58 set while no Host ID extension header has been seen.
     */
    private static final long NO_HOST = 1L << 58;
    private static final long SOURCE_BITS = 0xFFL << 2;

    private static long portKey(int flags) {
        return NO_HOST | (flags & FLAGS_PORT);
    }

    /** Folds a Host ID or Flow ID extension header into the key: first Host ID, first non-zero Source ID. */
    private long interfaceKey(long key, int extType, long ext) {
        if (extType != EXT_HOST_ID && extType != EXT_FLOW_ID) {
            return key;
        }
        if ((key & SOURCE_BITS) == 0) {
            key |= (long) bytes.u8(ext + 1) << 2;
        }
        if (extType == EXT_HOST_ID && (key & NO_HOST) != 0) {
            long hostId = (long) bytes.u16(ext + 2) << 32 | bytes.u32(ext + 4);
            key = (key & ~NO_HOST) | hostId << 10;
        }
        return key;
    }

    /**
     * TShark's {@code frame.cap_len} for a record of an ERF file: the packet bytes after the header,
     * extension headers and Ethernet pad, at most {@code wlen}. The frame must come from this
     * reader; {@code capturedLength} minus this is what the ERF framing adds.
     */
    static int packetCapturedLength(Frame frame) {
        return Erf.packetCapturedLength(frame, frame.wireLength());
    }

    private CaptureFormatException error(long at, String problem, String detail) {
        return bytes.error(at, number + 1, problem, detail);
    }

    /**
     * Whether the capture starts like an ERF file: the first record plausible and complete, and the
     * second, when its header is there, plausible too and timed within Wireshark's tolerance (not
     * more than about a second before the first, not more than a year after). Only headers are
     * judged, so the caller tries this after the pcap and pcapng magics, never before.
     */
    static boolean looksLikeErf(CaptureBytes bytes) throws IOException {
        if (!bytes.ensure(0, HEADER_LENGTH)) {
            return false;
        }
        int rlen = bytes.u16(10);
        if (!plausibleHeader(bytes, 0) || !bytes.ensure(0, rlen)) {
            return false;
        }
        // The first record is all there: its extension headers must fit it.
        int typeByte = bytes.u8(8);
        int headers = HEADER_LENGTH;
        for (boolean more = (typeByte & 0x80) != 0; more; headers += EXTENSION_HEADER_LENGTH) {
            if (headers + EXTENSION_HEADER_LENGTH > rlen) {
                return false;
            }
            more = (bytes.u8(headers) & 0x80) != 0;
        }
        if (!plausibleLengths(typeByte & 0x7F, bytes.u8(9), rlen, bytes.u16(14), headers)) {
            return false;
        }
        boolean second;
        try {
            second = bytes.ensure(0, rlen + HEADER_LENGTH);
        } catch (DamagedInputException e) {
            // A gzip stream cut in the second record: judge by the first; the reader reports the cut.
            second = false;
        }
        if (!second) {
            return true;
        }
        if (!plausibleHeader(bytes, rlen)) {
            return false;
        }
        int secondType = bytes.u8(rlen + 8);
        int secondHeaders = HEADER_LENGTH + ((secondType & 0x80) != 0 ? EXTENSION_HEADER_LENGTH : 0);
        if (!plausibleLengths(secondType & 0x7F, bytes.u8(rlen + 9), bytes.u16(rlen + 10), bytes.u16(rlen + 14),
                secondHeaders)) {
            return false;
        }
        return plausibleTimes(bytes, typeByte & 0x7F, secondType & 0x7F, rlen);
    }

    /** Type known, reserved flag clear, rlen big enough for the header and, but for PAD, a byte more. */
    private static boolean plausibleHeader(CaptureBytes bytes, long at) {
        int type = bytes.u8(at + 8) & 0x7F;
        int flags = bytes.u8(at + 9);
        int rlen = bytes.u16(at + 10);
        return knownType(type) && (flags & FLAGS_RESERVED) == 0
                && rlen >= (type == TYPE_PAD ? HEADER_LENGTH : HEADER_LENGTH + 1);
    }

    /** The public ERF types Wireshark names (1-25, 27-29) and PAD; not legacy 0, 26 or local use. */
    private static boolean knownType(int type) {
        return type >= 1 && type <= 29 && type != 26 || type == TYPE_PAD;
    }

    /**
     * Room for the extension headers (and an Ethernet pad), and for a varying-length packet record
     * a wire length that the captured bytes exceed by padding only. Fixed-length records (vlen
     * clear, old cards) may hold any wire length.
     */
    private static boolean plausibleLengths(int type, int flags, int rlen, int wlen, int headers) {
        if (type == TYPE_PAD) {
            return true;
        }
        int packetStart = headers + (isEthernet(type) ? ETH_PAD_LENGTH : 0);
        if (packetStart > rlen) {
            return false;
        }
        return type == TYPE_META || (flags & FLAGS_VLEN) == 0 || rlen - packetStart - wlen <= MAX_PADDING;
    }

    /** Wireshark's test on consecutive timestamps, skipped where a PAD or META record may carry none. */
    private static boolean plausibleTimes(CaptureBytes bytes, int firstType, int secondType, long second) {
        if (firstType == TYPE_PAD || firstType == TYPE_META || secondType == TYPE_PAD || secondType == TYPE_META) {
            return true;
        }
        long t1 = Long.reverseBytes(bytes.i64(0));
        long t2 = Long.reverseBytes(bytes.i64(second));
        if (Long.compareUnsigned(t2, t1) < 0) {
            return (t1 - t2) >>> 32 <= 1;
        }
        return (t2 - t1) >>> 32 <= SECONDS_PER_YEAR;
    }

    /**
     * Interface keys to ids in order of first appearance: open addressing over primitive arrays, so
     * looking up a known interface allocates nothing, and many interfaces (a damaged or hostile file
     * can name one per record) do not cost a scan each.
     */
    private static final class InterfaceIds {
        private static final long EMPTY = -1;
        private long[] keys = filled(16);
        private int[] ids = new int[16];
        private int size;
        private long lastKey = EMPTY;
        private int lastId;

        int id(long key) {
            if (key == lastKey) {
                return lastId;
            }
            int mask = keys.length - 1;
            int slot = slot(key, mask);
            while (keys[slot] != EMPTY && keys[slot] != key) {
                slot = (slot + 1) & mask;
            }
            int id;
            if (keys[slot] == key) {
                id = ids[slot];
            } else {
                id = size++;
                keys[slot] = key;
                ids[slot] = id;
                if (size * 2 > keys.length) {
                    grow();
                }
            }
            lastKey = key;
            lastId = id;
            return id;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldIds = ids;
            keys = filled(oldKeys.length * 2);
            ids = new int[oldKeys.length * 2];
            int mask = keys.length - 1;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != EMPTY) {
                    int slot = slot(oldKeys[i], mask);
                    while (keys[slot] != EMPTY) {
                        slot = (slot + 1) & mask;
                    }
                    keys[slot] = oldKeys[i];
                    ids[slot] = oldIds[i];
                }
            }
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E37_79B9_7F4A_7C15L;
            return (int) (h >>> 40) & mask;
        }

        private static long[] filled(int n) {
            long[] a = new long[n];
            Arrays.fill(a, EMPTY);
            return a;
        }
    }
}
