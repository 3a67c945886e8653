package io.rdmascope.filter;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The syntax tree the {@link Parser} builds: tests ({@link Expr}) over values ({@link Value}).
 * Nothing here knows fields or types; the {@link Compiler} resolves names and checks types.
 * Every node keeps the column it starts at, for error messages.
 */
final class Ast {
    private Ast() {
    }

    /** Something that is true or false for a frame. */
    sealed interface Expr permits Or, And, Not, Bare, Compare, In {
    }

    record Or(Expr left, Expr right) implements Expr {
    }

    record And(Expr left, Expr right) implements Expr {
    }

    record Not(Expr operand, int column) implements Expr {
    }

    /** A value standing alone: a field or protocol is tested for presence, {@code a & b} for non-zero. */
    record Bare(Value value) implements Expr {
    }

    /** {@code left OP right} for the comparison operators, {@code contains} and {@code matches}. */
    record Compare(Value left, Token op, Value right) implements Expr {
    }

    /** {@code left in {members}}, or {@code not in}. */
    record In(Value left, boolean negated, List<Member> members, int column) implements Expr {
    }

    /** One member of a set: a value, or a range {@code low..high} (both ends included). */
    record Member(Value low, Value high) {
    }

    /** An operand: a name or literal, a slice, a function call, arithmetic. */
    sealed interface Value permits Word, Str, Chr, Slice, Call, Binary, Negate {
        int column();
    }

    /**
     * A run of name characters: a field or protocol name if the registry knows it, else a literal
     * read by the type it is compared with. {@code layerFrom}..{@code layerTo} is the {@code #N} or
     * {@code #[a-b]} suffix: which instances of the field's header count, from 1 (both 0 when absent).
     */
    record Word(String text, int column, int layerFrom, int layerTo) implements Value {
        boolean hasLayers() {
            return layerFrom > 0;
        }

        String layerSuffix() {
            if (layerFrom == 0) {
                return "";
            }
            if (layerFrom == layerTo) {
                return "#" + layerFrom;
            }
            return "#[" + layerFrom + (layerTo == Integer.MAX_VALUE ? ":" : "-" + layerTo) + "]";
        }
    }

    /** A double-quoted string; {@code bytes} holds one char per byte (escapes decoded unless raw). */
    record Str(String bytes, boolean raw, int column, int length) implements Value {
    }

    /** A character constant such as {@code 'a'} or {@code '\x41'}: an integer. */
    record Chr(long code, String source, int column) implements Value {
    }

    /** {@code base[ranges]}. */
    record Slice(Value base, List<Range> ranges, String source, int column) implements Value {
    }

    /**
     * One byte range of a slice: {@code start} (negative counts from the end) and {@code length}
     * ({@link #TO_END} for {@code [i:]}).
     */
    record Range(int start, int length) {
        static final int TO_END = -1;
    }

    record Call(String name, List<Value> args, int column) implements Value {
    }

    /** Arithmetic or bitwise AND; {@code op} is a PLUS, MINUS, STAR, SLASH, PERCENT or BITAND token. */
    record Binary(Token op, Value left, Value right) implements Value {
        public int column() {
            return left.column();
        }
    }

    record Negate(Value operand, int column) implements Value {
    }

    /** The tree with every grouping made explicit, for tests and {@code DisplayFilter.describe()}. */
    static String show(Expr e) {
        if (e instanceof Or o) {
            return "(" + show(o.left()) + " || " + show(o.right()) + ")";
        } else if (e instanceof And a) {
            return "(" + show(a.left()) + " && " + show(a.right()) + ")";
        } else if (e instanceof Not n) {
            return "!" + show(n.operand());
        } else if (e instanceof Bare b) {
            return show(b.value());
        } else if (e instanceof Compare c) {
            return show(c.left()) + " " + symbol(c.op()) + " " + show(c.right());
        }
        In i = (In) e;
        return show(i.left()) + (i.negated() ? " not in {" : " in {") + i.members().stream()
                .map(m -> m.high() == null ? show(m.low()) : show(m.low()) + ".." + show(m.high()))
                .collect(Collectors.joining(", ")) + "}";
    }

    static String show(Value v) {
        if (v instanceof Word w) {
            return w.text() + w.layerSuffix();
        } else if (v instanceof Str s) {
            return (s.raw() ? "r\"" : "\"") + escape(s.bytes()) + "\"";
        } else if (v instanceof Chr c) {
            return c.source();
        } else if (v instanceof Slice s) {
            return show(s.base()) + "[" + s.ranges().stream()
                    .map(r -> r.start() + ":" + (r.length() == Range.TO_END ? "" : Integer.toString(r.length())))
                    .collect(Collectors.joining(",")) + "]";
        } else if (v instanceof Call c) {
            return c.name() + "(" + c.args().stream().map(Ast::show).collect(Collectors.joining(", ")) + ")";
        } else if (v instanceof Binary b) {
            return "{" + show(b.left()) + " " + symbol(b.op()) + " " + show(b.right()) + "}";
        }
        return "-" + show(((Negate) v).operand());
    }

    /** One spelling per operator, so that {@code eq} and {@code ==} read the same. */
    private static String symbol(Token op) {
        return switch (op.kind()) {
            case EQ -> "==";
            case NE -> "!=";
            case ALL_EQ -> "===";
            case ANY_NE -> "!==";
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            case GE -> ">=";
            case CONTAINS -> "contains";
            case MATCHES -> "matches";
            case BITAND -> "&";
            default -> op.text();
        };
    }

    private static String escape(String bytes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bytes.length(); i++) {
            char c = bytes.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7E) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
