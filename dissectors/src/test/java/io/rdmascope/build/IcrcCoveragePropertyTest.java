package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.rdmascope.build.RandomPackets.Variant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the ICRC covers, bit by bit (IBTA Vol. 1 7.8.1): for packets of every defined opcode, every
 * payload length class and every encapsulation, flipping any one bit the ICRC covers must make the
 * dissector's check fail, and flipping a bit the ICRC deliberately leaves out (a field routers may
 * rewrite) must not. For native IB the VCRC covers everything from the LRH through the ICRC.
 *
 * <p>Which bits are left out is stated here from the field declarations, not asked of the builder
 * or the dissector.
 */
class IcrcCoveragePropertyTest {
    /** Fields a hop may change, per header type: their bits are replaced by ones before the CRC. */
    private static final Map<HeaderType, List<Field>> VARIANT_FIELDS = Map.of(
            Ip.IPV4, List.of(Ip.V4_DSFIELD, Ip.V4_TTL, Ip.V4_CHECKSUM),
            Ip.IPV6, List.of(Ip.V6_TCLASS, Ip.V6_FLOW, Ip.V6_HLIM),
            Transport.UDP, List.of(Transport.UDP_CHECKSUM),
            InfiniBand.GRH, List.of(InfiniBand.GRH_TCLASS, InfiniBand.GRH_FLOWLABEL, InfiniBand.GRH_HOPLMT),
            InfiniBand.BTH, List.of(InfiniBand.BTH_FECN, InfiniBand.BTH_BECN, InfiniBand.BTH_RESERVED6));
    /**
     * The LRH of a packet with a GRH is variant as a whole (routers rebuild it); LNH and PktLen are
     * left out here only because flipping them changes where the dissector looks for the ICRC.
     */
    private static final List<Field> VARIANT_LRH_FIELDS_WITH_GRH = List.of(InfiniBand.LRH_VL, InfiniBand.LRH_LVER,
            InfiniBand.LRH_SL, InfiniBand.LRH_RESERVED2, InfiniBand.LRH_DLID, InfiniBand.LRH_RESERVED5,
            InfiniBand.LRH_SLID);
    private static final List<Field> VARIANT_LRH_FIELDS_LOCAL = List.of(InfiniBand.LRH_VL);

    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    @DisplayName("flipping any bit the ICRC covers makes it bad, flipping a variant bit keeps it good")
    void everyCoveredBitIsProtected(Variant variant) {
        Random rng = new Random(0xB17F11BL + variant.ordinal());
        Dissection d = new Dissection();
        List<String> failures = new ArrayList<>();
        int flips = 0;
        for (Opcode op : Opcodes.defined()) {
            RandomPackets.Case c = RandomPackets.random(op, variant, rng);
            BuiltPacket p = c.packet().buildPacket();
            byte[] bytes = p.bytes();
            Frame frame = Frame.of(1, 0, p.linkType(), bytes);
            Frames.CHAIN.dissect(frame, d);
            if (Crcs.icrcStatus(d) != Crcs.STATUS_GOOD) {
                failures.add(c + ": unflipped status " + Crcs.icrcStatus(d));
                continue;
            }
            byte[] variantBits = variantBits(p, variant);
            int coveredFrom = firstCovered(p);
            for (int i = coveredFrom; i < bytes.length; i++) {
                for (int bit = 0; bit < 8; bit++) {
                    bytes[i] ^= (byte) (1 << bit);
                    Frames.CHAIN.dissect(frame, d);
                    int icrc = Crcs.icrcStatus(d);
                    boolean variantBit = (variantBits[i] & (1 << bit)) != 0;
                    if (i >= p.icrcAt() && i < p.icrcAt() + 4) {
                        expect(failures, icrc == Crcs.STATUS_BAD, c, i, bit, "ICRC byte", icrc);
                    } else if (i >= p.icrcAt() + 4) {
                        expect(failures, icrc == Crcs.STATUS_GOOD, c, i, bit, "VCRC byte (ICRC)", icrc);
                    } else if (variantBit) {
                        expect(failures, icrc == Crcs.STATUS_GOOD, c, i, bit, "variant bit", icrc);
                    } else {
                        // Bad, or unverified when the flip hid the packet (a port, a next header, a length).
                        boolean located = d.rdma().icrcOffset >= 0;
                        expect(failures, located ? icrc == Crcs.STATUS_BAD : icrc != Crcs.STATUS_GOOD, c, i, bit,
                                "covered bit", icrc);
                    }
                    if (variant.isNative()) {
                        int vcrc = Crcs.vcrcStatus(d);
                        expect(failures, vcrc != Crcs.STATUS_GOOD, c, i, bit, "VCRC", vcrc);
                    }
                    bytes[i] ^= (byte) (1 << bit);
                    flips++;
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " misjudged (packets or flips; " + flips + " flips checked), e.g.:\n"
                    + String.join("\n", failures.subList(0, Math.min(12, failures.size()))));
        }
        assertTrue(flips > 20_000, "flips: " + flips);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Variant.class, names = {"ROCE_V2_IPV4_VLAN", "ROCE_V1"})
    @DisplayName("flipping a bit of the Ethernet header or a VLAN tag outside the type fields leaves the ICRC good")
    void ethernetHeaderIsNotCovered(Variant variant) {
        BuiltPacket p = variant.start().opcode(0x04).payload(new byte[5]).buildPacket();
        byte[] bytes = p.bytes();
        Frame frame = Frame.of(1, 0, p.linkType(), bytes);
        Dissection d = new Dissection();
        for (BuiltPacket.Span s : p.headers()) {
            if (s.type() != Ethernet.HEADER && s.type() != Ethernet.VLAN) {
                continue;
            }
            Field type = s.type() == Ethernet.HEADER ? Ethernet.TYPE : Ethernet.VLAN_ETYPE;
            for (int i = s.start(); i < s.end(); i++) {
                if (i >= s.start() + type.offset() && i < s.start() + type.offset() + type.length()) {
                    continue; // an ethertype flip sends the frame to another dissector
                }
                for (int bit = 0; bit < 8; bit++) {
                    bytes[i] ^= (byte) (1 << bit);
                    Frames.CHAIN.dissect(frame, d);
                    assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d), s.type() + " byte " + i + " bit " + bit);
                    bytes[i] ^= (byte) (1 << bit);
                }
            }
        }
    }

    private static void expect(List<String> failures, boolean ok, RandomPackets.Case c, int i, int bit,
                               String kind, int status) {
        if (!ok) {
            failures.add(String.format("%s: %s at byte %d bit %d gave status %d", c, kind, i, bit, status));
        }
    }

    /** The first byte the ICRC (or, natively, the VCRC) covers: the IP header, the GRH or the LRH. */
    private static int firstCovered(BuiltPacket p) {
        for (BuiltPacket.Span s : p.headers()) {
            HeaderType t = s.type();
            if (t == Ip.IPV4 || t == Ip.IPV6 || t == InfiniBand.GRH || t == InfiniBand.LRH) {
                return s.start();
            }
        }
        throw new IllegalStateException("no network header in " + p.headerTypes());
    }

    /** Per frame byte, the bits that belong to fields the ICRC leaves out. */
    private static byte[] variantBits(BuiltPacket p, Variant variant) {
        byte[] bits = new byte[p.bytes().length];
        for (BuiltPacket.Span s : p.headers()) {
            List<Field> fields = s.type() == InfiniBand.LRH
                    ? (variant == Variant.IB_GLOBAL ? VARIANT_LRH_FIELDS_WITH_GRH : VARIANT_LRH_FIELDS_LOCAL)
                    : VARIANT_FIELDS.getOrDefault(s.type(), List.of());
            for (Field f : fields) {
                for (int j = 0; j < f.length(); j++) {
                    long byteMask = f.mask() == 0 ? 0xFF : (f.mask() >>> (8 * (f.length() - 1 - j))) & 0xFF;
                    bits[s.start() + f.offset() + j] |= (byte) byteMask;
                }
            }
        }
        return bits;
    }
}
