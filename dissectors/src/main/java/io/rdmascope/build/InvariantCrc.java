package io.rdmascope.build;

import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The InfiniBand Invariant CRC (IBTA Vol. 1 7.8.1; Annex A16 for RoCEv1, Annex A17 for RoCEv2),
 * computed from a packet's bytes on its own, without the dissector. The builder uses it to seal
 * frames, and tests set it against {@code io.rdmascope.proto.ib.Crcs}, so two implementations written
 * apart from each other check one another.
 *
 * <p>The ICRC covers everything from the network header to the last pad byte that no switch or
 * router may change. Fields a hop may rewrite are replaced by ones before the CRC is taken:
 * <ul>
 *   <li>RoCEv2 over IPv4: TOS (DSCP and ECN), TTL and header checksum; over IPv6: traffic class,
 *       flow label and hop limit. The UDP checksum in both.</li>
 *   <li>RoCEv1 and a native GRH: traffic class, flow label and hop limit (the GRH has IPv6's
 *       layout).</li>
 *   <li>The BTH's byte 4 (FECN, BECN and reserved bits), which congestion control sets in flight.</li>
 *   <li>The LRH. A packet with a GRH may cross routers, which rebuild the LRH, so all of it is
 *       variant: it enters the CRC as eight bytes of ones. RoCE has no LRH at all and uses the
 *       same eight bytes of ones in its place. A packet without a GRH (LNH = 2) stays in its
 *       subnet; its LRH is covered as sent, with only the VL (changed per link) set to ones.</li>
 * </ul>
 * The CRC is the reflected CRC-32 of IEEE 802.3 (what {@link CRC32} computes) and goes on the wire
 * least significant byte first.
 *
 * <p>Pitfall: the rule for the LRH of a packet with a GRH is not what a first reading of "set VL to
 * ones" suggests; it was confirmed on the native-IB frames of a real ibdump capture
 * ({@code ../shared/captures/srinivaskoritala_infiniband.pcap}), whose LNH = 3 frames verify only
 * with the LRH replaced by ones, and whose LNH = 2 frames only with the LRH as sent.
 */
public final class InvariantCrc {
    /** What the covered bytes start with, which decides what is masked. */
    public enum Scope {
        /** IPv4 header, UDP header, BTH… (an LRH of ones is prepended). */
        ROCE_V2_IPV4,
        /** IPv6 header (no extension headers), UDP header, BTH… (an LRH of ones is prepended). */
        ROCE_V2_IPV6,
        /** GRH, BTH… (an LRH of ones is prepended). */
        ROCE_V1,
        /** Native IB without a GRH: LRH (VL masked), BTH… */
        IB_LOCAL,
        /** Native IB with a GRH: LRH (all ones), GRH, BTH… */
        IB_GLOBAL
    }

    private static final int LRH_LENGTH = 8;
    private static final int GRH_LENGTH = 40;
    private static final int IPV6_LENGTH = 40;
    private static final int UDP_LENGTH = 8;
    private static final int BTH_RESERVED_BYTE = 4;

    private InvariantCrc() {
    }

    /**
     * The CRC register value (as {@link CRC32#getValue()} returns it) over {@code packet[from, icrcAt)}.
     *
     * @param from   first byte of the IP header (RoCEv2), GRH (RoCEv1) or LRH (native IB)
     * @param icrcAt where the ICRC goes: the byte after the last pad byte
     */
    public static int compute(byte[] packet, Scope scope, int from, int icrcAt) {
        boolean lrhOfOnes = scope != Scope.IB_LOCAL;
        int skip = scope == Scope.IB_GLOBAL ? LRH_LENGTH : 0; // the real LRH is replaced, not covered
        int covered = icrcAt - from - skip;
        byte[] input = new byte[(lrhOfOnes ? LRH_LENGTH : 0) + covered];
        int at = 0;
        if (lrhOfOnes) {
            Arrays.fill(input, 0, LRH_LENGTH, (byte) 0xFF);
            at = LRH_LENGTH;
        }
        System.arraycopy(packet, from + skip, input, at, covered);
        int bth;
        switch (scope) {
            case ROCE_V2_IPV4 -> {
                int headerLength = (input[at] & 0x0F) * 4;
                input[at + 1] = (byte) 0xFF;                 // TOS: DSCP and ECN
                input[at + 8] = (byte) 0xFF;                 // TTL
                input[at + 10] = (byte) 0xFF;                // header checksum
                input[at + 11] = (byte) 0xFF;
                int udp = at + headerLength;
                input[udp + 6] = (byte) 0xFF;                // UDP checksum
                input[udp + 7] = (byte) 0xFF;
                bth = udp + UDP_LENGTH;
            }
            case ROCE_V2_IPV6 -> {
                onesOverIpv6Variants(input, at);
                int udp = at + IPV6_LENGTH;
                input[udp + 6] = (byte) 0xFF;
                input[udp + 7] = (byte) 0xFF;
                bth = udp + UDP_LENGTH;
            }
            case ROCE_V1, IB_GLOBAL -> {
                onesOverIpv6Variants(input, at);
                bth = at + GRH_LENGTH;
            }
            case IB_LOCAL -> {
                input[0] = (byte) (input[0] | 0xF0);          // VL
                bth = LRH_LENGTH;
            }
            default -> throw new IllegalArgumentException(String.valueOf(scope));
        }
        input[bth + BTH_RESERVED_BYTE] = (byte) 0xFF;         // FECN, BECN, reserved
        CRC32 crc = new CRC32();
        crc.update(input, 0, input.length);
        return (int) crc.getValue();
    }

    /** Stores a CRC register value at {@code at}, least significant byte first, as the wire carries it. */
    public static void store(byte[] packet, int at, int crc) {
        for (int i = 0; i < 4; i++) {
            packet[at + i] = (byte) (crc >>> (8 * i));
        }
    }

    /**
     * The value {@code infiniband.invariant.crc} shows for a CRC register value: Wireshark reads the
     * four wire bytes big-endian, so it shows the register byte-reversed.
     */
    public static long asShown(int crc) {
        return Integer.reverseBytes(crc) & 0xFFFFFFFFL;
    }

    /** IPv6 or GRH traffic class (low nibble of byte 0, high nibble of byte 1), flow label, hop limit. */
    private static void onesOverIpv6Variants(byte[] b, int at) {
        b[at] = (byte) (b[at] | 0x0F);
        b[at + 1] = (byte) 0xFF;
        b[at + 2] = (byte) 0xFF;
        b[at + 3] = (byte) 0xFF;
        b[at + 7] = (byte) 0xFF;
    }
}
