package io.rdmascope.filter;

import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.ValueNames;
import io.rdmascope.filter.Ast.Binary;
import io.rdmascope.filter.Ast.Call;
import io.rdmascope.filter.Ast.Chr;
import io.rdmascope.filter.Ast.Expr;
import io.rdmascope.filter.Ast.Negate;
import io.rdmascope.filter.Ast.Slice;
import io.rdmascope.filter.Ast.Str;
import io.rdmascope.filter.Ast.Value;
import io.rdmascope.filter.Ast.Word;
import io.rdmascope.filter.Node.Constant;
import io.rdmascope.filter.Node.Domain;
import io.rdmascope.filter.Node.Relation;
import io.rdmascope.filter.Operand.Kind;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Turns the syntax tree into {@link Node}s: resolves names (the registry first, then the
 * {@link FilterFieldProvider}s), checks that every operator suits the types it joins, and reads
 * each literal as the type on the other side wants (so {@code 10} is ten for {@code ip.ttl} and the
 * byte 0x10 for {@code frame[0]}). Errors name the column of the offending operand.
 */
final class Compiler {
    private final FieldRegistry registry;
    private final List<? extends FilterFieldProvider> providers;
    private final ZoneId zone;

    Compiler(FieldRegistry registry, List<? extends FilterFieldProvider> providers, ZoneId zone) {
        this.registry = registry;
        this.providers = providers;
        this.zone = zone;
    }

    Node compile(Expr e) throws FilterException {
        if (e instanceof Ast.Or o) {
            return new Node.Or(compile(o.left()), compile(o.right()));
        } else if (e instanceof Ast.And a) {
            return new Node.And(compile(a.left()), compile(a.right()));
        } else if (e instanceof Ast.Not n) {
            return new Node.Not(compile(n.operand()));
        } else if (e instanceof Ast.Bare b) {
            return bare(b.value());
        } else if (e instanceof Ast.Compare c) {
            return compare(c);
        }
        return in((Ast.In) e);
    }

    // ---- tests ----------------------------------------------------------------------------------

    private Node bare(Value v) throws FilterException {
        if (v instanceof Binary b && b.op().kind() == Token.Kind.BITAND && !isConstant(v)) {
            return new Node.NonZero(operand(v));
        }
        if (isConstant(v)) {
            throw notATest(v);
        }
        if (v instanceof Binary || v instanceof Negate) {
            throw new FilterException(v.column(), "arithmetic alone is not a test; compare it, as in "
                    + Ast.show(v) + " > 0");
        }
        return new Node.Exists(operand(v));
    }

    private FilterException notATest(Value v) {
        if (v instanceof Word w && looksLikeName(w.text())) {
            return unknownName(w);
        }
        return new FilterException(v.column(), Ast.show(v) + " is a value, not a field or protocol; "
                + "a filter tests fields, as in frame.len == 60");
    }

    private Node compare(Ast.Compare c) throws FilterException {
        Token op = c.op();
        Operand left = leftOperand(c.left(), op);
        if (op.kind() == Token.Kind.CONTAINS) {
            return contains(left, c.left(), c.right(), op);
        }
        if (op.kind() == Token.Kind.MATCHES) {
            return matches(left, c.left(), c.right(), op);
        }
        if (left.kind == Kind.NONE) {
            throw new FilterException(c.left().column(), left.label + " has no value of its own to compare; "
                    + "test it alone for presence, or compare one of its fields");
        }
        Relation relation;
        boolean all = false;
        switch (op.kind()) {
            case EQ -> relation = Relation.EQ;
            case NE -> {
                relation = Relation.NE;
                all = true; // tshark 4.0: "!=" is all_ne
            }
            case ALL_EQ -> {
                relation = Relation.EQ;
                all = true;
            }
            case ANY_NE -> relation = Relation.NE;
            case LT -> relation = Relation.LT;
            case LE -> relation = Relation.LE;
            case GT -> relation = Relation.GT;
            default -> relation = Relation.GE;
        }
        if (isConstant(c.right())) {
            return new Node.CompareConstant(left, relation, all, constant(c.right(), left));
        }
        Operand right = operand(c.right());
        return new Node.CompareOperands(left, relation, all, right, domain(left, right, c.right(), op));
    }

    /** The left side of a comparison: never a literal (tshark refuses {@code 1 == frame.len} too). */
    private Operand leftOperand(Value v, Token op) throws FilterException {
        if (isConstant(v)) {
            if (v instanceof Word w && looksLikeName(w.text())) {
                throw unknownName(w);
            }
            throw new FilterException(v.column(), "the left side of '" + op.text() + "' must be a field, a "
                    + "protocol, a slice or a function, not the value " + Ast.show(v));
        }
        return operand(v);
    }

    private Node contains(Operand left, Value leftValue, Value right, Token op) throws FilterException {
        boolean text = left.kind == Kind.STRING && !left.sliced;
        if (!left.sliced && !(left.kind == Kind.BYTES || left.kind == Kind.ETHER || left.kind == Kind.PROTOCOL
                || text)) {
            throw new FilterException(leftValue.column(), "'contains' needs bytes, a MAC "
                    + "address, a protocol or a string on its left; " + left.label + " is " + phrase(left));
        }
        if (isConstant(right)) {
            if (text) {
                return new Node.ContainsText(left, textLiteral(right));
            }
            if (left.kind == Kind.ETHER && right instanceof Str) {
                throw new FilterException(right.column(), left.label + " is a MAC address; it contains bytes "
                        + "(as 1e:67), not a string");
            }
            return new Node.ContainsBytes(left, bytesLiteral(right));
        }
        Operand r = operand(right);
        Domain domain = domain(left, r, right, op);
        if (domain != Domain.BYTES && domain != Domain.TEXT) {
            throw new FilterException(right.column(), "'contains' needs bytes or strings on both sides; "
                    + r.label + " is " + phrase(r));
        }
        return new Node.ContainsOperand(left, r, domain == Domain.TEXT);
    }

    private Node matches(Operand left, Value leftValue, Value right, Token op) throws FilterException {
        boolean text = left.kind == Kind.STRING && !left.sliced;
        if (!left.sliced && !(left.kind == Kind.BYTES || left.kind == Kind.ETHER || left.kind == Kind.PROTOCOL
                || text)) {
            throw new FilterException(leftValue.column(), "'" + op.text() + "' needs a "
                    + "string, bytes or a protocol on its left; " + left.label + " is " + phrase(left));
        }
        if (!(right instanceof Str s)) {
            throw new FilterException(right.column(), "'" + op.text() + "' needs a regular expression in "
                    + "double quotes on its right");
        }
        // Strings match as text; bytes one char per byte, so "\xb7" finds the byte 0xb7.
        String regex = text ? new String(s.bytes().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)
                : s.bytes();
        try {
            // tshark 4.0 matches case-insensitively unless the expression says (?-i).
            return new Node.Matches(left, Pattern.compile(regex, Pattern.CASE_INSENSITIVE
                    | (text ? Pattern.UNICODE_CASE : 0)));
        } catch (PatternSyntaxException e) {
            throw new FilterException(right.column(), "the regular expression does not compile: "
                    + e.getDescription() + (e.getIndex() >= 0 ? " (at character " + (e.getIndex() + 1) + ")" : ""));
        }
    }

    private Node in(Ast.In in) throws FilterException {
        Operand left = leftOperand(in.left(), new Token(Token.Kind.IN, "in", in.column(), 2, 0));
        if (left.kind == Kind.NONE) {
            throw new FilterException(in.left().column(), left.label + " has no value of its own; it can only "
                    + "be tested for presence");
        }
        List<Ast.Member> members = in.members();
        Constant[] lows = new Constant[members.size()];
        Constant[] highs = new Constant[members.size()];
        Operand[] fields = new Operand[members.size()];
        Domain[] domains = new Domain[members.size()];
        for (int i = 0; i < lows.length; i++) {
            Ast.Member m = members.get(i);
            if (!isConstant(m.low())) {
                // tshark 4.0 takes fields as members too: {udp.srcport, 4791}
                if (m.high() != null) {
                    throw new FilterException(m.low().column(), "a range needs values at both ends; "
                            + Ast.show(m.low()) + " is not a value");
                }
                fields[i] = operand(m.low());
                domains[i] = domain(left, fields[i], m.low(), new Token(Token.Kind.IN, "in", in.column(), 2, 0));
                continue;
            }
            lows[i] = constant(m.low(), left);
            if (m.high() != null) {
                if (!isConstant(m.high())) {
                    throw new FilterException(m.high().column(), "a range needs values at both ends; "
                            + Ast.show(m.high()) + " is not a value");
                }
                highs[i] = constant(m.high(), left);
            }
        }
        Node set = new Node.InSet(left, lows, highs, fields, domains);
        return in.negated() ? new Node.Not(set) : set;
    }

    // ---- operands -------------------------------------------------------------------------------

    /** True when {@code v} names no field: a literal, or arithmetic of literals. */
    private boolean isConstant(Value v) {
        if (v instanceof Word w) {
            return resolve(w.text()) == null;
        } else if (v instanceof Str || v instanceof Chr) {
            return true;
        } else if (v instanceof Negate n) {
            return isConstant(n.operand());
        } else if (v instanceof Binary b) {
            return isConstant(b.left()) && isConstant(b.right());
        } else if (v instanceof Slice s) {
            return isConstant(s.base());
        }
        return false;
    }

    private Operand operand(Value v) throws FilterException {
        if (v instanceof Word w) {
            Operand o = named(w);
            if (o == null) {
                throw notATest(v);
            }
            return o;
        } else if (v instanceof Slice s) {
            if (isConstant(s.base())) {
                throw new FilterException(s.column(), "only fields, protocols and slices can be sliced, not "
                        + Ast.show(s.base()));
            }
            Operand base = operand(s.base());
            if (!base.sliced && !base.kind.isSliceable()) {
                throw new FilterException(s.column(), base.label + " is " + phrase(base) + " and cannot be "
                        + "sliced; slices cut bytes, addresses, strings and protocols");
            }
            return new Operands.SliceValue(base, s.ranges(), base.label + "[" + s.source() + "]");
        } else if (v instanceof Call c) {
            return function(c);
        } else if (v instanceof Binary b) {
            return arithmetic(b);
        } else if (v instanceof Negate n) {
            Operand base = operand(n.operand());
            requireInteger(base, n.operand(), "'-'");
            return new Operands.NegatedValue(base);
        }
        throw notATest(v);
    }

    private Operand arithmetic(Binary b) throws FilterException {
        boolean leftConstant = isConstant(b.left());
        Operand left = leftConstant ? null : operand(b.left());
        Operand right = isConstant(b.right()) ? null : operand(b.right());
        Operand typed = left != null ? left : right;
        String label = "{" + Ast.show(b) + "}";
        if (b.op().kind() == Token.Kind.BITAND && (typed.sliced || typed.kind == Kind.BYTES)) {
            if (left == null || right != null) {
                throw new FilterException(b.column(), "'&' on bytes needs the bytes on its left and a byte "
                        + "string on its right, as frame[0] & 80");
            }
            return new Operands.MaskedBytesValue(left, bytesLiteral(b.right()), label);
        }
        requireInteger(typed, left != null ? b.left() : b.right(), "'" + b.op().text() + "'");
        if (left == null) {
            left = new Operands.ConstantValue(Kind.INT, integerLiteral(b.left(), right, true), Ast.show(b.left()));
        }
        if (right == null) {
            long divisor = integerLiteral(b.right(), left, true);
            if (divisor == 0 && (b.op().kind() == Token.Kind.SLASH || b.op().kind() == Token.Kind.PERCENT)) {
                throw new FilterException(b.right().column(), "division by zero");
            }
            right = new Operands.ConstantValue(Kind.INT, divisor, Ast.show(b.right()));
        } else {
            requireInteger(right, b.right(), "'" + b.op().text() + "'");
        }
        boolean unsignedResult = b.op().kind() == Token.Kind.BITAND && left.kind == Kind.UINT;
        return new Operands.ArithmeticValue(unsignedResult ? Kind.UINT : Kind.INT, b.op().kind(), left, right, label);
    }

    private static void requireInteger(Operand o, Value at, String op) throws FilterException {
        if (!o.kind.isInteger()) {
            throw new FilterException(at.column(), op + " needs integers; " + o.label + " is " + phrase(o));
        }
    }

    private Operand function(Call c) throws FilterException {
        String name = c.name();
        if (!List.of("len", "count", "upper", "lower").contains(name)) {
            throw new FilterException(c.column(), "unknown function '" + name + "' (there are len, count, upper "
                    + "and lower)");
        }
        if (c.args().size() != 1) {
            throw new FilterException(c.column(), name + "() takes one argument, not " + c.args().size());
        }
        Value arg = c.args().get(0);
        if (isConstant(arg)) {
            throw new FilterException(arg.column(), name + "() takes a field, not the value " + Ast.show(arg));
        }
        Operand base = operand(arg);
        switch (name) {
            case "len" -> {
                if (!base.sliced && !base.kind.isSliceable()) {
                    throw new FilterException(arg.column(), "len() measures bytes, addresses, strings and "
                            + "protocols; " + base.label + " is " + phrase(base));
                }
                return new Operands.LengthValue(base);
            }
            case "count" -> {
                if (!base.isName) {
                    throw new FilterException(arg.column(), "count() counts the values of a field; give it a "
                            + "field name");
                }
                return new Operands.CountValue(base);
            }
            default -> {
                if (base.kind != Kind.STRING || base.sliced) {
                    throw new FilterException(arg.column(), name + "() takes a string; " + base.label + " is "
                            + phrase(base));
                }
                return new Operands.CaseValue(base, name.equals("upper"));
            }
        }
    }

    /** The operand a name stands for, or null when neither the registry nor a provider knows it. */
    private Operand named(Word w) throws FilterException {
        Object target = resolve(w.text());
        if (target == null) {
            return null;
        }
        if (target instanceof FieldRegistry.FieldEntry fe) {
            return new Operands.FieldValue(fe, w);
        } else if (target instanceof FieldRegistry.HeaderEntry he) {
            // SLL and SLL2 share the name "sll": every header type so named counts.
            List<HeaderType> same = new ArrayList<>();
            for (HeaderType h : registry.headerTypes()) {
                if (h.abbrev().equals(he.abbrev())) {
                    same.add(h);
                }
            }
            return new Operands.HeaderValue(Kind.of(he.header().selfType()), w, same);
        } else if (target instanceof FieldRegistry.ProtocolEntry pe) {
            if (w.hasLayers()) {
                throw new FilterException(w.column() + w.text().length(), "a layer number needs a field or a "
                        + "header; " + w.text() + " spans several headers");
            }
            return new Operands.ProtocolValue(pe.abbrev(), pe.headers());
        }
        ProvidedField pf = (ProvidedField) target;
        if (w.hasLayers()) {
            throw new FilterException(w.column() + w.text().length(), "a layer number needs a dissected field; "
                    + w.text() + " is supplied per frame");
        }
        Kind kind = Kind.of(pf.type());
        return new Operands.ProvidedValue(w.text(), pf, kind == Kind.PROTOCOL ? Kind.NONE : kind);
    }

    /** A registry entry or a {@link ProvidedField} named {@code name}, or null. */
    private Object resolve(String name) {
        FieldRegistry.Entry e = registry.lookup(name);
        if (e != null) {
            return e;
        }
        for (FilterFieldProvider p : providers) {
            ProvidedField f = p.field(name);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    private static boolean looksLikeName(String text) {
        return !text.isEmpty() && (Character.isLetter(text.charAt(0)) || text.charAt(0) == '_')
                && text.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '.'
                || c == '-'));
    }

    private FilterException unknownName(Word w) {
        String suggestion = Suggest.closest(w.text(), registry, providers);
        return new FilterException(w.column(), "unknown field '" + w.text() + "'"
                + (suggestion != null ? " (did you mean '" + suggestion + "'?)" : ""));
    }

    private static Domain domain(Operand a, Operand b, Value at, Token op) throws FilterException {
        Domain d = domainOf(a, b);
        if (d == null) {
            String hint = "";
            if (at instanceof Word w && !w.hasLayers() && (a.kind == Kind.STRING
                    || a.names != null && a.names.valueOf(w.text()) != null)) {
                // A bare word that names a field is the field, as in tshark; quotes make it a value.
                hint = "; to mean the " + (a.kind == Kind.STRING ? "text" : "value name") + ", quote it: \""
                        + w.text() + "\"";
            }
            throw new FilterException(at.column(), a.label + " (" + a.kind.phrase + ") and " + b.label + " ("
                    + b.kind.phrase + ") cannot be compared with '" + op.text() + "'" + hint);
        }
        return d;
    }

    /** How two operands compare, or null when Wireshark would call their types incompatible. */
    static Domain domainOf(Operand a, Operand b) {
        Kind x = a.kind;
        Kind y = b.kind;
        if (x == Kind.NONE || y == Kind.NONE) {
            return null;
        }
        if (!a.sliced && !b.sliced) {
            if (x.isInteger() && y.isInteger()) {
                return x == Kind.UINT && y == Kind.UINT ? Domain.UNSIGNED : Domain.SIGNED;
            }
            if (x == Kind.BOOL && y == Kind.BOOL) {
                return Domain.BOOL;
            }
            if (x == y && (x == Kind.REL_TIME || x == Kind.ABS_TIME)) {
                return Domain.SIGNED;
            }
            if (x == Kind.IPV4 && y == Kind.IPV4) {
                return Domain.UNSIGNED;
            }
            if (x == Kind.STRING && y == Kind.STRING) {
                return Domain.TEXT;
            }
            boolean etherOrBytes = (x == Kind.ETHER || x == Kind.BYTES) && (y == Kind.ETHER || y == Kind.BYTES);
            return x == y && x.isSliceable() || etherOrBytes ? Domain.BYTES : null;
        }
        boolean bytesX = a.sliced || x.isSliceable();
        boolean bytesY = b.sliced || y.isSliceable();
        return bytesX && bytesY ? Domain.BYTES : null;
    }

    // ---- literals -------------------------------------------------------------------------------

    /**
     * The constant {@code v} as the type of {@code target} reads it. A dotted word that reads as no
     * value is most likely a misspelt field, and is reported as one.
     */
    private Constant constant(Value v, Operand target) throws FilterException {
        try {
            return literal(v, target);
        } catch (FilterException e) {
            if (v instanceof Word w && looksLikeName(w.text()) && w.text().indexOf('.') > 0) {
                throw unknownName(w);
            }
            throw e;
        }
    }

    private Constant literal(Value v, Operand target) throws FilterException {
        if (target.sliced || target.kind == Kind.BYTES || target.kind == Kind.PROTOCOL) {
            return new Node.BytesConstant(bytesLiteral(v), -1);
        }
        switch (target.kind) {
            case UINT -> {
                return new Node.LongConstant(integerLiteral(v, target, false), true);
            }
            case INT -> {
                return new Node.LongConstant(integerLiteral(v, target, true), false);
            }
            case BOOL -> {
                return new Node.BoolConstant(booleanLiteral(v, target));
            }
            case REL_TIME -> {
                return new Node.LongConstant(secondsLiteral(v, target), false);
            }
            case ABS_TIME -> {
                String text = v instanceof Str s ? utf8(s.bytes()) : wordText(v, target);
                try {
                    return new Node.LongConstant(Literals.absoluteTime(text, zone), false);
                } catch (IllegalArgumentException e) {
                    throw literalError(v, text, e, target);
                }
            }
            case IPV4 -> {
                String text = wordText(v, target);
                try {
                    long[] a = Literals.ipv4(text);
                    return a[1] == 32 ? new Node.LongConstant(a[0], true) : new Node.NetworkConstant(a[0], (int) a[1]);
                } catch (IllegalArgumentException e) {
                    throw literalError(v, text, e, target);
                }
            }
            case IPV6 -> {
                String text = wordText(v, target);
                try {
                    int[] prefix = new int[1];
                    byte[] a = Literals.ipv6(text, prefix);
                    return new Node.BytesConstant(a, prefix[0] == 128 ? -1 : prefix[0]);
                } catch (IllegalArgumentException e) {
                    throw literalError(v, text, e, target);
                }
            }
            case ETHER -> {
                if (v instanceof Str) {
                    throw new FilterException(v.column(), target.label + " is a MAC address; write it without "
                            + "quotes, as 02:1e:67:00:00:01");
                }
                byte[] b = bytesLiteral(v);
                if (b.length != 6) {
                    throw new FilterException(v.column(), "'" + Ast.show(v) + "' has " + b.length + " byte"
                            + (b.length == 1 ? "" : "s") + "; a MAC address has 6 (compare a slice, "
                            + target.label + "[0:" + b.length + "], for a part)");
                }
                return new Node.BytesConstant(b, -1);
            }
            case STRING -> {
                return new Node.TextConstant(textLiteral(v));
            }
            default -> throw new FilterException(v.column(), target.label + " cannot be compared with a value");
        }
    }

    /** A word's text, for literals that are never quoted (addresses). */
    private static String wordText(Value v, Operand target) throws FilterException {
        if (v instanceof Word w) {
            return w.text();
        }
        if (v instanceof Str) {
            throw new FilterException(v.column(), target.label + " is " + phrase(target) + "; write the value "
                    + "without quotes");
        }
        throw new FilterException(v.column(), Ast.show(v) + " is not " + phrase(target) + " (for "
                + target.label + ")");
    }

    /**
     * An integer for {@code target}: a number, a character constant, a value name (quoted or not),
     * or arithmetic of those; range-checked against the target's type.
     */
    private long integerLiteral(Value v, Operand target, boolean signed) throws FilterException {
        long value = integerValue(v, target, signed);
        if (!signed && target.max != -1 && Long.compareUnsigned(value, target.max) > 0) {
            throw new FilterException(v.column(), Ast.show(v) + " is too big for " + target.label + " (at most "
                    + Long.toUnsignedString(target.max) + ")");
        }
        return value;
    }

    private long integerValue(Value v, Operand target, boolean signed) throws FilterException {
        if (v instanceof Chr c) {
            return c.code();
        }
        if (v instanceof Negate n) {
            if (!signed) {
                throw new FilterException(n.column(), target.label + " is unsigned; " + Ast.show(v)
                        + " is negative");
            }
            return -integerValue(n.operand(), target, true);
        }
        if (v instanceof Binary b) {
            long l = integerValue(b.left(), target, signed);
            long r = integerValue(b.right(), target, signed);
            switch (b.op().kind()) {
                case PLUS -> {
                    return l + r;
                }
                case MINUS -> {
                    long result = l - r;
                    if (!signed && Long.compareUnsigned(l, r) < 0) {
                        throw new FilterException(b.column(), Ast.show(v) + " is negative; " + target.label
                                + " is unsigned");
                    }
                    return result;
                }
                case STAR -> {
                    return l * r;
                }
                case SLASH, PERCENT -> {
                    if (r == 0) {
                        throw new FilterException(b.right().column(), "division by zero");
                    }
                    return b.op().kind() == Token.Kind.SLASH ? Long.divideUnsigned(l, r) : Long.remainderUnsigned(l, r);
                }
                default -> {
                    return l & r;
                }
            }
        }
        String text;
        boolean quoted = v instanceof Str;
        if (v instanceof Str s) {
            text = utf8(s.bytes());
        } else if (v instanceof Word w) {
            text = w.text();
        } else {
            throw new FilterException(v.column(), Ast.show(v) + " is not a number");
        }
        if (!quoted && Literals.looksNumeric(text)) {
            try {
                return Literals.integer(text);
            } catch (IllegalArgumentException e) {
                throw literalError(v, text, e, target);
            }
        }
        ValueNames names = target.names;
        Long named = names != null ? names.valueOf(text) : null;
        if (named != null) {
            return named;
        }
        if (names != null) {
            throw new FilterException(v.column(), "'" + text + "' is neither a number nor a value name of "
                    + target.label);
        }
        throw new FilterException(v.column(), "'" + text + "' is not a number" + (quoted ? " (numbers are "
                + "written without quotes)" : "") + "; " + target.label + " is " + phrase(target));
    }

    private boolean booleanLiteral(Value v, Operand target) throws FilterException {
        String text = v instanceof Str s ? utf8(s.bytes()) : v instanceof Word w ? w.text() : null;
        if (text != null && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))) {
            return text.equalsIgnoreCase("true");
        }
        if (v instanceof Word w && Literals.looksNumeric(w.text())) {
            try {
                return Literals.integer(w.text()) != 0; // as tshark: any number, non-zero is true
            } catch (IllegalArgumentException e) {
                throw literalError(v, w.text(), e, target);
            }
        }
        throw new FilterException(v.column(), Ast.show(v) + " is not a boolean; " + target.label
                + " is 1 (True) or 0 (False)");
    }

    private long secondsLiteral(Value v, Operand target) throws FilterException {
        if (v instanceof Negate n) {
            return -secondsLiteral(n.operand(), target);
        }
        String text = wordText(v, target);
        try {
            return Literals.seconds(text);
        } catch (IllegalArgumentException e) {
            throw literalError(v, text, e, target);
        }
    }

    /** A byte string: hex forms unquoted, any bytes quoted, or a character constant. */
    private static byte[] bytesLiteral(Value v) throws FilterException {
        if (v instanceof Str s) {
            return s.bytes().getBytes(StandardCharsets.ISO_8859_1);
        }
        if (v instanceof Chr c) {
            return new byte[]{(byte) c.code()};
        }
        if (v instanceof Word w) {
            try {
                return Literals.bytes(w.text());
            } catch (IllegalArgumentException e) {
                throw new FilterException(v.column(), "'" + w.text() + "' " + e.getMessage());
            }
        }
        throw new FilterException(v.column(), Ast.show(v) + " is not a byte string");
    }

    /** Text for a string field: a quoted string, or an unquoted word as written (as tshark reads it). */
    private static String textLiteral(Value v) throws FilterException {
        if (v instanceof Str s) {
            return utf8(s.bytes());
        }
        if (v instanceof Word w) {
            return w.text();
        }
        if (v instanceof Chr c) {
            return String.valueOf((char) c.code());
        }
        throw new FilterException(v.column(), Ast.show(v) + " is not a string");
    }

    private static String utf8(String oneCharPerByte) {
        return new String(oneCharPerByte.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static FilterException literalError(Value v, String text, IllegalArgumentException e, Operand target) {
        return new FilterException(v.column(), target.label + " is " + phrase(target) + "; '" + text + "' "
                + e.getMessage());
    }

    static String phrase(Operand o) {
        return o.sliced ? "a byte slice" : o.kind.phrase;
    }
}
