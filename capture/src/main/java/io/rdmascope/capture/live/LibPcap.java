package io.rdmascope.capture.live;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import org.pcap4j.core.Pcaps;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds and loads the system's libpcap before pcap4j touches it, so that a missing library is one
 * clear error rather than an {@code ExceptionInInitializerError} from pcap4j's native mappings.
 *
 * <p>pcap4j loads the library named by the system property {@value #LIBRARY_PROPERTY} (default
 * {@code pcap}). Debian's {@code libpcap0.8} package installs only the versioned file
 * {@code libpcap.so.0.8} (the unversioned {@code libpcap.so} comes with {@code libpcap0.8-dev}).
 * JNA, asked for {@code pcap}, first tries {@code libpcap.so} and then scans its search path (the
 * directories {@code ldconfig -p} reports) for the highest {@code libpcap.so.N}; to not depend on
 * that scan, this class tries {@code pcap}, then {@code libpcap.so.1}, then {@code libpcap.so.0.8}
 * (each resolved by the dynamic loader, so {@code LD_LIBRARY_PATH} and {@code ld.so.cache} apply),
 * and sets the property to the first name that loads. A property set by the user (for a libpcap
 * built with RDMA sniffer support, say) is respected and is the only name tried.
 */
public final class LibPcap {

    /** The system property pcap4j reads the library name or path from. */
    public static final String LIBRARY_PROPERTY = "org.pcap4j.core.pcapLibName";

    /** The Debian/Ubuntu package that provides the library. */
    public static final String DEBIAN_PACKAGE = "libpcap0.8";

    private static final Object LOCK = new Object();
    private static String version;
    private static LiveCaptureException failure;

    private LibPcap() {
    }

    /**
     * Loads libpcap (once per JVM) and returns its version string, e.g. {@code "libpcap version
     * 1.10.3 (with TPACKET_V3)"}.
     *
     * @throws LiveCaptureException {@link LiveCaptureException.Reason#LIBPCAP_MISSING} when no
     *                              candidate loads; the answer is remembered
     */
    public static String load() throws LiveCaptureException {
        synchronized (LOCK) {
            if (version != null) {
                return version;
            }
            if (failure != null) {
                throw failure;
            }
            String configured = System.getProperty(LIBRARY_PROPERTY);
            List<String> candidates = configured != null && !configured.isBlank() ? List.of(configured) : candidates();
            List<String> reasons = new ArrayList<>();
            String chosen = null;
            for (String name : candidates) {
                try {
                    NativeLibrary.getInstance(name);
                    chosen = name;
                    break;
                } catch (LinkageError e) {
                    reasons.add(firstLine(e.getMessage()));
                }
            }
            if (chosen == null) {
                failure = missing(candidates, configured != null, reasons);
                throw failure;
            }
            if (configured == null) {
                System.setProperty(LIBRARY_PROPERTY, chosen);
            }
            try {
                version = Pcaps.libVersion();
            } catch (LinkageError e) {
                // pcap4j's mappings failed after all (a library without the pcap_* symbols, say).
                failure = missing(List.of(chosen), configured != null, List.of(firstLine(e.getMessage())));
                throw failure;
            }
            return version;
        }
    }

    /** True when libpcap loads; never throws. */
    public static boolean available() {
        try {
            load();
            return true;
        } catch (LiveCaptureException e) {
            return false;
        }
    }

    /** The names tried when the user named none, in order. */
    static List<String> candidates() {
        if (Platform.isWindows()) {
            return List.of("wpcap");   // Npcap's DLL
        }
        if (Platform.isMac()) {
            return List.of("pcap");
        }
        return List.of("pcap", "libpcap.so.1", "libpcap.so.0.8");
    }

    static LiveCaptureException missing(List<String> tried, boolean userChosen, List<String> reasons) {
        String detail = reasons.isEmpty() ? "" : " (" + String.join("; ", reasons) + ")";
        if (detail.contains("jnidispatch")) {
            // JNA's own stub, unpacked to a temporary directory, did not load: not libpcap's fault.
            return new LiveCaptureException(LiveCaptureException.Reason.LIBPCAP_MISSING,
                    "JNA could not load its native stub" + detail
                            + "; give it an executable temporary directory with -Djna.tmpdir=DIR");
        }
        String message = userChosen
                ? "libpcap could not be loaded from '" + tried.get(0) + "' (named by -D" + LIBRARY_PROPERTY + ")"
                : "libpcap is not installed (tried " + String.join(", ", tried) + ")";
        return new LiveCaptureException(LiveCaptureException.Reason.LIBPCAP_MISSING, message
                + ": install the Debian/Ubuntu package " + DEBIAN_PACKAGE + " (apt-get install " + DEBIAN_PACKAGE
                + ") or your system's libpcap" + (userChosen ? detail : ""));
    }

    /** The informative line of JNA's message: the loader's reason rather than "Unable to load library 'x':". */
    static String firstLine(String s) {
        if (s == null || s.isBlank()) {
            return "unknown error";
        }
        String[] lines = s.split("\n");
        for (String line : lines) {
            String t = line.trim();
            if (!t.isEmpty() && !t.startsWith("Unable to load library")) {
                return t;
            }
        }
        return lines[0].trim();
    }
}
