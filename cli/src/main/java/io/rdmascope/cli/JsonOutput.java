package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.FieldType;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.text.ProtoTree;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * {@code -T json} shaped like tshark's: an array of {@code {"_index", "_type", "_score", "_source":
 * {"layers": …}}}. Without {@code -e}, layers hold one object per protocol with every field as its
 * {@code -T fields} text and sub-headers as {@code "abbrev_tree"} objects; with {@code -e}, layers map
 * each field to the array of its values.
 */
final class JsonOutput {
    private final AsciiSink out;
    private boolean first = true;

    JsonOutput(AsciiSink out) {
        this.out = out;
        out.append("[\n");
    }

    void frame(Dissection d, FieldColumns selected, io.rdmascope.replay.FrameAnalysis analysis) {
        if (!first) {
            out.append(",\n");
        }
        first = false;
        String day = Instant.ofEpochSecond(Math.floorDiv(d.frame().timeNanos(), 1_000_000_000L))
                .atZone(ZoneId.systemDefault()).toLocalDate().toString();
        out.append("  {\n    \"_index\": \"packets-").append(day).append("\",\n")
                .append("    \"_type\": \"doc\",\n    \"_score\": null,\n    \"_source\": {\n      \"layers\": {");
        if (selected.isEmpty()) {
            treeLayers(d);
        } else {
            selectedLayers(d, selected, analysis);
        }
        out.append("\n      }\n    }\n  }");
    }

    void finish() {
        out.append(first ? "]\n" : "\n]\n");
    }

    private void selectedLayers(Dissection d, FieldColumns selected, io.rdmascope.replay.FrameAnalysis analysis) {
        boolean any = false;
        AsciiSink value = new AsciiSink(64);
        for (FieldColumns.Column e : selected.columns()) {
            value.clear();
            int n = FieldColumns.append(value, e, d, '\u0001', FieldText.Occurrence.ALL, analysis);
            if (n == 0) {
                continue;
            }
            out.append(any ? ",\n" : "\n");
            any = true;
            indent(4);
            string(e.abbrev());
            out.append(": [");
            String[] parts = value.toString().split("\u0001", -1);
            for (int i = 0; i < parts.length; i++) {
                out.append(i == 0 ? "\n" : ",\n");
                indent(5);
                string(parts[i]);
            }
            out.append('\n');
            indent(4);
            out.append(']');
        }
    }

    private void treeLayers(Dissection d) {
        List<ProtoTree> roots = ProtoTree.buildWithHidden(d);
        boolean any = false;
        for (ProtoTree root : roots) {
            out.append(any ? ",\n" : "\n");
            any = true;
            indent(4);
            String key = root.header() != null ? root.header().abbrev() : protocolOf(root);
            string(key);
            out.append(": ");
            object(root, d, 4);
        }
    }

    private static String protocolOf(ProtoTree container) {
        if (container.label().equals(DdpRdmap.COMBINED_LABEL)) {
            return "iwarp_ddp_rdmap"; // Wireshark's one protocol over DDP and RDMAP
        }
        for (ProtoTree c : container.children()) {
            if (c.header() != null) {
                return c.header().protocol().abbrev();
            }
        }
        return "unknown";
    }

    /** The fields of a node (and nested sub-headers) as a JSON object. */
    private void object(ProtoTree node, Dissection d, int depth) {
        out.append('{');
        boolean any = false;
        for (ProtoTree c : node.children()) {
            out.append(any ? ",\n" : "\n");
            any = true;
            indent(depth + 1);
            if (c.field() != null && c.field().type() == FieldType.NONE && !c.children().isEmpty()) {
                string(c.field().abbrev()); // a subtree with no value: its fields, as tshark prints FT_NONE
                out.append(": ");
                object(c, d, depth + 1);
            } else if (c.field() != null) {
                string(c.field().abbrev());
                out.append(": ");
                AsciiSink v = new AsciiSink(32);
                if (c.field().type() == FieldType.BYTES && !c.field().isComputed()) {
                    v.appendHexBytes(d.buffer(), d.base() + c.start(), c.length(), ':');
                } else {
                    FieldText.appendValue(v, c.field(), d, c.layer(), occurrenceOf(c, d));
                }
                string(v.toString());
                if (!c.children().isEmpty()) { // a field holding bitfields: "ip.flags_tree", as tshark
                    out.append(",\n");
                    indent(depth + 1);
                    string(c.field().abbrev() + "_tree");
                    out.append(": ");
                    object(c, d, depth + 1);
                }
            } else {
                String abbrev = c.header().abbrev();
                string(abbrev);
                out.append(": ");
                if (c.header().selfType() == FieldType.NONE) {
                    object(c, d, depth + 1); // no value of its own: its fields, as tshark prints FT_NONE
                    continue;
                }
                AsciiSink v = new AsciiSink(64);
                if (c.header().selfType() == FieldType.BYTES) {
                    // tshark's JSON writes a header's bytes with colons ("1f:00:00:01"), -T fields without
                    v.appendHexBytes(d.buffer(), d.layerAt(c.layer()), d.layerLength(c.layer()), ':');
                } else {
                    FieldText.appendHeader(v, c.header(), d, c.layer());
                }
                string(v.toString());
                out.append(",\n");
                indent(depth + 1);
                string(abbrev + "_tree");
                out.append(": ");
                object(c, d, depth + 1);
            }
        }
        if (any) {
            out.append('\n');
            indent(depth);
        }
        out.append('}');
    }

    /**
     * Which occurrence of a repeated field (ip.addr) a node is, by where it sits: nested fields
     * (eth.addr under Destination and under Source) are not siblings.
     */
    private static int occurrenceOf(ProtoTree node, Dissection d) {
        io.rdmascope.field.Field f = node.field();
        if (f.isComputed()) {
            return 0;
        }
        for (int k = 0; k < f.occurrences(); k++) {
            if (d.layerStart(node.layer()) + f.offsetOf(k) == node.start()) {
                return k;
            }
        }
        return 0;
    }

    private void indent(int levels) {
        for (int i = 0; i < levels; i++) {
            out.append("  ");
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").appendHex(c, 2);
                    } else {
                        out.append(String.valueOf(c));
                    }
                }
            }
        }
        out.append('"');
    }
}
