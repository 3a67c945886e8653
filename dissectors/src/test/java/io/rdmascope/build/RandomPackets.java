package io.rdmascope.build;

import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.InfiniBandDissector;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Packets with distinctive random values in every BTH and extension-header field, for property tests. */
final class RandomPackets {
    /** Payload sizes that cover every pad count and a few lengths beyond one word. */
    static final int[] PAYLOAD_SIZES = {0, 1, 2, 3, 4, 5, 6, 7, 12, 33};

    /** Every way the builder can frame a packet. */
    enum Variant {
        ROCE_V2_IPV4, ROCE_V2_IPV4_VLAN, ROCE_V2_IPV6, ROCE_V1, IB_LOCAL, IB_GLOBAL;

        RocePacket start() {
            byte[] a = Addresses.mac("02:11:22:33:44:55");
            byte[] b = Addresses.mac("02:66:77:88:99:aa");
            return switch (this) {
                case ROCE_V2_IPV4 -> RocePacket.v2Ipv4(a, b, Addresses.ipv4("198.51.100.1"),
                        Addresses.ipv4("198.51.100.2")).ecn(2).dscp(26).udpSourcePort(0xD00D);
                case ROCE_V2_IPV4_VLAN -> RocePacket.v2Ipv4(a, b, Addresses.ipv4("198.51.100.1"),
                        Addresses.ipv4("198.51.100.2")).vlan(100, 3).vlan(7, 0).ecn(3);
                case ROCE_V2_IPV6 -> RocePacket.v2Ipv6(a, b, Addresses.ipv6("2001:db8::a"),
                        Addresses.ipv6("2001:db8::b")).trafficClass(0xA5).flowLabel(0x5A5A5).hopLimit(3);
                case ROCE_V1 -> RocePacket.v1(a, b, Addresses.ipv6("fe80::a"), Addresses.ipv6("fe80::b"))
                        .trafficClass(0x11).flowLabel(0x22222);
                case IB_LOCAL -> RocePacket.nativeIb(0x1234, 0x4321).vl(2).sl(9);
                case IB_GLOBAL -> RocePacket.nativeIb(0x1234, 0x4321).vl(2).sl(9)
                        .grh(Addresses.ipv6("fe80::1:a"), Addresses.ipv6("ff12:401b::1")).flowLabel(0x33333);
            };
        }

        boolean isNative() {
            return this == IB_LOCAL || this == IB_GLOBAL;
        }
    }

    /** A packet to build and what its BTH and extension headers must read back as. */
    record Case(Opcode opcode, Variant variant, RocePacket packet, List<ExpectedHeader> headers, byte[] payload) {
        int padCount() {
            return (4 - payload.length % 4) % 4;
        }

        @Override
        public String toString() {
            return String.format("opcode 0x%02x %s over %s, payload %d", opcode.code(), opcode.name(), variant,
                    payload.length);
        }
    }

    private RandomPackets() {
    }

    static Case random(Opcode opcode, Variant variant, Random rng) {
        byte[] payload = new byte[payloadLength(opcode, rng)];
        rng.nextBytes(payload);
        RocePacket p = variant.start().opcode(opcode.code()).payload(payload);
        List<ExpectedHeader> headers = new ArrayList<>();
        int pad = (4 - payload.length % 4) % 4;
        long destQp = 2 + rng.nextInt(0xFFFFFD); // QP0/QP1 would turn a UD payload into a MAD
        ExpectedHeader bth = ExpectedHeader.random(InfiniBand.BTH, 12, rng, Map.of(
                InfiniBand.BTH_OPCODE, (long) opcode.code(),
                InfiniBand.BTH_PADCNT, (long) pad,
                InfiniBand.BTH_DESTQP, destQp));
        bth.applyTo(p);
        p.set(InfiniBand.BTH_DESTQP, destQp);
        headers.add(bth);
        for (HeaderType t : opcode.headers()) {
            ExpectedHeader h = ExpectedHeader.random(t, InfiniBandDissector.sizeOf(t), rng, Map.of());
            h.applyTo(p);
            headers.add(h);
        }
        return new Case(opcode, variant, p, headers, payload);
    }

    private static int payloadLength(Opcode opcode, Random rng) {
        if (opcode.operation() == Operation.ATOMIC_WRITE) {
            return 8; // IBTA 1.5: exactly the 8 bytes to write
        }
        return opcode.payloadAllowed() ? PAYLOAD_SIZES[rng.nextInt(PAYLOAD_SIZES.length)] : 0;
    }
}
