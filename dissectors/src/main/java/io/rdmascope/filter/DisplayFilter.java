package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;

import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/**
 * A compiled display filter in Wireshark's language ({@code docs/filters.md}):
 * {@code infiniband.bth.opcode == 4 && ip.src == 10.0.0.0/24}. Compiled once, with every name
 * resolved and every literal read and type-checked; {@link #matches} then tests dissected frames
 * on the fast path, reading field values straight from the frame's buffer.
 *
 * <pre>{@code
 * DisplayFilter f = DisplayFilter.compile("infiniband.aeth.syndrome.opcode == Nak");
 * chain.dissect(frame, d);
 * if (f.matches(d)) { ... }
 * }</pre>
 *
 * <p>Pitfalls: a compiled filter keeps cursors between calls, so it belongs to one thread at a
 * time, like a {@link Dissection}; give other threads a {@link #copy()}. Fields whose values depend
 * on earlier frames ({@code frame.time_delta}, {@code frame.time_relative}) read what the
 * dissection knows, so dissect every frame in order through one {@code Dissection}, filtered or
 * not.
 */
public final class DisplayFilter {
    private final String text;
    private final Ast.Expr tree;
    private final Node root;
    private final FieldRegistry registry;
    private final List<? extends FilterFieldProvider> providers;
    private final ZoneId zone;

    private DisplayFilter(String text, Ast.Expr tree, Node root, FieldRegistry registry,
                          List<? extends FilterFieldProvider> providers, ZoneId zone) {
        this.text = text;
        this.tree = tree;
        this.root = root;
        this.registry = registry;
        this.providers = providers;
        this.zone = zone;
    }

    /** Compiles {@code text} against every field the dissectors declare. */
    public static DisplayFilter compile(String text) throws FilterException {
        return compile(text, FieldRegistry.standard(), List.of());
    }

    /**
     * Compiles {@code text} against {@code registry}, asking {@code providers} (in order) for names the
     * registry does not know. A blank text matches every frame. Absolute times without a zone are
     * read in the system's time zone, as Wireshark shows {@code frame.time}.
     */
    public static DisplayFilter compile(String text, FieldRegistry registry,
                                        List<? extends FilterFieldProvider> providers) throws FilterException {
        return compile(text, registry, providers, ZoneId.systemDefault());
    }

    static DisplayFilter compile(String text, FieldRegistry registry, List<? extends FilterFieldProvider> providers,
                                 ZoneId zone) throws FilterException {
        Objects.requireNonNull(text, "text");
        List<? extends FilterFieldProvider> frozen = List.copyOf(providers);
        Ast.Expr tree = Parser.parse(text);
        Node root = tree == null ? new Node.Always() : new Compiler(registry, frozen, zone).compile(tree);
        return new DisplayFilter(text, tree, root, registry, frozen, zone);
    }

    /** Whether the frame dissected into {@code d} passes the filter. */
    public boolean matches(Dissection d) {
        return root.eval(d);
    }

    /** The filter as written. */
    public String text() {
        return text;
    }

    /** True for a blank filter, which every frame passes. */
    public boolean matchesEverything() {
        return tree == null;
    }

    /**
     * The parsed filter with every grouping explicit, for showing how it was read:
     * {@code "a or b and c"} describes as {@code "(a || (b && c))"}.
     */
    public String describe() {
        return tree == null ? "" : Ast.show(tree);
    }

    /** The same filter with cursors of its own, for another thread. */
    public DisplayFilter copy() {
        try {
            return compile(text, registry, providers, zone);
        } catch (FilterException e) {
            throw new IllegalStateException("a compiled filter failed to compile again: " + text, e);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
