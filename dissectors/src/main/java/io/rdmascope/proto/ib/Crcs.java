package io.rdmascope.proto.ib;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.field.Field;
import io.rdmascope.field.ValueNames;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * ICRC and VCRC verification (IBTA Vol. 1 7.8; RoCE Annex A16/A17).
 *
 * <p>The ICRC is CRC-32 as zlib computes it over the packet with every field a router may change
 * replaced by ones: for RoCEv2, eight 0xFF bytes standing in for the LRH, then the IP header with
 * IPv4 TOS/TTL/checksum (IPv6 traffic class, flow label, hop limit) set to ones, the UDP header with
 * its checksum set to ones, the BTH with byte 4 (FECN, BECN, reserved) set to ones, and everything
 * after it up to the ICRC. RoCEv1 covers the GRH the same way; native IB covers the real LRH with
 * its VL set to ones when no GRH follows, and eight 0xFF bytes in place of the LRH when one does
 * (established on the LRH+GRH frames of a real ibdump capture). The CRC is sent least significant byte first, so the value compared with
 * {@code infiniband.invariant.crc} (which Wireshark reads big-endian) is the byte-reversed CRC.
 *
 * <p>The VCRC is CRC-16 (polynomial 0x100B, reflected, seed and final XOR 0xFFFF) over LRH through
 * ICRC, also stored least significant byte first; checked against a real ibdump capture.
 */
public final class Crcs {
    public static final int STATUS_BAD = 0;
    public static final int STATUS_GOOD = 1;
    public static final int STATUS_UNVERIFIED = 2;
    /** Wireshark's checksum-status names. */
    public static final ValueNames STATUS_NAMES = ValueNames.of(0, "Bad", 1, "Good", 2, "Unverified");

    private static final int[] VCRC_TABLE = vcrcTable();

    static final Field.Computation ICRC_COMPUTED = new Field.Computation() {
        @Override
        public long value(Dissection d, int layer) {
            return icrcComputed(d);
        }

        @Override
        public boolean isPresent(Dissection d, int layer) {
            return icrcCovered(d);
        }
    };

    static final Field.Computation ICRC_STATUS = (d, layer) -> icrcStatus(d);

    static final Field.Computation VCRC_COMPUTED = new Field.Computation() {
        @Override
        public long value(Dissection d, int layer) {
            return vcrcComputed(d);
        }

        @Override
        public boolean isPresent(Dissection d, int layer) {
            return vcrcCovered(d);
        }
    };

    static final Field.Computation VCRC_STATUS = (d, layer) -> vcrcStatus(d);

    private Crcs() {
    }

    /** 1 Good, 0 Bad, 2 Unverified (ICRC not captured, or no ICRC in this frame). */
    public static int icrcStatus(Dissection d) {
        if (!icrcCovered(d)) {
            return STATUS_UNVERIFIED;
        }
        long onWire = d.u32(d.rdma().icrcOffset);
        return onWire == icrcComputed(d) ? STATUS_GOOD : STATUS_BAD;
    }

    public static int vcrcStatus(Dissection d) {
        if (!vcrcCovered(d)) {
            return STATUS_UNVERIFIED;
        }
        return d.u16(d.rdma().vcrcOffset) == vcrcComputed(d) ? STATUS_GOOD : STATUS_BAD;
    }

    private static boolean icrcCovered(Dissection d) {
        RdmaContext r = d.rdma();
        return r.icrcOffset >= 0 && r.coverageStart >= 0 && r.icrcOffset + 4 <= d.capturedLength()
                && r.bthStart >= 0 && r.bthStart + 12 <= r.icrcOffset;
    }

    private static boolean vcrcCovered(Dissection d) {
        RdmaContext r = d.rdma();
        return r.vcrcOffset >= 0 && r.vcrcOffset + 2 <= d.capturedLength()
                && r.encapsulation == RdmaContext.Encapsulation.INFINIBAND;
    }

    /** The ICRC the frame should carry, in the byte order {@code infiniband.invariant.crc} shows. */
    public static long icrcComputed(Dissection d) {
        RdmaContext r = d.rdma();
        if (!r.icrcDone()) {
            r.setIcrcComputed(Integer.reverseBytes((int) crc32Masked(d, r)) & 0xFFFFFFFFL);
        }
        return r.icrcComputed();
    }

    private static long crc32Masked(Dissection d, RdmaContext r) {
        int n = 0;
        int start = r.coverageStart;
        int headerEnd = r.bthStart + 12;
        if (headerEnd - start + 8 > r.scratch().length) {
            return -1; // headers too long to mask (IPv6 extension chains): treated as not matching
        }
        // Masked headers and payload in one array when they fit, so the CRC is one call (see icrcInput).
        int payloadBytes = r.icrcOffset - headerEnd;
        boolean whole = payloadBytes >= 0
                && Math.max(0, headerEnd - start) + 8 + payloadBytes <= RdmaContext.ICRC_INPUT_BYTES;
        byte[] s = whole ? r.icrcInput() : r.scratch();
        if (r.encapsulation != RdmaContext.Encapsulation.INFINIBAND) {
            for (int i = 0; i < 8; i++) {
                s[n++] = (byte) 0xFF; // stands in for the LRH RoCE does not have
            }
        }
        int copyFrom = n;
        // One bulk copy of the headers to mask (not a bounds-checked read per byte): the ICRC is checked
        // for every RoCE frame the replay sees, so this runs once per frame.
        int headerBytes = Math.max(0, headerEnd - start);
        d.buffer().get(d.base() + start, s, n, headerBytes);
        n += headerBytes;
        int net = copyFrom; // start of the network header in scratch
        switch (r.encapsulation) {
            case ROCE_V2_IPV4 -> {
                s[net + 1] = (byte) 0xFF;                    // TOS (DSCP + ECN)
                s[net + 8] = (byte) 0xFF;                    // TTL
                s[net + 10] = (byte) 0xFF;                   // header checksum
                s[net + 11] = (byte) 0xFF;
                int udp = net + r.networkHeaderLength;
                s[udp + 6] = (byte) 0xFF;                    // UDP checksum
                s[udp + 7] = (byte) 0xFF;
            }
            case ROCE_V2_IPV6 -> {
                maskIpv6LikeHeader(s, net);
                int udp = net + r.networkHeaderLength;
                s[udp + 6] = (byte) 0xFF;
                s[udp + 7] = (byte) 0xFF;
            }
            case ROCE_V1 -> maskIpv6LikeHeader(s, net);     // the GRH has the IPv6 layout
            case INFINIBAND -> {
                if (r.hasGrh) {
                    // With a GRH the whole LRH is variant (routers rewrite it), so it counts as ones,
                    // as RoCE's stand-in does; matched against real ibdump LRH+GRH frames.
                    java.util.Arrays.fill(s, net, net + 8, (byte) 0xFF);
                    maskIpv6LikeHeader(s, net + 8);
                } else {
                    s[net] = (byte) (s[net] | 0xF0);        // LRH VL only
                }
            }
            case NONE -> {
                return -1;
            }
        }
        s[n - 12 + 4] = (byte) 0xFF;                         // BTH byte 4: FECN, BECN, reserved
        CRC32 crc = r.crc32();
        crc.reset();
        if (whole) {
            d.buffer().get(d.base() + headerEnd, s, n, payloadBytes);
            crc.update(s, 0, n + payloadBytes);
            return crc.getValue();
        }
        crc.update(s, 0, n);
        ByteBuffer view = r.view(d.buffer());
        int from = d.base() + headerEnd;
        int to = d.base() + r.icrcOffset;
        view.limit(to).position(from);
        crc.update(view);
        return crc.getValue();
    }

    /** Traffic class, flow label and hop limit of an IPv6 header or GRH set to ones. */
    private static void maskIpv6LikeHeader(byte[] s, int at) {
        s[at] = (byte) (s[at] | 0x0F);
        s[at + 1] = (byte) 0xFF;
        s[at + 2] = (byte) 0xFF;
        s[at + 3] = (byte) 0xFF;
        s[at + 7] = (byte) 0xFF;
    }

    /** The VCRC the frame should carry, in the byte order {@code infiniband.variant.crc} shows. */
    public static int vcrcComputed(Dissection d) {
        RdmaContext r = d.rdma();
        if (!r.vcrcDone()) {
            int crc = 0xFFFF;
            ByteBuffer b = d.buffer();
            int end = d.base() + r.vcrcOffset;
            for (int i = d.base() + r.coverageStart; i < end; i++) {
                crc = (crc >>> 8) ^ VCRC_TABLE[(crc ^ b.get(i)) & 0xFF];
            }
            crc ^= 0xFFFF;
            r.setVcrcComputed(((crc & 0xFF) << 8) | (crc >>> 8));
        }
        return r.vcrcComputed();
    }

    private static int[] vcrcTable() {
        int reflectedPoly = Integer.reverse(0x100B) >>> 16; // 0xD008
        int[] table = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ reflectedPoly : c >>> 1;
            }
            table[i] = c;
        }
        return table;
    }
}
