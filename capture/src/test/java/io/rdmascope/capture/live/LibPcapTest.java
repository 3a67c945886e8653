package io.rdmascope.capture.live;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Loading libpcap: found without the unversioned libpcap.so, and a clear error when it is missing. */
class LibPcapTest {

    /** A child JVM whose only job is {@link LibPcap#load()}: pcap4j's native mappings load once per JVM. */
    public static final class Probe {
        public static void main(String[] args) {
            try {
                System.out.println("loaded: " + LibPcap.load());
                System.out.println("property: " + System.getProperty(LibPcap.LIBRARY_PROPERTY));
            } catch (LiveCaptureException e) {
                System.out.println("error " + e.reason() + ": " + e.getMessage());
                System.exit(2);
            }
        }
    }

    private static LiveTestSupport.Run probe(String... properties) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(LiveTestSupport.java()));
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        return LiveTestSupport.run(command, 60);
    }

    @Test
    void aMissingLibraryIsOneLineNamingTheDebianPackage() throws Exception {
        LiveTestSupport.Run r = probe("-D" + LibPcap.LIBRARY_PROPERTY + "=/nonexistent/libpcap.so.9");
        assertEquals(2, r.status(), r.output());
        assertTrue(r.output().startsWith("error LIBPCAP_MISSING: libpcap could not be loaded from "
                + "'/nonexistent/libpcap.so.9'"), r.output());
        assertTrue(r.output().contains("apt-get install libpcap0.8"), r.output());
        assertEquals(1, r.output().strip().split("\n").length, "one line, and no SLF4J noise: " + r.output());
    }

    @Test
    void theSystemLibraryLoadsWithoutTheUnversionedName() throws Exception {
        LiveTestSupport.Run r = probe();
        assumeTrue(r.status() == 0, "SKIPPED: libpcap is not installed here (.ci/run installs libpcap0.8): "
                + r.output());
        assertTrue(r.output().startsWith("loaded: libpcap version "), r.output());
        // The name that worked is handed to pcap4j through its property.
        assertTrue(r.output().contains("property: " + "pcap") || r.output().contains("property: libpcap.so."),
                r.output());
    }
}
