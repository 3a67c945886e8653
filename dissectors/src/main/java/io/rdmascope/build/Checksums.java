package io.rdmascope.build;

/** The Internet checksum (RFC 1071) for IPv4 headers and UDP/TCP segments. */
final class Checksums {
    private Checksums() {
    }

    /**
     * One's-complement of the one's-complement sum of {@code buf[from, from + length)} taken as
     * big-endian 16-bit words (an odd last byte padded with zero), plus {@code initialSum} (a
     * pseudo-header's partial sum).
     */
    static int internet(byte[] buf, int from, int length, long initialSum) {
        long sum = partialSum(buf, from, length) + initialSum;
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }

    /** The uncomplemented sum of 16-bit words, for building pseudo-header sums. */
    static long partialSum(byte[] buf, int from, int length) {
        long sum = 0;
        int i = from;
        int end = from + length;
        for (; i + 1 < end; i += 2) {
            sum += ((buf[i] & 0xFF) << 8) | (buf[i + 1] & 0xFF);
        }
        if (i < end) {
            sum += (buf[i] & 0xFF) << 8;
        }
        return sum;
    }
}
