package io.rdmascope.capture.live;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** libpcap's failures become one line that says what to do. */
class PcapErrorsTest {

    @Test
    void permissionNamesBothCapabilitiesAndRoot() {
        LiveCaptureException e = PcapErrors.openFailed("eth0", -8, "socket: Operation not permitted", List.of());
        assertEquals(LiveCaptureException.Reason.PERMISSION, e.reason());
        assertTrue(e.getMessage().startsWith("no permission to capture on eth0 (socket: Operation not permitted): "
                + "run as root, or give the java binary CAP_NET_RAW and CAP_NET_ADMIN"), e.getMessage());
        // Recognised by its words too, whatever the code (pcap_create failures carry none).
        assertEquals(LiveCaptureException.Reason.PERMISSION,
                PcapErrors.openFailed("eth0", null, "eth0: You don't have permission to perform this capture on that device",
                        List.of()).reason());
        assertEquals(LiveCaptureException.Reason.PERMISSION,
                PcapErrors.openFailed("eth0", -11, "promiscuous mode not permitted", List.of()).reason());
    }

    @Test
    void unknownInterfaceListsTheValidOnes() {
        LiveCaptureException e = PcapErrors.openFailed("eth9", -5, "No such device exists", List.of("eth0", "lo", "any"));
        assertEquals(LiveCaptureException.Reason.NO_SUCH_INTERFACE, e.reason());
        assertEquals("no such interface 'eth9'; valid interfaces: eth0, lo, any ('rdmascope interfaces' describes them)",
                e.getMessage());
    }

    @Test
    void badFilterKeepsLibpcapsWordsWithoutPcap4jsPrefix() {
        LiveCaptureException e = PcapErrors.badFilter("udp prt 1",
                "Error occurred in pcap_compile: can't parse filter expression: syntax error");
        assertEquals(LiveCaptureException.Reason.BAD_FILTER, e.reason());
        assertEquals("bad capture filter 'udp prt 1': can't parse filter expression: syntax error", e.getMessage());
    }

    @Test
    void downInterfaceAndOtherFailuresAreOneLine() {
        LiveCaptureException down = PcapErrors.openFailed("eth1", -9, "That device is not up", List.of());
        assertEquals(LiveCaptureException.Reason.INTERFACE_DOWN, down.reason());
        assertEquals("interface eth1 is down (That device is not up): bring it up with 'ip link set eth1 up'",
                down.getMessage());
        LiveCaptureException other = PcapErrors.openFailed("x", -1, "something\nbroke.", List.of());
        assertEquals("cannot capture on x: something broke", other.getMessage());
        assertFalse(other.getMessage().contains("\n"));
    }

    @Test
    void missingLibpcapNamesTheDebianPackage() {
        LiveCaptureException e = LibPcap.missing(List.of("pcap", "libpcap.so.1", "libpcap.so.0.8"), false, List.of("x"));
        assertEquals(LiveCaptureException.Reason.LIBPCAP_MISSING, e.reason());
        assertEquals("libpcap is not installed (tried pcap, libpcap.so.1, libpcap.so.0.8): install the Debian/Ubuntu "
                + "package libpcap0.8 (apt-get install libpcap0.8) or your system's libpcap", e.getMessage());
        LiveCaptureException chosen = LibPcap.missing(List.of("/opt/x/libpcap.so"), true,
                List.of("/opt/x/libpcap.so: cannot open shared object file: No such file or directory"));
        assertTrue(chosen.getMessage().startsWith("libpcap could not be loaded from '/opt/x/libpcap.so' (named by "
                + "-Dorg.pcap4j.core.pcapLibName): install the Debian/Ubuntu package libpcap0.8"), chosen.getMessage());
        assertTrue(chosen.getMessage().endsWith("(/opt/x/libpcap.so: cannot open shared object file: No such file or "
                + "directory)"), chosen.getMessage());
    }

    @Test
    void jnasMessageIsReducedToTheLoadersReason() {
        assertEquals("/x/libpcap.so: cannot open shared object file: No such file or directory",
                LibPcap.firstLine("Unable to load library '/x/libpcap.so':\n"
                        + "/x/libpcap.so: cannot open shared object file: No such file or directory\n"
                        + "Native library (x/libpcap.so) not found in resource path (...)"));
    }

    @Test
    void ipv6AddressesAreShownCompressed() {
        assertEquals("fe80::fc:ff:fe00:1", CaptureInterfaces.compress("fe80:0:0:0:fc:ff:fe00:1"));
        assertEquals("::1", CaptureInterfaces.compress("0:0:0:0:0:0:0:1"));
        assertEquals("fd00::2", CaptureInterfaces.compress("fd00:0:0:0:0:0:0:2"));
        assertEquals("fe80::1%eth0", CaptureInterfaces.compress("fe80:0:0:0:0:0:0:1%eth0"));
        assertEquals("1:0:2:0:3:0:4:0", CaptureInterfaces.compress("1:0:2:0:3:0:4:0"));
    }
}
