package io.rdmascope.replay;

import io.rdmascope.build.RocePacket;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14: traffic nobody scripted — several QP pairs between the same two hosts with requests in
 * both directions, responses that reach the capture before their requests, and real host captures
 * that miss packets.
 */
class UnscriptedTrafficTest {
    private static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    private static final byte[] IP_A = {10, 0, 0, 1};
    private static final byte[] IP_B = {10, 0, 0, 2};

    /** Frames from A or B to a destination QP, at explicit times. */
    private static final class TwoHosts {
        final ReplayResult result = new ReplayResult();
        private final DissectorChain chain = DissectorChain.standard();
        private final Dissection d = new Dissection();
        private long frame;

        long play(boolean fromA, int destQp, int opcode, int psn, int payload, int syndrome, long timeNanos,
                  int udpPort) {
            RocePacket p = (fromA ? RocePacket.v2Ipv4(MAC_A, MAC_B, IP_A, IP_B) : RocePacket.v2Ipv4(MAC_B, MAC_A, IP_B, IP_A))
                    .opcode(opcode).destQp(destQp).psn(psn).udpSourcePort(udpPort).ipId((int) frame);
            if (opcode == 0x11) {
                p.set(InfiniBand.AETH_SYNDROME, syndrome).set(InfiniBand.AETH_MSN, 1);
            } else {
                p.ackReq(true).payload(new byte[payload]);
            }
            frame++;
            chain.dissect(Frame.of(frame, timeNanos, p.linkType(), p.build()), d);
            result.accept(d);
            return frame;
        }
    }

    @Test
    void severalQpPairsBetweenTwoHostsArePairedByTheirResponsesNotByArrivalOrder() {
        // Pair 1: A's QP 0x11 <-> B's QP 0x21. Pair 2: A's QP 0x12 <-> B's QP 0x22, both sides request.
        // Arrival order alone would join B's first packet (a request to 0x12) to pair 1, the only one
        // waiting; the UDP ports lie on purpose (pair 2's reverse uses pair 1's port).
        TwoHosts w = new TwoHosts();
        long t = 1_000_000;
        w.play(true, 0x21, 0x04, 1000, 64, 0, t += 1000, 5001);      // A→B pair 1 SEND, PSN 1000
        w.play(false, 0x12, 0x04, 900_000, 64, 0, t += 1000, 5001);  // B→A pair 2 SEND, PSN 900000
        w.play(true, 0x22, 0x04, 500_000, 64, 0, t += 1000, 5002);   // A→B pair 2 SEND, PSN 500000
        w.play(false, 0x12, 0x11, 500_000, 0, 0x1F, t += 1000, 5001); // B ACKs A's pair-2 SEND
        w.play(true, 0x22, 0x11, 900_000, 0, 0x1F, t += 1000, 5002);  // A ACKs B's pair-2 SEND
        w.play(false, 0x11, 0x11, 1000, 0, 0x1F, t += 1000, 5003);    // B ACKs A's pair-1 SEND
        ReplayResult r = w.result.finish();

        assertEquals(2, r.flows().size(), r.flows().toString());
        Set<String> lines = r.messages().stream().map(m -> m.conversation() + " " + m.src() + " qp " + m.srcQp()
                + " -> qp " + m.destQp() + " psn " + m.firstPsn() + " " + m.status()).collect(Collectors.toSet());
        assertEquals(Set.of(
                "1 10.0.0.1 qp 17 -> qp 33 psn 1000 completed",
                "2 10.0.0.2 qp 34 -> qp 18 psn 900000 completed",
                "2 10.0.0.1 qp 18 -> qp 34 psn 500000 completed"), lines);
        assertTrue(r.observations().isEmpty(), r.observations().toString());
        FrameAnalysis a = FrameAnalysis.of(r);
        assertEquals("1", a.conversationOf(6), "the ACK-only frame is placed in its conversation");
        assertEquals(FrameRole.ACK, a.roleOf(6));
        assertEquals(1, a.sideOf(6));
        for (long f = 1; f <= 6; f++) {
            assertNotNull(a.conversationOf(f), "frame " + f);
            assertEquals(a.conversationOf(f), a.value(FrameAnalysis.field("rdmascope.conversation"), f));
        }
    }

    @Test
    void aResponseTimestampedBeforeItsRequestIsReplayedInCausalOrder() {
        TwoHosts w = new TwoHosts();
        w.play(true, 0x21, 0x04, 7, 64, 0, 1_000_000, 5001);
        w.play(false, 0x11, 0x11, 7, 0, 0x1F, 1_002_000, 5001);
        w.play(false, 0x11, 0x11, 8, 0, 0x1F, 1_003_000, 5001); // the capturing host stamped its SEND late
        w.play(true, 0x21, 0x04, 8, 64, 0, 1_032_000, 5001);
        ReplayResult r = w.result.finish();
        assertEquals(List.of("completed", "completed"), r.messages().stream().map(Message::status).toList());
        assertEquals(List.of("timestamp_inversion"), r.observations().stream().map(o -> o.kind().id()).toList());
        Observation.TimestampInversion o = (Observation.TimestampInversion) r.observations().get(0);
        assertEquals(29_000, o.skewNanos());
        assertEquals("10.0.0.1", o.laggingHost());
        assertEquals("on 10.0.0.1 (its own transmissions are timestamped late)", r.flows().get(0).capturePoint());
    }

    @Test
    void whereTheCapturePointSitsFollowsFromWhichSideOfItPacketsWereLost() {
        // Lost before the capture point: PSN 8 is first seen as its resend after the NAK.
        TwoHosts up = new TwoHosts();
        up.play(true, 0x21, 0x04, 7, 64, 0, 1_000_000, 5001);
        up.play(true, 0x21, 0x04, 9, 64, 0, 1_001_000, 5001);
        up.play(false, 0x11, 0x11, 8, 0, 0x60, 1_002_000, 5001);
        up.play(true, 0x21, 0x04, 8, 64, 0, 1_003_000, 5001);
        up.play(true, 0x21, 0x04, 9, 64, 0, 1_004_000, 5001);
        up.play(false, 0x11, 0x11, 9, 0, 0x1F, 1_005_000, 5001);
        ReplayResult r = up.result.finish();
        assertEquals("toward 10.0.0.2 (10.0.0.1's requests were lost before the capture point)",
                r.flows().get(0).capturePoint());
        assertEquals(List.of("completed", "completed", "completed"), r.messages().stream().map(Message::status).toList());
        // Lost after it: PSN 8 captured, then NAKed.
        TwoHosts down = new TwoHosts();
        down.play(true, 0x21, 0x04, 7, 64, 0, 1_000_000, 5001);
        down.play(true, 0x21, 0x04, 8, 64, 0, 1_000_500, 5001);
        down.play(true, 0x21, 0x04, 9, 64, 0, 1_001_000, 5001);
        down.play(false, 0x11, 0x11, 8, 0, 0x60, 1_002_000, 5001);
        down.play(true, 0x21, 0x04, 8, 64, 0, 1_003_000, 5001);
        down.play(true, 0x21, 0x04, 9, 64, 0, 1_004_000, 5001);
        down.play(false, 0x11, 0x11, 9, 0, 0x1F, 1_005_000, 5001);
        assertEquals("toward 10.0.0.1 (its requests were lost after the capture point)",
                down.result.finish().flows().get(0).capturePoint());
    }

    @Test
    void anAckFarBeyondEverythingSentIsStillAnError() {
        TwoHosts w = new TwoHosts();
        w.play(true, 0x21, 0x04, 7, 64, 0, 1_000_000, 5001);
        w.play(false, 0x11, 0x11, 7, 0, 0x1F, 1_002_000, 5001);
        w.play(false, 0x11, 0x11, 7 + Channel.AHEAD_SLACK + 1, 0, 0x1F, 1_003_000, 5001);
        ReplayResult r = w.result.finish();
        assertEquals(List.of("ack_of_unsent_psn"), r.observations().stream().map(o -> o.kind().id()).toList());
    }

    private static List<Finding> errors(ReplayResult r) {
        return Rules.evaluate(r.observations(), RulesConfig.defaults()).stream()
                .filter(f -> f.severity().equals("error") || f.severity().equals("warning")).toList();
    }

    @Test
    void sixteenQpPairsCapturedOnALossyHostRaiseNoFalseError() throws IOException {
        // 16 RC QP pairs between two hosts, both sides sending; the capture misses packets and stamps
        // the capturing host's transmissions late. Every missing packet is a note, nothing an error.
        ReplayResult r = Replays.of(Replays.hard("magnate3_linux-riscv-dev_rocev2-2_test.pcap"));
        assertEquals(List.of(), errors(r));
        assertEquals(16, r.flows().size());
        for (Flow f : r.flows()) {
            assertNotNull(f.a().qpn(), f.toString());
            assertNotNull(f.b().qpn(), f.toString());
        }
        Set<Integer> qps = new HashSet<>();
        for (Message m : r.messages()) {
            assertNotNull(m.srcQp(), m.toString());
            qps.add(m.srcQp());
        }
        assertEquals(32, qps.size(), "both sides of all 16 pairs send");
        assertTrue(r.messages().stream().anyMatch(m -> Boolean.TRUE.equals(m.partial())),
                "messages the capture shows in part are listed, marked partial");
        FrameAnalysis a = FrameAnalysis.of(r);
        for (long f = 1; f <= 641; f++) {
            assertNotNull(a.conversationOf(f), "frame " + f + " placed");
        }
    }

    @Test
    void nvmeOfDiscoveryOnAHostRaisesNoFalseError() throws IOException {
        ReplayResult r = Replays.of(Replays.hard("magnate3_linux-riscv-dev_nvme-discover2.pcap"));
        // The RDMA transport is clean; the storage rules' two findings (the Identify Controller the target
        // never answered before its DisconnectRequest, the Keep Alive sent after it) are the capture's real
        // failure, held by UlpPlantedErrorsTest.
        assertEquals(List.of("ULP-UNANS-001", "ULP-UNANS-002"), errors(r).stream().map(Finding::rule).toList());
        assertFalse(r.messages().isEmpty());
        assertTrue(r.messages().stream().allMatch(m -> m.status().equals("completed")), r.messages().toString());
    }
}
