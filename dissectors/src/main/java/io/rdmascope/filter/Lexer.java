package io.rdmascope.filter;

import io.rdmascope.filter.Token.Kind;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Splits a display filter into {@link Token}s. Wireshark's lexer knows the shape of every literal
 * (IPv6, MAC, byte string, …); this one keeps any run of name characters as one {@link Kind#WORD}
 * and lets the compiler read it once it knows the type of the field it is compared with, so
 * {@code 10} can be decimal for {@code ip.ttl} and a byte for {@code frame[0]} as in Wireshark.
 *
 * <p>Word characters: letters, digits, {@code _ . : - /}; a word ends before {@code ..}, so
 * {@code {6..8}} is a range. Keywords are lower case only, as in tshark 4.0.
 */
final class Lexer {
    private static final Map<String, Kind> KEYWORDS = Map.ofEntries(
            Map.entry("and", Kind.AND), Map.entry("or", Kind.OR), Map.entry("not", Kind.NOT),
            Map.entry("eq", Kind.EQ), Map.entry("any_eq", Kind.EQ), Map.entry("ne", Kind.NE),
            Map.entry("all_ne", Kind.NE), Map.entry("all_eq", Kind.ALL_EQ), Map.entry("any_ne", Kind.ANY_NE),
            Map.entry("lt", Kind.LT), Map.entry("le", Kind.LE), Map.entry("gt", Kind.GT), Map.entry("ge", Kind.GE),
            Map.entry("contains", Kind.CONTAINS), Map.entry("matches", Kind.MATCHES), Map.entry("in", Kind.IN),
            Map.entry("bitwise_and", Kind.BITAND));

    private final String src;
    private int pos;
    private final List<Token> tokens = new ArrayList<>();

    private Lexer(String src) {
        this.src = src;
    }

    static List<Token> tokens(String src) throws FilterException {
        Lexer lexer = new Lexer(src);
        lexer.run();
        return lexer.tokens;
    }

    /** True for the lower-case operator words ({@code and}, {@code eq}, {@code contains}, …). */
    static boolean isKeyword(String word) {
        return KEYWORDS.containsKey(word);
    }

    private void run() throws FilterException {
        while (true) {
            while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
                pos++;
            }
            if (pos >= src.length()) {
                tokens.add(new Token(Kind.EOF, "", src.length() + 1, 0, 0));
                return;
            }
            int start = pos;
            char c = src.charAt(pos);
            char next = pos + 1 < src.length() ? src.charAt(pos + 1) : 0;
            char third = pos + 2 < src.length() ? src.charAt(pos + 2) : 0;
            switch (c) {
                case '(' -> single(Kind.LPAREN);
                case ')' -> single(Kind.RPAREN);
                case '{' -> single(Kind.LBRACE);
                case '}' -> single(Kind.RBRACE);
                case ',' -> single(Kind.COMMA);
                case '#' -> single(Kind.HASH);
                case '+' -> single(Kind.PLUS);
                case '-' -> single(Kind.MINUS);
                case '*' -> single(Kind.STAR);
                case '/' -> single(Kind.SLASH);
                case '%' -> single(Kind.PERCENT);
                case '[' -> slice();
                case '"' -> string(false);
                case '\'' -> character();
                case '=' -> {
                    if (next == '=' && third == '=') {
                        op(Kind.ALL_EQ, 3);
                    } else if (next == '=') {
                        op(Kind.EQ, 2);
                    } else {
                        throw new FilterException(column(start), "'=' is not an operator; compare with '=='");
                    }
                }
                case '!' -> {
                    if (next == '=' && third == '=') {
                        op(Kind.ANY_NE, 3);
                    } else if (next == '=') {
                        op(Kind.NE, 2);
                    } else {
                        op(Kind.NOT, 1);
                    }
                }
                case '~' -> op(next == '=' ? Kind.ANY_NE : Kind.MATCHES, next == '=' ? 2 : 1);
                case '<' -> op(next == '=' ? Kind.LE : Kind.LT, next == '=' ? 2 : 1);
                case '>' -> op(next == '=' ? Kind.GE : Kind.GT, next == '=' ? 2 : 1);
                case '&' -> op(next == '&' ? Kind.AND : Kind.BITAND, next == '&' ? 2 : 1);
                case '|' -> {
                    if (next != '|') {
                        throw new FilterException(column(start), "'|' is not an operator; 'or' is written '||'");
                    }
                    op(Kind.OR, 2);
                }
                case '.' -> {
                    if (next != '.') {
                        throw new FilterException(column(start), "unexpected '.'"
                                + (Character.isDigit(next) ? "; a number starts with a digit (0.5, not .5)" : ""));
                    }
                    op(Kind.DOTDOT, 2);
                }
                default -> {
                    if ((c == 'r' || c == 'R') && next == '"') {
                        pos++;
                        string(true);
                    } else if (isWordStart(c)) {
                        word();
                    } else {
                        throw new FilterException(column(start), "unexpected character '" + c + "'");
                    }
                }
            }
        }
    }

    private int column(int index) {
        return index + 1;
    }

    private void single(Kind kind) {
        op(kind, 1);
    }

    private void op(Kind kind, int length) {
        tokens.add(new Token(kind, src.substring(pos, pos + length), column(pos), length, 0));
        pos += length;
    }

    private static boolean isWordStart(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == ':');
    }

    private static boolean isWordPart(char c) {
        return isWordStart(c) || c == '.' || c == '-' || c == '/';
    }

    private void word() {
        int start = pos;
        while (pos < src.length() && isWordPart(src.charAt(pos))) {
            if (src.charAt(pos) == '.' && pos + 1 < src.length() && src.charAt(pos + 1) == '.') {
                break; // "6..8": a range, not one word
            }
            pos++;
        }
        String text = src.substring(start, pos);
        Kind keyword = KEYWORDS.get(text);
        tokens.add(new Token(keyword != null ? keyword : Kind.WORD, text, column(start), pos - start, 0));
    }

    private void slice() throws FilterException {
        int start = pos;
        int close = src.indexOf(']', pos + 1);
        if (close < 0) {
            throw new FilterException(column(start), "'[' is not closed by ']'");
        }
        tokens.add(new Token(Kind.SLICE, src.substring(start + 1, close), column(start), close + 1 - start, 0));
        pos = close + 1;
    }

    /** A double-quoted string; its value is a byte string (escapes may name any byte), kept one char per byte. */
    private void string(boolean raw) throws FilterException {
        int start = raw ? pos - 1 : pos;
        pos++; // opening quote
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (true) {
            if (pos >= src.length()) {
                throw new FilterException(column(start), "the string has no closing '\"'");
            }
            char c = src.charAt(pos);
            if (c == '"') {
                pos++;
                break;
            }
            if (c == '\\') {
                if (raw) {
                    // A raw string keeps its backslashes; \" still does not end it (as in Wireshark).
                    bytes.write('\\');
                    pos++;
                    if (pos < src.length()) {
                        int cp = src.codePointAt(pos);
                        utf8(bytes, cp);
                        pos += Character.charCount(cp);
                    }
                    continue;
                }
                escape(bytes, '"');
                continue;
            }
            int cp = src.codePointAt(pos);
            utf8(bytes, cp);
            pos += Character.charCount(cp);
        }
        String text = new String(bytes.toByteArray(), StandardCharsets.ISO_8859_1);
        tokens.add(new Token(raw ? Kind.RAW_STRING : Kind.STRING, text, column(start), pos - start, 0));
    }

    private void character() throws FilterException {
        int start = pos;
        pos++;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int chars = 0;
        while (true) {
            if (pos >= src.length()) {
                throw new FilterException(column(start), "the character constant has no closing \"'\"");
            }
            char c = src.charAt(pos);
            if (c == '\'') {
                pos++;
                break;
            }
            if (c == '\\') {
                escape(bytes, '\'');
            } else {
                int cp = src.codePointAt(pos);
                utf8(bytes, cp);
                pos += Character.charCount(cp);
            }
            chars++;
        }
        if (chars != 1 || bytes.size() != 1) {
            throw new FilterException(column(start), src.substring(start, pos) + " is not one character "
                    + (chars == 0 ? "(it is empty)" : "(use double quotes for a string)"));
        }
        tokens.add(new Token(Kind.CHAR, src.substring(start, pos), column(start), pos - start,
                bytes.toByteArray()[0] & 0xFF));
    }

    /** Decodes the escape at {@code pos} (a backslash) into {@code out}. */
    private void escape(ByteArrayOutputStream out, char quote) throws FilterException {
        int start = pos;
        if (pos + 1 >= src.length()) {
            throw new FilterException(column(start), "a backslash ends the filter");
        }
        char e = src.charAt(pos + 1);
        pos += 2;
        switch (e) {
            case 'a' -> out.write(7);
            case 'b' -> out.write(8);
            case 'f' -> out.write(12);
            case 'n' -> out.write(10);
            case 'r' -> out.write(13);
            case 't' -> out.write(9);
            case 'v' -> out.write(11);
            case '\\', '"', '\'' -> out.write(e);
            case 'x' -> {
                int v = 0;
                int digits = 0;
                while (digits < 2 && pos < src.length() && Character.digit(src.charAt(pos), 16) >= 0) {
                    v = v * 16 + Character.digit(src.charAt(pos++), 16);
                    digits++;
                }
                if (digits == 0) {
                    throw new FilterException(column(start), "\\x needs one or two hex digits");
                }
                out.write(v);
            }
            case 'u', 'U' -> {
                int want = e == 'u' ? 4 : 8;
                if (pos + want > src.length()) {
                    throw new FilterException(column(start), "\\" + e + " needs " + want + " hex digits");
                }
                int cp;
                try {
                    cp = Integer.parseUnsignedInt(src.substring(pos, pos + want), 16);
                } catch (NumberFormatException ex) {
                    throw new FilterException(column(start), "\\" + e + " needs " + want + " hex digits");
                }
                if (!Character.isValidCodePoint(cp)) {
                    throw new FilterException(column(start), "\\" + e + src.substring(pos, pos + want)
                            + " is not a Unicode character");
                }
                pos += want;
                byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
            default -> {
                if (e >= '0' && e <= '7') {
                    int v = e - '0';
                    int digits = 1;
                    while (digits < 3 && pos < src.length() && src.charAt(pos) >= '0' && src.charAt(pos) <= '7') {
                        v = v * 8 + (src.charAt(pos++) - '0');
                        digits++;
                    }
                    if (v > 255) {
                        throw new FilterException(column(start), "octal escape \\" + Integer.toOctalString(v)
                                + " is more than a byte");
                    }
                    out.write(v);
                } else {
                    throw new FilterException(column(start), "\\" + e + " is not an escape sequence");
                }
            }
        }
    }

    private static void utf8(ByteArrayOutputStream out, int codePoint) {
        if (codePoint < 0x80) {
            out.write(codePoint);
        } else {
            byte[] b = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
        }
    }
}
