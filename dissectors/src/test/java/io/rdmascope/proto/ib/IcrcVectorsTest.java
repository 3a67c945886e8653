package io.rdmascope.proto.ib;

import io.rdmascope.build.Addresses;
import io.rdmascope.build.BuiltPacket;
import io.rdmascope.build.Frames;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext.Encapsulation;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dissector's ICRC and VCRC checks ({@link Crcs}) against frames from hardware
 * ({@code ../shared/reference/icrc-vectors.md}) and against frames the builder seals with its own,
 * separately written CRC code, in every encapsulation.
 */
class IcrcVectorsTest {
    private static final byte[] MAC_A = Addresses.mac("02:00:00:00:00:0a");
    private static final byte[] MAC_B = Addresses.mac("02:00:00:00:00:0b");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "ConnectX-4 Lx RoCEv2 CNP, "
                    + "e41d2dab2bc27cfe90643b320800 45c2003c718c4000401191610a0011010a001201 000012b700280000"
                    + "8100ffff4000011800000000 00000000000000000000000000000000 82fd002a, 82fd002a",
            "RoCEv1 RC RDMA WRITE ONLY, "
                    + "7cfe90753cd87cfe90753cd88915 6020000000281b40 00000000000000000000ffff0f000002"
                    + "00000000000000000000ffff0f000002 0a70ffff00000 10a80a7 88bc000055d4c07260000000 47b30000"
                    + "00050000 00000100 0000 e3d856bb, e3d856bb",
            "RoCEv1 RC ACKNOWLEDGE, "
                    + "7cfe90753cd87cfe90753cd88915 6020000000141b40 00000000000000000000ffff0f000002"
                    + "00000000000000000000ffff0f000002 1140ffff0000010900a788c0 00000005 25f0c038, 25f0c038"
    })
    @DisplayName("a hardware frame's ICRC verifies good and the computed value equals the one on the wire")
    void hardwareVectorsVerify(String name, String frameHex, String icrcHex) {
        Dissection d = Frames.dissect(Frames.hex(frameHex), LinkTypes.ETHERNET);
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d), name);
        assertEquals(Long.parseLong(icrcHex, 16), Crcs.icrcComputed(d), name);
        int icrcLayer = d.find(InfiniBand.ICRC_HEADER);
        assertEquals(Long.parseLong(icrcHex, 16), InfiniBand.ICRC.read(d.buffer(), d.layerAt(icrcLayer)));
        assertEquals((long) Crcs.STATUS_GOOD, InfiniBand.ICRC_STATUS.computation().value(d, icrcLayer));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ROCE_V2_IPV4", "ROCE_V2_IPV6", "ROCE_V1", "IB_LOCAL", "IB_GLOBAL"})
    @DisplayName("a UC SEND ONLY the builder seals verifies good in the dissector, for every pad count")
    void builtUcSendOnlyVerifiesGood(String encapsulation) {
        for (int length = 0; length <= 8; length++) {
            BuiltPacket p = ucSendOnly(encapsulation, length).buildPacket();
            Dissection d = Frames.dissect(p);
            assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d), encapsulation + " payload " + length);
            if (p.encapsulation() == Encapsulation.INFINIBAND) {
                assertEquals(Crcs.STATUS_GOOD, Crcs.vcrcStatus(d), "VCRC, payload " + length);
            } else {
                assertEquals(Crcs.STATUS_UNVERIFIED, Crcs.vcrcStatus(d), "no VCRC outside native IB");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ROCE_V2_IPV4", "ROCE_V2_IPV6", "ROCE_V1", "IB_LOCAL", "IB_GLOBAL"})
    @DisplayName("payloads on both sides of the one-array CRC input verify good, and bad when corrupt")
    void payloadsAroundTheOneArrayInputVerify(String encapsulation) {
        // Up to RdmaContext.ICRC_INPUT_BYTES of masked headers and payload go through the CRC in one call,
        // longer ones in two (headers, then the payload from the frame): the headers take 48 to 136 bytes here.
        int limit = io.rdmascope.dissect.RdmaContext.ICRC_INPUT_BYTES;
        for (int length = limit - 140; length <= limit + 4; length++) {
            assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(Frames.dissect(ucSendOnly(encapsulation, length)
                    .buildPacket())), encapsulation + " payload " + length);
            assertEquals(Crcs.STATUS_BAD, Crcs.icrcStatus(Frames.dissect(ucSendOnly(encapsulation, length)
                    .corruptIcrc().buildPacket())), encapsulation + " corrupt, payload " + length);
        }
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(Frames.dissect(ucSendOnly(encapsulation, 4000).buildPacket())));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ROCE_V2_IPV4", "ROCE_V2_IPV6", "ROCE_V1", "IB_LOCAL", "IB_GLOBAL"})
    @DisplayName("a packet built with a corrupt ICRC verifies bad, while its VCRC (native IB) stays good")
    void corruptIcrcVerifiesBad(String encapsulation) {
        Dissection d = Frames.dissect(ucSendOnly(encapsulation, 5).corruptIcrc().buildPacket());
        assertEquals(Crcs.STATUS_BAD, Crcs.icrcStatus(d));
        if (d.rdma().encapsulation == Encapsulation.INFINIBAND) {
            assertEquals(Crcs.STATUS_GOOD, Crcs.vcrcStatus(d));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"IB_LOCAL", "IB_GLOBAL"})
    @DisplayName("a native packet built with a corrupt VCRC verifies bad on the VCRC")
    void corruptVcrcVerifiesBad(String encapsulation) {
        Dissection d = Frames.dissect(ucSendOnly(encapsulation, 5).corruptVcrc().buildPacket());
        assertEquals(Crcs.STATUS_BAD, Crcs.vcrcStatus(d));
        assertEquals(InfiniBand.VCRC_HEADER, d.layerType(d.layerCount() - 1), "the VCRC closes the packet");
    }

    @Test
    @DisplayName("the VCRC the dissector computes equals the builder's, as infiniband.variant.crc shows it")
    void vcrcValuesAgree() {
        BuiltPacket p = ucSendOnly("IB_LOCAL", 7).buildPacket();
        Dissection d = Frames.dissect(p);
        int onWire = ((p.bytes()[p.vcrcAt()] & 0xFF) << 8) | (p.bytes()[p.vcrcAt() + 1] & 0xFF);
        assertEquals(onWire, Crcs.vcrcComputed(d));
        int layer = d.find(InfiniBand.VCRC_HEADER);
        assertTrue(layer >= 0, Frames.layerNames(d));
        assertEquals(onWire, InfiniBand.VCRC.read(d.buffer(), d.layerAt(layer)));
    }

    /** UC SEND ONLY with a payload of {@code length} bytes, in the named encapsulation. */
    static RocePacket ucSendOnly(String encapsulation, int length) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (0xA0 + i);
        }
        Supplier<RocePacket> base = switch (encapsulation) {
            case "ROCE_V2_IPV4" -> () -> RocePacket.v2Ipv4(MAC_A, MAC_B, Addresses.ipv4("192.0.2.1"),
                    Addresses.ipv4("192.0.2.2")).ecn(1).hopLimit(17);
            case "ROCE_V2_IPV6" -> () -> RocePacket.v2Ipv6(MAC_A, MAC_B, Addresses.ipv6("2001:db8::1"),
                    Addresses.ipv6("2001:db8::2")).trafficClass(0x6a).flowLabel(0xabcde);
            case "ROCE_V1" -> () -> RocePacket.v1(MAC_A, MAC_B, Addresses.ipv6("fe80::1"), Addresses.ipv6("fe80::2"))
                    .trafficClass(3).flowLabel(0x12345).hopLimit(1);
            case "IB_LOCAL" -> () -> RocePacket.nativeIb(0x0011, 0x0022).vl(3).sl(5);
            case "IB_GLOBAL" -> () -> RocePacket.nativeIb(0x0011, 0x0022).vl(3).sl(5)
                    .grh(Addresses.ipv6("fe80::11"), Addresses.ipv6("fe80::22")).flowLabel(0x777).hopLimit(9);
            default -> throw new IllegalArgumentException(encapsulation);
        };
        return base.get().opcode(0x24).destQp(0xd3).psn(0xcf1710).migReq(true).fecn(true).payload(payload);
    }
}
