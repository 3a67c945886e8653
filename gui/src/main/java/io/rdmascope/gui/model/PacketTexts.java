package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldType;
import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.text.ProtoTree;

import java.util.List;

/**
 * The text forms of a packet that Edit → Copy and File → Export Packet Dissections write, as
 * Wireshark and tshark make them: the summary line ({@code tshark} without options), the detail
 * tree ({@code -V}), the hex dump ({@code -x}), a CSV row (Wireshark's "As CSV": every column
 * quoted) and a JSON object (tshark's {@code -T json} layers: each protocol an object of its fields'
 * {@code -T fields} text, sub-headers as {@code abbrev_tree}, bytes with colons).
 */
public final class PacketTexts {
    private PacketTexts() {
    }

    /** The summary line, tshark's default output: number, time, source → destination, protocol, length, info. */
    public static String summary(PacketRow r) {
        return String.format(java.util.Locale.ROOT, "%5d %s %s → %s %s %d %s", r.number(), r.time(), r.source(),
                r.destination(), r.protocol(), r.length(), r.info());
    }

    /** The summary line and the detail tree, as Export Packet Dissections → As Plain Text writes a packet. */
    public static String text(PacketRow r, Dissection d) {
        StringBuilder sb = new StringBuilder(summary(r)).append("\n\n");
        ProtoTree.print(ProtoTree.build(d), sb);
        return sb.toString();
    }

    /** The column titles and the row, every value quoted, as Wireshark's CSV export. */
    public static String csvHeader(List<String> titles) {
        return csvLine(titles);
    }

    public static String csv(List<String> values) {
        return csvLine(values);
    }

    private static String csvLine(List<String> values) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('"').append(values.get(i).replace("\"", "\"\"")).append('"');
        }
        return sb.toString();
    }

    /** 16 bytes a line with offset and printable ASCII, as {@code tshark -x}. */
    public static String hexDump(Frame f) {
        int n = f.capturedLength();
        StringBuilder sb = new StringBuilder(n * 5);
        for (int line = 0; line < n; line += 16) {
            sb.append(String.format("%04x  ", line));
            StringBuilder ascii = new StringBuilder(16);
            for (int i = line; i < line + 16; i++) {
                if (i < n) {
                    int b = f.get(i) & 0xFF;
                    sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
                    ascii.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
                } else {
                    sb.append("  ");
                }
                if (i < line + 15) {
                    sb.append(' ');
                }
            }
            sb.append("   ").append(ascii).append('\n');
        }
        return sb.toString();
    }

    /** One packet as tshark's {@code -T json} element (without the surrounding array). */
    public static String json(Dissection d) {
        StringBuilder sb = new StringBuilder(1024);
        sb.append("{\n  \"_source\": {\n    \"layers\": {");
        List<ProtoTree> roots = ProtoTree.build(d);
        for (int i = 0; i < roots.size(); i++) {
            ProtoTree root = roots.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("      ");
            quote(sb, root.header() != null ? root.header().abbrev() : firstProtocol(root));
            sb.append(": ");
            fields(sb, root, d, 3);
        }
        sb.append("\n    }\n  }\n}");
        return sb.toString();
    }

    private static String firstProtocol(ProtoTree node) {
        for (ProtoTree c : node.children()) {
            if (c.header() != null) {
                return c.header().protocol().abbrev();
            }
            if (c.field() != null) {
                String a = c.field().abbrev();
                int dot = a.indexOf('.');
                return dot < 0 ? a : a.substring(0, dot);
            }
        }
        return "unknown";
    }

    private static void fields(StringBuilder sb, ProtoTree node, Dissection d, int depth) {
        sb.append('{');
        String pad = "  ".repeat(depth + 1);
        boolean first = true;
        for (int i = 0; i < node.children().size(); i++) {
            ProtoTree c = node.children().get(i);
            if (c.field() == null && c.header() == null) {
                continue;
            }
            sb.append(first ? "\n" : ",\n").append(pad);
            first = false;
            AsciiSink v = new AsciiSink(32);
            if (c.field() != null) {
                quote(sb, c.field().abbrev());
                sb.append(": ");
                if (c.field().type() == FieldType.BYTES && !c.field().isComputed()) {
                    v.appendHexBytes(d.buffer(), d.base() + c.start(), c.length(), ':');
                } else {
                    FieldText.appendValue(v, c.field(), d, c.layer(), occurrence(node, i));
                }
                quote(sb, v.toString());
                if (!c.children().isEmpty()) {
                    // a field with bitfields under it nests them as tshark does: "abbrev_tree"
                    sb.append(",\n").append(pad);
                    quote(sb, c.field().abbrev() + "_tree");
                    sb.append(": ");
                    fields(sb, c, d, depth + 1);
                }
            } else {
                quote(sb, c.header().abbrev());
                sb.append(": ");
                FieldText.appendHeader(v, c.header(), d, c.layer());
                quote(sb, v.toString());
                sb.append(",\n").append(pad);
                quote(sb, c.header().abbrev() + "_tree");
                sb.append(": ");
                fields(sb, c, d, depth + 1);
            }
        }
        if (!first) {
            sb.append('\n').append("  ".repeat(depth));
        }
        sb.append('}');
    }

    /** Which occurrence of its field child {@code i} is among its siblings (ip.addr appears twice). */
    private static int occurrence(ProtoTree parent, int i) {
        int k = 0;
        ProtoTree c = parent.children().get(i);
        for (int j = 0; j < i; j++) {
            if (parent.children().get(j).field() == c.field()) {
                k++;
            }
        }
        return k;
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
