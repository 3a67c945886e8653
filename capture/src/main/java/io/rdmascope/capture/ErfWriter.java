package io.rdmascope.capture;

import io.rdmascope.proto.erf.Erf;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes Endace ERF files: one record per packet, no file header (see {@link ErfReader} for the
 * layout). Records are of type {@link Erf#TYPE_ETH} (a 2-byte pad, offset 0 and pad 0, before the
 * frame, as ERF requires), {@link Erf#TYPE_INFINIBAND} or {@link Erf#TYPE_INFINIBAND_LINK} (the
 * packet right after the header); flags say interface 0 and varying-length records; the loss
 * counter is 0; {@code rlen} is padded with zeros to a multiple of 8.
 *
 * <p>A record holds at most 65535 bytes ({@code rlen} is 16 bits), so packets longer than what fits
 * are cut, as a capture card would, and keep their wire length. Timestamps must fit the format:
 * seconds since 1970 as an unsigned 32-bit value (until 2106); the nanoseconds become the nearest
 * 2^-32 s, which reads back as the same nanosecond.
 *
 * <p>Not thread-safe. {@link #close()} flushes and closes the underlying stream.
 */
public final class ErfWriter implements Closeable, Flushable {

    /** Largest {@code rlen} that is a multiple of 8. */
    static final int MAX_RECORD_LENGTH = 0xFFF8;

    private static final long MAX_SECONDS = 0xFFFF_FFFFL;
    private static final int HEADER_AND_PAD = ErfReader.HEADER_LENGTH + ErfReader.ETH_PAD_LENGTH;

    private final LittleEndianOutput out;
    /** The record header, assembled here: ERF mixes a little-endian timestamp with big-endian lengths. */
    private final byte[] header = new byte[HEADER_AND_PAD];
    private final byte[] padding = new byte[8];

    public ErfWriter(OutputStream out) {
        this.out = new LittleEndianOutput(out);
    }

    /** Creates (or replaces) {@code path}; an ERF file has no header, so nothing is written yet. */
    public static ErfWriter create(Path path) throws IOException {
        return new ErfWriter(Files.newOutputStream(path));
    }

    /**
     * Writes one record holding all of {@code payload}.
     *
     * @param erfType    {@link Erf#TYPE_ETH}, {@link Erf#TYPE_INFINIBAND} or {@link Erf#TYPE_INFINIBAND_LINK}
     * @param payload    the packet: an Ethernet frame (with its FCS if the wire length counts it) or
     *                   InfiniBand from the LRH
     * @param wireLength the packet's length on the wire, the record's {@code wlen} (0 .. 65535)
     */
    public void write(long timeNanos, int erfType, byte[] payload, int wireLength) throws IOException {
        write(timeNanos, erfType, payload, 0, payload.length, wireLength);
    }

    /** Writes one record holding {@code data[offset, offset + length)}. */
    public void write(long timeNanos, int erfType, byte[] data, int offset, int length, int wireLength)
            throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        int before = switch (erfType) {
            case Erf.TYPE_ETH -> HEADER_AND_PAD;
            case Erf.TYPE_INFINIBAND, Erf.TYPE_INFINIBAND_LINK -> ErfReader.HEADER_LENGTH;
            default -> throw new IllegalArgumentException(
                    "ERF type " + erfType + " is not one this writer makes (ETH 2, INFINIBAND 21, INFINIBAND_LINK 25)");
        };
        if (wireLength < 0 || wireLength > 0xFFFF) {
            throw new IllegalArgumentException("wire length must fit 16 bits: " + wireLength);
        }
        if (before == ErfReader.HEADER_LENGTH && length == 0) {
            // Wireshark refuses a bare 16-byte record as a "0 byte packet"; so does ErfReader.
            throw new IllegalArgumentException("an ERF " + erfType + " record needs at least one byte of packet");
        }
        long seconds = timeNanos / 1_000_000_000L;
        if (timeNanos < 0 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("timestamp outside ERF's range (1970 .. 2106): " + timeNanos + " ns");
        }
        long nanos = timeNanos % 1_000_000_000L;
        // The nearest 2^-32 s; below 2^32 for every nanosecond count under 10^9, so no carry.
        long fraction = ((nanos << 32) + 500_000_000L) / 1_000_000_000L;
        long timestamp = seconds << 32 | fraction;

        int captured = Math.min(length, MAX_RECORD_LENGTH - before);
        int rlen = (before + captured + 7) & ~7;
        for (int i = 0; i < 8; i++) {
            header[i] = (byte) (timestamp >>> (8 * i));
        }
        header[8] = (byte) erfType;
        header[9] = (byte) ErfReader.FLAGS_VLEN;   // interface 0, varying-length record
        header[10] = (byte) (rlen >>> 8);
        header[11] = (byte) rlen;
        header[12] = 0;   // loss counter
        header[13] = 0;
        header[14] = (byte) (wireLength >>> 8);
        header[15] = (byte) wireLength;
        header[16] = 0;   // Ethernet pad: offset 0, pad 0 (written only for ETH)
        header[17] = 0;
        out.bytes(header, 0, before);
        out.bytes(data, offset, captured);
        out.bytes(padding, 0, rlen - before - captured);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
