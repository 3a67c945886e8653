package io.rdmascope.samples.iwarp;

import io.rdmascope.testsupport.SharedFiles;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpFrame;
import io.rdmascope.proto.iwarp.IwarpPdu;
import io.rdmascope.proto.iwarp.Mpa;
import io.rdmascope.samples.Expected;
import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The iWARP scenarios' truth files say what their captures hold, checked against our own dissection
 * (not the replay): every message's frames are the initiator's segments (carrying its bytes; one at least
 * completes an FPDU of it), its response frames the responder's (one completes a Read Response), its
 * completion is where it must be, every CRC verifies except where the truth says
 * one is bad (and none is checked where the connection negotiated no CRC).
 */
class IwarpTruthMatchesCaptureTest {

    /** What the dissection found in one frame. */
    record Seen(int direction, int flags, int payload, List<int[]> fpdus) {
    }

    static Path cases() {
        return SharedFiles.sampleCases();
    }

    static List<Scenario> iwarpScenarios() {
        return ScenarioCatalog.all().stream().filter(s -> s.name().startsWith("iwarp_")).toList();
    }

    /** Per frame: direction, TCP flags, payload length and its in-order FPDUs as {opcode, msn, last, crcStatus}. */
    static Map<Integer, Seen> dissect(Path capture) throws IOException {
        Map<Integer, Seen> seen = new HashMap<>();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, d);
                IwarpFrame r = IwarpFrame.of(d);
                if (r == null) {
                    continue;
                }
                List<int[]> fpdus = new ArrayList<>();
                for (int i = 0; i < r.pduCount(); i++) {
                    IwarpPdu p = r.pdu(i);
                    if (p.inOrder() && p.kind() == IwarpPdu.Kind.FPDU && p.hasDdpHeader()) {
                        fpdus.add(new int[] {p.opcode(), p.tagged() ? -1 : (int) p.msn(), p.last() ? 1 : 0,
                                p.crcStatus(), p.direction()});
                    }
                }
                seen.put((int) f.number(), new Seen(r.direction(), r.flags(), r.payloadLength(), fpdus));
            }
        }
        return seen;
    }

    @TestFactory
    Stream<DynamicTest> everyIwarpCaptureAgreesWithItsTruth() {
        return iwarpScenarios().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> check(s)));
    }

    private static void check(Scenario s) throws IOException {
        Path folder = cases().resolve(s.name());
        Truth truth = Scenarios.readTruth(folder.resolve(Scenarios.TRUTH_FILE));
        Map<Integer, Seen> seen = dissect(folder.resolve(s.name() + "." + s.format().extension()));
        List<String> problems = new ArrayList<>();
        assertTrue(truth.conversations().stream().allMatch(c -> "IWARP".equals(c.transport())), s.name());

        for (Truth.Message m : truth.messages()) {
            String what = m.kind() + " " + m.firstPsn() + " " + m.frames();
            boolean carried = false;
            for (int frame : m.frames()) {
                Seen x = seen.get(frame);
                if (x == null || x.direction() != 0 || x.payload() == 0) {
                    problems.add(what + ": frame " + frame + " is no initiator segment");
                    continue;
                }
                for (int[] p : x.fpdus()) {
                    boolean read = m.kind().equals("READ") && p[0] == DdpRdmap.OP_READ_REQUEST && p[1] == m.firstPsn();
                    boolean write = m.kind().equals("WRITE") && p[0] == DdpRdmap.OP_WRITE;
                    boolean send = m.kind().startsWith("SEND") && p[0] >= DdpRdmap.OP_SEND
                            && p[0] <= DdpRdmap.OP_SEND_SE_INVALIDATE && p[1] == m.firstPsn();
                    carried |= read || write || send;
                }
            }
            if (!m.frames().isEmpty() && !carried) {
                problems.add(what + ": no frame carries an FPDU of it");
            }
            boolean answered = false;
            for (int frame : m.responseFrames()) {
                Seen x = seen.get(frame);
                if (x == null || x.direction() != 1 || x.payload() == 0) {
                    problems.add(what + ": response frame " + frame + " is no responder segment");
                } else {
                    answered |= x.fpdus().stream().anyMatch(p -> p[0] == DdpRdmap.OP_READ_RESPONSE);
                }
            }
            if (!m.responseFrames().isEmpty() && !answered) {
                problems.add(what + ": no response frame completes a Read Response");
            }
            if (m.completionFrame() != null) {
                Seen x = seen.get(m.completionFrame());
                boolean ok = switch (m.status()) {
                    case "completed" -> m.kind().equals("READ")
                            ? x != null && x.fpdus().stream().anyMatch(p -> p[0] == DdpRdmap.OP_READ_RESPONSE && p[2] == 1)
                            : x != null && x.direction() == 1 && (x.flags() & 0x10) != 0;
                    case "failed" -> x != null && x.fpdus().stream().anyMatch(p -> p[0] == DdpRdmap.OP_TERMINATE);
                    default -> false;
                };
                if (!ok) {
                    problems.add(what + ": completion frame " + m.completionFrame() + " does not end it (" + m.status()
                            + ")");
                }
            } else if (!m.status().equals("incomplete")) {
                problems.add(what + ": " + m.status() + " without a completion frame");
            }
        }

        Set<Integer> badCrc = new HashSet<>();
        for (Truth.Observation o : truth.observations()) {
            if (o.kind().equals(Expected.MPA_CRC_ERROR.id())) {
                badCrc.add(o.frame());
            }
            if (o.frame() != null && (o.frame() < 1 || o.frame() > truth.frames())) {
                problems.add("observation " + o + " names a frame outside the capture");
            }
        }
        boolean noCrc = Set.of("iwarp_segmentation", "iwarp_markers_real", "iwarp_shared_msn").contains(s.name()); // CRCs off
        for (Map.Entry<Integer, Seen> e : seen.entrySet()) {
            for (int[] p : e.getValue().fpdus()) {
                int expected = noCrc ? Mpa.STATUS_UNVERIFIED
                        : badCrc.contains(e.getKey()) ? Mpa.STATUS_BAD : Mpa.STATUS_GOOD;
                if (p[3] != expected) {
                    problems.add("frame " + e.getKey() + ": CRC status " + p[3] + ", expected " + expected);
                }
            }
        }
        assertEquals(List.of(), problems, s.name());
    }
}
