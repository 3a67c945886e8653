package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.frame.FrameFields;

import java.util.ArrayList;
import java.util.List;

/**
 * Protocol hierarchy statistics like {@code tshark -q -z io,phs}: a tree of protocols, each with the
 * frames that contain it under its parent and their bytes on the wire ({@code frame.len}); siblings
 * in order of first appearance.
 *
 * <p>A frame's path is its {@code frame.protocols} ({@link FrameFields#protocolsOf}) without
 * {@code ethertype}, which Wireshark lists there but does not show as a protocol of its own in the
 * tree that io,phs walks. That text is computed once per distinct sequence of layer types, not per
 * frame: {@link #add} walks a small trie keyed by the layers' {@link HeaderType}s (by identity), and
 * only a sequence never seen before costs a {@code protocolsOf} call. Counts are kept per sequence
 * and folded into the tree at the end, so a frame costs a few pointer compares and two additions.
 * Shared by {@code summary}, {@code dissect -z io,phs} and the GUI's Statistics → Protocol Hierarchy.
 */
public final class ProtocolHierarchy {

    /** One node of the result: a protocol under its parent, with frames and wire bytes. */
    public record Node(String protocol, long frames, long bytes, List<Node> children) {
    }

    /** Trie over layer types; {@code path} is set on nodes where some frame's layers ended. */
    private static final class Layers {
        private HeaderType[] keys = new HeaderType[2];
        private Layers[] next = new Layers[2];
        private int size;
        private String[] path;
        private long frames;
        private long bytes;

        Layers child(HeaderType type) {
            for (int i = 0; i < size; i++) {
                if (keys[i] == type) {
                    return next[i];
                }
            }
            if (size == keys.length) {
                keys = java.util.Arrays.copyOf(keys, size * 2);
                next = java.util.Arrays.copyOf(next, size * 2);
            }
            keys[size] = type;
            Layers n = new Layers();
            next[size++] = n;
            return n;
        }
    }

    private final Layers root = new Layers();
    /** Layer sequences in order of first appearance: folding them in this order orders siblings like tshark. */
    private final List<Layers> seen = new ArrayList<>();

    /** Counts the frame just dissected into {@code d}, with {@code wireBytes} on the wire. */
    public void add(Dissection d, long wireBytes) {
        Layers n = root;
        for (int i = 0, count = d.layerCount(); i < count; i++) {
            n = n.child(d.layerType(i));
        }
        if (n.path == null) {
            n.path = path(FrameFields.protocolsOf(d));
            seen.add(n);
        }
        n.frames++;
        n.bytes += wireBytes;
    }

    /** {@code frame.protocols} as the list of io,phs levels. */
    private static String[] path(String frameProtocols) {
        List<String> levels = new ArrayList<>();
        for (String p : frameProtocols.split(":")) {
            if (!p.isEmpty() && !p.equals("ethertype")) {
                levels.add(p);
            }
        }
        return levels.toArray(String[]::new);
    }

    /** The top-level protocols with their subtrees. */
    public List<Node> tree() {
        MutableNode top = new MutableNode(null);
        for (Layers l : seen) {
            MutableNode at = top;
            for (String protocol : l.path) {
                at = at.child(protocol);
                at.frames += l.frames;
                at.bytes += l.bytes;
            }
        }
        return top.freeze().children();
    }

    private static final class MutableNode {
        final String protocol;
        long frames;
        long bytes;
        final List<MutableNode> children = new ArrayList<>(2);

        MutableNode(String protocol) {
            this.protocol = protocol;
        }

        MutableNode child(String name) {
            for (MutableNode c : children) {
                if (c.protocol.equals(name)) {
                    return c;
                }
            }
            MutableNode c = new MutableNode(name);
            children.add(c);
            return c;
        }

        Node freeze() {
            return new Node(protocol, frames, bytes, children.stream().map(MutableNode::freeze).toList());
        }
    }

    /**
     * The tree as tshark prints it: two spaces of indent per level, the name padded to 40 columns,
     * then {@code frames:N bytes:N}.
     */
    public static void print(StringBuilder out, List<Node> nodes) {
        print(out, nodes, 0);
    }

    private static void print(StringBuilder out, List<Node> nodes, int depth) {
        for (Node n : nodes) {
            int start = out.length();
            out.append("  ".repeat(depth)).append(n.protocol());
            int width = out.length() - start;
            out.append(" ".repeat(Math.max(1, 41 - width)));
            out.append("frames:").append(n.frames()).append(" bytes:").append(n.bytes()).append('\n');
            print(out, n.children(), depth + 1);
        }
    }
}
