package io.rdmascope.replay;

import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Capture artifacts told apart from traffic faults (issue 15): ICRCs, silent cuts, cut headers. */
class CaptureArtifactsTest {
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};

    /** UC SEND Onlys from A and B, each with a good or corrupt ICRC, optionally cut. */
    private static final class Frames {
        final ReplayResult result;
        private final DissectorChain chain = DissectorChain.standard();
        private final Dissection d = new Dissection();
        private long frame;
        private int psnA = 100;
        private int psnB = 5000;

        Frames(IcrcCheck icrc) {
            result = new ReplayResult(icrc);
        }

        void send(boolean fromA, boolean goodIcrc) {
            RocePacket p = packet(fromA);
            if (!goodIcrc) {
                p.corruptIcrc();
            }
            accept(Frame.of(++frame, 1_000_000 + frame * 1000, p.linkType(), p.build()));
        }

        /** The first {@code keep} bytes, recorded with {@code wire} bytes on the wire. */
        void cut(boolean fromA, int keep, int wire) {
            byte[] bytes = packet(fromA).build();
            ByteBuffer kept = ByteBuffer.wrap(java.util.Arrays.copyOf(bytes, keep)).asReadOnlyBuffer();
            accept(new Frame(++frame, 1_000_000 + frame * 1000, keep, wire == 0 ? bytes.length : wire, 1, 0, kept, 0));
        }

        private RocePacket packet(boolean fromA) {
            RocePacket p = fromA ? RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B) : RocePacket.v2Ipv4(MAC_B, MAC_A, IP_B, IP_A);
            return p.opcode(0x24).destQp(fromA ? 0x21 : 0x11).psn(fromA ? psnA++ : psnB++).payload(new byte[256])
                    .udpSourcePort(fromA ? 5001 : 5002);
        }

        private void accept(Frame f) {
            chain.dissect(f, d);
            result.accept(d);
        }

        List<String> kinds() {
            return result.finish().observations().stream().map(o -> o.kind().id()).toList();
        }
    }

    @Test
    void aCaptureWhoseIcrcsNeverVerifyGivesOneFindingNotAnErrorPerFrame() {
        Frames f = new Frames(IcrcCheck.AUTO);
        for (int i = 0; i < 6; i++) {
            f.send(i % 2 == 0, false);
        }
        List<Observation> all = f.result.finish().observations();
        assertEquals(List.of("icrc_not_verifiable"), all.stream().map(o -> o.kind().id()).toList());
        Observation.IcrcNotVerifiable o = (Observation.IcrcNotVerifiable) all.get(0);
        assertEquals(1, o.frame());
        assertEquals(6, o.count());
        assertEquals("this capture", o.scope());
        assertEquals("10.0.0.1, 10.0.0.2", o.senders());
    }

    @Test
    void strictReportsEveryFrameAndOffNone() {
        Frames strict = new Frames(IcrcCheck.STRICT);
        Frames off = new Frames(IcrcCheck.OFF);
        for (int i = 0; i < 6; i++) {
            strict.send(true, false);
            off.send(true, false);
        }
        assertEquals(6, strict.kinds().stream().filter("bad_icrc"::equals).count());
        assertEquals(List.of(), off.kinds());
    }

    @Test
    void badIcrcsHeldUntilAFrameOfTheSameSenderVerifiesAreErrorsAfterAll() {
        Frames f = new Frames(IcrcCheck.AUTO);
        for (int i = 0; i < 5; i++) {
            f.send(true, false); // held: nothing of A has verified yet
        }
        f.send(true, true);
        f.send(true, false);
        List<Observation> all = f.result.finish().observations();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 7L), all.stream().filter(o -> o.kind().id().equals("bad_icrc"))
                .map(Observation::frame).toList(), "released in frame order");
        assertEquals(6, all.size());
    }

    @Test
    void aSenderWhoseEveryFrameFailsIsOneFindingWhileTheOtherSenderVerifies() {
        Frames f = new Frames(IcrcCheck.AUTO);
        for (int i = 0; i < 4; i++) {
            f.send(true, false);
            f.send(false, true);
        }
        List<Observation> all = f.result.finish().observations();
        assertEquals(List.of("icrc_not_verifiable"), all.stream().map(o -> o.kind().id()).toList());
        assertEquals("sender 10.0.0.1", ((Observation.IcrcNotVerifiable) all.get(0)).scope());
    }

    @Test
    void fewerBadFramesThanTheMinimumStayErrors() {
        Frames f = new Frames(IcrcCheck.AUTO);
        for (int i = 0; i < CaptureArtifacts.ICRC_MIN_FRAMES - 1; i++) {
            f.send(true, false);
            f.send(false, true);
        }
        assertEquals(CaptureArtifacts.ICRC_MIN_FRAMES - 1, f.kinds().stream().filter("bad_icrc"::equals).count());
    }

    @Test
    void heldVerdictsAreBoundedAndWhatIsNotHeldIsCounted() {
        Frames f = new Frames(IcrcCheck.AUTO);
        for (int i = 0; i < CaptureArtifacts.HELD_PER_SENDER + 5; i++) {
            f.send(true, false);
        }
        f.send(true, true);
        List<Observation> all = f.result.finish().observations();
        assertEquals(CaptureArtifacts.HELD_PER_SENDER, all.stream().filter(o -> o.kind().id().equals("bad_icrc")).count());
        Observation limit = all.stream().filter(o -> o.kind().id().equals("limit_reached")).findFirst().orElseThrow();
        assertTrue(limit.detail().endsWith("5 more not listed"), limit.detail());
    }

    @Test
    void framesShorterThanTheirIpLengthAreCutNotBadIcrcsOrShortPackets() {
        Frames f = new Frames(IcrcCheck.AUTO);
        for (int i = 0; i < 5; i++) {
            f.cut(true, 120, 120); // the record claims 120 bytes were on the wire; IP says 326
        }
        List<Observation> all = f.result.finish().observations();
        assertEquals(List.of("frames_cut_silently"), all.stream().map(o -> o.kind().id()).toList());
        assertEquals(5, ((Observation.FramesCutSilently) all.get(0)).count());
    }

    @Test
    void aSnapLengthInsideTheBthIsOneFindingAndKeepingTheHeadersRaisesNothingNew() {
        Frames f = new Frames(IcrcCheck.AUTO);
        f.send(true, true);
        f.cut(true, 50, 0); // Ethernet, IPv4, UDP and 8 bytes of the BTH
        f.cut(true, 60, 0); // the whole BTH: only the payload is cut
        List<Observation> all = f.result.finish().observations();
        assertEquals(List.of("headers_cut", "truncated_frame"), all.stream().map(o -> o.kind().id()).toList());
        Observation.HeadersCut cut = (Observation.HeadersCut) all.get(0);
        assertEquals(2, cut.frame());
        assertEquals("conversation 1", cut.conversations(), "placed by its two hosts");
    }

    @Test
    void payloadPlusPadOffAWordBoundaryIsMisaligned() {
        Frames f = new Frames(IcrcCheck.AUTO);
        RocePacket p = RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B).opcode(0x24).destQp(0x21).psn(1)
                .payload(new byte[6]).padBytes(1);
        f.chain.dissect(Frame.of(1, 1_000, p.linkType(), p.build()), f.d);
        f.result.accept(f.d);
        assertEquals(List.of("pad_misaligned"), f.kinds());
    }

    @Test
    void theUcSgCaptureFromAnOffloadSnifferGivesOneIcrcFindingAndNoIcrcError() throws IOException {
        Path file = SharedFiles.root().resolve("captures-hard").resolve("magnate3_linux-riscv-dev_uc-sg.pcap");
        Assumptions.assumeTrue(Files.isReadable(file), "SKIPPED: hard capture not present: " + file);
        for (IcrcCheck mode : IcrcCheck.values()) {
            List<String> kinds = Replays.of(file, mode).observations().stream().map(o -> o.kind().id()).toList();
            long bad = kinds.stream().filter("bad_icrc"::equals).count();
            long notVerifiable = kinds.stream().filter("icrc_not_verifiable"::equals).count();
            switch (mode) {
                case AUTO -> {
                    assertEquals(0, bad, kinds.toString());
                    assertEquals(1, notVerifiable, kinds.toString());
                }
                case STRICT -> assertEquals(17, bad, "every frame, as before issue 15");
                case OFF -> assertEquals(0, bad + notVerifiable, kinds.toString());
            }
        }
    }
}
