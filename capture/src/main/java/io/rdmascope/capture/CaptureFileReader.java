package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What every file reader shares: frame numbering, the "complete frames, then one error, then
 * nothing" contract of {@link PacketSource#next()}, and the underlying bytes' name and lifetime.
 * Subclasses only parse records in {@link #read()}.
 */
public abstract sealed class CaptureFileReader implements PacketSource permits PcapReader, PcapngReader, ErfReader {
    final CaptureBytes bytes;
    /** Frames delivered so far, so also the number of the last one. */
    long number;
    private boolean finished;

    CaptureFileReader(CaptureBytes bytes) {
        this.bytes = bytes;
    }

    /** The next frame of the file, or null at its clean end; throws on damage. */
    abstract Frame read() throws IOException;

    @Override
    public final Frame next() throws IOException {
        if (finished) {
            return null;
        }
        try {
            Frame frame = read();
            if (frame == null) {
                finished = true;
            }
            return frame;
        } catch (CaptureFormatException e) {
            finished = true;
            throw e;
        } catch (DamagedInputException e) {
            finished = true;
            throw e.toCaptureError(bytes, number + 1);
        }
    }

    @Override
    public final String name() {
        return bytes.name;
    }

    /** Whether the bytes came through a gzip decompressor. */
    public final boolean compressed() {
        return bytes.decompressed();
    }

    @Override
    public final void close() {
        try {
            bytes.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
