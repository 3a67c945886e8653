package io.rdmascope.build;

import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.rdmascope.build.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The builder reproduces packets that other people's hardware and tools made, byte for byte: the
 * three hardware frames of {@code ../shared/reference/icrc-vectors.md} and the two packets scapy's
 * RoCE tests build (whose ICRCs scapy checks). If encoding, a length rule or the ICRC were wrong,
 * these would differ.
 */
class KnownPacketsRebuildTest {
    /** RoCEv2 CNP from a ConnectX-4 Lx (icrc-vectors.md). */
    static final String CNP_CX4 = """
            e41d2dab2bc27cfe90643b320800 45c2003c718c4000401191610a0011010a001201 000012b700280000
            8100ffff4000011800000000 00000000000000000000000000000000 82fd002a""";
    /** RoCEv1 RC RDMA WRITE ONLY (icrc-vectors.md). */
    static final String V1_WRITE_ONLY = """
            7cfe90753cd87cfe90753cd88915 6020000000281b40 00000000000000000000ffff0f000002
            00000000000000000000ffff0f000002 0a70ffff00000 10a80a7 88bc000055d4c07260000000 47b30000 00050000
            00000100 0000 e3d856bb""";
    /** RoCEv1 RC ACKNOWLEDGE (icrc-vectors.md). */
    static final String V1_ACK = """
            7cfe90753cd87cfe90753cd88915 6020000000141b40 00000000000000000000ffff0f000002
            00000000000000000000ffff0f000002 1140ffff0000010900a788c0 00000005 25f0c038""";

    /** The 18-byte payload of scapy's UC SEND ONLY examples (test/contrib/roce.uts). */
    static final byte[] SCAPY_PAYLOAD = hex("4630818be28935d90e9a955054 01be885e50");

    @Test
    @DisplayName("a ConnectX-4 Lx CNP is rebuilt byte for byte, IPv4 checksum and ICRC included")
    void rebuildsHardwareCnp() {
        byte[] built = RocePacket.v2Ipv4(Addresses.mac("7c:fe:90:64:3b:32"), Addresses.mac("e4:1d:2d:ab:2b:c2"),
                        Addresses.ipv4("10.0.17.1"), Addresses.ipv4("10.0.18.1"))
                .dscp(48).ecn(2)                  // TOS 0xC2: the CNP rides the congestion-control class
                .ipId(0x718c)
                .udpSourcePort(0)
                .opcode(0x81).destQp(0x118).becn(true)
                .build();
        assertEquals(hex(hex(CNP_CX4)), hex(built));
    }

    @Test
    @DisplayName("a hardware RoCEv1 RDMA WRITE ONLY with a 5-byte payload and 3 pad bytes is rebuilt byte for byte")
    void rebuildsRoceV1WriteOnly() {
        byte[] mac = Addresses.mac("7c:fe:90:75:3c:d8");
        byte[] gid = Addresses.ipv6("::ffff:15.0.0.2");
        byte[] built = RocePacket.v1(mac, mac, gid, gid)
                .trafficClass(2)
                .opcode(0x0A).migReq(true).destQp(0x10a).ackReq(true).psn(0xa788bc)
                .set(InfiniBand.RETH_VA, 0x000055d4c0726000L)
                .set(InfiniBand.RETH_R_KEY, 0x47b3)
                .set(InfiniBand.RETH_DMALEN, 5)
                .payload(new byte[]{0, 0, 0, 0, 1})
                .build();
        assertEquals(hex(hex(V1_WRITE_ONLY)), hex(built));
    }

    @Test
    @DisplayName("a hardware RoCEv1 ACKNOWLEDGE is rebuilt byte for byte")
    void rebuildsRoceV1Ack() {
        byte[] mac = Addresses.mac("7c:fe:90:75:3c:d8");
        byte[] gid = Addresses.ipv4MappedGid(Addresses.ipv4("15.0.0.2"));
        byte[] built = RocePacket.v1(mac, mac, gid, gid)
                .trafficClass(2)
                .opcode(0x11).migReq(true).destQp(0x109).psn(0xa788c0)
                .set(InfiniBand.AETH_MSN, 5)
                .build();
        assertEquals(hex(hex(V1_ACK)), hex(built));
    }

    @Test
    @DisplayName("scapy's IPv4 UC SEND ONLY gets scapy's IPv4 checksum 0xb4d5 and ICRC 0x78f353f3")
    void scapyIpv4UcSendOnly() {
        byte[] mac = Addresses.mac("24:8a:07:a8:fa:22");
        byte[] ip = Addresses.ipv4("192.168.0.7");
        BuiltPacket p = RocePacket.v2Ipv4(mac, mac, ip, ip)
                .trafficClass(0x01).ipId(1144)
                .set(Transport.UDP_CHECKSUM, 0xaca2)  // scapy filled it in; the ICRC masks it anyway
                .opcode(0x24).migReq(true).destQp(211).psn(13571856)
                .payload(SCAPY_PAYLOAD)
                .buildPacket();
        byte[] b = p.bytes();
        assertEquals(2, p.padCount());
        assertEquals(64, Ip.V4_LEN.read(java.nio.ByteBuffer.wrap(b), 14));
        assertEquals(0xb4d5, Ip.V4_CHECKSUM.read(java.nio.ByteBuffer.wrap(b), 14));
        assertEquals("78f353f3", hex(Arrays.copyOfRange(b, p.icrcAt(), p.icrcAt() + 4)));
    }

    @Test
    @DisplayName("scapy's IPv6 UC SEND ONLY (traffic class 226, flow label 0x1face, hop limit 255) gets ICRC 0x3e5b743b")
    void scapyIpv6UcSendOnly() {
        byte[] mac = Addresses.mac("24:8a:07:a8:fa:22");
        BuiltPacket p = RocePacket.v2Ipv6(mac, mac, Addresses.ipv6("2022::1023"), Addresses.ipv6("2023::1024"))
                .trafficClass(226).flowLabel(0x1face).hopLimit(255)
                .opcode(0x24).migReq(true).destQp(211).psn(13571856)
                .payload(SCAPY_PAYLOAD)
                .buildPacket();
        byte[] b = p.bytes();
        assertEquals(44, Ip.V6_PLEN.read(java.nio.ByteBuffer.wrap(b), 14));
        assertEquals("3e5b743b", hex(Arrays.copyOfRange(b, p.icrcAt(), p.icrcAt() + 4)));
    }
}
