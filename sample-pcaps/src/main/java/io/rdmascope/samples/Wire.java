package io.rdmascope.samples;

import io.rdmascope.build.RocePacket;

/**
 * How a scenario's packets travel: the encapsulation and, for Ethernet ones, an optional 802.1Q tag.
 * RoCE data goes out as NVIDIA NICs send it by default: DSCP 26, ECN-capable transport ECT(0).
 */
public record Wire(Encap encap, int vlanId, int vlanPriority) {
    /** DSCP of RoCE data on NVIDIA NICs unless configured (mlnx_qos default for RoCE traffic). */
    static final int DATA_DSCP = 26;
    /** ECN codepoint ECT(0) (RFC 3168). */
    static final int ECT0 = 2;
    /** ECN codepoint CE, congestion experienced. */
    static final int CE = 3;

    public enum Encap {
        ROCE_V2_IPV4, ROCE_V2_IPV6, ROCE_V1, IB_LOCAL, IB_GLOBAL;

        boolean roceV2() {
            return this == ROCE_V2_IPV4 || this == ROCE_V2_IPV6;
        }

        boolean ethernet() {
            return this != IB_LOCAL && this != IB_GLOBAL;
        }
    }

    public static Wire of(Encap encap) {
        return new Wire(encap, -1, 0);
    }

    public static Wire vlan(Encap encap, int id, int priority) {
        if (!encap.ethernet()) {
            throw new IllegalArgumentException("VLAN tags need an Ethernet encapsulation");
        }
        return new Wire(encap, id, priority);
    }

    /** A packet from {@code from} to {@code to} with this wire's encapsulation; BTH fields still to set. */
    RocePacket packet(Host from, Host to) {
        RocePacket p = switch (encap) {
            case ROCE_V2_IPV4 -> RocePacket.v2Ipv4(from.mac(), to.mac(), from.ipv4(), to.ipv4());
            case ROCE_V2_IPV6 -> RocePacket.v2Ipv6(from.mac(), to.mac(), from.ipv6(), to.ipv6());
            case ROCE_V1 -> RocePacket.v1(from.mac(), to.mac(), from.gid(), to.gid());
            case IB_LOCAL -> RocePacket.nativeIb(from.lid(), to.lid());
            case IB_GLOBAL -> RocePacket.nativeIb(from.lid(), to.lid()).grh(from.gid(), to.gid());
        };
        if (vlanId >= 0) {
            p.vlan(vlanId, vlanPriority);
        }
        if (encap.roceV2()) {
            p.dscp(DATA_DSCP).ecn(ECT0);
        }
        return p;
    }

    /** What a truth file calls a host's address on this wire. */
    String address(Host h) {
        return switch (encap) {
            case ROCE_V2_IPV4 -> h.ipv4Text();
            case ROCE_V2_IPV6, ROCE_V1, IB_GLOBAL -> Gids.text(h.gid());
            case IB_LOCAL -> "LID: " + h.lid(); // as Wireshark's address columns write it
        };
    }
}
