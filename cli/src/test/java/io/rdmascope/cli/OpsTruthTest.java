package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code ops --json} against the generated storage cases' truth (issue 19, items 6 and 8): the truth's
 * operations are written by the scenario scripts from what they sent, never from a decoder, so every
 * field the contract shares with them (docs/cli.md "ops") must be equal, operation by operation.
 * The cases plant the hard parts: an id reused while its first command is outstanding (both answered,
 * each with its own data), an RPC NULL (void result), SMB2 READ/WRITE over RDMA channels.
 */
class OpsTruthTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"ulp_nvmeof", "ulp_iser", "ulp_rpcrdma", "ulp_smbdirect"})
    void opsEqualsTheScenarioTruth(String name) throws Exception {
        Path dir = SharedFiles.sampleCases().resolve(name);
        JsonNode truth = JSON.readTree(dir.resolve("truth.json").toFile());
        Map<String, List<Long>> queuePairs = new HashMap<>();
        for (JsonNode c : truth.get("conversations")) {
            queuePairs.put(c.get("id").asText(), List.of(c.get("requester").get("qpn").asLong(),
                    c.get("responder").get("qpn").asLong()));
        }
        List<Map<String, Object>> expected = new ArrayList<>();
        for (JsonNode t : truth.get("operations")) {
            expected.add(contract(t, queuePairs.get(t.get("queue").asText())));
        }
        Cli ops = Cli.run("ops", "--json", dir.resolve(name + ".pcapng").toString());
        assertEquals(0, ops.status(), ops.err());
        List<Map<String, Object>> actual = new ArrayList<>();
        for (JsonNode o : JSON.readTree(ops.out())) {
            actual.add(contract(o, List.of(o.get("requesterQp").asLong(), o.get("responderQp").asLong())));
        }
        assertEquals(expected, actual);
    }

    /** The fields both sides carry; the queue as its connection's two QPs (the truth names it by connection id). */
    private static Map<String, Object> contract(JsonNode o, List<Long> queue) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("protocol", o.get("protocol").asText());
        m.put("queue", queue);
        m.put("opcode", o.get("opcode").asText());
        m.put("id", o.get("id").asLong());
        m.put("status", o.get("status").asText());
        m.put("reason", o.get("reason").isNull() ? null : o.get("reason").asText());
        m.put("commandFrame", o.get("commandFrame").asLong());
        m.put("responseFrame", o.get("responseFrame").isNull() ? null : o.get("responseFrame").asLong());
        List<Long> data = new ArrayList<>();
        o.get("dataFrames").forEach(f -> data.add(f.asLong()));
        m.put("dataFrames", data);
        return m;
    }
}
