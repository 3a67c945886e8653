package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.samples.ScenarioCatalog;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import static io.rdmascope.cli.CheckCommandTest.file;
import static io.rdmascope.cli.CheckCommandTest.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The text, JUnit XML and SARIF reports of {@code check}: their shapes, validity and what they say. */
class CheckReportFormatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    // ---- text ----

    @TestFactory
    Stream<DynamicTest> textFitsOneHundredColumnsAndStartsWithTheVerdict() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Cli r = Cli.run("check", file(s.name()), "--fail-on", "note");
            String text = r.out();
            assertTrue(text.startsWith(r.status() == 0 ? "verdict: PASS" : "verdict: FAIL"), text);
            assertTrue(text.endsWith("\n"));
            for (String line : text.split("\n")) {
                assertTrue(line.length() <= 100, "over 100 columns: " + line);
                assertFalse(line.endsWith(" "), "trailing space: '" + line + "'");
            }
        }));
    }

    @Test
    void textGroupsFindingsByRuleMostSevereFirstWithFramesAndConversations() {
        String text = Cli.run("check", file("rc_retry_exhausted")).out();
        List<String> lines = List.of(text.split("\n"));
        assertEquals("verdict: FAIL (fails on error)", lines.get(0));
        assertTrue(lines.get(2).startsWith("== ") && lines.get(2).endsWith(": FAIL"), lines.get(2));
        assertEquals("findings: 2 errors, 11 warnings, 0 notes", lines.get(3));
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("rule ")).findFirst().orElseThrow());
        assertTrue(lines.get(header).matches("rule\\s+severity\\s+count\\s+summary"), lines.get(header));
        assertTrue(lines.get(header + 1).matches("IB-RC-RNR-002\\s+error\\s+1\\s+RNR retries exhausted"),
                lines.get(header + 1));
        assertEquals("    frame 8; conversation 1", lines.get(header + 2));
        assertTrue(lines.get(header + 3).startsWith("IB-RC-TIMEOUT-002"), lines.get(header + 3));
        int retransmissions = lines.indexOf(lines.stream().filter(l -> l.startsWith("IB-RC-PSN-003")).findFirst()
                .orElseThrow());
        assertTrue(lines.get(retransmissions).matches("IB-RC-PSN-003\\s+warning\\s+5\\s+Retransmission"),
                lines.get(retransmissions));
        assertEquals("    frames 6, 8, 16, 17, 18; conversations 1, 2", lines.get(retransmissions + 1));
    }

    @Test
    void textListsExpectationsAndWrapsLongNames(@TempDir Path dir) throws IOException {
        String longName = "a very long expectation name ".repeat(8).strip();
        Path expect = Files.writeString(dir.resolve("long.yaml"), "expectations:\n  - name: " + longName
                + "\n    rule: IB-RC-PSN-003\n    max: 0\n");
        String text = Cli.run("check", file("rc_loss_nak"), "--expect", expect.toString()).out();
        assertTrue(text.contains("\nexpectations: 0 passed, 1 failed\nFAIL  a very long"), text);
        for (String line : text.split("\n")) {
            assertTrue(line.length() <= 100, line);
        }
        String noExpect = Cli.run("check", file("rc_send")).out();
        assertFalse(noExpect.contains("expectations"), noExpect);
        assertTrue(noExpect.contains("findings: 0 errors, 0 warnings, 0 notes"), noExpect);
    }

    @Test
    void textForSeveralCapturesCountsTheFailedOnes() {
        String text = Cli.run("check", file("rc_send"), file("violation_bad_icrc"), file("rc_read")).out();
        assertTrue(text.startsWith("verdict: FAIL (fails on error; 1 of 3 captures failed)\n"), text);
        assertEquals(3, text.split("\n== ", -1).length - 1, text);
    }

    // ---- JUnit XML ----

    private static Schema junitSchema() throws SAXException {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        return factory.newSchema(new StreamSource(Path.of(resource("junit/junit-report.xsd")).toFile()));
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static void validate(Schema schema, String xml) throws IOException {
        try {
            schema.newValidator().validate(new StreamSource(new StringReader(xml)));
        } catch (SAXException e) {
            fail("JUnit XML does not validate: " + e.getMessage() + "\n" + xml);
        }
    }

    @TestFactory
    Stream<DynamicTest> junitValidatesAgainstTheSchemaForEveryScenario() throws SAXException {
        Schema schema = junitSchema();
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Cli r = Cli.run("check", "--report", "junit", file(s.name()), "--fail-on", "warning");
            validate(schema, r.out());
            Document doc = parse(r.out());
            Element suites = doc.getDocumentElement();
            assertEquals("testsuites", suites.getTagName());
            Element suite = (Element) suites.getElementsByTagName("testsuite").item(0);
            NodeList cases = suite.getElementsByTagName("testcase");
            assertEquals(RuleCatalog.all().size(), cases.getLength(), "one test case per enabled rule");
            assertEquals(Integer.toString(cases.getLength()), suite.getAttribute("tests"));
            int failures = suite.getElementsByTagName("failure").getLength();
            assertEquals(Integer.toString(failures), suite.getAttribute("failures"));
            assertEquals(suites.getAttribute("failures"), suite.getAttribute("failures"));
            assertEquals(r.status() == 0, failures == 0, "a failed test case exactly when check fails");
            for (int i = 0; i < cases.getLength(); i++) {
                assertEquals("0", ((Element) cases.item(i)).getAttribute("time"));
            }
            assertFalse(r.out().contains("timestamp") || r.out().contains("hostname"), "deterministic");
        }));
    }

    @Test
    void junitFailsRuleCasesAtTheThresholdNamesFramesAndConversationsAndAddsExpectations() throws Exception {
        Cli r = Cli.run("check", "--report", "junit", file("rc_loss_nak"), file("violation_bad_icrc"), "--expect",
                resource("check/expect-loss-fail.yaml"), "--rules", resource("check/rules-icrc-off.json"));
        assertEquals(1, r.status());
        validate(junitSchema(), r.out());
        Document doc = parse(r.out());
        NodeList suites = doc.getElementsByTagName("testsuite");
        assertEquals(2, suites.getLength());
        Element loss = (Element) suites.item(0);
        assertEquals(file("rc_loss_nak"), loss.getAttribute("name"));
        int enabled = RuleCatalog.all().size() - 1;
        assertEquals(Integer.toString(enabled + 4), loss.getAttribute("tests"));
        assertEquals("4", loss.getAttribute("failures"), "warnings are below --fail-on error; 4 expectations fail");
        Element retransmission = testcase(loss, "rdmascope.rules", "IB-RC-PSN-003 Retransmission");
        assertEquals(0, retransmission.getElementsByTagName("failure").getLength());
        String below = retransmission.getElementsByTagName("system-out").item(0).getTextContent();
        assertTrue(below.startsWith("5 warning findings below --fail-on error:\nframe 8, conversation 1: "), below);
        Element expectation = testcase(loss, "rdmascope.expectations", "at most 4 retransmissions");
        Element failure = (Element) expectation.getElementsByTagName("failure").item(0);
        assertTrue(failure.getAttribute("message").contains("5 > 4"), failure.getAttribute("message"));

        Element icrc = (Element) suites.item(1);
        for (int i = 0; i < icrc.getElementsByTagName("testcase").getLength(); i++) {
            assertFalse(((Element) icrc.getElementsByTagName("testcase").item(i)).getAttribute("name")
                    .startsWith("IB-ICRC-001"), "a disabled rule has no test case");
        }

        Cli warning = Cli.run("check", "--report", "junit", file("rc_loss_nak"), "--fail-on", "warning");
        Element failing = testcase((Element) parse(warning.out()).getElementsByTagName("testsuite").item(0),
                "rdmascope.rules", "IB-RC-PSN-003 Retransmission");
        Element f = (Element) failing.getElementsByTagName("failure").item(0);
        assertEquals("5 warning findings: frames 8, 9, 10, 16, 17; conversation 1", f.getAttribute("message"));
        assertEquals("warning", f.getAttribute("type"));
        assertEquals(5, f.getTextContent().strip().split("\n").length, "one line per finding");
    }

    private static Element testcase(Element suite, String classname, String name) {
        NodeList cases = suite.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            if (c.getAttribute("classname").equals(classname) && c.getAttribute("name").equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no test case " + classname + " / " + name);
    }

    @Test
    void junitEscapesWhatXmlCannotCarryVerbatim(@TempDir Path dir) throws Exception {
        Path expect = Files.writeString(dir.resolve("odd.json"), "{\"expectations\": [{\"name\": "
                + "\"<&> \\\"quoted\\\" \\u0001 tab\\there\", \"rule\": \"IB-RC-PSN-003\", \"max\": 0}]}");
        Cli r = Cli.run("check", "--report", "junit", file("rc_loss_nak"), "--expect", expect.toString());
        validate(junitSchema(), r.out());
        Element c = testcase((Element) parse(r.out()).getElementsByTagName("testsuite").item(0),
                "rdmascope.expectations", "<&> \"quoted\" \uFFFD tab\there");
        assertNotNull(c);
    }

    // ---- SARIF ----

    private static JsonNode sarif(String... args) throws IOException {
        String[] all = new String[args.length + 3];
        all[0] = "check";
        all[1] = "--report";
        all[2] = "sarif";
        System.arraycopy(args, 0, all, 3, args.length);
        Cli r = Cli.run(all);
        assertTrue(r.status() == 0 || r.status() == 1, r.err());
        return JSON.readTree(r.out());
    }

    @TestFactory
    Stream<DynamicTest> sarifIsValidAndAcceptableToGithubForEveryScenario() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            JsonNode log = sarif(file(s.name()));
            assertEquals(List.of(), SarifValidator.validate(log, false));
            // GitHub shows only repository-relative paths; give it one.
            JsonNode relative = sarif(Path.of("").toAbsolutePath().relativize(Path.of(file(s.name()))).toString());
            assertEquals(List.of(), SarifValidator.validate(relative, true));
            JsonNode check = JSON.readTree(Cli.run("check", "--report", "json", file(s.name())).out());
            assertEquals(check.get("findings").size(), log.get("runs").get(0).get("results").size());
        }));
    }

    @Test
    void theValidatorCatchesWhatItShould() throws IOException {
        JsonNode good = sarif(file("violation_bad_icrc"));
        String text = good.toString();
        String[][] breakages = {
                {"\"version\":\"2.1.0\"", "\"version\":\"2.0.0\""},
                {"\"level\":\"error\"", "\"level\":\"fatal\""},
                {"\"startLine\":4", "\"startLine\":0"},
                {"\"ruleIndex\":0", "\"ruleIndex\":1"},
                {"\"partialFingerprints\"", "\"partialFingerprint\""},
                {"\"shortDescription\":{\"text\"", "\"shortDescription\":{\"txt\""},
                {"\"uri\":\"", "\"uri\":\"https://example.org/"}};
        for (String[] b : breakages) {
            assertTrue(text.contains(b[0]), b[0]);
            JsonNode broken = JSON.readTree(text.replace(b[0], b[1]));
            assertFalse(SarifValidator.validate(broken, true).isEmpty(), "not caught: " + b[1]);
        }
    }

    @Test
    void sarifDescribesTheRulesAndLocatesFindingsByFrameAndConversation() throws IOException {
        JsonNode log = sarif(file("rc_retry_exhausted"), "--rules-doc-uri",
                "https://example.org/rdmascope/docs/rules.md");
        assertEquals("2.1.0", log.get("version").asText());
        assertEquals("https://json.schemastore.org/sarif-2.1.0.json", log.get("$schema").asText());
        assertEquals(1, log.get("runs").size());
        JsonNode run = log.get("runs").get(0);
        JsonNode driver = run.get("tool").get("driver");
        assertEquals("rdmascope", driver.get("name").asText());
        List<Rule> catalog = RuleCatalog.all();
        assertEquals(catalog.size(), driver.get("rules").size());
        for (int i = 0; i < catalog.size(); i++) {
            Rule rule = catalog.get(i);
            JsonNode d = driver.get("rules").get(i);
            assertEquals(rule.id(), d.get("id").asText());
            assertEquals(rule.summary(), d.get("shortDescription").get("text").asText());
            assertEquals(rule.explanation(), d.get("fullDescription").get("text").asText());
            assertEquals(rule.severity().id(), d.get("defaultConfiguration").get("level").asText());
            assertEquals("https://example.org/rdmascope/docs/rules.md#" + rule.id().toLowerCase(Locale.ROOT),
                    d.get("helpUri").asText());
            assertTrue(d.get("help").get("text").asText().contains(rule.reference()));
        }
        List<String> places = new ArrayList<>();
        for (JsonNode r : run.get("results")) {
            JsonNode location = r.get("locations").get(0);
            assertEquals(file("rc_retry_exhausted"), location.get("physicalLocation").get("artifactLocation")
                    .get("uri").asText());
            JsonNode region = location.get("physicalLocation").get("region");
            assertEquals(region.get("startLine"), r.get("properties").get("frames").get(0));
            places.add(r.get("ruleId").asText() + "@" + region.get("startLine").asInt() + "/"
                    + location.get("logicalLocations").get(0).get("name").asText() + "/" + r.get("level").asText());
            assertTrue(r.get("message").get("text").asText().contains("(frame " + region.get("startLine").asInt()
                    + ", conversation "), r.get("message").toString());
            assertFalse(r.get("partialFingerprints").get("rdmascope/v1").asText().isEmpty());
        }
        assertTrue(places.contains("IB-RC-RNR-002@8/conversation 1/error"), places.toString());
        assertTrue(places.contains("IB-RC-TIMEOUT-002@18/conversation 2/error"), places.toString());
        assertEquals(places.size(), run.get("results").findValuesAsText("rdmascope/v1").stream().distinct().count(),
                "fingerprints tell results apart");
        assertTrue(run.get("invocations").get(0).get("executionSuccessful").asBoolean());
        assertFalse(run.get("invocations").get(0).has("ruleConfigurationOverrides"));
    }

    @Test
    void sarifWithoutARulesDocUriHasNoHelpUriButNamesTheDoc() throws IOException {
        JsonNode rule = sarif(file("rc_send")).get("runs").get(0).get("tool").get("driver").get("rules").get(0);
        assertFalse(rule.has("helpUri"), "SARIF wants helpUri absolute; there is no default address");
        assertTrue(rule.get("help").get("text").asText().contains("docs/rules.md#ib-icrc-001"));
    }

    @Test
    void sarifRecordsTheRulesFileAsConfigurationOverrides() throws IOException {
        JsonNode off = sarif(file("violation_bad_icrc"), "--rules", resource("check/rules-icrc-off.json"));
        JsonNode o = off.get("runs").get(0).get("invocations").get(0).get("ruleConfigurationOverrides");
        assertEquals(1, o.size());
        assertEquals("IB-ICRC-001", o.get(0).get("descriptor").get("id").asText());
        assertEquals(0, o.get(0).get("descriptor").get("index").asInt());
        assertFalse(o.get(0).get("configuration").get("enabled").asBoolean());
        assertEquals(List.of(), SarifValidator.validate(off, false));

        JsonNode raised = sarif(file("rc_loss_nak"), "--rules", resource("check/rules-retransmission-error.yaml"));
        JsonNode r = raised.get("runs").get(0).get("invocations").get(0).get("ruleConfigurationOverrides").get(0);
        assertEquals("IB-RC-PSN-003", r.get("descriptor").get("id").asText());
        assertEquals("error", r.get("configuration").get("level").asText());
        JsonNode quiet = sarif(file("rc_loss_nak"), "--rules", resource("check/rules-retransmission-threshold.json"));
        JsonNode t = quiet.get("runs").get(0).get("invocations").get(0).get("ruleConfigurationOverrides").get(0);
        assertEquals("IB-RC-PSN-003", t.get("descriptor").get("id").asText());
        assertEquals("warning", t.get("configuration").get("level").asText());
        assertEquals(10, t.get("configuration").get("parameters").get("threshold").asInt());
        assertEquals(List.of(), SarifValidator.validate(quiet, false));
        for (JsonNode result : raised.get("runs").get(0).get("results")) {
            if (result.get("ruleId").asText().equals("IB-RC-PSN-003")) {
                assertEquals("error", result.get("level").asText());
            }
        }
    }

    @Test
    void sarifUrisArePercentEncodedRelativeReferences(@TempDir Path dir) throws IOException {
        Path odd = dir.resolve("a capture #1:x.pcapng");
        Files.copy(Path.of(file("violation_bad_icrc")), odd);
        JsonNode log = sarif(odd.toString());
        String uri = log.get("runs").get(0).get("results").get(0).get("locations").get(0).get("physicalLocation")
                .get("artifactLocation").get("uri").asText();
        assertTrue(uri.endsWith("/a%20capture%20%231%3Ax.pcapng"), uri);
        assertEquals(List.of(), SarifValidator.validate(log, false));

        Path cwd = Path.of("").toAbsolutePath();
        String dotted = "./" + cwd.relativize(Path.of(file("violation_bad_icrc")));
        JsonNode relative = sarif(dotted);
        String rel = relative.get("runs").get(0).get("results").get(0).get("locations").get(0)
                .get("physicalLocation").get("artifactLocation").get("uri").asText();
        assertEquals(dotted.substring(2), rel, "a leading ./ goes: GitHub matches repository-relative paths");
    }
}
