package io.rdmascope.filter;

import io.rdmascope.filter.Ast.Bare;
import io.rdmascope.filter.Ast.Binary;
import io.rdmascope.filter.Ast.Call;
import io.rdmascope.filter.Ast.Chr;
import io.rdmascope.filter.Ast.Compare;
import io.rdmascope.filter.Ast.Expr;
import io.rdmascope.filter.Ast.In;
import io.rdmascope.filter.Ast.Member;
import io.rdmascope.filter.Ast.Range;
import io.rdmascope.filter.Ast.Str;
import io.rdmascope.filter.Ast.Value;
import io.rdmascope.filter.Ast.Word;
import io.rdmascope.filter.Token.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * Recursive descent over the grammar in {@code docs/filters.md}, one method per rule, lowest
 * precedence first (as tshark 4.0: {@code or} below {@code and} below {@code not} below the
 * comparisons, then {@code &}, {@code + -}, {@code * / %}, unary minus, slices):
 *
 * <pre>
 * filter   := [ or ] EOF
 * or       := and { ("or" | "||") and }
 * and      := unary { ("and" | "&amp;&amp;") unary }
 * unary    := ("not" | "!") unary | "(" or ")" | relation
 * relation := arith [ cmp arith | ("not" | "!")? "in" set ]
 * arith    := sum { ("&amp;" | "bitwise_and") sum }
 * sum      := product { ("+" | "-") product }
 * product  := sign { ("*" | "/" | "%") sign }
 * sign     := "-" sign | postfix
 * postfix  := atom { "[" ranges "]" }
 * atom     := WORD [ "#" (N | "[" range "]") ] | WORD "(" [ arith { "," arith } ] ")" | STRING | CHAR | "{" arith "}"
 * set      := "{" member { "," member } "}"        member := sign [ ".." sign ]
 * </pre>
 */
final class Parser {
    private final List<Token> tokens;
    private int current;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** The tree of {@code text}, or null for a blank filter (which matches every frame). */
    static Expr parse(String text) throws FilterException {
        Parser p = new Parser(Lexer.tokens(text));
        if (p.check(Kind.EOF)) {
            return null;
        }
        Expr e = p.or();
        if (!p.check(Kind.EOF)) {
            Token t = p.peek();
            if (t.kind() == Kind.RPAREN) {
                throw new FilterException(t.column(), "')' has no '(' to close");
            }
            if ((isComparison(t.kind()) || isArithmetic(t.kind()))
                    && p.tokens.get(p.current - 1).kind() == Kind.RPAREN) {
                throw new FilterException(t.column(), "parentheses group tests, not values: compare the field "
                        + "itself, and group arithmetic with braces, as {a + b} * 2");
            }
            throw p.unexpected(t, "'and', 'or' or the end of the filter");
        }
        return e;
    }

    // ---- tests ----------------------------------------------------------------------------------

    private Expr or() throws FilterException {
        Expr left = and();
        while (check(Kind.OR)) {
            Token op = advance();
            requireTest(op);
            left = new Ast.Or(left, and());
        }
        return left;
    }

    private Expr and() throws FilterException {
        Expr left = unary();
        while (check(Kind.AND)) {
            Token op = advance();
            requireTest(op);
            left = new Ast.And(left, unary());
        }
        return left;
    }

    private Expr unary() throws FilterException {
        if (check(Kind.NOT)) {
            Token not = advance();
            requireTest(not);
            return new Ast.Not(unary(), not.column());
        }
        if (check(Kind.LPAREN)) {
            Token open = advance();
            requireTest(open);
            Expr inner = or();
            if (!check(Kind.RPAREN)) {
                throw new FilterException(peek().column(), "expected ')' to close the '(' at column "
                        + open.column() + ", found " + peek().describe());
            }
            advance();
            return inner;
        }
        return relation();
    }

    private Expr relation() throws FilterException {
        if (!startsValue(peek())) {
            throw unexpected(peek(), "a field, a protocol, 'not' or '('");
        }
        Token first = peek();
        String lower = first.text().toLowerCase(java.util.Locale.ROOT);
        if (first.kind() == Kind.WORD && !lower.equals(first.text()) && Lexer.isKeyword(lower)
                && startsTest(peekNext())) {
            throw new FilterException(first.column(), "unexpected " + first.describe()
                    + " (operators are lower case: " + lower + ")");
        }
        Value left = arith();
        Token t = peek();
        switch (t.kind()) {
            case EQ, NE, ALL_EQ, ANY_NE, LT, LE, GT, GE, CONTAINS, MATCHES -> {
                advance();
                if (!startsValue(peek())) {
                    throw new FilterException(peek().column(), "expected a value after '" + t.text() + "'"
                            + (check(Kind.EOF) ? "" : ", found " + peek().describe()));
                }
                return new Compare(left, t, arith());
            }
            case IN -> {
                advance();
                return new In(left, false, set(t), t.column());
            }
            case NOT -> {
                if (peekNext().kind() == Kind.IN) {
                    advance();
                    Token in = advance();
                    return new In(left, true, set(in), t.column());
                }
                throw unexpected(t, "a comparison, 'and', 'or' or the end of the filter");
            }
            case WORD -> throw new FilterException(t.column(), "unexpected " + t.describe()
                    + hintForWord(t.text()));
            default -> {
                return new Bare(left);
            }
        }
    }

    private static String hintForWord(String word) {
        String lower = word.toLowerCase(java.util.Locale.ROOT);
        if (Lexer.isKeyword(lower)) {
            return " (operators are lower case: " + lower + ")";
        }
        if (lower.equals("xor")) {
            return " (there is no 'xor'; write (a and not b) or (not a and b))";
        }
        return "; expected a comparison, 'and', 'or' or the end of the filter";
    }

    private List<Member> set(Token in) throws FilterException {
        if (!check(Kind.LBRACE)) {
            throw new FilterException(peek().column(), "expected '{' after '" + in.text() + "', found "
                    + peek().describe());
        }
        Token open = advance();
        List<Member> members = new ArrayList<>();
        if (check(Kind.RBRACE)) {
            throw new FilterException(peek().column(), "a set needs at least one member");
        }
        while (true) {
            Value low = member(members.isEmpty() ? open : tokens.get(current - 1));
            Value high = null;
            if (check(Kind.DOTDOT)) {
                Token dots = advance();
                high = member(dots);
            }
            members.add(new Member(low, high));
            if (check(Kind.COMMA)) {
                advance();
                continue;
            }
            if (check(Kind.RBRACE)) {
                advance();
                return members;
            }
            if (startsValue(peek())) {
                throw new FilterException(peek().column(), "set members are separated by commas "
                        + "(Wireshark 4.0 syntax: {1, 2, 3}), found " + peek().describe());
            }
            throw new FilterException(peek().column(), "expected ',' or '}' to continue the set opened at column "
                    + open.column() + ", found " + peek().describe());
        }
    }

    private Value member(Token after) throws FilterException {
        if (!startsValue(peek())) {
            throw new FilterException(peek().column(), "expected a value after '" + after.text() + "'"
                    + (check(Kind.EOF) ? "" : ", found " + peek().describe()));
        }
        return sign();
    }

    // ---- values ---------------------------------------------------------------------------------

    private Value arith() throws FilterException {
        Value left = sum();
        while (check(Kind.BITAND)) {
            Token op = advance();
            requireValue(op);
            left = new Binary(op, left, sum());
        }
        return left;
    }

    private Value sum() throws FilterException {
        Value left = product();
        while (check(Kind.PLUS) || check(Kind.MINUS)) {
            Token op = advance();
            requireValue(op);
            left = new Binary(op, left, product());
        }
        return left;
    }

    private Value product() throws FilterException {
        Value left = sign();
        while (check(Kind.STAR) || check(Kind.SLASH) || check(Kind.PERCENT)) {
            Token op = advance();
            requireValue(op);
            left = new Binary(op, left, sign());
        }
        return left;
    }

    private Value sign() throws FilterException {
        if (check(Kind.MINUS)) {
            Token minus = advance();
            requireValue(minus);
            return new Ast.Negate(sign(), minus.column());
        }
        return postfix();
    }

    private Value postfix() throws FilterException {
        Value v = atom();
        while (check(Kind.SLICE)) {
            Token slice = advance();
            v = new Ast.Slice(v, ranges(slice), slice.text(), slice.column());
        }
        return v;
    }

    private Value atom() throws FilterException {
        Token t = peek();
        switch (t.kind()) {
            case WORD -> {
                advance();
                if (check(Kind.LPAREN)) {
                    return call(t);
                }
                int from = 0;
                int to = 0;
                if (check(Kind.HASH)) {
                    Token hash = advance();
                    if (hash.column() != t.column() + t.length()) {
                        throw new FilterException(hash.column(), "'#' must follow the field name directly");
                    }
                    Token n = peek();
                    if (n.kind() == Kind.SLICE) {
                        // #[2-3], #[2:2], #[2:]: a range of layers, written as a byte range is.
                        advance();
                        List<Range> r = ranges(n);
                        if (r.size() != 1 || r.get(0).start() < 1) {
                            throw new FilterException(n.column(), "layers count from 1: write a range such as "
                                    + "#[1-2] or #[2:]");
                        }
                        from = r.get(0).start();
                        to = r.get(0).length() == Range.TO_END ? Integer.MAX_VALUE : from + r.get(0).length() - 1;
                    } else if (n.kind() == Kind.WORD && n.text().matches("[0-9]{1,4}")
                            && Integer.parseInt(n.text()) > 0) {
                        advance();
                        from = Integer.parseInt(n.text());
                        to = from;
                    } else {
                        throw new FilterException(n.column(), "expected a layer number (1, 2, …) or range ([1-2]) "
                                + "after '#', found " + n.describe());
                    }
                }
                return new Word(t.text(), t.column(), from, to);
            }
            case STRING, RAW_STRING -> {
                advance();
                return new Str(t.text(), t.kind() == Kind.RAW_STRING, t.column(), t.length());
            }
            case CHAR -> {
                advance();
                return new Chr(t.value(), t.text(), t.column());
            }
            case LBRACE -> {
                Token open = advance();
                requireValue(open);
                Value inner = arith();
                if (!check(Kind.RBRACE)) {
                    throw new FilterException(peek().column(), "expected '}' to close the '{' at column "
                            + open.column() + ", found " + peek().describe());
                }
                advance();
                return inner;
            }
            case LPAREN -> throw new FilterException(t.column(),
                    "parentheses group tests; group arithmetic with braces: {a + b} * 2");
            default -> throw unexpected(t, "a field or a value");
        }
    }

    private Value call(Token name) throws FilterException {
        Token open = advance();
        List<Value> args = new ArrayList<>();
        if (!check(Kind.RPAREN)) {
            while (true) {
                requireValue(args.isEmpty() ? open : tokens.get(current - 1));
                args.add(arith());
                if (check(Kind.COMMA)) {
                    advance();
                    continue;
                }
                break;
            }
        }
        if (!check(Kind.RPAREN)) {
            throw new FilterException(peek().column(), "expected ')' to close " + name.text() + "( at column "
                    + open.column() + ", found " + peek().describe());
        }
        advance();
        return new Call(name.text(), args, name.column());
    }

    /**
     * The ranges of a slice, as Wireshark writes them: {@code [i:n]} (start, length), {@code [i-j]}
     * (first and last byte), {@code [i]}, {@code [i:]} (to the end), {@code [:n]}, comma-separated
     * pieces concatenated; a negative offset counts from the end.
     */
    static List<Range> ranges(Token slice) throws FilterException {
        String spec = slice.text();
        List<Range> out = new ArrayList<>();
        int offset = 0;
        for (String part : spec.split(",", -1)) {
            int col = slice.column() + 1 + offset + (part.length() - part.stripLeading().length());
            offset += part.length() + 1;
            String p = part.strip();
            if (p.isEmpty()) {
                throw new FilterException(col, "empty byte range in '[" + spec + "]'");
            }
            try {
                out.add(range(p));
            } catch (IllegalArgumentException e) {
                throw new FilterException(col, "byte range '" + p + "' " + e.getMessage());
            }
        }
        return out;
    }

    private static Range range(String p) {
        int colon = p.indexOf(':');
        if (colon >= 0) {
            String a = p.substring(0, colon).strip();
            String b = p.substring(colon + 1).strip();
            int start = a.isEmpty() ? 0 : offset(a);
            if (b.isEmpty()) {
                if (a.isEmpty()) {
                    throw new IllegalArgumentException("needs a start or a length");
                }
                return new Range(start, Range.TO_END);
            }
            int length = offset(b);
            if (length <= 0) {
                throw new IllegalArgumentException("is not valid: the length after ':' must be positive");
            }
            return new Range(start, length);
        }
        // "i-j": find the '-' that separates the ends (not a leading minus sign).
        int dash = p.indexOf('-', 1);
        if (dash > 0) {
            int start = offset(p.substring(0, dash).strip());
            int end = offset(p.substring(dash + 1).strip());
            if ((start < 0) != (end < 0)) {
                throw new IllegalArgumentException("is not valid: both ends must count from the same side");
            }
            if (start >= end) {
                throw new IllegalArgumentException("is not valid: the first byte must come before the last "
                        + "(write [" + start + "] for one byte)");
            }
            return new Range(start, end - start + 1);
        }
        return new Range(offset(p), 1);
    }

    private static int offset(String s) {
        try {
            boolean negative = s.startsWith("-");
            String digits = negative ? s.substring(1) : s;
            long v = digits.startsWith("0x") || digits.startsWith("0X") ? Long.parseLong(digits.substring(2), 16)
                    : Long.parseLong(digits);
            if (v > 65535) {
                throw new IllegalArgumentException("is beyond any frame");
            }
            return (int) (negative ? -v : v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("is not valid: '" + s + "' is not a number");
        }
    }

    // ---- token helpers --------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(current);
    }

    private Token peekNext() {
        return tokens.get(Math.min(current + 1, tokens.size() - 1));
    }

    private boolean check(Kind kind) {
        return peek().kind() == kind;
    }

    private Token advance() {
        Token t = peek();
        if (t.kind() != Kind.EOF) {
            current++;
        }
        return t;
    }

    private static boolean isComparison(Kind k) {
        return switch (k) {
            case EQ, NE, ALL_EQ, ANY_NE, LT, LE, GT, GE, CONTAINS, MATCHES, IN -> true;
            default -> false;
        };
    }

    private static boolean isArithmetic(Kind k) {
        return k == Kind.PLUS || k == Kind.MINUS || k == Kind.STAR || k == Kind.SLASH || k == Kind.PERCENT
                || k == Kind.BITAND;
    }

    private static boolean startsValue(Token t) {
        return switch (t.kind()) {
            case WORD, STRING, RAW_STRING, CHAR, LBRACE, MINUS -> true;
            default -> false;
        };
    }

    private static boolean startsTest(Token t) {
        return startsValue(t) || t.kind() == Kind.NOT || t.kind() == Kind.LPAREN;
    }

    /** After {@code and}, {@code or}, {@code not} or {@code (}: a test must follow. */
    private void requireTest(Token after) throws FilterException {
        if (!startsTest(peek())) {
            throw new FilterException(peek().column(), "expected a test after '" + after.text() + "'"
                    + (check(Kind.EOF) ? "" : ", found " + peek().describe()));
        }
    }

    /** After an arithmetic operator or an opening brace: a value must follow. */
    private void requireValue(Token after) throws FilterException {
        if (!startsValue(peek())) {
            throw new FilterException(peek().column(), "expected a value after '" + after.text() + "'"
                    + (check(Kind.EOF) ? "" : ", found " + peek().describe()));
        }
    }

    private FilterException unexpected(Token t, String expected) {
        if (t.kind() == Kind.EOF) {
            return new FilterException(t.column(), "the filter ends where " + expected + " should follow");
        }
        return new FilterException(t.column(), "expected " + expected + ", found " + t.describe());
    }
}
