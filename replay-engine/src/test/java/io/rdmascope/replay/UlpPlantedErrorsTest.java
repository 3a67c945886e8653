package io.rdmascope.replay;

import io.rdmascope.proto.smbdirect.SmbDirectIwarpCapture;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19, item 7: on each generated storage case the storage rules find exactly the errors the scenario
 * planted (written from the specifications, not from the engine): one finding each, of a rule its kind
 * maps to, at its frame, naming its id and its queue (conversation), and nothing else from these rules.
 */
class UlpPlantedErrorsTest {
    /** Which rules may report each planted kind (a never-answered command: at teardown, or at the capture's end). */
    private static final Map<String, Set<String>> RULES_OF_KIND = Map.of(
            "response_without_command", Set.of("ULP-RSP-001"),
            "id_reused_while_outstanding", Set.of("ULP-ID-001"),
            "transfer_outside_buffers", Set.of("ULP-DATA-001"),
            "command_unanswered", Set.of("ULP-UNANS-001", "ULP-CAP-001"),
            "credit_overrun", Set.of("ULP-CREDIT-001", "ULP-CREDIT-002"));

    @ParameterizedTest
    @ValueSource(strings = {"ulp_nvmeof", "ulp_iser", "ulp_rpcrdma", "ulp_smbdirect"})
    void theStorageRulesFindExactlyThePlantedErrors(String name) throws IOException {
        Path folder = Replays.cases().resolve(name);
        Truth truth = Scenarios.readTruth(folder.resolve(Scenarios.TRUTH_FILE));
        assertFalse(truth.plantedErrors().isEmpty(), name + " plants nothing");
        ReplayResult replay = Replays.of(folder.resolve(name + ".pcapng"));
        List<Observation.Ulp> noticed = replay.observations().stream()
                .filter(o -> o instanceof Observation.Ulp).map(o -> (Observation.Ulp) o).toList();
        List<Finding> findings = Rules.evaluate(noticed, RulesConfig.defaults());
        assertEquals(truth.plantedErrors().size(), findings.size(), () -> name + ": " + findings);
        for (int i = 0; i < findings.size(); i++) {
            Truth.PlantedError planted = truth.plantedErrors().get(i);
            Finding f = findings.get(i);
            Observation.Ulp o = noticed.get(i);
            String what = name + " " + planted.kind() + " at frame " + planted.frame() + ": " + f;
            assertTrue(RULES_OF_KIND.get(planted.kind()).contains(f.rule()), what);
            assertEquals(List.of((long) planted.frame()), f.frames(), what);
            assertEquals(planted.queue(), f.conversation(), what);
            assertEquals(planted.protocol(), o.protocol(), what);
            assertEquals(planted.id(), o.id() == null ? null : Long.decode(o.id()), what);
        }
    }

    /** No storage rule speaks on the real captures, none of which carries a storage protocol (perftest, rping...). */
    @Test
    void theRealCapturesWithoutStorageTrafficRaiseNothing() throws IOException {
        Path folder = io.rdmascope.testsupport.SharedFiles.root().resolve("captures");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(folder),
                "SKIPPED: real captures not present: " + folder);
        List<Path> captures;
        try (var files = java.nio.file.Files.list(folder)) {
            captures = files.filter(f -> !f.toString().endsWith(".md")).sorted().toList();
        }
        assertFalse(captures.isEmpty());
        for (Path capture : captures) {
            List<String> noticed = Replays.of(capture).observations().stream().filter(o -> o instanceof Observation.Ulp)
                    .map(Observation::detail).toList();
            assertEquals(List.of(), noticed, capture.toString());
        }
    }

    /**
     * The real NVMe-oF discovery (issue 19): the target ACKs an Identify Controller and never answers it,
     * then sends a DisconnectRequest; the host still sends a Keep Alive 5 s later.
     */
    @Test
    void theRealDiscoveryLeavesIdentifyUnansweredAtTeardownAndSendsKeepAliveAfterIt() throws IOException {
        ReplayResult replay = Replays.of(Replays.hard("magnate3_linux-riscv-dev_nvme-discover2.pcap"));
        List<String> noticed = replay.observations().stream().filter(o -> o instanceof Observation.Ulp)
                .map(o -> o.kind() + " " + o.detail()).toList();
        assertEquals(2, noticed.size(), noticed::toString);
        assertTrue(noticed.get(0).startsWith("ulp_unanswered_at_teardown nvme-rdma qid 0")
                && noticed.get(0).contains("Identify Controller"), noticed::toString);
        assertTrue(noticed.get(1).startsWith("ulp_command_after_teardown nvme-rdma qid 0")
                && noticed.get(1).contains("Keep Alive"), noticed::toString);
        List<String> rules = Rules.evaluate(replay.observations(), RulesConfig.defaults()).stream()
                .filter(f -> f.rule().startsWith("ULP-")).map(f -> f.rule() + " " + f.severity()).toList();
        assertEquals(List.of("ULP-UNANS-001 warning", "ULP-UNANS-002 error"), rules);
    }

    /**
     * Over iWARP the connection is torn down by TCP, not CM: the ECHO the session leaves outstanding at the
     * client's FIN (frame 22) is unanswered at teardown, and the finding names the FIN and the TCP connection.
     */
    @Test
    void anIwarpCommandOutstandingAtTheFinIsUnansweredAtTeardown() {
        ReplayResult replay = Replays.of(SmbDirectIwarpCapture.operations().frames());
        List<String> noticed = replay.observations().stream().filter(o -> o instanceof Observation.Ulp)
                .map(o -> o.frame() + " " + o.kind() + " " + o.detail()).toList();
        assertEquals(List.of("22 ulp_unanswered_at_teardown smb_direct TCP 10.0.1.1:50123/10.0.1.2:5445 id 4: "
                + "KeepAlive of frame 20 had no response when the TCP FIN in this frame, 2000.000 ms after it, tore its"
                + " connection down"), noticed);
    }
}
