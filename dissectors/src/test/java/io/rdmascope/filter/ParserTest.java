package io.rdmascope.filter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How filters are read: precedence (as tshark 4.0), sets, slices, functions, layers. */
class ParserTest {
    private static String tree(String filter) throws FilterException {
        return Ast.show(Parser.parse(filter));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", value = {
            // and binds tighter than or; not tighter than both; a comparison tighter than not
            "a or b and c => (a || (b && c))",
            "a and b or c => ((a && b) || c)",
            "a || b || c => ((a || b) || c)",
            "not a or b => (!a || b)",
            "!a && b => (!a && b)",
            "not a == 1 => !a == 1",
            "!(a or b) => !(a || b)",
            "not not a => !!a",
            "((a)) => a",
            // arithmetic: * / % over + - over &, all above comparisons; braces group
            "a + b * c == 1 => {a + {b * c}} == 1",
            "a & 0x10 == 0x10 => {a & 0x10} == 0x10",
            "a bitwise_and 3 + 1 != 0 => {a & {3 + 1}} != 0",
            "{a + b} * c > 2 => {{a + b} * c} > 2",
            "-a < 0 => -a < 0",
            "a == -1 => a == -1",
            "a - b - c == 0 => {{a - b} - c} == 0",
            // sets
            "x in {1, 2..3, 0x10} => x in {1, 2..3, 0x10}",
            "x not in {1} => x not in {1}",
            "x !in {1} => x not in {1}",
            "x in {10.0.0.1 .. 10.0.0.9} => x in {10.0.0.1..10.0.0.9}",
            "x in {\"GET\", \"HEAD\"} => x in {\"GET\", \"HEAD\"}",
            // slices, normalised to start:length
            "eth.src[0:3] == 1 => eth.src[0:3] == 1",
            "eth.src[4-5] => eth.src[4:2]",
            "eth.src[-1] => eth.src[-1:1]",
            "eth.src[5:] => eth.src[5:]",
            "eth.src[:2] => eth.src[0:2]",
            "eth.src[0:2,5] => eth.src[0:2,5:1]",
            "eth.src[0:2][1] => eth.src[0:2][1:1]",
            "eth.src [ 0x1 : 2 ] => eth.src[1:2]",
            "eth.src[-2--1] => eth.src[-2:2]",
            // functions, layers, strings
            "len(eth.src) == 6 => len(eth.src) == 6",
            "count(ip.addr) > 1 => count(ip.addr) > 1",
            "ip.addr#2 == 10.0.0.1 => ip.addr#2 == 10.0.0.1",
            "ip.addr#[1-2] == 10.0.0.1 => ip.addr#[1-2] == 10.0.0.1",
            "ip.addr#[2:] == 10.0.0.1 => ip.addr#[2:] == 10.0.0.1",
            "ip.addr#[2:3][0] == 0a => ip.addr#[2-4][0:1] == 0a",
            "x contains \"a\\x62\" => x contains \"ab\"",
            "x matches r\"\\d\" => x matches r\"\\\\d\"",
            "x ~ \"y\" => x matches \"y\"",
    })
    void readsAsTshark(String filter, String expected) throws FilterException {
        assertEquals(expected, tree(filter));
    }

    @Test
    void aBlankFilterHasNoTree() throws FilterException {
        assertNull(Parser.parse(""));
        assertNull(Parser.parse("   \t"));
    }

    @Test
    void operatorWordsAndSymbolsAreTheSame() throws FilterException {
        assertEquals(tree("a == 1 && b != 2 || !c"), tree("a eq 1 and b ne 2 or not c"));
        assertEquals(tree("a < 1 && a <= 2 && a > 0 && a >= 0"), tree("a lt 1 and a le 2 and a gt 0 and a ge 0"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", quoteCharacter = '`', value = {
            "ip.src == => 10 => expected a value after '=='",
            "ip.src == and udp => 11 => expected a value after '==', found 'and'",
            "udp and => 8 => expected a test after 'and'",
            "udp or or tcp => 8 => expected a test after 'or', found 'or'",
            "not => 4 => expected a test after 'not'",
            "(udp => 5 => expected ')' to close the '(' at column 1, found the end of the filter",
            "udp) => 4 => ')' has no '(' to close",
            "() => 2 => expected a test after '(', found ')'",
            "frame.len == 62 62 => 17 => expected 'and', 'or' or the end of the filter, found '62'",
            "ip.src AND udp => 8 => unexpected 'AND' (operators are lower case: and)",
            "NOT udp => 1 => unexpected 'NOT' (operators are lower case: not)",
            "a xor b => 3 => unexpected 'xor' (there is no 'xor'; write (a and not b) or (not a and b))",
            "x in {4 6} => 9 => set members are separated by commas (Wireshark 4.0 syntax: {1, 2, 3}), found '6'",
            "x in {} => 7 => a set needs at least one member",
            "x in {4,} => 9 => expected a value after ',', found '}'",
            "x in {1..} => 10 => expected a value after '..', found '}'",
            "x in {1, 2 => 11 => expected ',' or '}' to continue the set opened at column 6, found the end of the filter",
            "x in 4 => 6 => expected '{' after 'in', found '4'",
            "x not udp => 3 => expected a comparison, 'and', 'or' or the end of the filter, found 'not'",
            "(frame.len) == 62 => 13 => parentheses group tests, not values: compare the field itself, and group arithmetic with braces, as {a + b} * 2",
            "(a + b) * 2 == 1 => 9 => parentheses group tests, not values: compare the field itself, and group arithmetic with braces, as {a + b} * 2",
            "{a + b == 1 => 8 => expected '}' to close the '{' at column 1, found '=='",
            "len(a == 1 => 7 => expected ')' to close len( at column 4, found '=='",
            "ip.addr#0 == 1 => 9 => expected a layer number (1, 2, …) or range ([1-2]) after '#', found '0'",
            "ip.addr#[0-1] == 1 => 9 => layers count from 1: write a range such as #[1-2] or #[2:]",
            "ip.addr #1 == 1 => 9 => '#' must follow the field name directly",
            "eth.src[4:0] => 9 => byte range '4:0' is not valid: the length after ':' must be positive",
            "eth.src[4-3] => 9 => byte range '4-3' is not valid: the first byte must come before the last (write [4] for one byte)",
            "eth.src[-2-5] => 9 => byte range '-2-5' is not valid: both ends must count from the same side",
            "eth.src[1,,2] => 11 => empty byte range in '[1,,2]'",
            "eth.src[x] => 9 => byte range 'x' is not valid: 'x' is not a number",
            "== 1 => 1 => expected a field, a protocol, 'not' or '(', found '=='",
            "frame.len == == => 14 => expected a value after '==', found '=='",
    })
    void syntaxErrorsSayWhatWasExpectedAndWhere(String filter, int column, String reason) {
        FilterException e = assertThrows(FilterException.class, () -> Parser.parse(filter.strip()), filter);
        assertEquals(reason, e.reason(), filter);
        assertEquals(column, e.column(), filter);
    }
}
