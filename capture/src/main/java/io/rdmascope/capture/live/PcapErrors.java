package io.rdmascope.capture.live;

import java.util.List;

/**
 * Turns libpcap's failures into one-line {@link LiveCaptureException}s that say what to do. The
 * return codes are pcap.h's {@code PCAP_ERROR_*}; the texts are what pcap4j passes on from
 * {@code pcap_geterr} / {@code pcap_statustostr}.
 */
final class PcapErrors {
    static final int PCAP_ERROR = -1;
    static final int PCAP_ERROR_NO_SUCH_DEVICE = -5;
    static final int PCAP_ERROR_PERM_DENIED = -8;
    static final int PCAP_ERROR_IFACE_NOT_UP = -9;
    static final int PCAP_ERROR_PROMISC_PERM_DENIED = -11;

    /** pcap4j's prefix before libpcap's own words when a filter does not compile. */
    private static final String COMPILE_PREFIX = "Error occurred in pcap_compile: ";

    static final String PERMISSION_HINT = "run as root, or give the java binary CAP_NET_RAW and CAP_NET_ADMIN "
            + "(docs/capture.md says how)";

    private PcapErrors() {
    }

    /** Opening (pcap_create / pcap_activate) {@code iface} failed with {@code code} and libpcap's {@code text}. */
    static LiveCaptureException openFailed(String iface, Integer code, String text, List<String> valid) {
        String said = clean(text);
        int rc = code == null ? PCAP_ERROR : code;
        if (rc == PCAP_ERROR_PERM_DENIED || rc == PCAP_ERROR_PROMISC_PERM_DENIED || mentionsPermission(said)) {
            return permission(iface, said);
        }
        if (rc == PCAP_ERROR_NO_SUCH_DEVICE) {
            return noSuchInterface(iface, valid);
        }
        if (rc == PCAP_ERROR_IFACE_NOT_UP) {
            return new LiveCaptureException(LiveCaptureException.Reason.INTERFACE_DOWN,
                    "interface " + iface + " is down (" + said + "): bring it up with 'ip link set " + iface + " up'");
        }
        return new LiveCaptureException(LiveCaptureException.Reason.FAILED,
                "cannot capture on " + iface + ": " + said);
    }

    static LiveCaptureException permission(String iface, String said) {
        return new LiveCaptureException(LiveCaptureException.Reason.PERMISSION,
                "no permission to capture on " + iface + (said.isEmpty() ? "" : " (" + said + ")") + ": "
                        + PERMISSION_HINT);
    }

    static LiveCaptureException noSuchInterface(String iface, List<String> valid) {
        String list = valid == null || valid.isEmpty() ? "libpcap lists none"
                : "valid interfaces: " + String.join(", ", valid);
        return new LiveCaptureException(LiveCaptureException.Reason.NO_SUCH_INTERFACE,
                "no such interface '" + iface + "'; " + list + " ('rdmascope interfaces' describes them)");
    }

    static LiveCaptureException badFilter(String filter, String text) {
        String said = clean(text);
        if (said.startsWith(COMPILE_PREFIX)) {
            said = said.substring(COMPILE_PREFIX.length());
        }
        return new LiveCaptureException(LiveCaptureException.Reason.BAD_FILTER,
                "bad capture filter '" + filter + "': " + said);
    }

    static LiveCaptureException readFailed(String iface, String text) {
        return new LiveCaptureException(LiveCaptureException.Reason.FAILED,
                "capture on " + iface + " failed: " + clean(text));
    }

    private static boolean mentionsPermission(String text) {
        String t = text.toLowerCase(java.util.Locale.ROOT);
        return t.contains("operation not permitted") || t.contains("permission denied")
                || t.contains("don't have permission");
    }

    /** One line, no trailing period or blanks. */
    static String clean(String text) {
        if (text == null) {
            return "";
        }
        String t = text.replace('\n', ' ').replace('\r', ' ').trim();
        while (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1);
        }
        return t;
    }
}
