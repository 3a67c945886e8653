package io.rdmascope.capture;

import java.io.IOException;

/**
 * A capture file that cannot be read any further: unknown format, truncated, or corrupt.
 *
 * <p>The message is one line meant for the user as is (the CLI prints it and exits 2), for example
 * {@code capture.pcap: truncated record at byte offset 4242 (frame 17): header says 1514 bytes, 900 remain}.
 * Every frame before the damage has already been delivered when a reader throws this.
 *
 * <p>For gzip-compressed captures the offset counts bytes of the decompressed stream, because that is
 * where pcap/pcapng structure lives; {@link #inDecompressedStream()} says so and the message does too.
 */
public class CaptureFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String fileName;
    private final long byteOffset;
    private final long frameNumber;
    private final boolean inDecompressedStream;

    /**
     * @param fileName             file name as the user knows it (usually the last path element)
     * @param byteOffset           where the damage starts: the record or block being read
     * @param frameNumber          1-based number of the frame being read, or 0 when the damage is in a
     *                             file header, before any frame could be read
     * @param inDecompressedStream whether {@code byteOffset} counts decompressed (gzip) bytes
     * @param problem              what is wrong, short ("truncated record")
     * @param detail               why we think so ("header says 1514 bytes, 900 remain"), or null
     */
    public CaptureFormatException(String fileName, long byteOffset, long frameNumber, boolean inDecompressedStream,
                                  String problem, String detail) {
        super(format(fileName, byteOffset, frameNumber, inDecompressedStream, problem, detail));
        this.fileName = fileName;
        this.byteOffset = byteOffset;
        this.frameNumber = frameNumber;
        this.inDecompressedStream = inDecompressedStream;
    }

    /** As above, keeping the lower-level exception (a gzip {@code ZipException}, say) as the cause. */
    public CaptureFormatException(String fileName, long byteOffset, long frameNumber, boolean inDecompressedStream,
                                  String problem, String detail, Throwable cause) {
        this(fileName, byteOffset, frameNumber, inDecompressedStream, problem, detail);
        initCause(cause);
    }

    private static String format(String fileName, long byteOffset, long frameNumber, boolean decompressed,
                                 String problem, String detail) {
        StringBuilder message = new StringBuilder(128)
                .append(fileName).append(": ").append(problem)
                .append(" at byte offset ").append(byteOffset);
        if (decompressed) {
            message.append(" of the decompressed stream");
        }
        if (frameNumber > 0) {
            message.append(" (frame ").append(frameNumber).append(')');
        }
        if (detail != null && !detail.isEmpty()) {
            message.append(": ").append(detail);
        }
        return message.toString();
    }

    /** The capture's file name as given to the reader. */
    public String fileName() {
        return fileName;
    }

    /** Byte offset of the damaged record or block (decompressed offset for gzip input). */
    public long byteOffset() {
        return byteOffset;
    }

    /** The 1-based number of the frame that was being read, or 0 for damage in a file header. */
    public long frameNumber() {
        return frameNumber;
    }

    /** Whether {@link #byteOffset()} counts bytes of the decompressed stream of a gzip file. */
    public boolean inDecompressedStream() {
        return inDecompressedStream;
    }
}
