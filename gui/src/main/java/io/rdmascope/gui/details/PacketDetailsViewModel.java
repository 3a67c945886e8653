package io.rdmascope.gui.details;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FilterSyntaxException;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;
import io.rdmascope.text.ProtoTree;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

import io.rdmascope.replay.AnalysisTree;
import io.rdmascope.replay.FrameAnalysis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The detail tree and the hex pane of the selected frame, which share one state: the frame's tree
 * ({@link ProtoTree}, built only for this frame), its bytes, and the selected node, whose byte span
 * is the hex pane's highlight. Clicking a byte selects the deepest node covering it.
 *
 * <p>As in Wireshark, moving to another frame keeps the selected field when the new frame has it,
 * and remembers which subtrees were open.
 */
public final class PacketDetailsViewModel {
    /** A highlighted byte range of the frame. */
    public record Span(int start, int length) {
        public boolean contains(int offset) {
            return offset >= start && offset < start + length;
        }
    }

    private final FilterCompiler compiler;
    private final ReadOnlyIntegerWrapper frame = new ReadOnlyIntegerWrapper(this, "frame");
    private final ReadOnlyObjectWrapper<List<ProtoTree>> tree = new ReadOnlyObjectWrapper<>(this, "tree", List.of());
    private final ReadOnlyObjectWrapper<byte[]> bytes = new ReadOnlyObjectWrapper<>(this, "bytes", new byte[0]);
    private final ReadOnlyObjectWrapper<ProtoTree> selectedNode = new ReadOnlyObjectWrapper<>(this, "selectedNode");
    private final ReadOnlyObjectWrapper<Span> highlight = new ReadOnlyObjectWrapper<>(this, "highlight");
    private final Set<String> expanded = new HashSet<>();
    private final FrameSelection selection;
    /** The analysis items behind the shown frame's [RDMA analysis] nodes (by identity: labels repeat). */
    private final Map<ProtoTree, AnalysisTree.Item> analysisItems = new IdentityHashMap<>();
    private FrameDecoder decoder;
    private FrameAnalysis analysis;

    public PacketDetailsViewModel(FrameSelection selection, FilterCompiler compiler) {
        this.compiler = compiler;
        this.selection = selection;
        selection.current().addListener((o, was, now) -> show(now.intValue()));
        selectedNode.addListener((o, was, now) ->
                highlight.set(now == null || now.length() <= 0 ? null : new Span(now.start(), now.length())));
    }

    /** Reads frames from a new capture; shows nothing until a frame is selected. */
    public void open(FrameIndex index, DissectorChain chain) {
        decoder = new FrameDecoder(index, chain);
        analysis = null;
        show(0);
    }

    /**
     * The finished replay of the open capture (null: none yet): each frame's tree then ends with an
     * {@code [RDMA analysis]} node, as {@code dissect -V} prints it, whose frame links can be followed.
     */
    public void useAnalysis(FrameAnalysis replayed) {
        analysis = replayed;
        show(frame.get());
    }

    public ReadOnlyIntegerProperty frame() {
        return frame.getReadOnlyProperty();
    }

    /** Top nodes of the shown frame's tree, one per protocol; empty when no frame is shown. */
    public ReadOnlyObjectProperty<List<ProtoTree>> tree() {
        return tree.getReadOnlyProperty();
    }

    /** The shown frame's captured bytes (a copy, owned by this view model). */
    public ReadOnlyObjectProperty<byte[]> bytes() {
        return bytes.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<ProtoTree> selectedNode() {
        return selectedNode.getReadOnlyProperty();
    }

    /** Bytes to highlight in the hex pane: the selected node's span, or null. */
    public ReadOnlyObjectProperty<Span> highlight() {
        return highlight.getReadOnlyProperty();
    }

    /** Shows frame {@code number} (0: nothing). */
    public void show(int number) {
        ProtoTree was = selectedNode.get();
        if (decoder == null || number <= 0 || number > decoder.index().count()) {
            frame.set(0);
            selectedNode.set(null);
            tree.set(List.of());
            bytes.set(new byte[0]);
            return;
        }
        Dissection d = decoder.dissect(number);
        List<ProtoTree> roots = new ArrayList<>(ProtoTree.build(d));
        selectedNode.set(null);
        bytes.set(d.frame().toByteArray());
        analysisItems.clear();
        if (analysis != null) {
            // after the frame's bytes are copied: naming a retransmitted frame dissects that one (d is reused)
            List<AnalysisTree.Item> items = AnalysisTree.of(analysis, number,
                    f -> f > 0 && f < number ? AnalysisTree.bthPsn(decoder.dissect((int) f)) : -1);
            if (!items.isEmpty()) {
                roots.add(new ProtoTree(AnalysisTree.TITLE, 0, 0, null, null, -1, analysisNodes(items)));
            }
        }
        tree.set(List.copyOf(roots));
        frame.set(number);
        if (was != null) {
            selectedNode.set(sameNode(roots, was));
        }
    }

    private List<ProtoTree> analysisNodes(List<AnalysisTree.Item> items) {
        List<ProtoTree> nodes = new ArrayList<>(items.size());
        for (AnalysisTree.Item item : items) {
            ProtoTree node = new ProtoTree(item.label(), 0, 0, null, null, -1, analysisNodes(item.children()));
            analysisItems.put(node, item);
            nodes.add(node);
        }
        return nodes;
    }

    /** The frame an analysis line points to ("[Retransmission of frame: 7]"), or 0. */
    public long linkOf(ProtoTree node) {
        AnalysisTree.Item item = node == null ? null : analysisItems.get(node);
        return item == null ? 0 : item.link();
    }

    /** Goes to the frame {@code node} links to, as a click on a Wireshark frame link; false when it links none. */
    public boolean followLink(ProtoTree node) {
        long link = linkOf(node);
        if (link <= 0 || decoder == null || link > decoder.index().count()) {
            return false;
        }
        selection.select((int) link);
        return true;
    }

    /** Selects a node of the tree (null: none); its bytes light up. */
    public void selectNode(ProtoTree node) {
        selectedNode.set(node);
    }

    /** A click on byte {@code offset} of the hex pane: selects the deepest node covering it. */
    public void selectByte(int offset) {
        selectedNode.set(nodeAt(tree.get(), offset));
    }

    /**
     * The node a click on byte {@code offset} means: the deepest node covering it, and among nodes
     * of the same depth the narrowest, then the first (so a click on the UDP source port selects
     * {@code udp.srcport}, not the {@code udp.port} that repeats it further down).
     */
    static ProtoTree nodeAt(List<ProtoTree> nodes, int offset) {
        ProtoTree best = null;
        int bestDepth = -1;
        for (ProtoTree n : nodes) {
            if (n.length() > 0 && offset >= n.start() && offset < n.start() + n.length()) {
                ProtoTree deeper = nodeAt(n.children(), offset);
                ProtoTree candidate = deeper != null ? deeper : n;
                int depth = depthOf(n, candidate);
                if (best == null || depth > bestDepth
                        || depth == bestDepth && candidate.length() < best.length()) {
                    best = candidate;
                    bestDepth = depth;
                }
            }
        }
        return best;
    }

    private static int depthOf(ProtoTree from, ProtoTree target) {
        if (from == target) {
            return 0;
        }
        for (ProtoTree c : from.children()) {
            int d = depthOf(c, target);
            if (d >= 0) {
                return d + 1;
            }
        }
        return -1;
    }

    // ---- remembered expansion ---------------------------------------------------------------------

    /** A key naming a node across frames: its field, header or protocol name. */
    public static String keyOf(ProtoTree node) {
        if (node.field() != null) {
            return node.field().abbrev();
        }
        if (node.header() != null) {
            return node.header().abbrev();
        }
        return "protocol:" + node.label().split(",")[0];
    }

    public boolean isExpanded(ProtoTree node) {
        return expanded.contains(keyOf(node));
    }

    public void setExpanded(ProtoTree node, boolean open) {
        if (open) {
            expanded.add(keyOf(node));
        } else {
            expanded.remove(keyOf(node));
        }
    }

    /** The path from a top node down to {@code node}, or empty when it is not in the tree. */
    public List<ProtoTree> pathTo(ProtoTree node) {
        List<ProtoTree> path = new ArrayList<>();
        for (ProtoTree root : tree.get()) {
            if (findPath(root, node, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean findPath(ProtoTree at, ProtoTree node, List<ProtoTree> path) {
        path.add(at);
        if (at == node) {
            return true;
        }
        for (ProtoTree c : at.children()) {
            if (findPath(c, node, path)) {
                return true;
            }
        }
        path.remove(path.size() - 1);
        return false;
    }

    private static ProtoTree sameNode(List<ProtoTree> roots, ProtoTree was) {
        String key = keyOf(was);
        for (ProtoTree r : roots) {
            ProtoTree found = find(r, key);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static ProtoTree find(ProtoTree at, String key) {
        if (keyOf(at).equals(key)) {
            return at;
        }
        for (ProtoTree c : at.children()) {
            ProtoTree f = find(c, key);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    // ---- filters and columns from the tree ---------------------------------------------------------

    /**
     * The display filter that selects frames like this one at {@code node}, as Wireshark's "Apply as
     * Filter → Selected": {@code field == value} for a field, the header's or protocol's name for the
     * others. Falls back to the bare name when the value cannot be written as a literal.
     */
    public String filterFor(ProtoTree node) {
        if (node == null) {
            return "";
        }
        AnalysisTree.Item analysed = analysisItems.get(node);
        if (analysed != null) {
            return analysed.field() == null ? "" : analysed.field(); // presence: the frames the replay marked so
        }
        if (node.field() == null) {
            if (node.header() != null) {
                return node.header().abbrev();
            }
            for (ProtoTree c : node.children()) {
                if (c.header() != null) {
                    return c.header().protocol().abbrev();
                }
            }
            return "";
        }
        Field f = node.field();
        String name = f.abbrev();
        if (f.type() == FieldType.NONE || f.type() == FieldType.PROTOCOL) {
            return name;
        }
        String value = valueText(node);
        if (value == null) {
            return name;
        }
        String candidate = name + " == " + value;
        try {
            compiler.compile(candidate);
            return candidate;
        } catch (FilterSyntaxException | RuntimeException e) {
            return name;
        }
    }

    /** The field name of a node, for "Apply as Column"; null for nodes that are not fields. */
    public String columnFieldFor(ProtoTree node) {
        return node == null || node.field() == null ? null : node.field().abbrev();
    }

    private String valueText(ProtoTree node) {
        Dissection d = decoder.dissect(frame.get());
        Field f = node.field();
        int layer = node.layer();
        if (layer < 0 || layer >= d.layerCount()) {
            return null;
        }
        int k = 0;
        if (!f.isComputed()) {
            int at = d.layerStart(layer);
            int n = f.capturedOccurrences(d, layer);
            for (int i = 0; i < n; i++) {
                if (at + f.offsetOf(i) == node.start()) {
                    k = i;
                    break;
                }
            }
        }
        AsciiSink sink = new AsciiSink(64);
        FieldText.appendValue(sink, f, d, layer, k);
        String text = sink.toString();
        if (text.isEmpty()) {
            return null;
        }
        return switch (f.type()) {
            case STRING, ABSOLUTE_TIME -> quote(text);
            case BYTES -> colons(text);
            default -> text;
        };
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** "0a1b2c" → "0a:1b:2c": the byte-string literal. */
    private static String colons(String hex) {
        if (hex.length() % 2 != 0 || hex.length() == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder(hex.length() * 3 / 2);
        for (int i = 0; i < hex.length(); i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(hex, i, i + 2);
        }
        return sb.toString();
    }
}
