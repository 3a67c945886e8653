package io.rdmascope.frame;

import java.nio.ByteBuffer;

/**
 * One captured frame: a read-only view into the capture's bytes, never a copy.
 *
 * <p>{@code buffer} is shared by many frames (for a memory-mapped file it is the mapped window), so
 * the frame's bytes are {@code buffer[offset, offset + capturedLength)}. Read them with absolute
 * gets through {@link #get(int)}; never move the shared buffer's position.
 *
 * @param number         1-based frame number, as Wireshark counts
 * @param timeNanos      capture time, nanoseconds since the Unix epoch
 * @param capturedLength bytes present in the capture
 * @param wireLength     bytes the frame had on the wire (may exceed {@code capturedLength} with a snaplen)
 * @param linkType       libpcap LINKTYPE_ value (see {@link LinkTypes})
 * @param interfaceId    capture interface (pcapng IDB index; 0 for classic pcap)
 */
public record Frame(long number, long timeNanos, int capturedLength, int wireLength, int linkType,
                    int interfaceId, ByteBuffer buffer, int offset) {

    public Frame {
        if (capturedLength < 0 || offset < 0 || offset + capturedLength > buffer.limit()) {
            throw new IllegalArgumentException("frame view outside its buffer");
        }
    }

    /** Wraps a standalone byte array as a frame (tests, the packet builder, live capture). */
    public static Frame of(long number, long timeNanos, int linkType, byte[] bytes) {
        return new Frame(number, timeNanos, bytes.length, bytes.length, linkType, 0,
                ByteBuffer.wrap(bytes).asReadOnlyBuffer(), 0);
    }

    /** Byte {@code index} of the frame, 0-based from its first captured byte. */
    public byte get(int index) {
        return buffer.get(offset + index);
    }

    /** A read-only slice holding exactly this frame's captured bytes. */
    public ByteBuffer slice() {
        return buffer.slice(offset, capturedLength).asReadOnlyBuffer();
    }

    /** A copy of the captured bytes, for writers and displays that need an array. */
    public byte[] toByteArray() {
        byte[] copy = new byte[capturedLength];
        buffer.get(offset, copy);
        return copy;
    }
}
