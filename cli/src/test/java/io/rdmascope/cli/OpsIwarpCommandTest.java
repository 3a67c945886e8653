package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.proto.smbdirect.SmbDirectIwarpCapture;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ops}, {@code summary}'s service response times and the {@code rdmascope.op.*} fields on SMB
 * Direct over iWARP ({@link SmbDirectIwarpCapture#operations()}: a READ and a WRITE whose data moves by
 * RDMA Write and Read Response, a CREATE that fails, an ECHO left unanswered at the client's FIN).
 * Every field of every operation is checked by {@code io.rdmascope.ops.IwarpOperationsTest}; this
 * checks what the verbs make of them.
 */
class OpsIwarpCommandTest {
    private static final String QUEUE = "TCP 10.0.1.1:50123/10.0.1.2:5445";
    /** tshark 4.0 gives TCP port 5445 to Apache ActiveMQ Artemis before its MPA heuristic runs (docs/tshark-parity.md). */
    private static final List<String> TSHARK_ON_5445 = List.of("--disable-protocol", "artemis");

    @TempDir
    static Path dir;
    private static String file;

    @BeforeAll
    static void build() throws Exception {
        file = SmbDirectIwarpCapture.operations().write(dir, "smb_direct_iwarp.pcap").toString();
    }

    @Test
    void jsonNamesTheTcpConnectionAndTheFin() throws Exception {
        Cli cli = Cli.run("ops", "--json", file);
        assertEquals(0, cli.status(), cli.err());
        JsonNode ops = new ObjectMapper().readTree(cli.out());
        assertEquals(4, ops.size());
        for (JsonNode op : ops) {
            assertEquals(List.of("smb_direct", QUEUE, "0", "0"), List.of(op.get("protocol").asText(),
                    op.get("queue").asText(), op.get("requesterQp").asText(), op.get("responderQp").asText()));
        }
        assertEquals("[10,11]", ops.get(0).get("dataFrames").toString());
        assertEquals("[15,16]", ops.get(1).get("dataFrames").toString());
        JsonNode echo = ops.get(3);
        assertEquals(List.of("KeepAlive", "unanswered", "teardown", "22", "FIN"), List.of(echo.get("opcode").asText(),
                echo.get("status").asText(), echo.get("reason").asText(), echo.get("teardownFrame").asText(),
                echo.get("teardownBy").asText()));
    }

    @Test
    void textShowsTheQueueAndWhatToreItDown() {
        Cli cli = Cli.run("ops", "--wide", file);
        assertEquals(0, cli.status(), cli.err());
        List<String> rows = cli.out().lines().skip(1).toList();
        assertEquals(4, rows.size(), cli.out());
        assertTrue(rows.stream().allMatch(r -> r.startsWith("smb_direct  " + QUEUE + "  ")), cli.out());
        assertTrue(rows.get(2).endsWith("failed: STATUS_OBJECT_NAME_NOT_FOUND (0xc0000034)"), rows.get(2));
        assertTrue(rows.get(3).endsWith("unanswered: teardown (FIN frame 22, 2000.000 ms later)"), rows.get(3));
    }

    @Test
    void summaryHasTheServiceResponseTimes() {
        Cli cli = Cli.run("summary", file);
        assertEquals(0, cli.status(), cli.err());
        String srt = cli.out().substring(cli.out().indexOf("Service response time"));
        List<String> rows = srt.lines().skip(2).takeWhile(l -> !l.isBlank()).toList();
        assertEquals(List.of(
                "smb_direct  Create         1       1           0  1000000.000  1000000.000  1000000.000",
                "smb_direct  KeepAlive      0       0           1            -            -            -",
                "smb_direct  Read           1       0           0  5000000.000  5000000.000  5000000.000",
                "smb_direct  Write          1       0           0  3000000.000  3000000.000  3000000.000"), rows);
    }

    @Test
    void opFieldsFilterTheCommandItsDataAndItsResponse() {
        Cli cli = Cli.run("dissect", file, "-T", "fields", "-e", "frame.number", "-e", "rdmascope.op.opcode",
                "-e", "rdmascope.op.command_frame", "-e", "rdmascope.op.delivery", "-Y", "rdmascope.op.id == 2");
        assertEquals(0, cli.status(), cli.err());
        assertEquals("14\tWrite\t14\t1.000000000\n15\tWrite\t14\t1.000000000\n16\tWrite\t14\t1.000000000\n"
                + "17\tWrite\t14\t1.000000000\n", cli.out());
    }

    /**
     * tshark pairs the same responses with the same requests ({@code smb2.response_to}) and times them
     * the same ({@code -z smb2,srt}); it leaves out the unanswered ECHO, which our table keeps with 0
     * calls (docs/cli.md, "summary's service response time").
     */
    @Test
    void tsharkPairsAndTimesTheSame() throws Exception {
        Path capture = Path.of(file);
        Map<Long, Long> tsharkPairs = new TreeMap<>();
        for (String line : Tshark.fields(capture, tsharkOptions("-Y", "smb2.flags.response == 1"),
                "frame.number", "smb2.response_to")) {
            String[] f = line.split("\t");
            tsharkPairs.put(Long.parseLong(f[0]), Long.parseLong(f[1]));
        }
        Map<Long, Long> ourPairs = new TreeMap<>();
        for (JsonNode op : new ObjectMapper().readTree(Cli.run("ops", "--json", file).out())) {
            if (!op.get("responseFrame").isNull()) {
                ourPairs.put(op.get("responseFrame").asLong(), op.get("commandFrame").asLong());
            }
        }
        assertEquals(Map.of(13L, 8L, 17L, 14L, 19L, 18L), tsharkPairs);
        assertEquals(tsharkPairs, ourPairs);

        Map<String, String> tsharkSrt = Smb2ServiceResponseTimes.tshark(file, TSHARK_ON_5445);
        Map<String, String> ourSrt = Smb2ServiceResponseTimes.ours(file);
        assertEquals(3, tsharkSrt.size(), tsharkSrt::toString);
        assertEquals(tsharkSrt, ourSrt);
    }

    private static List<String> tsharkOptions(String... more) {
        List<String> args = new java.util.ArrayList<>(TSHARK_ON_5445);
        args.addAll(List.of(more));
        return args;
    }
}
