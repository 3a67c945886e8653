package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.frame.FrameFields;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;

import java.nio.ByteBuffer;

/** Detail-tree text in Wireshark's style, derived from the field declarations. */
public final class TreeLabels {
    /**
     * Computed fields Wireshark would add as generated items, printed in brackets as tshark prints
     * those: the CRC checks, which tshark 4.0 does not make (its MPA check is iwarp_mpa.crc_check).
     */
    private static final java.util.Set<Field> GENERATED = java.util.Set.of(InfiniBand.ICRC_COMPUTED,
            InfiniBand.ICRC_STATUS, InfiniBand.VCRC_COMPUTED, InfiniBand.VCRC_STATUS,
            io.rdmascope.proto.iwarp.Mpa.CRC_COMPUTED, io.rdmascope.proto.iwarp.Mpa.CRC_STATUS,
            Transport.TCP_NXTSEQ);

    /** Wireshark shortens long byte fields in the tree to this many bytes, then an ellipsis. */
    private static final int MAX_TREE_BYTES = 36;

    private TreeLabels() {
    }

    /** The line for a header node, e.g. "User Datagram Protocol, Src Port: 49935, Dst Port: 4791". */
    public static String headerLabel(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        ByteBuffer b = d.buffer();
        int at = d.layerAt(layer);
        if (h == FrameFields.HEADER) {
            long wire = io.rdmascope.proto.erf.Erf.shownWireLength(d.frame());
            long cap = io.rdmascope.proto.erf.Erf.shownCapturedLength(d.frame());
            return "Frame " + d.frame().number() + ": " + wire + " bytes on wire (" + wire * 8 + " bits), " + cap
                    + " bytes captured (" + cap * 8 + " bits)";
        }
        if (h == Ethernet.HEADER && d.layerLength(layer) >= 12) {
            return h.name() + ", Src: " + text(Ethernet.SRC, d, layer) + ", Dst: " + text(Ethernet.DST, d, layer);
        }
        if (h == Ethernet.VLAN && d.layerLength(layer) >= 2) {
            return h.name() + ", PRI: " + Ethernet.VLAN_PRIORITY.read(b, at) + ", DEI: "
                    + Ethernet.VLAN_DEI.read(b, at) + ", ID: " + Ethernet.VLAN_ID.read(b, at);
        }
        if (h == Ip.IPV4 && d.layerLength(layer) >= 20) {
            return h.name() + ", Src: " + text(Ip.V4_SRC, d, layer) + ", Dst: " + text(Ip.V4_DST, d, layer);
        }
        if (h == Ip.IPV6 && d.layerLength(layer) >= 40) {
            return h.name() + ", Src: " + text(Ip.V6_SRC, d, layer) + ", Dst: " + text(Ip.V6_DST, d, layer);
        }
        if ((h == Transport.UDP || h == Transport.TCP) && d.layerLength(layer) >= 4) {
            return h.name() + ", Src Port: " + (d.u16(d.layerStart(layer))) + ", Dst Port: "
                    + d.u16(d.layerStart(layer) + 2);
        }
        if (h == io.rdmascope.proto.data.Data.HEADER) {
            return "Data (" + d.layerLength(layer) + " bytes)";
        }
        // tshark 4.0 shows the CRC as one field line; our check of it follows as generated lines.
        if (h == InfiniBand.ICRC_HEADER && d.layerLength(layer) == 4) {
            return "Invariant CRC: " + text(InfiniBand.ICRC, d, layer);
        }
        if (h == InfiniBand.VCRC_HEADER && d.layerLength(layer) == 2) {
            return "Variant CRC: " + text(InfiniBand.VCRC, d, layer);
        }
        if (d.isLayerTruncated(layer)) {
            return h.name() + " [truncated: " + d.layerLength(layer) + " of its bytes captured]";
        }
        return h.name();
    }

    /**
     * Fields Wireshark adds to the tree hidden, for filters only: the "either" fields of IP, TCP and
     * UDP (packet-ip.c, packet-tcp.c and packet-udp.c add them with {@code PROTO_ITEM_SET_HIDDEN}).
     * Ethernet's {@code eth.addr} is shown, under Destination and Source, so it is not here.
     */
    private static final java.util.Set<Field> HIDDEN = java.util.Set.of(Ip.V4_ADDR, Ip.V6_ADDR, Transport.TCP_PORT,
            Transport.UDP_PORT);

    /** Whether field {@code f} of header {@code h} stays out of the detail tree (kept for -e and -Y). */
    public static boolean isHidden(Field f, HeaderType h) {
        return HIDDEN.contains(f) || h == InfiniBand.ICRC_HEADER && f == InfiniBand.ICRC
                || h == InfiniBand.VCRC_HEADER && f == InfiniBand.VCRC;
    }

    /**
     * {@link #isHidden(Field, HeaderType)}, plus what depends on the frame: with raw TCP numbers
     * (tcp.relative_sequence_numbers off) tshark 4.0 hides tcp.seq_raw, and tcp.ack_raw when the ACK
     * flag is set, since tcp.seq and tcp.ack then show the same values.
     */
    public static boolean isHidden(Field f, Dissection d, int layer) {
        if (isHidden(f, d.layerType(layer))) {
            return true;
        }
        if (d.layerType(layer) != Transport.TCP || d.tcpRelative()) {
            return false;
        }
        return f == Transport.TCP_SEQ_RAW || f == Transport.TCP_ACK_RAW && tcpAckFlag(d, layer);
    }

    private static boolean tcpAckFlag(Dissection d, int layer) {
        return (d.u16(d.layerStart(layer) + 12) & 0x10) != 0;
    }

    /** tshark's words after a relative TCP number: "Sequence Number: 1    (relative sequence number)". */
    private static void relativeTcpNumber(StringBuilder sb, Field f, Dissection d, int layer) {
        if (!d.tcpRelative()) {
            return;
        }
        if (f == Transport.TCP_SEQ || f == Transport.TCP_NXTSEQ) {
            sb.append("    (relative sequence number)");
        } else if (f == Transport.TCP_ACK && tcpAckFlag(d, layer)) {
            sb.append("    (relative ack number)");
        }
    }

    /**
     * Booleans Wireshark words "Set"/"Not set" (its {@code tfs_set_notset}): IPv4 and TCP flags. The
     * InfiniBand and iWARP dissectors declare theirs without words, so they read True/False.
     */
    private static boolean setNotSet(Field f) {
        return f.abbrev().startsWith("ip.flags.") || f.abbrev().startsWith("tcp.flags.");
    }

    /** tshark's -T fields text of one field in one layer. */
    public static String text(Field f, Dissection d, int layer) {
        AsciiSink s = new AsciiSink(24);
        FieldText.appendValue(s, f, d, layer, 0);
        return s.toString();
    }

    /** The tree line of a field: "..00 .... = Pad Count: 0" or "Opcode: Reliable Connection (RC) - SEND Only (4)". */
    public static String fieldLabel(Field f, Dissection d, int layer, int k) {
        StringBuilder sb = new StringBuilder(64);
        if (f.mask() != 0 && !f.isComputed()) {
            bitPattern(sb, f, d, layer, k);
            sb.append(" = ");
        }
        boolean generated = f.isComputed() && GENERATED.contains(f);
        if (generated) {
            sb.append('[');
        }
        String value = valueText(f, d, layer, k);
        sb.append(f.name());
        if (value != null) {
            sb.append(": ").append(value);
        }
        if (f == InfiniBand.AETH_SYNDROME) {
            // Wireshark names the syndrome's kind after its value: "Syndrome: 31, Ack" (packet-infiniband.c).
            String kind = InfiniBand.AETH_SYNDROME_OPCODE.valueNames()
                    .nameOf(InfiniBand.AETH_SYNDROME_OPCODE.read(d.buffer(), d.layerAt(layer)));
            sb.append(", ").append(kind);
        }
        lengthBeyondFrame(sb, f, d, layer);
        relativeTcpNumber(sb, f, d, layer);
        if (generated) {
            sb.append(']');
        }
        return sb.toString();
    }

    /**
     * A length field that says the packet runs past the frame's bytes on the wire (a frame cut
     * without saying so, {@link Dissection#isCutSilently}): Wireshark's expert texts for it.
     */
    private static void lengthBeyondFrame(StringBuilder sb, Field f, Dissection d, int layer) {
        if (f != Ip.V4_LEN && f != Ip.V6_PLEN && f != Transport.UDP_LENGTH || !d.isCutSilently()) {
            return;
        }
        int available = d.capturedLength() - d.layerStart(layer); // from this header to the frame's end
        long declared = f.read(d.buffer(), d.layerAt(layer));
        if (f == Ip.V4_LEN && declared > available) {
            sb.append(" [IPv4 total length exceeds packet length (").append(available).append(" bytes)]");
        } else if (f == Ip.V6_PLEN && declared > available - 40) {
            sb.append(" [IPv6 payload length exceeds framing length (").append(available - 40).append(" bytes)]");
        } else if (f == Transport.UDP_LENGTH && declared > available) {
            sb.append(" (bogus, payload length ").append(available).append(')');
        }
    }

    /** The value as the tree shows it: names with the raw value, booleans as True/False, units. */
    public static String valueText(Field f, Dissection d, int layer, int k) {
        ByteBuffer b = d.buffer();
        int at = d.layerAt(layer);
        FieldType t = f.type();
        if (t == FieldType.BYTES) {
            int len = f.isComputed() ? 0 : f.lengthIn(d.layerLength(layer));
            AsciiSink s = new AsciiSink(len * 2 + 3);
            s.appendHexBytes(b, at + f.offset(), Math.min(len, MAX_TREE_BYTES), (char) 0);
            return len > MAX_TREE_BYTES ? s + "\u2026" : s.toString();
        }
        if (t == FieldType.STRING || t == FieldType.ETHER || t == FieldType.IPV4 || t == FieldType.IPV6
                || t == FieldType.ABSOLUTE_TIME) {
            AsciiSink s = new AsciiSink(48);
            FieldText.appendValue(s, f, d, layer, k);
            return s.toString();
        }
        if (t == FieldType.NONE) {
            return null; // a subtree's label alone ("DDP control field"), as Wireshark shows FT_NONE items
        }
        long v = f.isComputed() ? f.computation().value(d, layer) : f.read(b, at, k);
        if (t == FieldType.BOOLEAN) {
            if (setNotSet(f)) {
                return v != 0 ? "Set" : "Not set";
            }
            return v != 0 ? "True" : "False";
        }
        if (t == FieldType.RELATIVE_TIME) {
            AsciiSink s = new AsciiSink(24);
            s.appendSeconds(v);
            return s + " seconds";
        }
        AsciiSink raw = new AsciiSink(24);
        if (f.mask() != 0 && (f.base() == io.rdmascope.field.Base.HEX || f.base() == io.rdmascope.field.Base.HEX_DEC)) {
            raw.append("0x").appendHex(v, treeHexDigits(f)); // "OpCode: Send (0x3)", "Flags: 0x2"
        } else {
            FieldText.appendLong(raw, f, v);
        }
        String text;
        ValueNames names = f.valueNames();
        String name = names == null ? null : names.nameOf(v);
        switch (f.base()) {
            case DEC_HEX -> {
                AsciiSink hex = new AsciiSink(20);
                hex.append("0x").appendHex(v, FieldText.hexDigits(f));
                text = raw + " (" + hex + ")";
            }
            case HEX_DEC -> text = raw + " (" + Long.toUnsignedString(v) + ")";
            default -> text = raw.toString();
        }
        if (name != null) {
            text = name + " (" + text + ")";
        }
        if (f.unit() != null) {
            text = text + " " + f.unit();
        }
        return text;
    }

    /**
     * Hex digits of a bitfield in the tree: Wireshark's {@code hfinfo_hex_digits} counts the mask's
     * width, not the container's ("Virtual Lane: 0xf" for a 4-bit mask in a byte), whereas
     * {@code -T fields} pads to the container ({@link FieldText#hexDigits}).
     */
    static int treeHexDigits(Field f) {
        int bits = 64 - Long.numberOfLeadingZeros(f.mask() >>> f.shift());
        return Math.max(1, (bits + 3) / 4);
    }

    /** Wireshark's bit picture, e.g. "..00 ...." for a mask of 0x30 in one byte. */
    private static void bitPattern(StringBuilder sb, Field f, Dissection d, int layer, int k) {
        int bits = f.length() * 8;
        long raw = rawBits(f, d, layer, k);
        for (int i = bits - 1; i >= 0; i--) {
            long bit = 1L << i;
            if ((f.mask() & bit) == 0) {
                sb.append('.');
            } else {
                sb.append((raw & bit) != 0 ? '1' : '0');
            }
            if (i > 0 && i % 4 == 0) {
                sb.append(' ');
            }
        }
    }

    private static long rawBits(Field f, Dissection d, int layer, int k) {
        ByteBuffer b = d.buffer();
        int at = d.layerAt(layer) + f.offsetOf(k);
        long raw = 0;
        for (int i = 0; i < f.length(); i++) {
            raw = (raw << 8) | (b.get(at + i) & 0xFF);
        }
        return raw;
    }
}
