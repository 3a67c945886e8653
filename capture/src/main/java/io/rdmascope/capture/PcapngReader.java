package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads pcapng files (draft-tuexen-opsawg-pcapng). Obtain one through {@link CaptureFiles#open}.
 *
 * <p>A file is one or more sections; each section header (SHB) sets the byte order of the blocks
 * that follow and starts a fresh list of interfaces (IDBs). Packets come from enhanced (EPB),
 * simple (SPB) and obsolete packet blocks (PB); every other block type is skipped by its length.
 *
 * <p>Interface ids in frames are numbered across the whole file, in IDB order, as Wireshark's
 * {@code frame.interface_id} does: a packet's section-local id is offset by the number of
 * interfaces of earlier sections.
 *
 * <p>Pitfalls:
 * <ul>
 *   <li>An SPB has no timestamp (its frames carry time 0) and its captured length is implied:
 *       min(original length, snap length, room in the block). TShark 4.0 refuses an SPB holding
 *       fewer bytes than min(original length, snap length); we take what the block holds.</li>
 *   <li>TShark 4.0 lists custom blocks (0x00000BAD, 0x40000BAD) as frames without a time, so its
 *       frame count differs on files that have them; they carry no packet, so they are skipped here.</li>
 *   <li>TShark 4.0 reports section-local interface ids in later sections (and the wrong interface
 *       name); ids here are file-wide so that each one names exactly one IDB.</li>
 *   <li>The leading and trailing block lengths must agree; a file where they do not is treated as
 *       corrupt rather than guessed at.</li>
 * </ul>
 */
public final class PcapngReader extends CaptureFileReader {

    static final int SECTION_HEADER = 0x0A0D0D0A;
    static final int INTERFACE_DESCRIPTION = 0x00000001;
    static final int OBSOLETE_PACKET = 0x00000002;
    static final int SIMPLE_PACKET = 0x00000003;
    static final int ENHANCED_PACKET = 0x00000006;

    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    static final int BYTE_ORDER_MAGIC_SWAPPED = 0x4D3C2B1A;

    private static final int OPT_END = 0;
    private static final int IF_NAME = 2;
    private static final int IF_TSRESOL = 9;
    private static final int IF_FILTER = 11;
    private static final int IF_OS = 12;
    private static final int IF_TSOFFSET = 14;

    /**
     * One interface of the capture, as its IDB describes it.
     *
     * @param id               file-wide interface id (the {@link Frame#interfaceId()} of its frames)
     * @param section          0-based section the IDB belongs to
     * @param linkType         libpcap link type
     * @param snapLength       maximum captured bytes per packet; 0 means no limit
     * @param name             {@code if_name}, or null
     * @param filter           {@code if_filter} when given as a libpcap filter string, or null
     * @param os               {@code if_os}, or null
     * @param tsresol          raw {@code if_tsresol} byte (6 when absent: microseconds)
     * @param tsOffsetSeconds  {@code if_tsoffset}, seconds added to every timestamp (0 when absent)
     */
    public record CaptureInterface(int id, int section, int linkType, long snapLength, String name, String filter,
                                   String os, int tsresol, long tsOffsetSeconds) {
    }

    /** An interface with its timestamp conversion ready for the per-frame path. */
    private record Interface(CaptureInterface description, TimestampScale scale, long offsetNanos) {
    }

    private final List<Interface> interfaces = new ArrayList<>();
    private final List<CaptureInterface> descriptions = new ArrayList<>();

    /** Capture position of the next block. */
    private long pos;
    private int sections;
    /** File-wide id of the current section's first interface. */
    private int sectionFirstInterface;

    private PcapngReader(CaptureBytes bytes) {
        super(bytes);
    }

    /** Reads the first section header; the caller has seen the SHB type at position 0. */
    static PcapngReader open(CaptureBytes bytes) throws IOException {
        PcapngReader reader = new PcapngReader(bytes);
        reader.startSection(0);
        return reader;
    }

    @Override
    Frame read() throws IOException {
        while (true) {
            long at = pos;
            if (!bytes.ensure(at, 8)) {
                long left = bytes.remaining(at);
                if (left == 0) {
                    return null;
                }
                throw error(at, "truncated block header", "8 bytes needed, " + left + " remain");
            }
            int type = bytes.i32(at);
            if (type == SECTION_HEADER) {
                startSection(at);
                continue;
            }
            int length = checkedBlock(at, type);
            pos = at + length;
            switch (type) {
                case ENHANCED_PACKET:
                    return enhancedPacket(at, length);
                case SIMPLE_PACKET:
                    return simplePacket(at, length);
                case OBSOLETE_PACKET:
                    return obsoletePacket(at, length);
                case INTERFACE_DESCRIPTION:
                    interfaceDescription(at, length);
                    break;
                default:
                    // Statistics, name resolution, secrets, custom and future blocks carry no frames.
                    break;
            }
        }
    }

    /**
     * Validates the block at {@code at} (its 8-byte header already ensured) and makes all of it
     * addressable: length within bounds, a multiple of 4, present in full, trailer agreeing.
     */
    private int checkedBlock(long at, int type) throws IOException {
        long length = bytes.u32(at + 4);
        int minimum = minimumLength(type);
        if (length < minimum) {
            throw error(at, "block too short", String.format(
                    "block type 0x%08X says %d bytes, the minimum is %d", type, length, minimum));
        }
        if (length > Limits.MAX_RECORD_LENGTH) {
            throw error(at, "absurd block length", String.format(
                    "block type 0x%08X says %d bytes, the limit is %d", type, length, Limits.MAX_RECORD_LENGTH));
        }
        if ((length & 3) != 0) {
            throw error(at, "misaligned block length", "block says " + length + " bytes, not a multiple of 4");
        }
        if (!bytes.ensure(at, (int) length)) {
            throw error(at, "truncated block", "header says " + length + " bytes, " + bytes.remaining(at) + " remain");
        }
        long trailing = bytes.u32(at + length - 4);
        if (trailing != length) {
            throw error(at, "block lengths disagree", "leading length " + length + ", trailing length " + trailing);
        }
        return (int) length;
    }

    private static int minimumLength(int type) {
        return switch (type) {
            case SECTION_HEADER -> 28;
            case INTERFACE_DESCRIPTION -> 20;
            case ENHANCED_PACKET, OBSOLETE_PACKET -> 32;
            case SIMPLE_PACKET -> 16;
            default -> 12;
        };
    }

    private void startSection(long at) throws IOException {
        if (!bytes.ensure(at, 12)) {
            throw error(at, "truncated section header", "12 bytes needed, " + bytes.remaining(at) + " remain");
        }
        int magic = bytes.bigEndianI32(at + 8);
        if (magic == BYTE_ORDER_MAGIC) {
            bytes.order(ByteOrder.BIG_ENDIAN);
        } else if (magic == BYTE_ORDER_MAGIC_SWAPPED) {
            bytes.order(ByteOrder.LITTLE_ENDIAN);
        } else {
            throw error(at, "bad section header", String.format("byte-order magic 0x%08X", magic));
        }
        int length = checkedBlock(at, SECTION_HEADER);
        int major = bytes.u16(at + 12);
        if (major != 1) {
            throw error(at, "unsupported pcapng version", major + "." + bytes.u16(at + 14));
        }
        sections++;
        sectionFirstInterface = interfaces.size();
        pos = at + length;
    }

    private void interfaceDescription(long at, int length) throws IOException {
        int linkType = bytes.u16(at + 8);
        long snapLength = bytes.u32(at + 12);
        String name = null;
        String filter = null;
        String os = null;
        int tsresol = 6;
        long tsOffset = 0;
        long end = at + length - 4;
        long option = at + 16;
        while (option + 4 <= end) {
            int code = bytes.u16(option);
            int optionLength = bytes.u16(option + 2);
            if (code == OPT_END) {
                break;
            }
            long value = option + 4;
            if (value + optionLength > end) {
                throw error(at, "interface option overruns its block",
                        "option " + code + " says " + optionLength + " bytes, " + (end - value) + " remain");
            }
            switch (code) {
                case IF_NAME -> name = string(value, optionLength);
                case IF_OS -> os = string(value, optionLength);
                case IF_FILTER -> {
                    // First byte says the filter's kind; 0 is a libpcap filter string, 1 BPF code we do not show.
                    if (optionLength >= 1 && bytes.u8(value) == 0) {
                        filter = string(value + 1, optionLength - 1);
                    }
                }
                case IF_TSRESOL -> {
                    if (optionLength != 1) {
                        throw error(at, "bad if_tsresol option", optionLength + " bytes instead of 1");
                    }
                    tsresol = bytes.u8(value);
                }
                case IF_TSOFFSET -> {
                    if (optionLength != 8) {
                        throw error(at, "bad if_tsoffset option", optionLength + " bytes instead of 8");
                    }
                    tsOffset = bytes.i64(value);
                }
                default -> {
                    // Descriptions, addresses, speed and the like do not affect reading.
                }
            }
            option = value + ((optionLength + 3) & ~3);
        }
        TimestampScale scale = TimestampScale.of(tsresol);
        if (scale == null) {
            throw error(at, "unsupported if_tsresol", String.format("0x%02X is finer than this reader represents",
                    tsresol));
        }
        CaptureInterface description = new CaptureInterface(interfaces.size(), sections - 1, linkType, snapLength,
                name, filter, os, tsresol, tsOffset);
        interfaces.add(new Interface(description, scale, tsOffset * 1_000_000_000L));
        descriptions.add(description);
    }

    /** Option strings are UTF-8; some writers add a terminating NUL, which is not part of the value. */
    private String string(long at, int length) {
        int end = length;
        while (end > 0 && bytes.u8(at + end - 1) == 0) {
            end--;
        }
        return new String(bytes.copy(at, end), StandardCharsets.UTF_8);
    }

    private Frame enhancedPacket(long at, int length) throws IOException {
        Interface iface = sectionInterface(at, bytes.u32(at + 8));
        long units = bytes.u32(at + 12) << 32 | bytes.u32(at + 16);
        return packet(at, length, iface, units, bytes.u32(at + 20), bytes.u32(at + 24));
    }

    private Frame obsoletePacket(long at, int length) throws IOException {
        Interface iface = sectionInterface(at, bytes.u16(at + 8));
        long units = bytes.u32(at + 12) << 32 | bytes.u32(at + 16);
        return packet(at, length, iface, units, bytes.u32(at + 20), bytes.u32(at + 24));
    }

    /** EPB and PB share the layout after the interface id: timestamp, lengths, data at +28. */
    private Frame packet(long at, int length, Interface iface, long units, long captured, long wire)
            throws IOException {
        long room = length - 32L;
        if (captured > room) {
            throw error(at, "packet overruns its block", "captured length " + captured + ", room for " + room);
        }
        if (wire > Integer.MAX_VALUE) {
            throw error(at, "absurd wire length", "block says " + wire + " bytes");
        }
        CaptureInterface d = iface.description;
        long timeNanos = iface.scale.toNanos(units) + iface.offsetNanos;
        return bytes.frame(++number, timeNanos, (int) captured, (int) wire, d.linkType(), d.id(), at + 28);
    }

    private Frame simplePacket(long at, int length) throws IOException {
        Interface iface = sectionInterface(at, 0);
        long wire = bytes.u32(at + 8);
        if (wire > Integer.MAX_VALUE) {
            throw error(at, "absurd wire length", "block says " + wire + " bytes");
        }
        long captured = Math.min(wire, length - 16L);
        long snap = iface.description.snapLength();
        if (snap != 0) {
            captured = Math.min(captured, snap);
        }
        CaptureInterface d = iface.description;
        return bytes.frame(++number, 0, (int) captured, (int) wire, d.linkType(), d.id(), at + 12);
    }

    private Interface sectionInterface(long at, long localId) throws IOException {
        int declared = interfaces.size() - sectionFirstInterface;
        if (localId >= declared) {
            throw error(at, "packet for an undeclared interface",
                    "interface id " + localId + ", the section declares " + declared);
        }
        return interfaces.get(sectionFirstInterface + (int) localId);
    }

    private CaptureFormatException error(long at, String problem, String detail) {
        // The file's first section header is file header, not part of any frame.
        return bytes.error(at, at == 0 ? 0 : number + 1, problem, detail);
    }

    /** The interface's if_tsresol as the digits Wireshark shows ({@link TimestampScale#digits}). */
    @Override
    public int timestampDigits(int interfaceId) {
        return interfaceId >= 0 && interfaceId < descriptions.size()
                ? TimestampScale.digits(descriptions.get(interfaceId).tsresol()) : 6;
    }

    /** Interfaces described so far (file-wide ids); grows as reading reaches later IDBs. */
    public List<CaptureInterface> interfaces() {
        return Collections.unmodifiableList(descriptions);
    }

    /** Sections started so far. */
    public int sections() {
        return sections;
    }
}
