package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes classic little-endian pcap files, with microsecond or nanosecond timestamps.
 *
 * <p>Packets longer than the snap length are cut to it, as a capture tool would, and keep their
 * wire length. Timestamps must fit the format: seconds since 1970 as an unsigned 32-bit value
 * (until 2106).
 *
 * <p>Not thread-safe. {@link #close()} flushes and closes the underlying stream.
 */
public final class PcapWriter implements Closeable, Flushable {

    /** tcpdump's default snap length, large enough for any real frame. */
    public static final int DEFAULT_SNAPLEN = 262_144;

    private static final long MAX_SECONDS = 0xFFFF_FFFFL;

    private final LittleEndianOutput out;
    private final boolean nanosecond;
    private final int snapLength;

    /**
     * Writes the file header.
     *
     * @param linkType   libpcap link type of every packet
     * @param snapLength maximum bytes kept per packet, at least 1
     * @param nanosecond nanosecond timestamps (magic 0xA1B23C4D) rather than microseconds (0xA1B2C3D4)
     */
    public PcapWriter(OutputStream out, int linkType, int snapLength, boolean nanosecond) throws IOException {
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("link type must fit 16 bits: " + linkType);
        }
        if (snapLength < 1) {
            throw new IllegalArgumentException("snap length must be positive: " + snapLength);
        }
        this.out = new LittleEndianOutput(out);
        this.nanosecond = nanosecond;
        this.snapLength = snapLength;
        this.out.i32(nanosecond ? PcapReader.MAGIC_NANOS : PcapReader.MAGIC_MICROS)
                .u16(2).u16(4)   // format version 2.4, the only one in use
                .i32(0).i32(0)   // thiszone and sigfigs: always zero in practice
                .i32(snapLength).i32(linkType)
                .endFields();
    }

    /** Creates (or replaces) {@code path} and writes the file header. */
    public static PcapWriter create(Path path, int linkType, int snapLength, boolean nanosecond) throws IOException {
        OutputStream stream = Files.newOutputStream(path);
        try {
            return new PcapWriter(stream, linkType, snapLength, nanosecond);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    /** Writes one packet: all of {@code data}, cut to the snap length. */
    public void write(long timeNanos, byte[] data, int wireLength) throws IOException {
        write(timeNanos, data, 0, data.length, wireLength);
    }

    /** Writes one packet from {@code data[offset, offset + length)}, cut to the snap length. */
    public void write(long timeNanos, byte[] data, int offset, int length, int wireLength) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        int captured = recordHeader(timeNanos, length, wireLength);
        out.bytes(data, offset, captured);
    }

    /**
     * Writes one packet from {@code data}'s remaining bytes (position to limit), cut to the snap
     * length. The buffer's position is not moved.
     */
    public void write(long timeNanos, ByteBuffer data, int wireLength) throws IOException {
        int captured = recordHeader(timeNanos, data.remaining(), wireLength);
        out.bytes(data, data.position(), captured);
    }

    /** Writes a frame read from another capture: its time, captured bytes and wire length. */
    public void write(Frame frame) throws IOException {
        int captured = recordHeader(frame.timeNanos(), frame.capturedLength(), frame.wireLength());
        out.bytes(frame.buffer(), frame.offset(), captured);
    }

    /** Writes the 16-byte record header; returns how many data bytes follow. */
    private int recordHeader(long timeNanos, int length, int wireLength) throws IOException {
        if (wireLength < 0) {
            throw new IllegalArgumentException("negative wire length: " + wireLength);
        }
        long seconds = timeNanos / 1_000_000_000L;
        if (timeNanos < 0 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("timestamp outside pcap's range (1970 .. 2106): " + timeNanos + " ns");
        }
        int nanos = (int) (timeNanos % 1_000_000_000L);
        int captured = Math.min(length, snapLength);
        out.i32((int) seconds).i32(nanosecond ? nanos : nanos / 1_000)
                .i32(captured).i32(wireLength)
                .endFields();
        return captured;
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
