package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.proto.smbdirect.SmbDirectCompoundCapture;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code ops} and {@code summary}'s service response times on compounded SMB2 messages over RoCE
 * ({@link SmbDirectCompoundCapture}: three chained ECHOs in one SEND, their three responses chained in
 * the next): every message of the chain is an operation, as over iWARP, and tshark pairs and times
 * each the same ({@code smb2.response_to}, {@code -z smb2,srt}).
 */
class OpsCompoundCommandTest {
    @TempDir
    static Path dir;
    private static String file;

    @BeforeAll
    static void build() throws Exception {
        file = SmbDirectCompoundCapture.write(dir).toString();
    }

    /** Each response frame to the command frames it answers, in message-id order, from {@code ops --json}. */
    private static Map<Long, List<Long>> ourPairs() throws Exception {
        Map<Long, List<Long>> pairs = new TreeMap<>();
        for (JsonNode op : new ObjectMapper().readTree(Cli.run("ops", "--json", file).out())) {
            if (!op.get("responseFrame").isNull()) {
                pairs.computeIfAbsent(op.get("responseFrame").asLong(), k -> new ArrayList<>())
                        .add(op.get("commandFrame").asLong());
            }
        }
        return pairs;
    }

    @Test
    void everyMessageOfTheChainIsAnOperation() throws Exception {
        Cli cli = Cli.run("ops", "--json", file);
        assertEquals(0, cli.status(), cli.err());
        List<String> ops = new ArrayList<>();
        for (JsonNode op : new ObjectMapper().readTree(cli.out())) {
            ops.add(op.get("opcode").asText() + " " + op.get("id").asText() + " " + op.get("commandFrame").asText()
                    + " " + op.get("responseFrame").asText() + " " + op.get("status").asText());
        }
        int request = SmbDirectCompoundCapture.REQUEST_FRAME;
        int response = SmbDirectCompoundCapture.RESPONSE_FRAME;
        assertEquals(List.of("KeepAlive 7 6 7 completed", "Write 8 11 null unanswered",
                "KeepAlive 20 " + request + " " + response + " completed",
                "KeepAlive 21 " + request + " " + response + " completed",
                "KeepAlive 22 " + request + " " + response + " completed"), ops); // by command frame, then as chained
        assertEquals(Map.of(7L, List.of(6L), (long) response, List.of((long) request, (long) request,
                (long) request)), ourPairs());
    }

    @Test
    void tsharkPairsAndTimesEachMessageOfTheChainTheSame() throws Exception {
        Path capture = Path.of(file);
        Map<Long, List<Long>> tsharkPairs = new TreeMap<>();
        for (String line : Tshark.fields(capture, List.of("-Y", "smb2.flags.response == 1"), "frame.number",
                "smb2.response_to")) {
            String[] f = line.split("\t");
            List<Long> requests = new ArrayList<>();
            for (String r : f[1].split(",")) {
                requests.add(Long.parseLong(r));
            }
            tsharkPairs.put(Long.parseLong(f[0]), requests);
        }
        assertEquals(tsharkPairs, ourPairs());

        Map<String, String> tsharkSrt = Smb2ServiceResponseTimes.tshark(file, List.of());
        Map<String, String> ourSrt = Smb2ServiceResponseTimes.ours(file);
        assertEquals(Map.of("KeepAlive", "4 1.000000 1.000000 1.000000 4.000000"), ourSrt);
        assertEquals(tsharkSrt, ourSrt);
    }
}
