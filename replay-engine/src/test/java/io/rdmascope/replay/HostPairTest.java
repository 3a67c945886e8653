package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The host-pair key the Spark job groups frames by: the same both ways, distinct per pair of hosts. */
class HostPairTest {
    private static Set<String> keys(Path capture) throws IOException {
        Set<String> keys = new HashSet<>();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        try (PacketSource in = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = in.next()) != null) {
                chain.dissect(f, d);
                keys.add(HostPair.keyOf(d));
            }
        }
        return keys;
    }

    private static Path sample(String name, String extension) {
        return SharedFiles.sampleCases().resolve(name).resolve(name + extension);
    }

    @Test
    void bothDirectionsOfOnePairShareOneKey() throws IOException {
        // Requests one way, ACKs and READ responses the other: two hosts, one key (RoCEv2 over IPv4).
        Set<String> keys = keys(sample("rc_read", ".pcapng"));
        assertEquals(1, keys.size(), keys.toString());
        assertFalse(keys.contains(""));
        // Native InfiniBand without GRH: the LIDs name the pair.
        Set<String> lids = keys(sample("native_ib_erf", ".erf"));
        assertEquals(1, lids.size(), lids.toString());
        assertNotEquals(keys, lids);
    }

    @Test
    void fourHostsInTwoPairsGiveTwoKeys() throws IOException {
        // rc_incomplete's traffic runs between 10.0.0.1-10.0.0.2 and 10.0.0.3-10.0.0.4.
        assertEquals(2, keys(sample("rc_incomplete", ".pcapng")).size());
    }

    @Test
    void aFrameWithoutAddressesHasTheEmptyKey() {
        Dissection d = new Dissection();
        byte[] arp = new byte[42];
        arp[12] = 0x08;
        arp[13] = 0x06; // Ethernet II, ARP: no IP or InfiniBand addresses
        DissectorChain.standard().dissect(Frame.of(1, 0, 1, arp), d);
        assertEquals("", HostPair.keyOf(d));
    }
}
