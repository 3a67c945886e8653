package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes little-endian pcapng files: one section header, interface descriptions as they are added,
 * and an enhanced packet block per packet with nanosecond timestamps ({@code if_tsresol} = 9).
 *
 * <p>Interfaces may be added at any point; a packet may only name an interface added before it.
 * Packets longer than their interface's snap length are cut to it and keep their wire length.
 *
 * <p>Not thread-safe. {@link #close()} flushes and closes the underlying stream.
 */
public final class PcapngWriter implements Closeable, Flushable {

    private static final int SHB_HARDWARE = 2;
    private static final int SHB_OS = 3;
    private static final int SHB_USERAPPL = 4;
    private static final int IF_NAME = 2;
    private static final int IF_TSRESOL = 9;
    private static final int IF_FILTER = 11;
    private static final int IF_OS = 12;
    private static final int NANOSECONDS = 9;
    private static final int EPB_FIXED = 32;

    private final LittleEndianOutput out;
    /** Snap length of each interface added, by id; 0 means no limit. */
    private final List<Integer> snapLengths = new ArrayList<>();
    /** Nanoseconds per timestamp unit of each interface, by id. */
    private final List<Long> unitNanos = new ArrayList<>();

    /**
     * Writes the section header block.
     *
     * @param hardware        {@code shb_hardware}, or null to omit
     * @param os              {@code shb_os}, or null to omit
     * @param userApplication {@code shb_userappl}, or null to omit
     */
    public PcapngWriter(OutputStream out, String hardware, String os, String userApplication) throws IOException {
        this.out = new LittleEndianOutput(out);
        byte[] options = new Options()
                .string(SHB_HARDWARE, hardware)
                .string(SHB_OS, os)
                .string(SHB_USERAPPL, userApplication)
                .end();
        int length = 28 + options.length;
        this.out.i32(PcapngReader.SECTION_HEADER).i32(length)
                .i32(PcapngReader.BYTE_ORDER_MAGIC).u16(1).u16(0)
                .i64(-1)   // section length unknown: we stream, and readers never need it
                .endFields();
        this.out.bytes(options, 0, options.length);
        this.out.i32(length).endFields();
    }

    /** Creates (or replaces) {@code path} and writes the section header. */
    public static PcapngWriter create(Path path, String hardware, String os, String userApplication)
            throws IOException {
        OutputStream stream = Files.newOutputStream(path);
        try {
            return new PcapngWriter(stream, hardware, os, userApplication);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    /**
     * Writes an interface description block.
     *
     * @param snapLength maximum bytes kept per packet; 0 for no limit
     * @param name       {@code if_name}, or null to omit
     * @param filter     {@code if_filter} as a libpcap filter string, or null to omit
     * @param os         {@code if_os}, or null to omit
     * @return the interface id to pass to {@code write}
     */
    public int addInterface(int linkType, int snapLength, String name, String filter, String os) throws IOException {
        return addInterface(linkType, snapLength, name, filter, os, NANOSECONDS);
    }

    /**
     * Adds an interface whose timestamps count 10^-{@code digits} seconds ({@code if_tsresol} =
     * digits): a copy of a microsecond capture stays a microsecond capture, so readers show its times
     * to the same precision. Packet times are cut to that unit.
     *
     * @param digits 0..9
     */
    public int addInterface(int linkType, int snapLength, String name, String filter, String os, int digits)
            throws IOException {
        if (digits < 0 || digits > NANOSECONDS) {
            throw new IllegalArgumentException("timestamp digits must be 0..9: " + digits);
        }
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("link type must fit 16 bits: " + linkType);
        }
        if (snapLength < 0) {
            throw new IllegalArgumentException("negative snap length: " + snapLength);
        }
        byte[] options = new Options()
                .string(IF_NAME, name)
                .filter(filter)
                .string(IF_OS, os)
                .tsresol(digits)
                .end();
        int length = 20 + options.length;
        out.i32(PcapngReader.INTERFACE_DESCRIPTION).i32(length)
                .u16(linkType).u16(0).i32(snapLength)
                .endFields();
        out.bytes(options, 0, options.length);
        out.i32(length).endFields();
        snapLengths.add(snapLength);
        long unit = 1;
        for (int i = digits; i < NANOSECONDS; i++) {
            unit *= 10;
        }
        unitNanos.add(unit);
        return snapLengths.size() - 1;
    }

    /** Writes one packet: all of {@code data}, cut to the interface's snap length. */
    public void write(int interfaceId, long timeNanos, byte[] data, int wireLength) throws IOException {
        write(interfaceId, timeNanos, data, 0, data.length, wireLength);
    }

    /** Writes one packet from {@code data[offset, offset + length)}, cut to the interface's snap length. */
    public void write(int interfaceId, long timeNanos, byte[] data, int offset, int length, int wireLength)
            throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        int captured = blockHeader(interfaceId, timeNanos, length, wireLength);
        out.bytes(data, offset, captured);
        blockTrailer(captured);
    }

    /**
     * Writes one packet from {@code data}'s remaining bytes (position to limit), cut to the
     * interface's snap length. The buffer's position is not moved.
     */
    public void write(int interfaceId, long timeNanos, ByteBuffer data, int wireLength) throws IOException {
        int captured = blockHeader(interfaceId, timeNanos, data.remaining(), wireLength);
        out.bytes(data, data.position(), captured);
        blockTrailer(captured);
    }

    /** Writes a frame read from another capture on interface {@code interfaceId} of this file. */
    public void write(int interfaceId, Frame frame) throws IOException {
        int captured = blockHeader(interfaceId, frame.timeNanos(), frame.capturedLength(), frame.wireLength());
        out.bytes(frame.buffer(), frame.offset(), captured);
        blockTrailer(captured);
    }

    /** Writes the EPB's fixed fields; returns how many data bytes follow. */
    private int blockHeader(int interfaceId, long timeNanos, int length, int wireLength) throws IOException {
        if (interfaceId < 0 || interfaceId >= snapLengths.size()) {
            throw new IllegalArgumentException("interface " + interfaceId + " was not added; "
                    + snapLengths.size() + " interface(s) exist");
        }
        if (wireLength < 0) {
            throw new IllegalArgumentException("negative wire length: " + wireLength);
        }
        if (timeNanos < 0) {
            throw new IllegalArgumentException("timestamp before 1970: " + timeNanos + " ns");
        }
        int snap = snapLengths.get(interfaceId);
        int captured = snap == 0 ? length : Math.min(length, snap);
        if (captured > Limits.MAX_RECORD_LENGTH - EPB_FIXED) {
            // Readers, ours included, refuse such blocks as corrupt; better to refuse writing one.
            throw new IllegalArgumentException("packet too large for a pcapng block: " + captured + " bytes");
        }
        int blockLength = EPB_FIXED + captured + LittleEndianOutput.padding(captured);
        long units = timeNanos / unitNanos.get(interfaceId);
        out.i32(PcapngReader.ENHANCED_PACKET).i32(blockLength)
                .i32(interfaceId).i32((int) (units >>> 32)).i32((int) units)
                .i32(captured).i32(wireLength)
                .endFields();
        return captured;
    }

    private void blockTrailer(int captured) throws IOException {
        out.pad(captured);
        out.i32(EPB_FIXED + captured + LittleEndianOutput.padding(captured)).endFields();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /** An option list in little-endian pcapng form: code, length, value padded to 4, then opt_endofopt. */
    private static final class Options {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Options string(int code, String value) {
            return value == null ? this : option(code, value.getBytes(StandardCharsets.UTF_8));
        }

        Options filter(String expression) {
            if (expression == null) {
                return this;
            }
            byte[] text = expression.getBytes(StandardCharsets.UTF_8);
            byte[] value = new byte[text.length + 1];
            // Leading kind byte 0: the rest is a libpcap filter string (1 would be BPF code).
            System.arraycopy(text, 0, value, 1, text.length);
            return option(IF_FILTER, value);
        }

        Options tsresol(int exponent) {
            return option(IF_TSRESOL, new byte[]{(byte) exponent});
        }

        private Options option(int code, byte[] value) {
            if (value.length > 0xFFFF) {
                throw new IllegalArgumentException("option " + code + " longer than 65535 bytes");
            }
            bytes.write(code);
            bytes.write(code >>> 8);
            bytes.write(value.length);
            bytes.write(value.length >>> 8);
            bytes.write(value, 0, value.length);
            bytes.write(new byte[LittleEndianOutput.padding(value.length)], 0, LittleEndianOutput.padding(value.length));
            return this;
        }

        /** The list with its end marker, or nothing when no option was given (the end marker is then optional). */
        byte[] end() {
            if (bytes.size() > 0) {
                bytes.write(new byte[4], 0, 4);
            }
            return bytes.toByteArray();
        }
    }
}
