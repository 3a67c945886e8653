package io.rdmascope.proto.erf;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.InfiniBandDissector;

/**
 * Endace ERF records (pcap linktype 197; ibdump writes native InfiniBand this way). Layout from
 * Wireshark's {@code wiretap/erf_record.h}, wire-formats.md section 8: a 16-byte header whose
 * timestamp is little-endian, optional 8-byte extension headers, then the record's payload.
 */
public final class Erf {
    public static final int TYPE_ETH = 2;
    public static final int TYPE_INFINIBAND = 21;
    public static final int TYPE_INFINIBAND_LINK = 25;

    public static final Protocol PROTOCOL = new Protocol("erf", "Extensible Record Format");
    public static final Field TS = Field.uint64("erf.ts", "Timestamp", 0).hex().littleEndian();
    public static final Field TYPES = Field.uint8("erf.types", "Record type", 8).hex();
    public static final Field TYPE = Field.uint8("erf.types.type", "Type", 8).mask(0x7F)
            .names(ValueNames.of(TYPE_ETH, "ETH", 21, "INFINIBAND", 22, "IPV4", 23, "IPV6", 24, "RAW_LINK",
                    TYPE_INFINIBAND_LINK, "INFINIBAND_LINK", 27, "META", 48, "PAD"));
    public static final Field EXT_HEADER = Field.uint8("erf.types.ext_header", "Extension header present", 8)
            .mask(0x80);
    public static final Field FLAGS = Field.uint8("erf.flags", "Flags", 9).hex();
    public static final Field FLAGS_CAP = Field.uint8("erf.flags.cap", "Capture interface", 9).mask(0x03);
    public static final Field FLAGS_VLEN = Field.uint8("erf.flags.vlen", "Varying record length", 9).mask(0x04);
    public static final Field FLAGS_TRUNC = Field.uint8("erf.flags.trunc", "Truncated", 9).mask(0x08);
    public static final Field FLAGS_RXE = Field.uint8("erf.flags.rxe", "RX error", 9).mask(0x10);
    public static final Field FLAGS_DSE = Field.uint8("erf.flags.dse", "DS error", 9).mask(0x20);
    public static final Field RLEN = Field.uint16("erf.rlen", "Record length", 10);
    public static final Field LCTR = Field.uint16("erf.lctr", "Loss counter", 12);
    public static final Field WLEN = Field.uint16("erf.wlen", "Wire length", 14);
    public static final HeaderType HEADER = HeaderType.protocolHeader(PROTOCOL, TS, TYPES, TYPE, EXT_HEADER, FLAGS,
            FLAGS_CAP, FLAGS_VLEN, FLAGS_TRUNC, FLAGS_RXE, FLAGS_DSE, RLEN, LCTR, WLEN);

    public static final Field ETH_OFF = Field.uint8("erf.eth.off", "Offset", 0);
    public static final Field ETH_PAD = Field.uint8("erf.eth.pad", "Padding", 1).hex();
    public static final HeaderType ETH_HEADER = HeaderType.group(PROTOCOL, "erf.eth", "Ethernet pad", ETH_OFF,
            ETH_PAD);

    /** Bound on chained extension headers: each is 8 bytes and a record is at most 64 KiB anyway. */
    private static final int MAX_EXTENSION_HEADERS = 16;

    private Erf() {
    }

    /**
     * What TShark shows as {@code frame.time} for {@code frame}: for an ERF record (link type 197),
     * the ERF header's timestamp — whether the record came from an ERF file or from a pcap/pcapng
     * record, whose own timestamp TShark 4.0 ignores (checked by hand); otherwise the record's time.
     */
    public static long shownTimeNanos(io.rdmascope.frame.Frame frame) {
        if (frame.linkType() != io.rdmascope.frame.LinkTypes.ERF || frame.capturedLength() < 16) {
            return frame.timeNanos();
        }
        long ts = 0;
        for (int i = 7; i >= 0; i--) {
            ts = ts << 8 | (frame.get(i) & 0xFF); // little-endian
        }
        long fraction = ts & 0xFFFF_FFFFL;
        return (ts >>> 32) * 1_000_000_000L + ((fraction * 1_000_000_000L + 0x8000_0000L) >>> 32);
    }

    /** TShark's {@code frame.len}: an ERF record's {@code wlen}, else the record's wire length. */
    public static int shownWireLength(io.rdmascope.frame.Frame frame) {
        if (frame.linkType() != io.rdmascope.frame.LinkTypes.ERF || frame.capturedLength() < 16) {
            return frame.wireLength();
        }
        return (frame.get(14) & 0xFF) << 8 | frame.get(15) & 0xFF;
    }

    /** TShark's {@code frame.cap_len}: an ERF record's packet bytes, else the record's captured length. */
    public static int shownCapturedLength(io.rdmascope.frame.Frame frame) {
        if (frame.linkType() != io.rdmascope.frame.LinkTypes.ERF) {
            return frame.capturedLength();
        }
        return packetCapturedLength(frame, shownWireLength(frame));
    }

    /** ERF types whose packet follows a 2-byte pad (offset, pad) after the headers. */
    public static boolean isEthernetType(int type) {
        return type == TYPE_ETH || type == 11 || type == 16 || type == 20; // ETH, COLOR_ETH, DSM_COLOR_ETH, COLOR_HASH_ETH
    }

    /**
     * TShark's {@code frame.cap_len} for an ERF record (link type 197, from an ERF file or a
     * pcap/pcapng record): the packet bytes after the 16-byte header, the extension headers and the
     * Ethernet pad, at most {@code wlen} (Wireshark's wiretap takes the ERF header as a
     * pseudo-header). {@code frame} holds the whole record; {@code wlen} is its wire length.
     */
    public static int packetCapturedLength(io.rdmascope.frame.Frame frame, int wlen) {
        int captured = frame.capturedLength();
        if (captured < 16) {
            return captured;
        }
        int typeByte = frame.get(8) & 0xFF;
        int headers = 16;
        for (boolean more = (typeByte & 0x80) != 0; more && headers + 8 <= captured; headers += 8) {
            more = (frame.get(headers) & 0x80) != 0;
        }
        if (isEthernetType(typeByte & 0x7F)) {
            headers += 2;
        }
        return Math.max(0, Math.min(wlen, captured - headers));
    }

    public static void dissect(DissectorChain chain, Dissection d, int offset, int end) {
        int layer = d.add(HEADER, offset, 16);
        if (layer < 0) {
            return;
        }
        int type = d.u8(offset + 8);
        int wireLength = d.u16(offset + 14);
        int at = offset + 16;
        boolean more = (type & 0x80) != 0;
        for (int n = 0; more; n++) {
            if (n == MAX_EXTENSION_HEADERS || at + 8 > d.capturedLength()) {
                d.markMalformed();
                return;
            }
            more = (d.u8(at) & 0x80) != 0;
            at += 8;
        }
        d.setLength(layer, at - offset);
        switch (type & 0x7F) {
            case TYPE_ETH -> {
                if (d.add(ETH_HEADER, at, 2) < 0) {
                    return;
                }
                int frameStart = at + 2;
                Ethernet.dissect(chain, d, frameStart, Math.min(end, frameStart + wireLength), true);
            }
            case TYPE_INFINIBAND, TYPE_INFINIBAND_LINK ->
                    InfiniBandDissector.nativeIb(chain, d, at, Math.min(end, at + wireLength));
            default -> Data.dissect(chain, d, at, end);
        }
    }
}
