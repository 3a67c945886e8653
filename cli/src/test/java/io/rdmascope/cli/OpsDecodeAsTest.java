package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code ops} on traffic only {@code -d} decodes (issue 19): a storage case with its CM frames removed
 * has no operation without the rule, and with it the same operations as the whole case — queue (both
 * QPs, learnt from the traffic), opcode, id, status, command, response and data frames (renumbered).
 * Not compared: the reason of an unanswered command (the whole case's CM DisconnectRequest made it
 * "teardown"; without CM the capture just ends) and delivery times (the copy's frames are a second
 * apart; and the ACK of a learnt queue's first command comes before its response names the host's QP,
 * docs/cli.md).
 */
class OpsDecodeAsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"ulp_nvmeof,nvme-rdma", "ulp_iser,iser", "ulp_rpcrdma,rpcordma", "ulp_smbdirect,smb_direct"})
    void opsOnDecodeAsTrafficEqualsOpsWithCm(String name, String protocol) throws Exception {
        Path whole = SharedFiles.sampleCases().resolve(name).resolve(name + ".pcapng");
        Path cut = dir.resolve(name + "_without_cm.pcap");
        List<Integer> original = ProtocolFixtures.withoutCm(whole, cut);
        Map<Long, Long> renumbered = new HashMap<>();
        for (int i = 0; i < original.size(); i++) {
            renumbered.put((long) original.get(i), (long) i + 1);
        }
        Cli plain = Cli.run("ops", "--json", cut.toString());
        assertEquals(0, plain.status(), plain.err());
        assertEquals(0, JSON.readTree(plain.out()).size(), "no operation without the rule: " + plain.out());

        Cli withCm = Cli.run("ops", "--json", whole.toString());
        Cli decoded = Cli.run("ops", "--json", "-d", "infiniband," + protocol, cut.toString());
        assertEquals(0, decoded.status(), decoded.err());
        List<Map<String, Object>> expected = new ArrayList<>();
        for (JsonNode o : JSON.readTree(withCm.out())) {
            expected.add(contract(o, renumbered));
        }
        List<Map<String, Object>> actual = new ArrayList<>();
        for (JsonNode o : JSON.readTree(decoded.out())) {
            actual.add(contract(o, null));
        }
        assertEquals(expected, actual);
    }

    /** What both runs must share, frame numbers in the copy's numbering ({@code renumbered} null: already). */
    private static Map<String, Object> contract(JsonNode o, Map<Long, Long> renumbered) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String field : List.of("protocol", "queue", "opcode", "status")) {
            m.put(field, o.get(field).asText());
        }
        m.put("id", o.get("id").asLong());
        m.put("requesterQp", o.get("requesterQp").asLong());
        m.put("responderQp", o.get("responderQp").asLong());
        m.put("commandFrame", frame(o.get("commandFrame"), renumbered));
        m.put("responseFrame", frame(o.get("responseFrame"), renumbered));
        List<Long> data = new ArrayList<>();
        o.get("dataFrames").forEach(f -> data.add(frame(f, renumbered)));
        m.put("dataFrames", data);
        return m;
    }

    private static Long frame(JsonNode f, Map<Long, Long> renumbered) {
        if (f.isNull()) {
            return null;
        }
        return renumbered == null ? f.asLong() : renumbered.get(f.asLong());
    }
}
