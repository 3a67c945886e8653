package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;

/**
 * A sequence of captured frames: a file reader, a live capture, or a generator.
 *
 * <p>Frames are numbered from 1 in delivery order, carry nanoseconds since the Unix epoch, and keep
 * the captured and the on-wire length apart. A frame's buffer may be shared with other frames and
 * may stay valid after {@link #close()} (a mapped file's windows live as long as frames reference
 * them), so frames can be kept.
 *
 * <p>Not thread-safe: one consumer calls {@link #next()}.
 */
public interface PacketSource extends AutoCloseable {

    /**
     * The next frame, or {@code null} at the clean end of the input.
     *
     * @throws CaptureFormatException when the input is truncated or corrupt; every complete frame
     *                                before the damage has been returned first, and every later
     *                                call returns {@code null}
     * @throws IOException            when the underlying file or device fails
     */
    Frame next() throws IOException;

    /**
     * Decimal digits of a second the timestamps of the frames from {@code interfaceId} resolve: what
     * tshark shows of them (6 for a microsecond pcap, 9 for a nanosecond one). Live captures and
     * generators stamp nanoseconds.
     */
    default int timestampDigits(int interfaceId) {
        return 9;
    }

    /** Name for messages: the file name, or the interface name for a live capture. */
    String name();

    /** Releases the file or device; frames already returned stay readable. */
    @Override
    void close();
}
