package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmascope ops} on the real NVMe-oF discovery (captures-hard) and on captures without storage traffic. */
class OpsCommandTest {
    private static final String DISCOVERY = "magnate3_linux-riscv-dev_nvme-discover2.pcap";
    private static final List<String> CONTRACT = List.of("protocol", "queue", "requesterQp", "responderQp", "opcode",
            "description", "id", "size", "status", "reason", "statusCode", "commandFrame", "responseFrame", "dataFrames", "teardownFrame",
            "teardownAfterNs", "latencyNs", "deliveryNs", "dataNs", "completionNs", "teardownBy");

    private static JsonNode json(Path file) throws Exception {
        Cli cli = Cli.run("ops", "--json", file.toString());
        assertEquals(0, cli.status(), cli.err());
        return new ObjectMapper().readTree(cli.out());
    }

    /**
     * The failure, explained: the target ACKs the Identify Controller (frame 27) and never answers
     * it, disconnects 29 ms later (frame 28), and the host's Keep Alive comes 5 s after that.
     */
    @Test
    void theRealDiscoveryShowsTheUnansweredIdentifyAndTheKeepAliveAfterTeardown() throws Exception {
        JsonNode ops = json(SharedFiles.hardCapture(DISCOVERY));
        assertEquals(7, ops.size());
        List<String> fields = new ArrayList<>();
        ops.get(0).fieldNames().forEachRemaining(fields::add);
        assertEquals(CONTRACT, fields);

        JsonNode connect = ops.get(0);
        assertEquals("Connect", connect.get("opcode").asText());
        assertEquals("[6,7]", connect.get("dataFrames").toString()); // the controller's RDMA READ of the Connect data
        assertEquals(1024, connect.get("size").asLong());

        JsonNode identify = ops.get(5);
        assertEquals(List.of("Identify", "Identify Controller", "unanswered", "teardown"),
                List.of(identify.get("opcode").asText(), identify.get("description").asText(),
                        identify.get("status").asText(), identify.get("reason").asText()));
        assertEquals(26, identify.get("commandFrame").asLong());
        assertTrue(identify.get("responseFrame").isNull());
        assertTrue(identify.get("latencyNs").isNull());
        assertEquals(0, identify.get("deliveryNs").asLong()); // the ACK in frame 27, in the same microsecond
        assertEquals(28, identify.get("teardownFrame").asLong());
        assertEquals(29_087_000, identify.get("teardownAfterNs").asLong());
        assertEquals("DREQ", identify.get("teardownBy").asText());

        JsonNode keepAlive = ops.get(6);
        assertEquals(List.of("Keep Alive", "unanswered", "after_teardown"), List.of(keepAlive.get("opcode").asText(),
                keepAlive.get("status").asText(), keepAlive.get("reason").asText()));
        assertEquals(29, keepAlive.get("commandFrame").asLong());
        assertEquals(-5_076_030_000L, keepAlive.get("teardownAfterNs").asLong());
        assertEquals(1_000, keepAlive.get("deliveryNs").asLong()); // acknowledged in frame 30 all the same

        String text = Cli.run("ops", SharedFiles.hardCapture(DISCOVERY).toString()).out();
        assertTrue(text.contains("unanswered: teardown (DREQ frame 28, 29.087 ms later)"), text);
        assertTrue(text.contains("unanswered: after_teardown (DREQ frame 28, 5076.030 ms earlier)"), text);
    }

    /**
     * Every command matched to its response and data frames exactly as tshark's {@code nvme.cmd_pkt} and
     * {@code nvme.fabrics.cmd_pkt} link them: on a response (it has a CQE CID) the command it answers, on
     * a data transfer the command it serves.
     */
    @Test
    void commandsResponsesAndDataAreLinkedAsTsharkLinksThem() throws Exception {
        Path file = SharedFiles.hardCapture(DISCOVERY);
        Tshark.assumeInstalled();
        Map<Long, Long> tsharkResponses = new TreeMap<>();
        Map<Long, List<Long>> tsharkData = new TreeMap<>();
        for (String line : Tshark.fields(file, "frame.number", "nvme.cmd_pkt", "nvme.fabrics.cmd_pkt", "nvme.cqe.cid")) {
            String[] f = line.split("\t", -1);
            String command = !f[1].isEmpty() ? f[1] : f[2];
            if (command.isEmpty()) {
                continue;
            }
            long frame = Long.parseLong(f[0]);
            if (!f[3].isEmpty()) {
                tsharkResponses.put(frame, Long.parseLong(command));
            } else {
                tsharkData.computeIfAbsent(Long.parseLong(command), k -> new ArrayList<>()).add(frame);
            }
        }
        assertTrue(tsharkResponses.size() >= 5, "tshark linked too few responses to compare: " + tsharkResponses);
        Map<Long, Long> ours = new TreeMap<>();
        Map<Long, List<Long>> ourData = new TreeMap<>();
        for (JsonNode op : json(file)) {
            if (!op.get("responseFrame").isNull()) {
                ours.put(op.get("responseFrame").asLong(), op.get("commandFrame").asLong());
            }
            List<Long> data = new ArrayList<>();
            op.get("dataFrames").forEach(n -> data.add(n.asLong()));
            if (!data.isEmpty()) {
                ourData.put(op.get("commandFrame").asLong(), data);
            }
        }
        assertEquals(tsharkResponses, ours);
        assertEquals(tsharkData, ourData);
    }

    /** The rdmascope.op.* display-filter fields answer from the same tracking as ops. */
    @Test
    void opFieldsFilterAndPrint() {
        String file = SharedFiles.hardCapture(DISCOVERY).toString();
        Cli unanswered = Cli.run("dissect", file, "-T", "fields", "-e", "frame.number", "-e", "rdmascope.op.opcode",
                "-e", "rdmascope.op.reason", "-Y", "rdmascope.op.status == \"unanswered\"");
        assertEquals(0, unanswered.status(), unanswered.err());
        assertEquals("26\tIdentify\tteardown\n29\tKeep Alive\tafter_teardown\n", unanswered.out());
        Cli slow = Cli.run("dissect", file, "-T", "fields", "-e", "frame.number", "-e", "rdmascope.op.latency",
                "-e", "rdmascope.op.command_frame", "-e", "rdmascope.op.response_frame", "-Y",
                "rdmascope.op.latency > 0.0001 && rdmascope.op.opcode == \"Connect\"");
        assertEquals("4\t0.000198000\t4\t8\n6\t0.000198000\t4\t8\n7\t0.000198000\t4\t8\n8\t0.000198000\t4\t8\n",
                slow.out()); // the command, its data (RDMA READ request and response) and its response
    }

    @Test
    void aCaptureWithoutStorageTrafficHasNoOperations() throws Exception {
        Path file = SharedFiles.sampleCases().resolve("rc_loss_nak/rc_loss_nak.pcapng");
        assertEquals(0, json(file).size());
        Cli text = Cli.run("ops", file.toString());
        assertEquals(0, text.status());
        assertEquals(1, text.out().lines().count(), text.out()); // the header alone
    }

    @Test
    void severalCapturesAreAUsageError() {
        Path file = SharedFiles.sampleCases().resolve("rc_loss_nak/rc_loss_nak.pcapng");
        Cli cli = Cli.run("ops", file.toString(), file.toString());
        assertEquals(Main.EXIT_BAD_INPUT, cli.status());
        assertEquals(1, cli.err().lines().count(), cli.err());
    }
}
