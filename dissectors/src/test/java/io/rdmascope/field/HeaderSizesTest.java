package io.rdmascope.field;

import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.mad.Mad;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 19: a header's size is derived from its field layout ({@link HeaderType#fixedLength()}) and
 * read from there by the dissector, the packet builder and the replay engine. The sizes the standards
 * give (IBTA Vol. 1 9.2-9.3 and Annexes A14/A17/A19, IEEE 802.3/802.1Q, RFC 791/8200/768/9293, IBTA
 * 13.4 for the MAD common header, Mellanox DC as docs/dc.md records it) hold the layouts to them.
 */
class HeaderSizesTest {

    @Test
    void everyFixedHeaderHasTheSizeItsStandardGives() {
        Map<HeaderType, Integer> sizes = new LinkedHashMap<>();
        sizes.put(InfiniBand.LRH, 8);
        sizes.put(InfiniBand.GRH, 40);
        sizes.put(InfiniBand.BTH, 12);
        sizes.put(InfiniBand.RDETH, 4);
        sizes.put(InfiniBand.DETH, 8);
        sizes.put(InfiniBand.RETH, 16);
        sizes.put(InfiniBand.ATOMICETH, 28);
        sizes.put(InfiniBand.AETH, 4);
        sizes.put(InfiniBand.ATOMICACKETH, 8);
        sizes.put(InfiniBand.IMMDT, 4);
        sizes.put(InfiniBand.IETH, 4);
        sizes.put(InfiniBand.XRCETH, 4);
        sizes.put(InfiniBand.FETH, 4);
        sizes.put(InfiniBand.DCETH, 8);
        sizes.put(InfiniBand.DCCETH, 16);
        sizes.put(InfiniBand.CNP, 16);
        sizes.put(Ethernet.HEADER, 14);
        sizes.put(Ethernet.VLAN, 4);
        sizes.put(Ip.IPV4, 20);
        sizes.put(Ip.IPV6, 40);
        sizes.put(Transport.UDP, 8);
        sizes.put(Transport.TCP, 20);
        sizes.put(Mad.HEADER, 24);
        for (Map.Entry<HeaderType, Integer> e : sizes.entrySet()) {
            assertEquals(e.getValue(), e.getKey().fixedLength(), e.getKey().abbrev());
        }
        assertEquals(Mad.COMMON_HEADER_SIZE, Mad.HEADER.fixedLength());
    }
}
