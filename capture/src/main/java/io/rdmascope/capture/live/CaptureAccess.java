package io.rdmascope.capture.live;

/**
 * What opening an interface for capture gives right now: allowed (with its link type), or why not.
 *
 * @param allowed      the interface opened
 * @param linkType     libpcap LINKTYPE_ value when opened, else -1
 * @param linkTypeName libpcap's name for the link type ({@code EN10MB}), or null
 * @param problem      why it did not open, else null
 * @param reason       the kind of problem, else null
 */
public record CaptureAccess(boolean allowed, int linkType, String linkTypeName, String problem,
                           LiveCaptureException.Reason reason) {

    static CaptureAccess allowed(int linkType, String linkTypeName) {
        return new CaptureAccess(true, linkType, linkTypeName, null, null);
    }

    static CaptureAccess refused(LiveCaptureException e) {
        return new CaptureAccess(false, -1, null, e.getMessage(), e.reason());
    }
}
