package io.rdmascope.filter;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Errors found once names and types are known: unknown fields, operators that do not suit a type,
 * literals that do not read as the type they meet. Each names the column of the operand at fault.
 * (Syntax errors: {@link ParserTest}, {@link LexerTest}.)
 */
class CompileErrorTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", quoteCharacter = '`', value = {
            // names
            "infiniband.bth.psnx == 1 => 1 => unknown field 'infiniband.bth.psnx' (did you mean 'infiniband.bth.psn'?)",
            "infiniband.bth.psnx => 1 => unknown field 'infiniband.bth.psnx' (did you mean 'infiniband.bth.psn'?)",
            "udp and ip.srcc == 10.0.0.1 => 9 => unknown field 'ip.srcc' (did you mean 'ip.src'?)",
            "ip.src.foo => 1 => unknown field 'ip.src.foo'",
            "ip.src == ip.dstt => 11 => unknown field 'ip.dstt' (did you mean 'ip.dst'?)",
            "frame.len > udp.lenght => 13 => unknown field 'udp.lenght'",
            "1 => 1 => 1 is a value, not a field or protocol; a filter tests fields, as in frame.len == 60",
            "1 == 1 => 1 => the left side of '==' must be a field, a protocol, a slice or a function, not the value 1",
            "10.0.0.1 == ip.src => 1 => the left side of '==' must be a field, a protocol, a slice or a function, not the value 10.0.0.1",
            "infiniband#1 => 11 => a layer number needs a field or a header; infiniband spans several headers",
            // literal versus type
            "ip.src == 02:1e:67:00:00:01 => 11 => ip.src is an IPv4 address; '02:1e:67:00:00:01' is not an IPv4 address (a.b.c.d, or a.b.c.d/n for a network)",
            "ip.src == \"10.0.0.1\" => 11 => ip.src is an IPv4 address; write the value without quotes",
            "ip.src == 10.0.0.0/33 => 11 => ip.src is an IPv4 address; '10.0.0.0/33' has a prefix of 33 bits, more than 32",
            "eth.src == 10.0.0.1 => 12 => '10.0.0.1' has 4 bytes; a MAC address has 6 (compare a slice, eth.src[0:4], for a part)",
            "eth.src == 10:0:0:1 => 12 => '10:0:0:1' is not a byte string (hex such as 02:1e:67, 02-1e-67 or 021e67); with ':' every byte has two hex digits",
            "eth.src == 02:1e:67 => 12 => '02:1e:67' has 3 bytes; a MAC address has 6 (compare a slice, eth.src[0:3], for a part)",
            "ipv6.src == 10.0.0.6 => 13 => ipv6.src is an IPv6 address; '10.0.0.6' is not an IPv6 address (an IPv4-mapped one is written ::ffff:10.0.0.6)",
            "ipv6.src == fd00::1::2 => 13 => ipv6.src is an IPv6 address; 'fd00::1::2' is not an IPv6 address ('::' may appear once)",
            "frame.len == 08 => 14 => frame.len is an unsigned integer; '08' is not a number (a leading 0 makes it octal)",
            "frame.len == 1.5 => 14 => frame.len is an unsigned integer; '1.5' is not a number",
            "frame.len == \"62\" => 14 => '62' is not a number (numbers are written without quotes); frame.len is an unsigned integer",
            "frame.len == -62 => 14 => frame.len is unsigned; -62 is negative",
            "frame.len == 4294967296 => 14 => 4294967296 is too big for frame.len (at most 4294967295)",
            "infiniband.bth.opcode == 256 => 26 => 256 is too big for infiniband.bth.opcode (at most 255)",
            "infiniband.bth.opcode in {4, 300} => 30 => 300 is too big for infiniband.bth.opcode (at most 255)",
            "infiniband.aeth.syndrome.opcode == Nack => 36 => 'Nack' is neither a number nor a value name of infiniband.aeth.syndrome.opcode",
            "infiniband.bth.a == yes => 21 => yes is not a boolean; infiniband.bth.a is 1 (True) or 0 (False)",
            "infiniband.bth.a == \"1\" => 21 => \"1\" is not a boolean; infiniband.bth.a is 1 (True) or 0 (False)",
            "frame.time_relative > 1e-5 => 23 => frame.time_relative is a time in seconds; '1e-5' is not a time in seconds (such as 2 or 0.000020)",
            "frame.time > 1700000000 => 14 => frame.time is a date and time; '1700000000' is not a date and time (\"Jun 16, 2026 14:56:01.5\" or \"2026-06-16 14:56:01\")",
            "frame[0] == 0x2 => 13 => '0x2' is not a byte string (0x introduces exactly one byte, as 0x1e)",
            "ip.dst in {eth.src} => 12 => ip.dst (an IPv4 address) and eth.src (a MAC address) cannot be compared with 'in'",
            "ip.dst in {ip.src..10.0.0.9} => 12 => a range needs values at both ends; ip.src is not a value",
            // operator versus type
            "infiniband.bth.psn contains 1 => 1 => 'contains' needs bytes, a MAC address, a protocol or a string on its left; infiniband.bth.psn is an unsigned integer",
            "ip.src contains 0a => 1 => 'contains' needs bytes, a MAC address, a protocol or a string on its left; ip.src is an IPv4 address",
            "eth.src contains \"\\x02\" => 18 => eth.src is a MAC address; it contains bytes (as 1e:67), not a string",
            "ip.src matches \"a\" => 1 => 'matches' needs a string, bytes or a protocol on its left; ip.src is an IPv4 address",
            "frame.protocols matches data => 25 => 'matches' needs a regular expression in double quotes on its right",
            "frame.protocols ~ \"[a\" => 19 => the regular expression does not compile: Unclosed character class (at character 2)",
            "eth.src == ip.src => 12 => eth.src (a MAC address) and ip.src (an IPv4 address) cannot be compared with '=='",
            "ip.proto == udp => 13 => ip.proto (an unsigned integer) and udp (a protocol) cannot be compared with '=='; to mean the value name, quote it: \"udp\"",
            "frame.protocols contains data => 26 => frame.protocols (a string) and data (a protocol) cannot be compared with 'contains'; to mean the text, quote it: \"data\"",
            "infiniband.bth.a == frame.len => 21 => infiniband.bth.a (a boolean) and frame.len (an unsigned integer) cannot be compared with '=='",
            "ip.src == data.data => 11 => ip.src (an IPv4 address) and data.data (a byte string) cannot be compared with '=='",
            "infiniband.invariant == 00 => 1 => infiniband.invariant has no value of its own to compare; test it alone for presence, or compare one of its fields",
            "infiniband.bth.psn[0:1] == 00 => 19 => infiniband.bth.psn is an unsigned integer and cannot be sliced; slices cut bytes, addresses, strings and protocols",
            "infiniband.bth.a & 1 => 1 => '&' needs integers; infiniband.bth.a is a boolean",
            "frame.time_delta * 2 > 1 => 1 => '*' needs integers; frame.time_delta is a time in seconds",
            "frame.len + 1 => 1 => arithmetic alone is not a test; compare it, as in {frame.len + 1} > 0",
            "frame.len / 0 == 1 => 13 => division by zero",
            // functions
            "foo(frame.len) == 1 => 1 => unknown function 'foo' (there are len, count, upper and lower)",
            "len(frame.len) == 1 => 5 => len() measures bytes, addresses, strings and protocols; frame.len is an unsigned integer",
            "len(eth.src, 1) == 1 => 1 => len() takes one argument, not 2",
            "len(\"abc\") == 3 => 5 => len() takes a field, not the value \"abc\"",
            "count(eth.src[0:1]) == 1 => 14 => count() counts the values of a field; give it a field name",
            "upper(frame.len) == \"A\" => 7 => upper() takes a string; frame.len is an unsigned integer",
    })
    void reportsTheColumnAndWhatWasWrong(String filter, int column, String reason) {
        FilterException e = assertThrows(FilterException.class, () -> DisplayFilter.compile(filter), filter);
        assertEquals(reason, e.reason(), filter);
        assertEquals(column, e.column(), filter);
        assertEquals("column " + column + ": " + reason, e.getMessage());
    }
}
