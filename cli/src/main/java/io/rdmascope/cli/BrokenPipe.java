package io.rdmascope.cli;

import java.io.IOException;

/**
 * Recognises the error of writing to a pipe whose reader has gone ({@code rdmascope dissect F | head -1}).
 * The JVM ignores SIGPIPE, so the write fails with EPIPE, which the JDK reports as an IOException whose
 * message is the C library's text for it; tshark dies of the signal silently, and so should we.
 */
final class BrokenPipe {
    /** strerror(EPIPE) on Linux and the BSDs/macOS. */
    static final String MESSAGE = "Broken pipe";

    private BrokenPipe() {
    }

    static boolean is(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof IOException && t.getMessage() != null && t.getMessage().contains(MESSAGE)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
