package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.Malformed;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.proto.Protocols;
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
        return build(d, false);
    }

    /**
     * The tree with Wireshark's hidden fields too ({@code ip.addr}, {@code tcp.port}): tshark's
     * {@code -T json} prints them, its {@code -V} does not.
     */
    public static List<ProtoTree> buildWithHidden(Dissection d) {
        return build(d, true);
    }

    private static List<ProtoTree> build(Dissection d, boolean withHidden) {
        List<ProtoTree> top = new ArrayList<>();
        String containerProtocol = null;
        List<ProtoTree> container = null;
        int containerStart = 0;
        int containerEnd = 0;
        for (int layer = 0; layer < d.layerCount(); layer++) {
            HeaderType h = d.layerType(layer);
            if (h == Ethernet.ETHERTYPE) {
                continue; // zero-length marker for frame.protocols only
            }
            ProtoTree node = header(d, layer, withHidden);
            String combined = combinedProtocol(h);
            if (h.isProtocolHeader() && combined == null || h == Malformed.HEADER) {
                flush(top, containerProtocol, container, containerStart, containerEnd);
                containerProtocol = null;
                container = null;
                top.add(node);
                continue;
            }
            String label = combined != null ? combined : h.protocol().name();
            if (!label.equals(containerProtocol) && rejoinsItsProtocol(h)) {
                // the ICRC after a payload shown as another protocol (Data, NVMe): back into its protocol's node
                flush(top, containerProtocol, container, containerStart, containerEnd);
                containerProtocol = null;
                container = null;
                if (rejoin(top, label, node, d, layer)) {
                    continue;
                }
            }
            if (!label.equals(containerProtocol)) {
                flush(top, containerProtocol, container, containerStart, containerEnd);
                containerProtocol = label;
                container = new ArrayList<>();
                containerStart = d.layerStart(layer);
                containerEnd = containerStart;
            }
            int last = container.size() - 1;
            if (combined != null && last >= 0 && nestsIn(h, container.get(last).header)) {
                container.set(last, container.get(last).withChild(node)); // "Read request" in "RDMAP header"
            } else {
                container.add(node);
            }
            containerEnd = Math.max(containerEnd, d.layerStart(layer) + d.layerLength(layer));
        }
        flush(top, containerProtocol, container, containerStart, containerEnd);
        return top;
    }

    /**
     * The one node Wireshark shows over several of our protocols (DDP and RDMAP, which Wireshark 4.0
     * files under one protocol while our field names must start with their own protocol's), or null.
     */
    private static String combinedProtocol(HeaderType h) {
        return Protocols.first(m -> m.combinedProtocolLabel(h));
    }

    private static boolean rejoinsItsProtocol(HeaderType h) {
        return Protocols.any(m -> m.rejoinsItsProtocol(h));
    }

    private static boolean nestsIn(HeaderType h, HeaderType previous) {
        return Protocols.any(m -> m.nestsIn(h, previous));
    }

    private ProtoTree withChild(ProtoTree child) {
        List<ProtoTree> more = new ArrayList<>(children);
        more.add(child);
        int end = Math.max(start + length, child.start + child.length);
        return new ProtoTree(label, start, end - start, field, header, layer, List.copyOf(more));
    }

    /** The fields a package shows inside a subtree field with no value of its own, or null. */
    private static List<Field> subtreeMembers(Field f) {
        return Protocols.first(m -> m.subtreeMembers(f));
    }

    /**
     * Adds {@code node} to the node of its protocol already in {@code top}, when a protocol of
     * another layer (Data) came between: Wireshark shows the InfiniBand ICRC inside the InfiniBand
     * tree, before the payload's {@code Data} tree, whereas our layers keep wire order.
     */
    private static boolean rejoin(List<ProtoTree> top, String protocol, ProtoTree node, Dissection d, int layer) {
        for (int i = top.size() - 1; i >= 0; i--) {
            ProtoTree t = top.get(i);
            if (t.header == null && t.field == null && t.label.equals(protocol)) {
                List<ProtoTree> children = new ArrayList<>(t.children);
                children.add(node);
                int end = Math.max(t.start + t.length, d.layerStart(layer) + d.layerLength(layer));
                top.set(i, new ProtoTree(t.label, t.start, end - t.start, null, null, -1, List.copyOf(children)));
                return true;
            }
        }
        return false;
    }

    private static void flush(List<ProtoTree> top, String protocol, List<ProtoTree> children, int start, int end) {
        if (protocol != null) {
            top.add(new ProtoTree(protocol, start, end - start, null, null, -1, List.copyOf(children)));
        }
    }

    private static ProtoTree header(Dissection d, int layer, boolean withHidden) {
        HeaderType h = d.layerType(layer);
        List<Node> fields = new ArrayList<>();
        int at = d.layerStart(layer);
        for (Field f : h.fields()) {
            if (!withHidden && TreeLabels.isHidden(f, d, layer)) {
                continue; // Wireshark adds these for filters only (ip.addr, tcp.port): never shown
            }
            int n = f.capturedOccurrences(d, layer);
            for (int k = 0; k < n; k++) {
                int start = f.isComputed() ? at : at + f.offsetOf(k);
                int length = f.isComputed() ? 0 : f.lengthIn(d.layerLength(layer));
                Node node = new Node(f, k, new ProtoTree(TreeLabels.fieldLabel(f, d, layer, k), start, length, f, h,
                        layer, List.of()));
                // A hidden field is an item of its own in Wireshark, beside the field it repeats.
                Node parent = TreeLabels.isHidden(f, h) ? null : parentOf(fields, node);
                (parent != null ? parent.children : fields).add(node);
            }
        }
        String label = h == Malformed.HEADER ? "[Malformed Packet: a header runs past the captured bytes or "
                + "a length field is wrong]" : TreeLabels.headerLabel(d, layer);
        return new ProtoTree(label, at, d.layerLength(layer), null, h, layer, Node.trees(fields));
    }

    /** A field node while the header's tree is built: children are added as later fields nest in it. */
    private record Node(Field field, int occurrence, ProtoTree tree, List<Node> children) {
        Node(Field field, int occurrence, ProtoTree tree) {
            this(field, occurrence, tree, new ArrayList<>());
        }

        static List<ProtoTree> trees(List<Node> nodes) {
            List<ProtoTree> out = new ArrayList<>(nodes.size());
            for (Node n : nodes) {
                ProtoTree t = n.tree;
                out.add(n.children.isEmpty() ? t
                        : new ProtoTree(t.label, t.start, t.length, t.field, t.header, t.layer, trees(n.children)));
            }
            return out;
        }
    }

    /**
     * The node {@code child} nests under, as Wireshark nests a bitfield under the field holding its
     * bits: the nearest earlier field over the same bytes whose mask covers the child's (a whole
     * byte, mask 0, covers every bit; Syndrome over its OpCode and Credit Count, Flags over Don't
     * fragment) or, for a field repeated over others' bytes, the field at its place (eth.addr under
     * Destination). Null: the child stays at the header's level.
     */
    private static Node parentOf(List<Node> siblings, Node child) {
        Field c = child.field;
        for (int i = siblings.size() - 1; i >= 0; i--) {
            List<Field> members = subtreeMembers(siblings.get(i).field);
            if (members != null && members.contains(c)) {
                return siblings.get(i);
            }
        }
        if (c.isComputed()) {
            return null;
        }
        for (int i = siblings.size() - 1; i >= 0; i--) {
            Node p = siblings.get(i);
            Field pf = p.field;
            if (pf.isComputed() || pf.offsetOf(p.occurrence) != c.offsetOf(child.occurrence)
                    || pf.length() != c.length()) {
                continue;
            }
            Node deeper = parentOf(p.children, child);
            if (deeper != null) {
                return deeper;
            }
            boolean covers = pf.mask() == 0 ? c.mask() != 0 || c.occurrences() > 1
                    : c.mask() != 0 && c.mask() != pf.mask() && (pf.mask() & c.mask()) == c.mask();
            if (covers) {
                return p;
            }
        }
        return null;
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
