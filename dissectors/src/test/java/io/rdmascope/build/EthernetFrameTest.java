package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.frame.FrameFields;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.rdmascope.build.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Plain frames for the traffic around RDMA. The expected bytes were produced by a separate
 * RFC 1071 checksum written in Python for this test, so the checksums here are checked against
 * another implementation, not against themselves.
 */
class EthernetFrameTest {
    private static final byte[] MAC_A = Addresses.mac("02:00:00:00:00:01");
    private static final byte[] MAC_B = Addresses.mac("02:00:00:00:00:02");

    private static EthernetFrame aToB() {
        return EthernetFrame.between(MAC_A, MAC_B);
    }

    @Test
    @DisplayName("a UDP datagram over IPv4 carries correct IPv4 and UDP checksums")
    void udpOverIpv4() {
        byte[] frame = aToB().ipv4(Addresses.ipv4("192.0.2.1"), Addresses.ipv4("192.0.2.2")).ipId(0x1234)
                .udp(5353, 53, "hello, rdma!\0".getBytes(StandardCharsets.US_ASCII));
        assertEquals("020000000002020000000001080045000029123440004011a48cc0000201c000020214e9003500153ca3"
                + "68656c6c6f2c2072646d612100", hex(frame));
        Dissection d = Frames.dissect(frame, LinkTypes.ETHERNET);
        assertFalse(d.isMalformed());
        assertEquals(List.of(FrameFields.HEADER, Ethernet.HEADER, Ethernet.ETHERTYPE, Ip.IPV4, Transport.UDP,
                Data.HEADER), Frames.layerTypes(d));
    }

    @Test
    @DisplayName("a TCP segment over IPv4 carries its data offset, flags and a correct checksum")
    void tcpOverIpv4() {
        byte[] frame = aToB().ipv4(Addresses.ipv4("192.0.2.1"), Addresses.ipv4("192.0.2.2"))
                .tcp(40000, 18515, 0x01020304L, 0xA0B0C0D0L, 0x018, "GET /".getBytes(StandardCharsets.US_ASCII));
        assertEquals("02000000000202000000000108004500002d000040004006b6c7c0000201c00002029c40485301020304"
                + "a0b0c0d05018ffff17430000474554202f", hex(frame));
        Dissection d = Frames.dissect(frame, LinkTypes.ETHERNET);
        assertFalse(d.isMalformed());
        int tcp = d.find(Transport.TCP);
        assertEquals(20, d.layerLength(tcp));
        assertEquals(5, d.tcpPayloadLength());
        assertEquals(1, Transport.TCP_FLAGS_PUSH.read(d.buffer(), d.layerAt(tcp)));
        assertEquals(1, Transport.TCP_FLAGS_ACK.read(d.buffer(), d.layerAt(tcp)));
    }

    @Test
    @DisplayName("a UDP datagram over IPv6 carries a checksum over the IPv6 pseudo-header")
    void udpOverIpv6() {
        byte[] frame = aToB().ipv6(Addresses.ipv6("2001:db8::1"), Addresses.ipv6("2001:db8::2"))
                .udp(4000, 4001, new byte[]{1, 2, 3});
        assertEquals("02000000000202000000000186dd60000000000b114020010db800000000000000000000000120010db8"
                + "0000000000000000000000020fa00fa1000b8120010203", hex(frame));
    }

    @Test
    @DisplayName("VLAN tags and any ethertype are supported")
    void vlanAndEtherType() {
        byte[] frame = aToB().vlan(42, 6).etherType(Ethernet.ETHERTYPE_ARP, new byte[28]);
        assertEquals("0200000000020200000000018100c02a0806", hex(frame).substring(0, 36));
        assertEquals(14 + 4 + 28, frame.length);
        Dissection d = Frames.dissect(frame, LinkTypes.ETHERNET);
        assertEquals(42, Ethernet.VLAN_ID.read(d.buffer(), d.layerAt(d.find(Ethernet.VLAN))));
    }

    @Test
    @DisplayName("a UDP frame to port 4791 built by hand is taken for RoCEv2 by the dissector")
    void udpToRocePortIsRoce() {
        byte[] body = RocePacket.v2Ipv4(MAC_A, MAC_B, Addresses.ipv4("192.0.2.1"), Addresses.ipv4("192.0.2.2"))
                .udpSourcePort(1).buildPacket().bytes();
        byte[] udpPayload = java.util.Arrays.copyOfRange(body, 14 + 20 + 8, body.length);
        byte[] frame = aToB().ipv4(Addresses.ipv4("192.0.2.1"), Addresses.ipv4("192.0.2.2"))
                .udp(1, Transport.ROCE_V2_PORT, udpPayload);
        Dissection d = Frames.dissect(frame, LinkTypes.ETHERNET);
        assertEquals(14 + 20 + 8, d.rdma().bthStart);
        assertEquals(io.rdmascope.proto.ib.Crcs.STATUS_GOOD, io.rdmascope.proto.ib.Crcs.icrcStatus(d),
                "the ICRC masks the UDP checksum, so a real one does not disturb it");
    }
}
