package io.rdmascope.samples;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The truth files say what the captures hold: checked against our own dissection of every
 * committed capture. Every ICRC and VCRC verifies except where the truth says a scenario breaks
 * it; every message's frames carry its PSNs on its connection; every frame a truth names exists.
 */
class TruthMatchesCaptureTest {

    /** What the dissector saw in one frame. */
    record Seen(int opcode, int psn, int destQp, int icrc, int vcrc, boolean cut) {
    }

    /**
     * Whether the capture cut the frame, read from its record and raw bytes rather than the dissector:
     * fewer bytes captured than on the wire, or (Ethernet/IPv4) fewer than the IPv4 total length says.
     */
    private static boolean cut(Frame f) {
        if (f.wireLength() > f.capturedLength()) {
            return true;
        }
        boolean ipv4 = f.capturedLength() >= 18 && (f.get(12) & 0xFF) == 0x08 && f.get(13) == 0;
        return ipv4 && 14 + (((f.get(16) & 0xFF) << 8) | (f.get(17) & 0xFF)) > f.capturedLength();
    }

    static Map<Integer, Seen> dissect(Path capture) throws IOException {
        Map<Integer, Seen> seen = new HashMap<>();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, d);
                RdmaContext r = d.rdma();
                if (!r.isRdma()) {
                    if (cut(f)) {
                        seen.put((int) f.number(), new Seen(-1, -1, -1, Crcs.STATUS_UNVERIFIED, Crcs.STATUS_UNVERIFIED,
                                true)); // cut inside the BTH: no transport fields to compare
                    }
                    continue;
                }
                int bthAt = d.layerAt(r.bthLayer);
                seen.put((int) f.number(), new Seen(r.opcode, (int) InfiniBand.BTH_PSN.read(d.buffer(), bthAt),
                        (int) InfiniBand.BTH_DESTQP.read(d.buffer(), bthAt),
                        r.icrcOffset < 0 ? Crcs.STATUS_UNVERIFIED : Crcs.icrcStatus(d),
                        r.vcrcOffset < 0 ? Crcs.STATUS_UNVERIFIED : Crcs.vcrcStatus(d), cut(f)));
            }
        }
        return seen;
    }

    @TestFactory
    Stream<DynamicTest> everyCommittedCaptureAgreesWithItsTruth() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s)));
    }

    private static void check(Scenario s) throws IOException {
        Truth truth = Scenarios.readTruth(CommittedCases.caseFolder(s).resolve(Scenarios.TRUTH_FILE));
        if (truth.conversations().stream().allMatch(c -> "IWARP".equals(c.transport()))) {
            return; // iWARP over TCP has no BTH to check here: iwarp.IwarpTruthMatchesCaptureTest checks those
        }
        Map<Integer, Seen> seen = dissect(CommittedCases.capture(s));
        List<String> problems = new ArrayList<>();

        Set<Integer> badIcrc = framesOf(truth, Expected.BAD_ICRC);
        Set<Integer> badVcrc = framesOf(truth, Expected.BAD_VCRC);
        Set<Integer> truncated = framesOf(truth, Expected.TRUNCATED_FRAME);
        // The scenario's story: the capture path stored no ICRC that verifies, on any frame (issue 15).
        boolean noIcrcVerifies = !framesOf(truth, Expected.ICRC_NOT_VERIFIABLE).isEmpty();
        for (Map.Entry<Integer, Seen> e : seen.entrySet()) {
            int frame = e.getKey();
            int expectedIcrc = truncated.contains(frame) || e.getValue().cut() ? Crcs.STATUS_UNVERIFIED
                    : badIcrc.contains(frame) || noIcrcVerifies ? Crcs.STATUS_BAD : Crcs.STATUS_GOOD;
            if (e.getValue().icrc() != expectedIcrc) {
                problems.add("frame " + frame + " ICRC status " + e.getValue().icrc() + ", expected " + expectedIcrc);
            }
            int vcrc = e.getValue().vcrc();
            if (badVcrc.contains(frame) ? vcrc != Crcs.STATUS_BAD : vcrc == Crcs.STATUS_BAD) {
                problems.add("frame " + frame + " VCRC status " + vcrc);
            }
        }

        Map<String, Truth.Conversation> conversations = new HashMap<>();
        truth.conversations().forEach(c -> conversations.put(c.id(), c));
        int previousFirst = 0;
        for (Truth.Message m : truth.messages()) {
            Truth.Conversation c = conversations.get(m.conversation());
            // A storage protocol's target also posts requests on the QP pair (Connection.reverse()):
            // such a message goes to the conversation's requester QP and is answered from it.
            boolean reverse = c.requester().qpn() != c.responder().qpn() && m.destQp() == c.requester().qpn();
            Truth.Endpoint sender = reverse ? c.responder() : c.requester();
            Truth.Endpoint receiver = reverse ? c.requester() : c.responder();
            if (m.destQp() != receiver.qpn() || !m.transport().equals(c.transport())) {
                problems.add("message at frame " + m.frames() + " disagrees with its conversation " + c.id());
            }
            if (!m.frames().isEmpty()) {
                if (m.frames().get(0) < previousFirst) {
                    problems.add("messages are not in order of first frame at " + m.frames());
                }
                previousFirst = m.frames().get(0);
            }
            for (int frame : m.frames()) {
                Seen x = seen.get(frame);
                if (x == null) {
                    problems.add("message " + m.firstPsn() + ": request frame " + frame + " is not an RDMA frame");
                } else if (x.destQp() != receiver.qpn() || !inRange(x.psn(), m.firstPsn(), m.lastPsn())) {
                    problems.add("message " + m.firstPsn() + ": frame " + frame + " has QP 0x" + Integer.toHexString(x.destQp())
                            + " PSN " + x.psn() + ", outside the message");
                }
            }
            for (int frame : m.responseFrames()) {
                Seen x = seen.get(frame);
                if (x == null || x.destQp() != sender.qpn() || !inRange(x.psn(), m.firstPsn(), m.lastPsn())) {
                    problems.add("message " + m.firstPsn() + ": response frame " + frame + " does not answer it");
                }
            }
            boolean unacknowledged = "UC".equals(c.transport()) || "UD".equals(c.transport());
            if (m.completionFrame() != null && unacknowledged) {
                if (!m.frames().contains(m.completionFrame())) {
                    problems.add("UC/UD message " + m.firstPsn() + " completes at a frame not its own");
                }
            } else if (m.completionFrame() != null) {
                Seen x = seen.get(m.completionFrame());
                if (x == null || x.destQp() != sender.qpn()) {
                    problems.add("message " + m.firstPsn() + ": completion frame " + m.completionFrame()
                            + " is not a response to its requester");
                }
            }
            boolean needsFrame = "completed".equals(m.status());
            boolean mayHaveFrame = needsFrame || "failed".equals(m.status());
            if (needsFrame && m.completionFrame() == null || !mayHaveFrame && m.completionFrame() != null) {
                problems.add("message " + m.firstPsn() + ": status " + m.status() + " with completion frame "
                        + m.completionFrame());
            }
        }
        for (Truth.Observation o : truth.observations()) {
            if (o.frame() != null && (o.frame() < 1 || o.frame() > truth.frames())) {
                problems.add("observation " + o + " names a frame outside the capture");
            }
        }
        assertEquals(seen.size() > 0, true, "no RDMA frames in " + s.name());
        assertEquals(List.of(), problems, s.name());
    }

    private static boolean inRange(int psn, int first, int last) {
        return Psn.diff(psn, first) >= 0 && Psn.diff(last, psn) >= 0;
    }

    private static Set<Integer> framesOf(Truth truth, Expected kind) {
        Set<Integer> frames = new HashSet<>();
        for (Truth.Observation o : truth.observations()) {
            if (o.kind().equals(kind.id()) && o.frame() != null) {
                frames.add(o.frame());
            }
        }
        return frames;
    }

    @Test
    void everyRuleHasAScenarioThatRaisesIt() throws IOException {
        Set<Expected> raised = EnumSet.noneOf(Expected.class);
        for (Scenario s : ScenarioCatalog.all()) {
            Truth truth = Scenarios.readTruth(CommittedCases.caseFolder(s).resolve(Scenarios.TRUTH_FILE));
            for (Truth.Observation o : truth.observations()) {
                for (Expected e : Expected.values()) {
                    if (e.id().equals(o.kind())) {
                        raised.add(e);
                    }
                }
            }
            for (Truth.Finding f : truth.findings()) {
                assertTrue(Stream.of(Expected.values()).anyMatch(e -> f.rule().equals(e.rule())),
                        s.name() + ": unknown rule " + f.rule());
            }
        }
        // Observations only traffic nobody scripted shows (a timestamp inversion) come from the random family.
        for (long seed = 1; seed <= 30; seed++) {
            for (Truth.Observation o : RandomScenario.generate(seed, RandomScenario.Options.defaults()).truth()
                    .observations()) {
                for (Expected e : Expected.values()) {
                    if (e.id().equals(o.kind())) {
                        raised.add(e);
                    }
                }
            }
        }
        EnumSet<Expected> missing = EnumSet.complementOf(EnumSet.copyOf(raised));
        assertEquals(EnumSet.noneOf(Expected.class), missing, "expected observations no scenario produces");
    }
}
