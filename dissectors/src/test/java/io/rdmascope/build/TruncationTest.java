package io.rdmascope.build;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.Opcodes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Random;

import static io.rdmascope.build.RandomPackets.Variant;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Captures are untrusted and snaplens cut packets anywhere (DESIGN.md, "Bad input contract"): a
 * frame cut at any length must dissect without an exception, and a cut through a header must mark
 * the frame malformed.
 */
class TruncationTest {
    /** One opcode per shape of extension-header chain, from none to the longest. */
    private static final int[] OPCODES = {
            0x04, // RC SEND Only: BTH only
            0x0B, // RC RDMA WRITE Only with Immediate: RETH, ImmDt
            0x12, // RC ATOMIC Acknowledge: AETH, AtomicAckETH
            0x13, // RC CmpSwap: AtomicETH
            0x1C, // RC FLUSH: FETH, RETH
            0x4B, // RD RDMA WRITE Only with Immediate: RDETH, DETH, RETH, ImmDt
            0x65, // UD SEND Only with Immediate: DETH, ImmDt
            0x81, // CNP: 16 reserved bytes
            0xB7, // XRC SEND Only with Invalidate: XRCETH, IETH
    };

    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    @DisplayName("a frame cut at every length dissects without exception and is malformed whenever a header was cut")
    void everyCutIsSafeAndHeaderCutsAreMalformed(Variant variant) {
        Random rng = new Random(0xC07L + variant.ordinal());
        Dissection d = new Dissection();
        for (int code : OPCODES) {
            RandomPackets.Case c = RandomPackets.random(Opcodes.of(code), variant, rng);
            BuiltPacket p = c.packet().buildPacket();
            byte[] bytes = p.bytes();
            for (int cut = 0; cut < bytes.length; cut++) {
                int length = cut;
                assertDoesNotThrow(() -> Frames.dissectCut(bytes, p.linkType(), length, d), c + " cut at " + cut);
                if (cut < p.payloadAt()) {
                    assertTrue(d.isMalformed(), c + " cut at " + cut + " inside the headers (which end at "
                            + p.payloadAt() + "): " + Frames.layerNames(d));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    @DisplayName("a frame cut after its headers is not malformed: a short capture is not a broken packet")
    void cutsAfterTheHeadersAreNotMalformed(Variant variant) {
        BuiltPacket p = variant.start().opcode(0x0A).payload(new byte[64]).buildPacket();
        Dissection d = new Dissection();
        for (int cut = p.payloadAt(); cut < p.bytes().length; cut++) {
            Frames.dissectCut(p.bytes(), p.linkType(), cut, d);
            assertEquals(false, d.isMalformed(), variant + " cut at " + cut + ": " + Frames.layerNames(d));
        }
    }

    /**
     * A snaplen cut inside the payload leaves the ICRC out of the capture: there is nothing to check,
     * so the status must be Unverified, not Bad (Bad would flag every packet of a capture taken with
     * {@code -s 128} as corrupt).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    @DisplayName("a frame cut inside its payload leaves the ICRC unverified rather than bad")
    void cutInsidePayloadLeavesIcrcUnverified(Variant variant) {
        BuiltPacket p = variant.start().opcode(0x0A).payload(new byte[64]).buildPacket();
        Dissection d = Frames.dissectCut(p.bytes(), p.linkType(), p.payloadAt() + 32, new Dissection());
        assertNotEquals(Crcs.STATUS_BAD, Crcs.icrcStatus(d), Frames.layerNames(d));
        assertEquals(Crcs.STATUS_UNVERIFIED, Crcs.icrcStatus(d), Frames.layerNames(d));
    }

    @Test
    @DisplayName("the whole frame, uncut, is neither malformed nor unverified")
    void uncutFrameIsWhole() {
        BuiltPacket p = Variant.ROCE_V2_IPV4.start().opcode(0x0A).payload(new byte[64]).buildPacket();
        Dissection d = Frames.dissectCut(p.bytes(), p.linkType(), p.bytes().length, new Dissection());
        assertEquals(false, d.isMalformed());
        assertEquals(Crcs.STATUS_GOOD, Crcs.icrcStatus(d));
    }
}
