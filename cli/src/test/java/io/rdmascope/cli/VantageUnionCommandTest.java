package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongPredicate;

import static io.rdmascope.cli.CliHabitsTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20, item 5: the replay verbs given several vantage points' captures replay their union once.
 * The second point is written from a committed case with its clock 3 s ahead, so that everything but the
 * vantage annotations must equal the one capture's output.
 */
class VantageUnionCommandTest {
    private static final long THETA = 3_000_000_007L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** {@code capture}'s frames {@code keep} keeps, stamped {@code shift} later, as a pcapng of their own. */
    private Path view(String capture, String name, long shift, LongPredicate keep) throws IOException {
        Path out = dir.resolve(name + ".pcapng");
        try (PacketSource in = CaptureFiles.open(Path.of(capture));
             PcapngWriter w = PcapngWriter.create(out, "test", "test", "test")) {
            int iface = -1;
            for (Frame f; (f = in.next()) != null; ) {
                if (iface < 0) {
                    iface = w.addInterface(f.linkType(), 0, name, null, null, 9);
                }
                if (keep.test(f.number())) {
                    w.write(iface, f.timeNanos() + shift, f.slice(), f.wireLength());
                }
            }
        }
        return out;
    }

    /** The JSON without the multi-file additions: every "sightings" member and the top "vantage". */
    private static JsonNode withoutVantage(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove("sightings");
            o.remove("vantage");
            o.elements().forEachRemaining(VantageUnionCommandTest::withoutVantage);
        } else if (node instanceof ArrayNode a) {
            a.elements().forEachRemaining(VantageUnionCommandTest::withoutVantage);
        }
        return node;
    }

    @Test
    void messagesOfTheUnionAreTheCapturesAndNameBothPointsFrames() throws Exception {
        String capture = sample("rc_loss_nak");
        Path shifted = view(capture, "mirror", THETA, f -> true);
        Cli one = Cli.run("messages", "--json", capture);
        Cli union = Cli.run("messages", "--json", "host=" + capture, shifted.toString());
        assertEquals(0, union.status(), union.err());
        JsonNode u = JSON.readTree(union.out());
        assertEquals("[\"host:3\",\"mirror:3\"]", u.get(1).get("sightings").get("frames").get(0).toString());
        assertEquals(JSON.readTree(one.out()), withoutVantage(u));
        // The text table names the first point's frame.
        Cli text = Cli.run("messages", "host=" + capture, shifted.toString());
        assertTrue(text.out().contains("host:3"), text.out());
    }

    @Test
    void checkUnionFindingsAreTheCapturesWithTheirSightings() throws Exception {
        String capture = sample("rc_loss_nak");
        Path shifted = view(capture, "mirror", THETA, f -> true);
        Cli one = Cli.run("check", "--report", "json", capture);
        Cli union = Cli.run("check", "--union", "--report", "json", "host=" + capture, shifted.toString());
        assertEquals(one.status(), union.status(), union.err());
        JsonNode u = JSON.readTree(union.out());
        JsonNode first = u.get("findings").get(0);
        assertEquals("[[\"host:" + first.get("frames").get(0).asLong() + "\",\"mirror:"
                + first.get("frames").get(0).asLong() + "\"]]", first.get("sightings").toString());
        assertEquals(JSON.readTree(one.out()), withoutVantage(u));
        // Without --union several captures are still checked one by one.
        Cli apart = Cli.run("check", "--report", "json", capture, shifted.toString());
        assertEquals(2, JSON.readTree(apart.out()).get("captures").size(), apart.out());
        Cli text = Cli.run("check", "--union", "host=" + capture, shifted.toString());
        assertTrue(text.out().contains("host:5=mirror:5"), text.out());
    }

    /** The three points of the committed run vantage_rc as NAME=FILE arguments after {@code before}. */
    private static String[] vantageRc(String... before) {
        Path cases = Path.of(sample("rc_loss_nak")).getParent().getParent().resolve("vantage_rc");
        String[] out = java.util.Arrays.copyOf(before, before.length + 3);
        int i = before.length;
        for (String point : new String[] {"requester", "switch", "responder"}) {
            out[i++] = point + "=" + cases.resolve(point + ".pcapng");
        }
        return out;
    }

    private static String file(String point) {
        return Path.of(sample("rc_loss_nak")).getParent().getParent().resolve("vantage_rc").resolve(point + ".pcapng")
                .toString();
    }

    @Test
    void sarifOfAUnionLocatesEachFindingInEveryPointsOwnCapture() throws Exception {
        Cli run = Cli.run(vantageRc("check", "--union", "--report", "sarif"));
        assertEquals(0, run.status(), run.err());
        JsonNode log = JSON.readTree(run.out());
        assertEquals(List.of(), SarifValidator.validate(log, false), "SARIF 2.1.0's definitions");
        JsonNode results = log.get("runs").get(0).get("results");
        JsonNode atomicAck = null;
        JsonNode lostRequest = null;
        for (JsonNode r : results) {
            String sightings = r.get("properties").get("sightings").get(0).toString();
            if (r.get("ruleId").asText().equals("IB-VP-LOSS-001") && sightings.equals("[\"switch:45\",\"responder:44\"]")) {
                atomicAck = r;
            }
            if (r.get("ruleId").asText().equals("IB-RC-PSN-001") && sightings.equals("[\"requester:20\"]")) {
                lostRequest = r;
            }
        }
        assertTrue(atomicAck != null && lostRequest != null, results.toString());
        // seen at two points: a location in each one's own file at its own frame number
        JsonNode locations = atomicAck.get("locations");
        assertEquals(2, locations.size(), locations.toString());
        assertEquals(file("switch"), locations.get(0).at("/physicalLocation/artifactLocation/uri").asText());
        assertEquals(45, locations.get(0).at("/physicalLocation/region/startLine").asInt());
        assertEquals(file("responder"), locations.get(1).at("/physicalLocation/artifactLocation/uri").asText());
        assertEquals(44, locations.get(1).at("/physicalLocation/region/startLine").asInt());
        assertEquals("conversation 1", locations.get(0).at("/logicalLocations/0/name").asText());
        assertTrue(atomicAck.at("/message/text").asText().contains("frame switch:45=responder:44"),
                atomicAck.at("/message/text").asText());
        // the union frame stays in properties.frames
        long unionFrame = atomicAck.at("/properties/frames/0").asLong();
        assertTrue(unionFrame > 0);
        assertEquals(1, lostRequest.get("locations").size());
        assertEquals(file("requester"),
                lostRequest.at("/locations/0/physicalLocation/artifactLocation/uri").asText());
        assertEquals(20, lostRequest.at("/locations/0/physicalLocation/region/startLine").asInt());
    }

    @Test
    void junitOfAUnionNamesThePointsAndTheirFrames() throws Exception {
        Cli run = Cli.run(vantageRc("check", "--union", "--report", "junit", "--fail-on", "warning"));
        String xml = run.out();
        assertTrue(xml.contains("<property name=\"vantage point requester\" value=\"" + file("requester") + "\"/>"), xml);
        assertTrue(xml.contains("<property name=\"vantage point responder\" value=\"" + file("responder") + "\"/>"), xml);
        int vp = xml.indexOf("name=\"IB-VP-LOSS-001");
        assertTrue(vp > 0, xml);
        String testcase = xml.substring(vp, xml.indexOf("</testcase>", vp));
        assertTrue(testcase.contains("frames responder:40, switch:45=responder:44"), testcase);
        assertTrue(testcase.contains("frame responder:40, conversation 2: "), testcase);
        assertTrue(testcase.contains("frame switch:45=responder:44, conversation 1: "), testcase);
    }

    @Test
    void summaryFlowsAndExplainReplayTheUnionOnce() throws Exception {
        String capture = sample("rc_loss_nak");
        Path shifted = view(capture, "mirror", THETA, f -> true);
        String[] both = {"host=" + capture, shifted.toString()};
        JsonNode summary = JSON.readTree(Cli.run("summary", "--json", both[0], both[1]).out());
        JsonNode single = JSON.readTree(Cli.run("summary", "--json", capture).out());
        assertEquals(single.get("conversations"), summary.get("conversations"));
        assertEquals(single.get("findings"), summary.get("findings"));
        assertEquals(single.get("capture").get("frames"), summary.get("capture").get("frames"));
        assertEquals(THETA, summary.get("vantage").get("vantagePoints").get(1).get("offsetToFirstNs").asLong());
        assertEquals("host + mirror", summary.get("capture").get("file").asText());
        assertEquals(Cli.run("flows", "--json", capture).out(), Cli.run("flows", "--json", both[0], both[1]).out());
        JsonNode explain = JSON.readTree(Cli.run("explain", "--json", both[0], both[1]).out());
        assertEquals("[\"host:5\",\"mirror:5\"]", explain.get("conversations").get(0).get("sightings").get("5").toString());
        JsonNode explainOne = JSON.readTree(Cli.run("explain", "--json", capture).out());
        ((ObjectNode) explain).put("capture", explainOne.get("capture").asText());
        assertEquals(explainOne, withoutVantage(explain));
    }

    @Test
    void complementaryLossesCompleteWhatEachPointMissed() throws Exception {
        String capture = sample("rc_write");
        Path host = view(capture, "host", 0, f -> f % 4 != 0);
        Path mirror = view(capture, "mirror", THETA, f -> f % 4 != 2);
        JsonNode union = withoutVantage(JSON.readTree(Cli.run("messages", "--json", host.toString(), mirror.toString()).out()));
        assertEquals(JSON.readTree(Cli.run("messages", "--json", capture).out()), union);
        assertTrue(!JSON.readTree(Cli.run("messages", "--json", host.toString()).out()).equals(union), "host alone differs");
    }

    @Test
    void usageErrors() {
        String capture = sample("rc_read");
        Cli analysis = Cli.run("messages", "-Y", "rdmascope.analysis.retransmission", "a=" + capture, "b=" + capture);
        assertEquals(2, analysis.status());
        assertTrue(analysis.err().contains("one capture"), analysis.err());
        Cli unnamed = Cli.run("flows", capture, capture);
        assertEquals(2, unnamed.status());
        assertTrue(unnamed.err().contains("NAME=FILE"), unnamed.err());
        Cli lonely = Cli.run("check", "--union", capture);
        assertEquals(2, lonely.status());
        assertTrue(lonely.err().contains("two captures or more"), lonely.err());
    }
}
