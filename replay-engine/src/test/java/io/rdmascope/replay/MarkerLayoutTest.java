package io.rdmascope.replay;

import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16: MPA markers the framer could keep sync with only by reading them off RFC 5044 §5's
 * layout (a marker clock that skips each FPDU's CRC field, FPDUPTR little-endian: the OSC iWARP
 * stack's layout, docs/iwarp.md) are one IW-MPA-005 warning per stream direction, naming the layout,
 * and nothing cascades from it. Streams whose markers follow RFC 5044 §5 raise none.
 */
class MarkerLayoutTest {
    private static final String RULE = "IW-MPA-005";

    private static List<Finding> findings(ReplayResult r) {
        return Rules.evaluate(r.observations(), RulesConfig.defaults());
    }

    private static List<String> lines(List<Finding> findings) {
        return findings.stream().map(f -> f.rule() + " " + f.severity() + " " + f.frames()).sorted().toList();
    }

    @Test
    void theRealMarkerStreamIsOneWarningPerDirectionAndNoError() throws IOException {
        ReplayResult r = Replays.of(Replays.hard("ajbanjara_Wireshark_iwarp_rdma__read_write_long_run_mrkr.pcap"));
        List<Finding> findings = findings(r);
        // Frame 13 carries the initiator's first FPDU with a marker past its start, frame 44 the
        // responder's; the shared-MSN NIC's two warnings (frame 42) are issue 16 point 2's, as before.
        assertEquals(List.of("IW-DDP-005 warning [42]", "IW-MPA-005 warning [13]", "IW-MPA-005 warning [44]",
                "IW-RDMAP-005 warning [42]"), lines(findings), "exactly the deviations, nothing cascading");
        for (Finding f : findings) {
            if (f.rule().equals(RULE)) {
                assertTrue(f.detail().contains("FPDUPTR little-endian") && f.detail().contains("RFC 5044 §5"),
                        f.detail());
            }
        }
        assertTrue(r.messages().stream().allMatch(m -> m.status().equals(Message.COMPLETED)),
                r.messages().toString());
    }

    @Test
    void theGeneratedOscMarkerCaseNamesTheWholeLayoutOncePerDirection() throws IOException {
        ReplayResult r = TestReplays.scenario("iwarp_markers_real");
        List<Finding> findings = findings(r);
        assertEquals(List.of("IW-MPA-005 warning [10]", "IW-MPA-005 warning [55]"), lines(findings));
        assertTrue(findings.stream().anyMatch(f -> f.detail().contains("skips each FPDU's CRC field")
                && f.detail().contains("OSC iWARP stack")), findings.toString());
        assertTrue(r.messages().stream().allMatch(m -> m.status().equals(Message.COMPLETED)),
                r.messages().toString());
    }

    @Test
    void markersWhereRfc5044PutsThemRaiseNoLayoutWarning() throws IOException {
        for (String scenario : List.of("iwarp_markers", "iwarp_segmentation", "iwarp_violations")) {
            List<Finding> findings = findings(TestReplays.scenario(scenario));
            assertTrue(findings.stream().noneMatch(f -> f.rule().equals(RULE)), scenario + ": " + lines(findings));
        }
    }
}
