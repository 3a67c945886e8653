package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.Malformed;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.proto.eth.Ethernet;

import java.util.ArrayList;
import java.util.List;

/**
 * The detail tree of one frame (the slow path: built only for frames shown or exported). Every node
 * has the byte span it covers, so a hex view can highlight it and a byte click can find its field.
 *
 * @param label    the line the tree shows
 * @param start    frame offset of the first byte covered
 * @param length   bytes covered (0 for computed fields and markers)
 * @param field    the field this node shows, or null for header/protocol nodes
 * @param header   the header type (for header nodes and fields), or null for a protocol container
 * @param layer    the layer index in the dissection, or -1 for a protocol container
 * @param children sub-nodes in display order
 */
public record ProtoTree(String label, int start, int length, Field field, HeaderType header, int layer,
                        List<ProtoTree> children) {

    /** Builds the whole tree for a dissected frame: one top node per protocol, as Wireshark shows it. */
    public static List<ProtoTree> build(Dissection d) {
        List<ProtoTree> top = new ArrayList<>();
        Protocol containerProtocol = null;
        List<ProtoTree> container = null;
        int containerStart = 0;
        int containerEnd = 0;
        for (int layer = 0; layer < d.layerCount(); layer++) {
            HeaderType h = d.layerType(layer);
            if (h == Ethernet.ETHERTYPE) {
                continue; // zero-length marker for frame.protocols only
            }
            ProtoTree node = header(d, layer);
            if (h.isProtocolHeader() || h == Malformed.HEADER) {
                flush(top, containerProtocol, container, containerStart, containerEnd);
                containerProtocol = null;
                container = null;
                top.add(node);
                continue;
            }
            if (containerProtocol != h.protocol()) {
                flush(top, containerProtocol, container, containerStart, containerEnd);
                containerProtocol = h.protocol();
                container = new ArrayList<>();
                containerStart = d.layerStart(layer);
                containerEnd = containerStart;
            }
            container.add(node);
            containerEnd = Math.max(containerEnd, d.layerStart(layer) + d.layerLength(layer));
        }
        flush(top, containerProtocol, container, containerStart, containerEnd);
        return top;
    }

    private static void flush(List<ProtoTree> top, Protocol protocol, List<ProtoTree> children, int start, int end) {
        if (protocol != null) {
            top.add(new ProtoTree(protocol.name(), start, end - start, null, null, -1, List.copyOf(children)));
        }
    }

    private static ProtoTree header(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        List<ProtoTree> fields = new ArrayList<>();
        int at = d.layerStart(layer);
        for (Field f : h.fields()) {
            int n = f.capturedOccurrences(d, layer);
            for (int k = 0; k < n; k++) {
                int start = f.isComputed() ? at : at + f.offsetOf(k);
                int length = f.isComputed() ? 0 : f.lengthIn(d.layerLength(layer));
                fields.add(new ProtoTree(TreeLabels.fieldLabel(f, d, layer, k), start, length, f, h, layer,
                        List.of()));
            }
        }
        String label = h == Malformed.HEADER ? "[Malformed Packet: a header runs past the captured bytes or "
                + "a length field is wrong]" : TreeLabels.headerLabel(d, layer);
        return new ProtoTree(label, at, d.layerLength(layer), null, h, layer, List.copyOf(fields));
    }

    /** The deepest node whose span covers frame offset {@code offset}, or null: hex-pane clicks. */
    public static ProtoTree fieldAt(List<ProtoTree> roots, int offset) {
        ProtoTree best = null;
        for (ProtoTree n : roots) {
            if (n.length > 0 && offset >= n.start && offset < n.start + n.length) {
                ProtoTree deeper = fieldAt(n.children, offset);
                best = deeper != null ? deeper : n;
            }
        }
        return best;
    }

    /** Appends the tree as {@code tshark -V} text, four spaces per level. */
    public static void print(List<ProtoTree> roots, StringBuilder out) {
        for (ProtoTree n : roots) {
            print(n, 0, out);
        }
    }

    private static void print(ProtoTree n, int depth, StringBuilder out) {
        out.append("    ".repeat(depth)).append(n.label).append('\n');
        for (ProtoTree c : n.children) {
            print(c, depth + 1, out);
        }
    }
}
