package io.rdmascope.build;

/**
 * The InfiniBand Variant CRC (IBTA Vol. 1 7.8.2): a 16-bit CRC over the whole native packet, LRH
 * through ICRC, that every link recomputes (so it may cover the VL and everything a switch changes).
 * Polynomial x^16 + x^12 + x^3 + x + 1 (0x100B), register preset to ones, result inverted.
 *
 * <p>Written here bit by bit in the polynomial's natural (non-reflected) orientation, feeding each
 * byte least significant bit first and reversing the register at the end. That is the same CRC as
 * the reflected table-driven form the dissector uses ({@code io.rdmascope.proto.ib.Crcs}) but not the
 * same code, which is the point: tests compare the two. Like the ICRC, the result goes on the wire
 * least significant byte first; both facts were checked on every frame of a real ibdump capture
 * ({@code ../shared/captures/srinivaskoritala_infiniband.pcap}).
 */
public final class VariantCrc {
    private static final int POLYNOMIAL = 0x100B;

    private VariantCrc() {
    }

    /** The 16-bit CRC value over {@code packet[from, to)}, before it is laid out for the wire. */
    public static int compute(byte[] packet, int from, int to) {
        int register = 0xFFFF;
        for (int i = from; i < to; i++) {
            int b = packet[i] & 0xFF;
            for (int bit = 0; bit < 8; bit++) {
                int feedback = ((register >>> 15) ^ (b >>> bit)) & 1;
                register = (register << 1) & 0xFFFF;
                if (feedback != 0) {
                    register ^= POLYNOMIAL;
                }
            }
        }
        return Integer.reverse(register ^ 0xFFFF) >>> 16;
    }

    /** Stores a VCRC value at {@code at}, least significant byte first. */
    public static void store(byte[] packet, int at, int vcrc) {
        packet[at] = (byte) vcrc;
        packet[at + 1] = (byte) (vcrc >>> 8);
    }

    /** The value {@code infiniband.variant.crc} shows (the two wire bytes read big-endian). */
    public static int asShown(int vcrc) {
        return ((vcrc & 0xFF) << 8) | ((vcrc >>> 8) & 0xFF);
    }
}
