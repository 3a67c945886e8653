package io.rdmascope.capture;

import java.io.IOException;

/**
 * The decompressor gave up (gzip data cut short or corrupt) while a record was being read.
 *
 * <p>Internal: the byte source knows where the record starts but not which frame it is, so the
 * format reader turns this into the user-facing {@link CaptureFormatException}.
 */
final class DamagedInputException extends IOException {

    private static final long serialVersionUID = 1L;

    /** Capture position of the record whose bytes could not be decompressed. */
    final long recordPos;

    DamagedInputException(long recordPos, IOException cause) {
        super(cause.getMessage(), cause);
        this.recordPos = recordPos;
    }

    CaptureFormatException toCaptureError(CaptureBytes bytes, long frameNumber) {
        String why = getMessage() == null ? getCause().getClass().getSimpleName() : getMessage();
        return new CaptureFormatException(bytes.name, recordPos, frameNumber, bytes.decompressed(),
                "corrupt or truncated gzip data", why, getCause());
    }
}
