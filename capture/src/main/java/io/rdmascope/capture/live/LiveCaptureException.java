package io.rdmascope.capture.live;

import java.io.IOException;

/**
 * A live capture could not start or failed; the message is one line meant for the user as is
 * (the CLI prints it after {@code "rdmascope: "} and exits with status 2).
 */
public final class LiveCaptureException extends IOException {

    /** What went wrong, for callers that react differently (the GUI, tests that skip). */
    public enum Reason {
        /** libpcap (or JNA's stub) could not be loaded. */
        LIBPCAP_MISSING,
        /** The process may not capture: it needs CAP_NET_RAW and CAP_NET_ADMIN, or root. */
        PERMISSION,
        /** No interface of that name; the message lists the valid ones. */
        NO_SUCH_INTERFACE,
        /** The interface exists but is down. */
        INTERFACE_DOWN,
        /** libpcap refused the capture filter; the message carries libpcap's words. */
        BAD_FILTER,
        /** Anything else libpcap reported (the interface went away mid-capture, say). */
        FAILED
    }

    private final Reason reason;

    public LiveCaptureException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public LiveCaptureException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
