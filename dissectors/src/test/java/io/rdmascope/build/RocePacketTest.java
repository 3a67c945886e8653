package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import static io.rdmascope.build.RandomPackets.Variant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RocePacketTest {
    private static final byte[] MAC_A = Addresses.mac("02:00:00:00:00:01");
    private static final byte[] MAC_B = Addresses.mac("02:00:00:00:00:02");
    private static final byte[] IP_A = Addresses.ipv4("192.0.2.1");
    private static final byte[] IP_B = Addresses.ipv4("192.0.2.2");

    private static RocePacket ipv4() {
        return RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B);
    }

    private static long read(BuiltPacket p, HeaderType type, Field field) {
        return field.read(ByteBuffer.wrap(p.bytes()), p.offsetOf(type));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    @DisplayName("every length field counts what its header covers")
    void lengthsAreComputed(Variant variant) {
        for (int payload = 0; payload < 8; payload++) {
            BuiltPacket p = variant.start().opcode(0x0B).payload(new byte[payload]).buildPacket();
            int pad = (4 - payload % 4) % 4;
            int transport = 12 + 16 + 4 + payload + pad + 4; // BTH RETH ImmDt payload pad ICRC
            assertEquals(pad, p.padCount());
            assertEquals(pad, read(p, InfiniBand.BTH, InfiniBand.BTH_PADCNT));
            assertEquals(p.payloadAt() + payload + pad, p.icrcAt());
            switch (variant) {
                case ROCE_V2_IPV4, ROCE_V2_IPV4_VLAN -> {
                    assertEquals(20 + 8 + transport, read(p, Ip.IPV4, Ip.V4_LEN));
                    assertEquals(8 + transport, read(p, Transport.UDP, Transport.UDP_LENGTH));
                }
                case ROCE_V2_IPV6 -> {
                    assertEquals(8 + transport, read(p, Ip.IPV6, Ip.V6_PLEN));
                    assertEquals(8 + transport, read(p, Transport.UDP, Transport.UDP_LENGTH));
                }
                case ROCE_V1 -> assertEquals(transport, read(p, InfiniBand.GRH, InfiniBand.GRH_PAYLEN));
                case IB_LOCAL -> assertEquals((8 + transport) / 4, read(p, InfiniBand.LRH, InfiniBand.LRH_PKTLEN));
                case IB_GLOBAL -> {
                    assertEquals((8 + 40 + transport) / 4, read(p, InfiniBand.LRH, InfiniBand.LRH_PKTLEN));
                    assertEquals(transport, read(p, InfiniBand.GRH, InfiniBand.GRH_PAYLEN));
                }
            }
            int end = p.icrcAt() + 4 + (variant.isNative() ? 2 : 0);
            assertEquals(end, p.bytes().length, "nothing after the ICRC/VCRC, no FCS");
        }
    }

    @Test
    @DisplayName("pad bytes are zero and sit between the payload and the ICRC")
    void padBytesAreZero() {
        byte[] payload = new byte[5];
        Arrays.fill(payload, (byte) 0x77);
        BuiltPacket p = ipv4().payload(payload).buildPacket();
        assertEquals(3, p.padCount());
        byte[] b = p.bytes();
        assertArrayEquals(payload, Arrays.copyOfRange(b, p.payloadAt(), p.payloadAt() + 5));
        assertArrayEquals(new byte[3], Arrays.copyOfRange(b, p.payloadAt() + 5, p.icrcAt()));
    }

    @Test
    @DisplayName("the IPv4 header checksum is correct and the defaults are RoCE's: port 4791, UDP checksum 0, DF, TTL 64, P_Key 0xFFFF")
    void ipv4DefaultsAndChecksum() {
        BuiltPacket p = ipv4().buildPacket();
        int ip = p.offsetOf(Ip.IPV4);
        assertEquals(0, Checksums.internet(p.bytes(), ip, 20, 0), "a correct header sums to zero");
        assertEquals(0x45, p.bytes()[ip] & 0xFF);
        assertEquals(1, read(p, Ip.IPV4, Ip.V4_FLAGS_DF));
        assertEquals(64, read(p, Ip.IPV4, Ip.V4_TTL));
        assertEquals(Ip.PROTO_UDP, read(p, Ip.IPV4, Ip.V4_PROTO));
        assertEquals(Transport.ROCE_V2_PORT, read(p, Transport.UDP, Transport.UDP_DSTPORT));
        assertEquals(RocePacket.DEFAULT_UDP_SOURCE_PORT, read(p, Transport.UDP, Transport.UDP_SRCPORT));
        assertEquals(0, read(p, Transport.UDP, Transport.UDP_CHECKSUM));
        assertEquals(0xFFFF, read(p, InfiniBand.BTH, InfiniBand.BTH_P_KEY));
        assertEquals(Ethernet.ETHERTYPE_IPV4, read(p, Ethernet.HEADER, Ethernet.TYPE));
        assertEquals(LinkTypes.ETHERNET, p.linkType());
    }

    @Test
    @DisplayName("an explicit value beats the computed one: lying lengths, wrong pad counts and checksums are buildable")
    void explicitValuesWin() {
        BuiltPacket p = ipv4()
                .set(Ip.V4_CHECKSUM, 0xBEEF)
                .set(Transport.UDP_LENGTH, 9)
                .set(InfiniBand.BTH_PADCNT, 0)
                .payload(new byte[5])
                .buildPacket();
        assertEquals(0xBEEF, read(p, Ip.IPV4, Ip.V4_CHECKSUM));
        assertEquals(9, read(p, Transport.UDP, Transport.UDP_LENGTH));
        assertEquals(0, read(p, InfiniBand.BTH, InfiniBand.BTH_PADCNT));
        assertEquals(3, p.padCount(), "the pad bytes themselves still follow the payload");
    }

    @Test
    @DisplayName("ECN and DSCP compose the IPv4 TOS, the IPv6 traffic class and the RoCEv1 GRH traffic class")
    void ecnAndDscp() {
        assertEquals(0xC3, read(ipv4().dscp(48).ecn(3).buildPacket(), Ip.IPV4, Ip.V4_DSFIELD));
        BuiltPacket v6 = RocePacket.v2Ipv6(MAC_A, MAC_B, Addresses.ipv6("::1"), Addresses.ipv6("::2"))
                .ecn(3).dscp(26).buildPacket();
        assertEquals(3, read(v6, Ip.IPV6, Ip.V6_ECN));
        assertEquals(26, read(v6, Ip.IPV6, Ip.V6_DSCP));
        BuiltPacket v1 = RocePacket.v1(MAC_A, MAC_B, Addresses.ipv6("::1"), Addresses.ipv6("::2"))
                .ecn(2).buildPacket();
        assertEquals(2, read(v1, InfiniBand.GRH, InfiniBand.GRH_TCLASS));
        assertEquals(Ethernet.ETHERTYPE_ROCE, read(v1, Ethernet.HEADER, Ethernet.TYPE));
        assertEquals(0x1B, read(v1, InfiniBand.GRH, InfiniBand.GRH_NXTHDR));
    }

    @Test
    @DisplayName("VLAN tags stack outermost first, each naming the type of what follows it")
    void vlanTags() {
        BuiltPacket p = ipv4().vlanTag(Ethernet.ETHERTYPE_QINQ, 200, 5, true).vlan(100, 3).buildPacket();
        ByteBuffer b = ByteBuffer.wrap(p.bytes());
        assertEquals(Ethernet.ETHERTYPE_QINQ, Ethernet.TYPE.read(b, 0));
        assertEquals(200, Ethernet.VLAN_ID.read(b, 14));
        assertEquals(5, Ethernet.VLAN_PRIORITY.read(b, 14));
        assertEquals(1, Ethernet.VLAN_DEI.read(b, 14));
        assertEquals(Ethernet.ETHERTYPE_VLAN, Ethernet.VLAN_ETYPE.read(b, 14));
        assertEquals(100, Ethernet.VLAN_ID.read(b, 18));
        assertEquals(3, Ethernet.VLAN_PRIORITY.read(b, 18));
        assertEquals(Ethernet.ETHERTYPE_IPV4, Ethernet.VLAN_ETYPE.read(b, 18));
        Dissection d = Frames.dissect(p);
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
        assertEquals(2, Frames.layerTypes(d).stream().filter(t -> t == Ethernet.VLAN).count());
    }

    @Test
    @DisplayName("a field of a header the packet does not have fails the build, naming the opcode's headers")
    void fieldOutsideThePacketFails() {
        RocePacket p = ipv4().opcode(0x04).set(InfiniBand.RETH_VA, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, p::build);
        assertTrue(e.getMessage().contains("infiniband.reth.va"), e.getMessage());
        assertTrue(e.getMessage().contains("0x4"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> ipv4().set(InfiniBand.LRH_SL, 1).build());
        assertThrows(IllegalStateException.class, () -> ipv4().vlan(1, 0).vlan(2, 0).set(Ethernet.VLAN_ID, 3).build());
        assertThrows(IllegalArgumentException.class, () -> ipv4().set(Transport.TCP_SEQ_RAW, 1));
        assertThrows(IllegalArgumentException.class, () -> ipv4().set(InfiniBand.BTH_PSN, 1 << 24));
    }

    @Test
    @DisplayName("knobs that do not belong to the encapsulation are refused at once")
    void encapsulationKnobsAreChecked() {
        assertThrows(IllegalStateException.class, () -> RocePacket.nativeIb(1, 2).vlan(1, 0));
        assertThrows(IllegalStateException.class, () -> RocePacket.nativeIb(1, 2).udpSourcePort(1));
        assertThrows(IllegalStateException.class, () -> RocePacket.nativeIb(1, 2).hopLimit(3).build());
        assertThrows(IllegalStateException.class, () -> ipv4().vl(1));
        assertThrows(IllegalStateException.class, () -> ipv4().grh(new byte[16], new byte[16]));
        assertThrows(IllegalStateException.class, () -> RocePacket.v1(MAC_A, MAC_B, new byte[16], new byte[16])
                .udpSourcePort(1));
        assertThrows(IllegalArgumentException.class, () -> RocePacket.v2Ipv4(MAC_A, MAC_B, new byte[16], IP_B));
        assertThrows(IllegalArgumentException.class, () -> ipv4().ecn(4));
    }

    @Test
    @DisplayName("a native packet carries LRH fields, LNH 2 without a GRH and 3 with one, and a VCRC")
    void nativeLrh() {
        BuiltPacket local = RocePacket.nativeIb(0x0102, 0x0304).vl(15).sl(4).buildPacket();
        assertEquals(LinkTypes.INFINIBAND, local.linkType());
        assertEquals(15, read(local, InfiniBand.LRH, InfiniBand.LRH_VL));
        assertEquals(4, read(local, InfiniBand.LRH, InfiniBand.LRH_SL));
        assertEquals(2, read(local, InfiniBand.LRH, InfiniBand.LRH_LNH));
        assertEquals(0x0304, read(local, InfiniBand.LRH, InfiniBand.LRH_DLID));
        assertEquals(0x0102, read(local, InfiniBand.LRH, InfiniBand.LRH_SLID));
        assertEquals(local.icrcAt() + 4, local.vcrcAt());
        BuiltPacket global = RocePacket.nativeIb(1, 2).grh(Addresses.ipv6("fe80::1"), Addresses.ipv6("fe80::2"))
                .buildPacket();
        assertEquals(3, read(global, InfiniBand.LRH, InfiniBand.LRH_LNH));
        assertEquals(List.of(InfiniBand.LRH, InfiniBand.GRH, InfiniBand.BTH), global.headerTypes());
    }

    @Test
    @DisplayName("a CNP carries its 16 reserved zero bytes; FLUSH carries FETH then RETH; ATOMIC WRITE carries RETH and 8 bytes")
    void memoryPlacementAndCongestionOpcodes() {
        BuiltPacket cnp = ipv4().opcode(0x81).becn(true).buildPacket();
        assertEquals(List.of(InfiniBand.BTH, InfiniBand.CNP), cnp.headerTypes().subList(3, 5));
        assertArrayEquals(new byte[16], Arrays.copyOfRange(cnp.bytes(), cnp.offsetOf(InfiniBand.CNP),
                cnp.offsetOf(InfiniBand.CNP) + 16));
        assertEquals(cnp.offsetOf(InfiniBand.CNP) + 16, cnp.icrcAt());

        BuiltPacket flush = ipv4().opcode(0x1C).set(InfiniBand.FETH_SEL, 1).set(InfiniBand.FETH_PLT, 2)
                .set(InfiniBand.RETH_R_KEY, 0x55).buildPacket();
        assertEquals(List.of(InfiniBand.BTH, InfiniBand.FETH, InfiniBand.RETH), flush.headerTypes().subList(3, 6));
        assertEquals(0x12, flush.bytes()[flush.offsetOf(InfiniBand.FETH) + 3] & 0xFF);

        BuiltPacket atomicWrite = ipv4().opcode(0x1D).set(InfiniBand.RETH_DMALEN, 8)
                .payload(new byte[]{1, 2, 3, 4, 5, 6, 7, 8}).buildPacket();
        Dissection d = Frames.dissect(atomicWrite);
        assertFalse(d.isMalformed());
        assertEquals(8, d.rdma().payloadLength);
        assertEquals(0, d.rdma().padCount);
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
    }

    @Test
    @DisplayName("a MAD goes to QP1 in a UD SEND Only with the GSI Q_Key, and its ICRC verifies")
    void gsiMad() {
        byte[] mad = new byte[256];
        mad[0] = 1;     // base version
        mad[1] = 7;     // management class: CM
        mad[2] = 2;     // class version
        mad[3] = 3;     // method: Send
        BuiltPacket p = ipv4().gsiMad(mad).psn(9).buildPacket();
        assertEquals(0x64, read(p, InfiniBand.BTH, InfiniBand.BTH_OPCODE));
        assertEquals(1, read(p, InfiniBand.BTH, InfiniBand.BTH_DESTQP));
        assertEquals(0x80010000L, read(p, InfiniBand.DETH, InfiniBand.DETH_Q_KEY));
        assertEquals(1, read(p, InfiniBand.DETH, InfiniBand.DETH_SRCQP));
        assertArrayEquals(mad, Arrays.copyOfRange(p.bytes(), p.payloadAt(), p.payloadAt() + 256));
        Dissection d = Frames.dissect(p);
        assertEquals(256, d.rdma().payloadLength);
        assertTrue(d.find(InfiniBand.DETH) >= 0, Frames.layerNames(d));
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
    }

    @Test
    @DisplayName("an ICRC given as infiniband.invariant.crc shows it is stored as is")
    void explicitIcrc() {
        BuiltPacket p = ipv4().icrc(0x12345678L).buildPacket();
        assertEquals("12345678", Frames.hex(Arrays.copyOfRange(p.bytes(), p.icrcAt(), p.icrcAt() + 4)));
        Dissection d = Frames.dissect(p);
        assertEquals(Crcs.STATUS_BAD, Crcs.icrcStatus(d));
        assertEquals(0x12345678L, InfiniBand.ICRC.read(d.buffer(), d.layerAt(d.find(InfiniBand.ICRC_HEADER))));
    }

    @Test
    @DisplayName("RoCEv2 on another UDP port dissects with a chain told about that port")
    void customRocePort() {
        BuiltPacket p = ipv4().udpDestPort(4792).buildPacket();
        Dissection d = new Dissection();
        DissectorChain.withRocePorts(4792).dissect(Frame.of(1, 0, p.linkType(), p.bytes()), d);
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
        assertEquals(-1, Frames.dissect(p).find(InfiniBand.BTH), "not RoCE on 4792 for the standard chain");
    }

    @Test
    @DisplayName("building twice gives the same bytes, and the builder's arrays are its own")
    void buildIsRepeatableAndCopies() {
        byte[] payload = {1, 2, 3};
        RocePacket r = ipv4().payload(payload);
        payload[0] = 9;
        byte[] first = r.build();
        assertArrayEquals(first, r.build());
        assertEquals(1, first[first.length - 4 - 1 - 3]);
    }

    @Test
    void aCopyBuildsTheSameBytesAndChangesToItLeaveTheOriginalAlone() {
        RocePacket original = ipv4().vlan(7, 3).ecn(2).udpSourcePort(50000).opcode(0x0B).destQp(0x42).psn(99)
                .set(InfiniBand.RETH_VA, 0x1000).set(InfiniBand.RETH_DMALEN, 5).immediate(0xABCD)
                .payload(new byte[]{1, 2, 3, 4, 5});
        byte[] before = original.build();
        RocePacket copy = original.copy();
        assertArrayEquals(before, copy.build());
        copy.corruptIcrc().ecn(3).psn(100).immediate(1).payload(new byte[]{9});
        assertArrayEquals(before, original.build(), "tweaking the copy changed the original");
        BuiltPacket tweaked = copy.buildPacket();
        assertEquals(100, read(tweaked, InfiniBand.BTH, InfiniBand.BTH_PSN));
        assertEquals(1, read(tweaked, InfiniBand.IMMDT, InfiniBand.IMMDT_VALUE));
        assertEquals(0xABCD, read(original.buildPacket(), InfiniBand.IMMDT, InfiniBand.IMMDT_VALUE));
    }
}
