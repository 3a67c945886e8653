package io.rdmascope.capture;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Hand-assembles capture files byte by byte, in either byte order, including layouts our writers
 * never produce (big-endian, SPB, obsolete PB, odd options), so the readers are tested against the
 * format rather than against our own writers.
 */
final class CaptureBuilder {

    /** A record or block of the file being built: where it lies and whether it holds a frame. */
    record Piece(int start, int end, boolean frame) {
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final List<Piece> pieces = new ArrayList<>();
    private ByteOrder order;

    private CaptureBuilder(ByteOrder order) {
        this.order = order;
    }

    /** A classic pcap file header. */
    static CaptureBuilder pcap(int magic, ByteOrder order, int linkTypeWord, int snapLength) {
        CaptureBuilder b = new CaptureBuilder(order);
        b.put(ByteBuffer.allocate(24).order(order)
                .putInt(magic).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(snapLength).putInt(linkTypeWord));
        return b;
    }

    /** A pcapng file, empty until the first {@link #section}. */
    static CaptureBuilder pcapng() {
        return new CaptureBuilder(ByteOrder.LITTLE_ENDIAN);
    }

    /** An ERF file: records only, no file header. */
    static CaptureBuilder erf() {
        return new CaptureBuilder(ByteOrder.BIG_ENDIAN);
    }

    /**
     * An ERF record: the 16-byte header (timestamp little-endian, lengths big-endian), then
     * {@code afterHeader} (extension headers, Ethernet pad, packet) and zeros up to {@code rlen}. When
     * {@code rlen} is smaller than that, the bytes are written anyway: a deliberately broken record.
     * Any type but PAD (exactly 48) counts as a frame.
     */
    CaptureBuilder erfRecord(long timestamp, int typeByte, int flags, int rlen, int wlen, byte[] afterHeader) {
        int start = out.size();
        put(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(timestamp)
                .put((byte) typeByte).put((byte) flags)
                .order(ByteOrder.BIG_ENDIAN).putShort((short) rlen).putShort((short) 0).putShort((short) wlen));
        out.writeBytes(afterHeader);
        out.writeBytes(new byte[Math.max(0, rlen - 16 - afterHeader.length)]);
        pieces.add(new Piece(start, out.size(), typeByte != 48));
        return this;
    }

    /** A varying-length ERF record (flags: interface 0, vlen), padded to 8 bytes as our writer does. */
    CaptureBuilder erfPacket(long seconds, long fraction, int typeByte, byte[] afterHeader, int wlen) {
        int rlen = (16 + afterHeader.length + 7) & ~7;
        return erfRecord(seconds << 32 | fraction, typeByte, 0x04, rlen, wlen, afterHeader);
    }

    /** One ERF extension header: type (top bit: another follows) and 7 bytes of value. */
    static byte[] erfExtension(int typeByte, long value) {
        return ByteBuffer.allocate(8).putLong((long) typeByte << 56 | value & 0x00FF_FFFF_FFFF_FFFFL).array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }

    /** A pcap record: the header's fraction field is written as given (µs or ns per the magic). */
    CaptureBuilder record(long seconds, long fraction, byte[] data, int wireLength) {
        int start = out.size();
        put(ByteBuffer.allocate(16).order(order)
                .putInt((int) seconds).putInt((int) fraction).putInt(data.length).putInt(wireLength));
        out.writeBytes(data);
        pieces.add(new Piece(start, out.size(), true));
        return this;
    }

    /** A pcap record header claiming {@code capturedLength} bytes, with no data after it. */
    CaptureBuilder recordHeaderOnly(long capturedLength, long wireLength) {
        put(ByteBuffer.allocate(16).order(order)
                .putInt(1).putInt(0).putInt((int) capturedLength).putInt((int) wireLength));
        return this;
    }

    /** A section header block; later blocks use {@code sectionOrder}. */
    CaptureBuilder section(ByteOrder sectionOrder) {
        order = sectionOrder;
        ByteBuffer body = ByteBuffer.allocate(16).order(order)
                .putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1);
        return block(0x0A0D0D0A, body.array());
    }

    /** An interface description block with the given options already encoded by {@link #option}s. */
    CaptureBuilder interfaceBlock(int linkType, int snapLength, byte[]... options) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(ByteBuffer.allocate(8).order(order)
                .putShort((short) linkType).putShort((short) 0).putInt(snapLength).array());
        for (byte[] option : options) {
            body.writeBytes(option);
        }
        if (options.length > 0) {
            body.writeBytes(new byte[4]);
        }
        return block(1, body.toByteArray());
    }

    /** One option, code/length/value padded, in the current section's order. */
    byte[] option(int code, byte[] value) {
        ByteBuffer b = ByteBuffer.allocate(4 + padded(value.length)).order(order)
                .putShort((short) code).putShort((short) value.length).put(value);
        return b.array();
    }

    byte[] stringOption(int code, String value) {
        return option(code, value.getBytes(StandardCharsets.UTF_8));
    }

    byte[] tsresol(int value) {
        return option(9, new byte[]{(byte) value});
    }

    byte[] tsoffset(long seconds) {
        return option(14, ByteBuffer.allocate(8).order(order).putLong(seconds).array());
    }

    CaptureBuilder enhancedPacket(int interfaceId, long units, byte[] data, int wireLength) {
        ByteBuffer body = ByteBuffer.allocate(20 + padded(data.length)).order(order)
                .putInt(interfaceId).putInt((int) (units >>> 32)).putInt((int) units)
                .putInt(data.length).putInt(wireLength).put(data);
        return block(6, body.array());
    }

    CaptureBuilder simplePacket(int wireLength, byte[] data) {
        ByteBuffer body = ByteBuffer.allocate(4 + padded(data.length)).order(order)
                .putInt(wireLength).put(data);
        return block(3, body.array());
    }

    CaptureBuilder obsoletePacket(int interfaceId, long units, byte[] data, int wireLength) {
        ByteBuffer body = ByteBuffer.allocate(20 + padded(data.length)).order(order)
                .putShort((short) interfaceId).putShort((short) 0).putInt((int) (units >>> 32)).putInt((int) units)
                .putInt(data.length).putInt(wireLength).put(data);
        return block(2, body.array());
    }

    /** Any block: type, total length, body (padded), total length again. */
    CaptureBuilder block(int type, byte[] body) {
        int length = 12 + padded(body.length);
        int start = out.size();
        put(ByteBuffer.allocate(length).order(order)
                .putInt(type).putInt(length).put(body).position(length - 4).putInt(length));
        pieces.add(new Piece(start, out.size(), type == 2 || type == 3 || type == 6));
        return this;
    }

    /** Raw bytes, for deliberately broken layouts. */
    CaptureBuilder raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    /** Four bytes in the current order. */
    CaptureBuilder int32(int value) {
        put(ByteBuffer.allocate(4).order(order).putInt(value));
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    /**
     * Records or blocks written so far through {@link #record}, {@link #block} and
     * {@link #erfRecord}, in file order.
     */
    List<Piece> pieces() {
        return List.copyOf(pieces);
    }

    static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(compressed)) {
            gz.write(plain);
        }
        return compressed.toByteArray();
    }

    /** Deterministic packet bytes: {@code length} bytes counting up from {@code seed}. */
    static byte[] payload(int seed, int length) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (seed + i);
        }
        return data;
    }

    private static int padded(int length) {
        return (length + 3) & ~3;
    }

    private void put(ByteBuffer filled) {
        out.writeBytes(filled.array());
    }
}
