package io.rdmascope.filter;

import io.rdmascope.filter.Token.Kind;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LexerTest {
    private static String kinds(String filter) throws FilterException {
        return Lexer.tokens(filter).stream().map(t -> t.kind().name()).collect(Collectors.joining(" "));
    }

    @Test
    void symbolsNeedNoSpacesAroundThem() throws FilterException {
        assertEquals("WORD EQ WORD AND NOT WORD EOF", kinds("ip.src==10.0.0.1&&!udp"));
        assertEquals("LPAREN WORD OR WORD RPAREN EOF", kinds("(tcp||udp)"));
    }

    @Test
    void everyOperatorSpellingHasItsToken() throws FilterException {
        assertEquals("WORD EQ WORD NE WORD ALL_EQ WORD ANY_NE WORD ANY_NE WORD MATCHES WORD EOF",
                kinds("a == b != c === d !== e ~= f ~ g"));
        assertEquals("WORD LT WORD LE WORD GT WORD GE WORD EOF", kinds("a < b <= c > d >= e"));
        assertEquals("WORD BITAND WORD PLUS WORD MINUS WORD STAR WORD SLASH WORD PERCENT WORD EOF",
                kinds("a & b + c - d * e / f % g"));
        assertEquals("EQ EQ NE NE ALL_EQ ANY_NE LT LE GT GE CONTAINS MATCHES IN BITAND AND OR NOT EOF",
                kinds("eq any_eq ne all_ne all_eq any_ne lt le gt ge contains matches in bitwise_and and or not"));
    }

    @Test
    void keywordsAreLowerCaseOnly() throws FilterException {
        assertEquals("WORD WORD WORD EOF", kinds("AND Or NOT"));
    }

    @Test
    void aWordStopsBeforeTwoDotsSoRangesNeedNoSpaces() throws FilterException {
        assertEquals("LBRACE WORD DOTDOT WORD COMMA WORD DOTDOT WORD RBRACE EOF", kinds("{6..8,10.0.0.1..10.0.0.9}"));
        List<Token> t = Lexer.tokens("{fd00::1..fd00::2}");
        assertEquals("fd00::1", t.get(1).text());
        assertEquals("fd00::2", t.get(3).text());
    }

    @Test
    void wordsHoldAddressesByteStringsAndNetworks() throws FilterException {
        for (String word : List.of("02:1e:67:00:00:01", "02-1e-67", "021e.6700.0001", "::ffff:10.0.0.6",
                "10.0.0.0/24", "fe80::/10", "infiniband.bth.psn", "0x1f", "_ws.malformed")) {
            List<Token> t = Lexer.tokens(word);
            assertEquals(Kind.WORD, t.get(0).kind(), word);
            assertEquals(word, t.get(0).text());
            assertEquals(Kind.EOF, t.get(1).kind(), word);
        }
    }

    @Test
    void sliceIsOneTokenWithItsColumn() throws FilterException {
        List<Token> t = Lexer.tokens("eth.src[ 0 : 3 ] == 02:1e:67");
        assertEquals(Kind.SLICE, t.get(1).kind());
        assertEquals(" 0 : 3 ", t.get(1).text());
        assertEquals(8, t.get(1).column());
        assertEquals(Kind.EQ, t.get(2).kind());
        assertEquals(18, t.get(2).column());
    }

    @Test
    void stringEscapesGiveBytes() throws FilterException {
        Token t = Lexer.tokens("\"A\\x41\\101\\n\\t\\\"\\\\\\u00e9\"").get(0);
        assertEquals(Kind.STRING, t.kind());
        byte[] expected = {'A', 'A', 'A', '\n', '\t', '"', '\\', (byte) 0xc3, (byte) 0xa9};
        assertEquals(new String(expected, StandardCharsets.ISO_8859_1), t.text());
        assertEquals("\u00c3\u00a9", Lexer.tokens("\"\u00e9\"").get(0).text(), "é as its two UTF-8 bytes");
        assertEquals("\u00b7", Lexer.tokens("\"\\xb7\"").get(0).text(), "\\xb7 is the byte 0xb7");
    }

    @Test
    void rawStringsKeepBackslashes() throws FilterException {
        Token t = Lexer.tokens("r\"a\\d+\\\"\"").get(0);
        assertEquals(Kind.RAW_STRING, t.kind());
        assertEquals("a\\d+\\\"", t.text());
        assertEquals(Kind.RAW_STRING, Lexer.tokens("R\"x\"").get(0).kind());
    }

    @Test
    void characterConstantsAreTheirCode() throws FilterException {
        assertEquals(97, Lexer.tokens("'a'").get(0).value());
        assertEquals(62, Lexer.tokens("'\\x3e'").get(0).value());
        assertEquals(62, Lexer.tokens("'\\076'").get(0).value());
        assertEquals(39, Lexer.tokens("'\\''").get(0).value());
    }

    @Test
    void columnsCountFromOne() throws FilterException {
        List<Token> t = Lexer.tokens("  udp  or\ttcp");
        assertEquals(3, t.get(0).column());
        assertEquals(8, t.get(1).column());
        assertEquals(11, t.get(2).column());
        assertEquals(14, t.get(3).column(), "the end is one past the last character");
    }

    @Test
    void badCharactersAreReportedWhereTheyStand() {
        assertError("ip.src = 1", 8, "'=' is not an operator; compare with '=='");
        assertError("a | b", 3, "'|' is not an operator; 'or' is written '||'");
        assertError("a == $", 6, "unexpected character '$'");
        assertError("x contains \"abc", 12, "the string has no closing '\"'");
        assertError("x contains \"a\\qb\"", 14, "\\q is not an escape sequence");
        assertError("x == '\\400'", 7, "octal escape \\400 is more than a byte");
        assertError("x == 'ab'", 6, "'ab' is not one character (use double quotes for a string)");
        assertError("x == ''", 6, "'' is not one character (it is empty)");
        assertError("eth.src[0:3 == 1", 8, "'[' is not closed by ']'");
        assertError("x > .5", 5, "unexpected '.'; a number starts with a digit (0.5, not .5)");
    }

    private static void assertError(String filter, int column, String reason) {
        FilterException e = assertThrows(FilterException.class, () -> Lexer.tokens(filter), filter);
        assertEquals(reason, e.reason(), filter);
        assertEquals(column, e.column(), filter);
        assertEquals("column " + column + ": " + reason, e.getMessage());
    }
}
