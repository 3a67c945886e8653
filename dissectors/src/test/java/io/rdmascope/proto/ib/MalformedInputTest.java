package io.rdmascope.proto.ib;

import io.rdmascope.build.Addresses;
import io.rdmascope.build.BuiltPacket;
import io.rdmascope.build.Frames;
import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.eth.Ethernet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The InfiniBand dissector under hostile and unusual input (DESIGN.md, "Bad input contract"): it
 * never throws, whatever the bytes, and a frame that is merely unusual — padded to Ethernet's
 * minimum, tagged twice — still verifies.
 */
class MalformedInputTest {
    private static final byte[] MAC_A = Addresses.mac("02:00:00:00:00:01");
    private static final byte[] MAC_B = Addresses.mac("02:00:00:00:00:02");

    @Test
    @DisplayName("randomly mutated RoCE and IB frames never make the dissector, its CRC checks or field reads throw")
    void mutationsNeverThrow() {
        Random rng = new Random(0xF022);
        List<BuiltPacket> seeds = new ArrayList<>();
        for (Opcode op : Opcodes.defined()) {
            byte[] payload = new byte[op.payloadAllowed() ? rng.nextInt(40) : 0];
            seeds.add(RocePacket.v2Ipv4(MAC_A, MAC_B, Addresses.ipv4("10.0.0.1"), Addresses.ipv4("10.0.0.2"))
                    .opcode(op.code()).destQp(2).payload(payload).buildPacket());
            seeds.add(RocePacket.v2Ipv6(MAC_A, MAC_B, Addresses.ipv6("::1"), Addresses.ipv6("::2"))
                    .opcode(op.code()).destQp(1).payload(payload).buildPacket());
            seeds.add(RocePacket.v1(MAC_A, MAC_B, Addresses.ipv6("::1"), Addresses.ipv6("::2"))
                    .opcode(op.code()).payload(payload).buildPacket());
            seeds.add(RocePacket.nativeIb(1, 2).grh(Addresses.ipv6("::1"), Addresses.ipv6("::2"))
                    .opcode(op.code()).destQp(0).payload(payload).buildPacket());
            seeds.add(RocePacket.nativeIb(1, 2).opcode(op.code()).payload(payload).buildPacket());
        }
        Dissection d = new Dissection();
        int runs = 0;
        for (BuiltPacket seed : seeds) {
            for (int round = 0; round < 40; round++) {
                byte[] bytes = mutate(seed.bytes(), rng);
                int captured = rng.nextInt(4) == 0 ? rng.nextInt(bytes.length + 1) : bytes.length;
                Frame frame = new Frame(1, 0, captured, bytes.length, seed.linkType(), 0, ByteBuffer.wrap(bytes), 0);
                try {
                    Frames.CHAIN.dissect(frame, d);
                    Crcs.icrcStatus(d);
                    Crcs.vcrcStatus(d);
                    readEveryPresentField(d);
                } catch (RuntimeException e) {
                    fail("dissecting " + Frames.hex(Arrays.copyOf(bytes, captured)) + " (link type "
                            + seed.linkType() + ", wire length " + bytes.length + ") threw", e);
                }
                runs++;
            }
        }
        assertTrue(runs > 10_000, "runs: " + runs);
    }

    @Test
    @DisplayName("a short RoCEv2 frame padded to Ethernet's 60-byte minimum still verifies, and the padding is not payload")
    void ethernetPaddingIsNotPayload() {
        BuiltPacket p = RocePacket.v2Ipv4(MAC_A, MAC_B, Addresses.ipv4("10.0.0.1"), Addresses.ipv4("10.0.0.2"))
                .opcode(0x04).destQp(7).buildPacket();
        assertEquals(58, p.bytes().length);
        byte[] padded = Arrays.copyOf(p.bytes(), 60);
        Dissection d = Frames.dissect(padded, LinkTypes.ETHERNET);
        assertFalse(d.isMalformed(), Frames.layerNames(d));
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
        assertEquals(0, d.rdma().payloadLength);
        assertEquals(p.icrcAt(), d.rdma().icrcOffset);
        assertTrue(d.find(Ethernet.PADDING_HEADER) > d.find(InfiniBand.ICRC_HEADER), Frames.layerNames(d));
    }

    @Test
    @DisplayName("RoCEv1 behind two VLAN tags verifies like untagged RoCEv1")
    void taggedRoceV1() {
        BuiltPacket p = RocePacket.v1(MAC_A, MAC_B, Addresses.ipv6("fe80::1"), Addresses.ipv6("fe80::2"))
                .vlanTag(Ethernet.ETHERTYPE_QINQ, 10, 1, false).vlan(20, 2)
                .opcode(0x0A).set(InfiniBand.RETH_DMALEN, 3).payload(new byte[]{1, 2, 3}).buildPacket();
        Dissection d = Frames.dissect(p);
        assertFalse(d.isMalformed(), Frames.layerNames(d));
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
        assertEquals(3, d.rdma().payloadLength);
    }

    private static byte[] mutate(byte[] original, Random rng) {
        byte[] b = original.clone();
        int edits = 1 + rng.nextInt(4);
        for (int i = 0; i < edits; i++) {
            int at = rng.nextInt(b.length);
            switch (rng.nextInt(3)) {
                case 0 -> b[at] ^= (byte) (1 << rng.nextInt(8));
                case 1 -> b[at] = (byte) rng.nextInt(256);
                default -> b[at] = (byte) (rng.nextBoolean() ? 0 : 0xFF);
            }
        }
        return b;
    }

    private static void readEveryPresentField(Dissection d) {
        for (int layer = 0; layer < d.layerCount(); layer++) {
            HeaderType t = d.layerType(layer);
            for (Field f : t.fields()) {
                if (!f.isPresent(d, layer)) {
                    continue;
                }
                if (f.isComputed()) {
                    f.computation().value(d, layer);
                    f.computation().text(d, layer);
                } else if (f.length() >= 1 && f.length() <= 8) {
                    for (int k = 0; k < f.occurrences(); k++) {
                        f.read(d.buffer(), d.layerAt(layer), k);
                    }
                }
            }
        }
    }
}
