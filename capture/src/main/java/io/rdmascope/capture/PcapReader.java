package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.nio.ByteOrder;

/**
 * Reads classic libpcap files (draft-gharris-opsawg-pcap): a 24-byte file header, then records of
 * a 16-byte header and the captured bytes. Obtain one through {@link CaptureFiles#open}.
 *
 * <p>The magic number says both the byte order of every header field and the timestamp unit:
 * 0xA1B2C3D4 counts microseconds, 0xA1B23C4D nanoseconds; read byte-swapped, the file is
 * little-endian.
 *
 * <p>Pitfall: for link type 197 (ERF) Wireshark shows the timestamp and lengths from the ERF header
 * inside the packet data; this reader reports the pcap record's own values, and the ERF dissector
 * owns the rest.
 */
public final class PcapReader extends CaptureFileReader {

    static final int MAGIC_MICROS = 0xA1B2C3D4;
    static final int MAGIC_NANOS = 0xA1B23C4D;
    static final int MAGIC_MICROS_SWAPPED = 0xD4C3B2A1;
    static final int MAGIC_NANOS_SWAPPED = 0x4D3CB2A1;

    static final int FILE_HEADER_LENGTH = 24;
    static final int RECORD_HEADER_LENGTH = 16;

    private final boolean nanosecond;
    private final int linkType;
    private final long snapLength;

    /** Capture position of the next record. */
    private long pos = FILE_HEADER_LENGTH;

    private PcapReader(CaptureBytes bytes, boolean nanosecond, int linkType, long snapLength) {
        super(bytes);
        this.nanosecond = nanosecond;
        this.linkType = linkType;
        this.snapLength = snapLength;
    }

    /** Parses the file header; the caller has seen one of the four magics at position 0. */
    static PcapReader open(CaptureBytes bytes) throws IOException {
        if (!bytes.ensure(0, FILE_HEADER_LENGTH)) {
            throw bytes.error(0, 0, "truncated pcap file header",
                    "24 bytes needed, " + bytes.remaining(0) + " present");
        }
        int magic = bytes.bigEndianI32(0);
        boolean swapped = magic == MAGIC_MICROS_SWAPPED || magic == MAGIC_NANOS_SWAPPED;
        bytes.order(swapped ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        boolean nanos = magic == MAGIC_NANOS || magic == MAGIC_NANOS_SWAPPED;
        // Bits 31:28 of the link-type word carry the FCS length; 27:16 are reserved. Only 15:0 name the link.
        int linkType = bytes.i32(20) & 0xFFFF;
        return new PcapReader(bytes, nanos, linkType, bytes.u32(16));
    }

    @Override
    Frame read() throws IOException {
        long at = pos;
        if (!bytes.ensure(at, RECORD_HEADER_LENGTH)) {
            long left = bytes.remaining(at);
            if (left == 0) {
                return null;
            }
            throw bytes.error(at, number + 1, "truncated record header", "16 bytes needed, " + left + " remain");
        }
        long seconds = bytes.u32(at);
        long fraction = bytes.u32(at + 4);
        long captured = bytes.u32(at + 8);
        long wire = bytes.u32(at + 12);
        if (captured > Limits.MAX_RECORD_LENGTH) {
            throw bytes.error(at, number + 1, "absurd record length",
                    "header says " + captured + " bytes, the limit is " + Limits.MAX_RECORD_LENGTH);
        }
        if (wire > Integer.MAX_VALUE) {
            throw bytes.error(at, number + 1, "absurd wire length", "header says " + wire + " bytes");
        }
        int recordLength = RECORD_HEADER_LENGTH + (int) captured;
        if (!bytes.ensure(at, recordLength)) {
            throw bytes.error(at, number + 1, "truncated record",
                    "header says " + captured + " bytes, " + bytes.remaining(at + RECORD_HEADER_LENGTH) + " remain");
        }
        pos = at + recordLength;
        long timeNanos = seconds * 1_000_000_000L + (nanosecond ? fraction : fraction * 1_000L);
        return bytes.frame(++number, timeNanos, (int) captured, (int) wire, linkType, 0, at + RECORD_HEADER_LENGTH);
    }

    /** The file's libpcap link type (low 16 bits of the header's link-type word). */
    public int linkType() {
        return linkType;
    }

    /** The file header's snapshot length, as written (not enforced on records). */
    public long snapLength() {
        return snapLength;
    }

    @Override
    public int timestampDigits(int interfaceId) {
        return nanosecond ? 9 : 6;
    }

    /** Whether the file counts nanoseconds (magic 0xA1B23C4D) rather than microseconds. */
    public boolean nanosecondResolution() {
        return nanosecond;
    }

    /** Byte order of the file's header fields. */
    public ByteOrder byteOrder() {
        return bytes.order;
    }
}
