package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * MPA, Marker PDU Aligned framing (RFC 5044, RFC 6581): the Request and Reply frames that start an
 * iWARP connection, FPDUs (ULPDU length, ULPDU, pad, CRC32c) and markers. Names as Wireshark 4.0's
 * {@code packet-iwarp-mpa.c}; {@code iwarp_mpa.crc.computed}, {@code iwarp_mpa.crc.status},
 * {@code iwarp_mpa.v2.*} (RFC 6581 IRD/ORD) and {@code iwarp_mpa.marker} are ours.
 *
 * <p>An FPDU layer holds the FPDU without its markers (what the CRC and the DDP header read), so it
 * may lie in the reassembled bytes past the frame ({@link Dissection#addReassembled}); its CRC sits
 * at the end, after a ULPDU of any length, so the CRC fields are computed from the layer's end, and
 * the pad is a small layer of its own. Each marker is a layer of its own: {@code iwarp_mpa.markers} for an FPDU's first (Wireshark's
 * one "Markers" node per FPDU), {@code iwarp_mpa.marker} for the next ones.
 */
public final class Mpa {
    public static final Protocol PROTOCOL = new Protocol("iwarp_mpa",
            "iWARP Marker Protocol data unit Aligned framing");

    /** Length of a Request/Reply frame before its private data (RFC 5044 §7.1). */
    public static final int REQ_REP_LENGTH = 20;
    /** Largest private data RFC 5044 §7.1 allows. */
    public static final int MAX_PRIVATE_DATA = 512;
    /** Markers sit every 512 octets of the stream (RFC 5044 §5). */
    public static final int MARKER_INTERVAL = 512;
    public static final int MARKER_LENGTH = 4;
    public static final int CRC_LENGTH = 4;
    public static final int ULPDU_LENGTH_LENGTH = 2;

    public static final byte[] KEY_REQUEST = "MPA ID Req Frame".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    public static final byte[] KEY_REPLY = "MPA ID Rep Frame".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    public static final int FLAG_MARKERS = 0x80;
    public static final int FLAG_CRC = 0x40;
    public static final int FLAG_REJECT = 0x20;

    // ---- Request and Reply frames (RFC 5044 §7.1; RFC 6581 §4) ----
    public static final Field KEY_REQ = Field.bytes("iwarp_mpa.key.req", "ID Req frame", 0, 16);
    public static final Field KEY_REP = Field.bytes("iwarp_mpa.key.rep", "ID Rep frame", 0, 16);
    public static final Field MARKER_FLAG = Field.bool("iwarp_mpa.marker_flag", "Marker flag", 16, 1, FLAG_MARKERS);
    public static final Field CRC_FLAG = Field.bool("iwarp_mpa.crc_flag", "CRC flag", 16, 1, FLAG_CRC);
    public static final Field REJ_FLAG = Field.bool("iwarp_mpa.rej_flag", "Connection rejected flag", 16, 1,
            FLAG_REJECT);
    public static final Field RES = Field.uint8("iwarp_mpa.res", "Reserved", 16).mask(0x1F).hex();
    public static final Field REV = Field.uint8("iwarp_mpa.rev", "Revision", 17);
    /** Wireshark stops at a private data length over 512 (and shows iwarp_mpa.bad_length instead). */
    public static final Field PD_LENGTH = Field.uint16("iwarp_mpa.pdlength", "Private data length", 18)
            .unit("bytes").presentWhen((d, l) -> pdLength(d, l) <= MAX_PRIVATE_DATA);
    public static final Field PRIVATE_DATA = Field.restOfHeader("iwarp_mpa.privatedata", "Private data", 20)
            .presentWhen((d, l) -> pdLength(d, l) > 0 && pdLength(d, l) <= MAX_PRIVATE_DATA);
    /** RFC 6581 §5: a revision-2 frame starts its private data with IRD and ORD. */
    private static final Field.Presence V2 = (d, l) -> d.u8(d.layerStart(l) + 17) == 2 && pdLength(d, l) >= 4
            && pdLength(d, l) <= MAX_PRIVATE_DATA;
    public static final Field V2_PEER_TO_PEER = Field.bool("iwarp_mpa.v2.p2p", "Peer-to-peer (RTR) requested",
            20, 2, 0x8000).presentWhen(V2);
    public static final Field V2_ZERO_LENGTH_RTR = Field.bool("iwarp_mpa.v2.zero_rtr", "Zero-length RTR", 20, 2,
            0x4000).presentWhen(V2);
    public static final Field V2_IRD = Field.uint16("iwarp_mpa.v2.ird", "Inbound RDMA Read Queue Depth", 20)
            .mask(0x3FFF).presentWhen(V2);
    public static final Field V2_WRITE_RTR = Field.bool("iwarp_mpa.v2.write_rtr", "RDMA Write RTR", 22, 2, 0x8000)
            .presentWhen(V2);
    public static final Field V2_READ_RTR = Field.bool("iwarp_mpa.v2.read_rtr", "RDMA Read RTR", 22, 2, 0x4000)
            .presentWhen(V2);
    public static final Field V2_ORD = Field.uint16("iwarp_mpa.v2.ord", "Outbound RDMA Read Queue Depth", 22)
            .mask(0x3FFF).presentWhen(V2);
    // Wireshark's expert items res.not_set0, rev.not_set1 and reject_bit_responder hang on no tree
    // item, so tshark -e never prints them; the replay reports those conditions (mpa_invalid_startup,
    // mpa_reject). bad_length is a tree item, and printed.
    public static final Field BAD_LENGTH = Field.computed("iwarp_mpa.bad_length", "Bad length", FieldType.NONE,
            Base.NONE, present((d, l) -> d.layerLength(l) >= REQ_REP_LENGTH && pdLength(d, l) > MAX_PRIVATE_DATA));

    public static final HeaderType REQUEST = HeaderType.group(PROTOCOL, "iwarp_mpa.req", "Request frame header",
            KEY_REQ, MARKER_FLAG, CRC_FLAG, REJ_FLAG, RES, REV, PD_LENGTH, PRIVATE_DATA, V2_PEER_TO_PEER,
            V2_ZERO_LENGTH_RTR, V2_IRD, V2_WRITE_RTR, V2_READ_RTR, V2_ORD, BAD_LENGTH);
    public static final HeaderType REPLY = HeaderType.group(PROTOCOL, "iwarp_mpa.rep", "Reply frame header",
            KEY_REP, MARKER_FLAG, CRC_FLAG, REJ_FLAG, RES, REV, PD_LENGTH, PRIVATE_DATA, V2_PEER_TO_PEER,
            V2_ZERO_LENGTH_RTR, V2_IRD, V2_WRITE_RTR, V2_READ_RTR, V2_ORD, BAD_LENGTH);

    // ---- FPDU (RFC 5044 §4.1, §4.2) ----
    /** Bad (0), Good (1), Unverified (2, CRC not negotiated), as Wireshark names checksum states. */
    public static final int STATUS_BAD = 0;
    public static final int STATUS_GOOD = 1;
    public static final int STATUS_UNVERIFIED = 2;
    public static final ValueNames STATUS_NAMES = ValueNames.of(STATUS_BAD, "Bad", STATUS_GOOD, "Good",
            STATUS_UNVERIFIED, "Unverified");

    public static final Field ULPDU_LENGTH = Field.uint16("iwarp_mpa.ulpdulength", "ULPDU length", 0).unit("bytes");
    /** The pad bytes: a layer of their own ({@link #PADDING}), since they follow a ULPDU of any length. */
    public static final Field PAD = Field.restOfHeader("iwarp_mpa.pad", "Padding", 0);
    /** The CRC as on the wire, read big-endian as Wireshark shows it (the CRC32c goes out little-endian). */
    public static final Field CRC = Field.computed("iwarp_mpa.crc", "CRC", FieldType.UINT32, Base.HEX,
            new CrcOnWire(false));
    public static final Field CRC_CHECK = Field.computed("iwarp_mpa.crc_check", "CRC check", FieldType.UINT32,
            Base.HEX, new CrcOnWire(true));
    public static final Field CRC_COMPUTED = Field.computed("iwarp_mpa.crc.computed", "Computed CRC",
            FieldType.UINT32, Base.HEX, new Field.Computation() {
                @Override
                public long value(Dissection d, int layer) {
                    IwarpPdu p = IwarpFrame.pduAt(d, layer);
                    return p == null ? 0 : p.crcComputed() & 0xFFFFFFFFL;
                }

                @Override
                public boolean isPresent(Dissection d, int layer) {
                    IwarpPdu p = IwarpFrame.pduAt(d, layer);
                    return p != null && p.crcStatus() != STATUS_UNVERIFIED;
                }
            });
    public static final Field CRC_STATUS = Field.computed("iwarp_mpa.crc.status", "CRC status", FieldType.UINT8,
            Base.NONE, new Field.Computation() {
                @Override
                public long value(Dissection d, int layer) {
                    IwarpPdu p = IwarpFrame.pduAt(d, layer);
                    return p == null ? STATUS_UNVERIFIED : p.crcStatus();
                }

                @Override
                public boolean isPresent(Dissection d, int layer) {
                    return IwarpFrame.pduAt(d, layer) != null;
                }
            }).names(STATUS_NAMES);

    public static final HeaderType FPDU = HeaderType.group(PROTOCOL, "iwarp_mpa.fpdu", "FPDU", ULPDU_LENGTH, CRC,
            CRC_CHECK, CRC_COMPUTED, CRC_STATUS);
    /** An FPDU's 1-3 pad bytes (RFC 5044 §4.1), when it has any. */
    public static final HeaderType PADDING = HeaderType.group(PROTOCOL, "iwarp_mpa.padding", "FPDU padding", PAD);

    // ---- markers (RFC 5044 §5) ----
    public static final Field MARKER_RES = Field.uint16("iwarp_mpa.marker_res", "Reserved", 0).hex();
    public static final Field MARKER_FPDUPTR = Field.uint16("iwarp_mpa.marker_fpduptr", "FPDU back pointer", 2)
            .unit("bytes");
    public static final HeaderType MARKERS = HeaderType.group(PROTOCOL, "iwarp_mpa.markers", "Markers", MARKER_RES,
            MARKER_FPDUPTR);
    /** A second or later marker of the same FPDU: Wireshark lists all under one "Markers" node. */
    public static final HeaderType MARKER = HeaderType.group(PROTOCOL, "iwarp_mpa.marker", "Marker", MARKER_RES,
            MARKER_FPDUPTR);

    public static final List<HeaderType> HEADERS = List.of(REQUEST, REPLY, FPDU, PADDING, MARKERS, MARKER);

    private Mpa() {
    }

    static int pdLength(Dissection d, int layer) {
        return d.layerLength(layer) < REQ_REP_LENGTH ? 0 : d.u16(d.layerStart(layer) + 18);
    }

    /** Pad that makes ULPDU length field plus ULPDU a multiple of four (RFC 5044 §4.1). */
    public static int padFor(int ulpduLength) {
        return (4 - ((ulpduLength + ULPDU_LENGTH_LENGTH) & 3)) & 3;
    }

    private static Field.Computation present(Field.Presence test) {
        return new Field.Computation() {
            @Override
            public long value(Dissection d, int layer) {
                return 1;
            }

            @Override
            public boolean isPresent(Dissection d, int layer) {
                return test.test(d, layer);
            }
        };
    }

    /** The four CRC bytes at the layer's end; shown as crc_check when CRC was negotiated, else as crc. */
    private record CrcOnWire(boolean negotiated) implements Field.Computation {
        @Override
        public long value(Dissection d, int layer) {
            return d.u32(d.layerStart(layer) + d.layerLength(layer) - CRC_LENGTH);
        }

        @Override
        public boolean isPresent(Dissection d, int layer) {
            if (d.layerLength(layer) < ULPDU_LENGTH_LENGTH + CRC_LENGTH
                    || d.layerLength(layer) < ULPDU_LENGTH_LENGTH + d.u16(d.layerStart(layer)) + CRC_LENGTH) {
                return false;
            }
            IwarpPdu p = IwarpFrame.pduAt(d, layer);
            return p != null && (p.crcStatus() != STATUS_UNVERIFIED) == negotiated;
        }
    }
}
