package io.rdmascope.proto.iwarp;


import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Builds iWARP bytes as they go into a TCP stream: MPA Request/Reply frames (RFC 5044 §7.1.1, RFC
 * 6581), DDP tagged and untagged headers (RFC 5041 §4), RDMAP Read Request and Terminate headers
 * (RFC 5040 §4.4, §4.8), and FPDUs (RFC 5044 §4): ULPDU length, ULPDU, pad, markers every 512 octets
 * of the stream where asked for, and the CRC32c little-endian at the end. The scenario generator and
 * the tests write iWARP traffic with it; it shares only the protocol constants with the decoder.
 */
public final class IwarpBuilder {
    private IwarpBuilder() {
    }

    /** A Request ({@code request}) or Reply frame: key, M/C/R flags and reserved bits, revision, private data. */
    public static byte[] startupFrame(boolean request, int flags, int revision, byte[] privateData) {
        ByteBuffer b = ByteBuffer.allocate(Mpa.REQ_REP_LENGTH + privateData.length);
        b.put(request ? Mpa.KEY_REQUEST : Mpa.KEY_REPLY);
        b.put((byte) flags).put((byte) revision).putShort((short) privateData.length).put(privateData);
        return b.array();
    }

    /** RFC 6581 §5 private data: IRD and ORD with the peer-to-peer and RTR bits. */
    public static byte[] irdOrd(int ird, int ord, boolean peerToPeer, boolean zeroLengthRtr, boolean writeRtr,
                                boolean readRtr) {
        int a = (peerToPeer ? 0x8000 : 0) | (zeroLengthRtr ? 0x4000 : 0) | (ird & 0x3FFF);
        int b = (writeRtr ? 0x8000 : 0) | (readRtr ? 0x4000 : 0) | (ord & 0x3FFF);
        return ByteBuffer.allocate(4).putShort((short) a).putShort((short) b).array();
    }

    /** An untagged DDP segment with its RDMAP control byte: header (18 bytes), RDMAP header, payload. */
    public static byte[] untagged(int opcode, boolean last, long rsvdUlp, long qn, long msn, long mo,
                                  byte[] rdmapHeader, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(DdpRdmap.UNTAGGED_HEADER_LENGTH + rdmapHeader.length + payload.length);
        b.put((byte) ((last ? 0x40 : 0) | 1)).put((byte) (0x40 | opcode));
        b.putInt((int) rsvdUlp).putInt((int) qn).putInt((int) msn).putInt((int) mo);
        b.put(rdmapHeader).put(payload);
        return b.array();
    }

    /** A tagged DDP segment (Write, Read Response): header (14 bytes) and payload. */
    public static byte[] tagged(int opcode, boolean last, long stag, long taggedOffset, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(DdpRdmap.TAGGED_HEADER_LENGTH + payload.length);
        b.put((byte) (0x80 | (last ? 0x40 : 0) | 1)).put((byte) (0x40 | opcode));
        b.putInt((int) stag).putLong(taggedOffset).put(payload);
        return b.array();
    }

    /** RDMA Read Request header (RFC 5040 §4.4). */
    public static byte[] readRequest(long sinkStag, long sinkOffset, long size, long sourceStag, long sourceOffset) {
        return ByteBuffer.allocate(DdpRdmap.READ_REQUEST_LENGTH).putInt((int) sinkStag).putLong(sinkOffset)
                .putInt((int) size).putInt((int) sourceStag).putLong(sourceOffset).array();
    }

    /**
     * Terminate header (RFC 5040 §4.8): layer, error type and code, then the header control bits
     * with the DDP segment length and terminated DDP header when {@code ddpHeader} is given (D) and
     * the terminated Read Request header when {@code rdmaHeader} is (R).
     */
    public static byte[] terminate(int layer, int errorType, int errorCode, int ddpSegmentLength, byte[] ddpHeader,
                                   byte[] rdmaHeader) {
        int hdrct = DdpRdmap.HDRCT_M | (ddpHeader != null ? DdpRdmap.HDRCT_D : 0)
                | (rdmaHeader != null ? DdpRdmap.HDRCT_R : 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((layer << 4) | errorType);
        out.write(errorCode);
        out.write(hdrct);
        out.write(0);
        if (ddpHeader != null) {
            out.write(ddpSegmentLength >> 8);
            out.write(ddpSegmentLength);
            out.writeBytes(ddpHeader);
        }
        if (rdmaHeader != null) {
            out.writeBytes(rdmaHeader);
        }
        return out.toByteArray();
    }

    /**
     * An FPDU carrying {@code ulpdu}, placed at stream position {@code position} of a stream whose
     * markers (if {@code markerOrigin >= 0}) sit at {@code markerOrigin + 512·k}. Each marker points
     * back to the FPDU's first octet; the CRC32c covers everything before it, markers included, and
     * is written least significant byte first (zero when {@code crc} is off). {@code corruptCrc} flips
     * a bit of the CRC; {@code badMarkerPointer} makes every marker point 4 octets too far back.
     */
    public static byte[] fpdu(byte[] ulpdu, long position, long markerOrigin, boolean crc, boolean corruptCrc,
                              boolean badMarkerPointer) {
        return fpdu(ulpdu, position, markerOrigin, 0, false, crc, corruptCrc, badMarkerPointer);
    }

    /**
     * As {@link #fpdu(byte[], long, long, boolean, boolean, boolean)}, for a sender whose marker clock
     * has skipped {@code clockSkipped} octets of the stream so far: a marker goes where
     * {@code position - clockSkipped} is a marker position. {@code oscStack}: markers as the OSC iWARP
     * stack writes them (the layout of a real capture, docs/iwarp.md): its clock does not advance over
     * the CRC field, so none falls inside the CRC (the caller adds 4 to {@code clockSkipped} after each
     * FPDU), and FPDUPTR is written least significant octet first. Without it, RFC 5044 §5.
     */
    public static byte[] fpdu(byte[] ulpdu, long position, long markerOrigin, long clockSkipped, boolean oscStack,
                              boolean crc, boolean corruptCrc, boolean badMarkerPointer) {
        int pad = Mpa.padFor(ulpdu.length);
        byte[] logical = new byte[Mpa.ULPDU_LENGTH_LENGTH + ulpdu.length + pad];
        logical[0] = (byte) (ulpdu.length >> 8);
        logical[1] = (byte) ulpdu.length;
        System.arraycopy(ulpdu, 0, logical, 2, ulpdu.length);
        ByteArrayOutputStream raw = new ByteArrayOutputStream(logical.length + 16);
        long pos = position;
        int k = 0;
        while (k <= logical.length) {
            // Before each octet, and once more between pad and CRC.
            if (isMarker(pos - clockSkipped, markerOrigin)) {
                writeMarker(raw, pos - position + (badMarkerPointer ? 4 : 0), oscStack);
                pos += Mpa.MARKER_LENGTH;
                continue;
            }
            if (k == logical.length) {
                break;
            }
            raw.write(logical[k++]);
            pos++;
        }
        byte[] covered = raw.toByteArray();
        int value = 0;
        if (crc) {
            CRC32C c = new CRC32C();
            c.update(covered, 0, covered.length);
            value = (int) c.getValue();
            if (corruptCrc) {
                value ^= 0x00010000;
            }
        }
        raw.write(value);
        raw.write(value >>> 8);
        raw.write(value >>> 16);
        raw.write(value >>> 24);
        return raw.toByteArray();
    }

    /** Whether a marker sits at stream position {@code position} of a stream whose markers start at {@code markerOrigin} (-1: none). */
    public static boolean isMarker(long position, long markerOrigin) {
        return markerOrigin >= 0 && position >= markerOrigin
                && (position - markerOrigin) % Mpa.MARKER_INTERVAL == 0;
    }

    private static void writeMarker(ByteArrayOutputStream out, long pointer, boolean littleEndian) {
        out.write(0);
        out.write(0);
        out.write((int) (littleEndian ? pointer : pointer >> 8));
        out.write((int) (littleEndian ? pointer >> 8 : pointer));
    }
}
