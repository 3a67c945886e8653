package io.rdmascope.filter;

import io.rdmascope.field.FieldRegistry;
import io.rdmascope.filter.Node.Domain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What each type accepts: the literal forms and operators tshark 4.0 allows it (rejections: CompileErrorTest). */
class TypeCheckTest {
    @ParameterizedTest
    @ValueSource(strings = {
            // unsigned integers: bases, characters, value names (quoted or not, any case), arithmetic
            "frame.len == 62", "frame.len == 0x3e", "frame.len == 076", "frame.len == 0b111110", "frame.len == '>'",
            "ip.proto == UDP", "ip.proto == \"udp\"", "infiniband.aeth.syndrome.opcode == nak",
            "infiniband.bth.opcode == \"Reliable Connection (RC) - SEND Only\"", "infiniband.bth.psn == 0xe922eb + 1",
            "infiniband.deth.q_key == 0xffffffffffffffff", "frame.len in {60..64, 0x400}",
            // booleans: True/False in any case, any number (non-zero is true)
            "infiniband.bth.a == TRUE", "infiniband.bth.a == false", "infiniband.bth.a == 2", "infiniband.bth.a > 0",
            "infiniband.bth.a == \"True\"",
            // addresses
            "ip.src == 10.0.0.1", "ip.src == 10.0.0.0/8", "ip.src in {10.0.0.1..10.0.0.9, 192.168.0.0/16}",
            "ipv6.src == ::1", "ipv6.src == fe80::/10", "ipv6.src == ::ffff:10.0.0.1",
            "eth.src == 02:1e:67:00:00:01", "eth.src == 021e67000001", "eth.src == 021e.6700.0001",
            "eth.src contains 1e:67",
            // bytes, protocols, headers, slices
            "frame[0:2] == \"ab\"", "frame[0] == 'a'", "frame[0] == 0x02", "udp == c6:c0:12:b7:02:0c:00:00",
            "infiniband.bth contains 80", "infiniband contains \"\\x12\"", "ip.src[0] == 0a", "eth.src[0] & 01",
            "data.data matches \"^\\x00\"",
            // strings: quoted, or an unquoted word taken as written
            "frame.protocols == \"eth:ethertype:ip\"", "frame.protocols contains udp.x", "frame.protocols > \"a\"",
            "frame.protocols matches \"(?-i)^ETH\"", "frame.protocols in {\"a\"..\"f\"}", "lower(frame.protocols) == \"x\"",
            // times
            "frame.time_relative == 0", "frame.time_relative > 0.000020", "frame.time_relative > -1",
            "frame.time == \"2026-01-01 00:00:00\"", "frame.time < \"Jan  1, 2026 00:00:00.000010 UTC\"",
            // two operands: same type, or bytes against a slice or a MAC address
            "ip.src == ip.dst", "ip.src == frame[26:4]", "frame[26:4] == ip.src", "eth.src == data.data",
            "frame.len == udp.length", "infiniband.bth.a == ip.flags.df", "frame.protocols == frame[0:3]",
            "udp == udp", "infiniband.bth.psn + 1 == infiniband.aeth.msn", "eth.src contains eth.dst[0:2]",
            // functions, layers
            "len(eth.src) == 6", "len(frame.protocols) > 3", "count(ip.addr) == 2", "len(eth.src[1:]) == 5",
            "ip.addr#1 == 10.0.0.1", "ip#1", "infiniband.invariant", ""})
    void compiles(String filter) {
        assertDoesNotThrow(() -> DisplayFilter.compile(filter));
    }

    @Test
    void twoOperandsCompareOnlyWhenTheirTypesAgree() throws FilterException {
        assertEquals(Domain.UNSIGNED, domain("frame.len", "udp.length"));
        assertEquals(Domain.UNSIGNED, domain("ip.src", "ip.dst"));
        assertEquals(Domain.BOOL, domain("infiniband.bth.a", "ip.flags.df"));
        assertEquals(Domain.SIGNED, domain("frame.time_delta", "frame.time_relative"));
        assertEquals(Domain.TEXT, domain("frame.protocols", "frame.protocols"));
        assertEquals(Domain.BYTES, domain("eth.src", "data.data"));
        assertEquals(Domain.BYTES, domain("ip.src", "frame[26:4]"));
        assertEquals(Domain.BYTES, domain("ipv6.src", "infiniband.grh.sgid"));
        assertEquals(Domain.BYTES, domain("udp", "ip"));
        assertNull(domain("ip.src", "ipv6.src"));
        assertNull(domain("ip.src", "eth.src"));
        assertNull(domain("ip.src", "data.data"));
        assertNull(domain("frame.len", "infiniband.bth.a"));
        assertNull(domain("frame.len", "frame.time_relative"));
        assertNull(domain("frame.time", "frame.time_relative"));
        assertNull(domain("data.data", "udp"));
        assertNull(domain("frame.protocols", "data.data"));
        assertNull(domain("infiniband.invariant", "infiniband.invariant"));
    }

    private static Domain domain(String a, String b) throws FilterException {
        Compiler c = new Compiler(FieldRegistry.standard(), List.of(), java.time.ZoneOffset.UTC);
        return Compiler.domainOf(operand(c, a), operand(c, b));
    }

    /** The compiled operand of {@code text}, reached through a filter that tests it for presence. */
    private static Operand operand(Compiler c, String text) throws FilterException {
        Node n = c.compile(Parser.parse(text));
        assertTrue(n instanceof Node.Exists, text);
        return ((Node.Exists) n).operand();
    }

    @Test
    void describeShowsHowTheFilterWasRead() throws FilterException {
        DisplayFilter f = DisplayFilter.compile("ip.src == 10.0.0.1 or udp and not tcp");
        assertEquals("(ip.src == 10.0.0.1 || (udp && !tcp))", f.describe());
        assertEquals("ip.src == 10.0.0.1 or udp and not tcp", f.text());
        assertTrue(DisplayFilter.compile(" ").matchesEverything());
        assertEquals("", DisplayFilter.compile("").describe());
    }
}
