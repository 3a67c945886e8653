package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapWriter;
import io.rdmascope.frame.Frame;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.samples.ScenarioCatalog;
import io.rdmascope.samples.ScenarioCatalog.Scenario;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.samples.Truth;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 5: {@code rdmascope check}: verdicts, thresholds, rules and expectation files, JSON contract, errors. */
class CheckCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Path capture(String name) {
        Scenario s = ScenarioCatalog.byName(name);
        return GoldenOutputTest.cases().resolve(name).resolve(name + "." + s.format().extension());
    }

    static String file(String name) {
        return capture(name).toString();
    }

    static String resource(String name) {
        try {
            return Path.of(CheckCommandTest.class.getResource("/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Truth truth(String name) throws IOException {
        return Scenarios.readTruth(GoldenOutputTest.cases().resolve(name).resolve(Scenarios.TRUTH_FILE));
    }

    static JsonNode json(Cli run) throws IOException {
        return JSON.readTree(run.out());
    }

    private static List<String> rules(JsonNode report) {
        List<String> ids = new ArrayList<>();
        report.get("findings").forEach(f -> ids.add(f.get("rule").asText()));
        return ids;
    }

    private static void assertOneLineError(Cli r, String expectedStart) {
        assertEquals(2, r.status(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("rdmascope: " + expectedStart), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }

    /**
     * Issue 19, item 7: the storage rules' findings take the path of every other finding: the exit code,
     * the JSON, JUnit and SARIF reports, each naming the protocol, the queue, the id and the frame.
     */
    @Test
    void storageRuleFindingsReachEveryReport() throws IOException {
        String nvme = file("ulp_nvmeof");
        Cli json = Cli.run("check", "--report", "json", nvme);
        assertEquals(1, json.status(), json.err());
        JsonNode reused = null;
        for (JsonNode f : json(json).get("findings")) {
            if (f.get("rule").asText().equals("ULP-ID-001")) {
                reused = f;
            }
        }
        assertTrue(reused != null, json.out());
        assertEquals("[60]", reused.get("frames").toString());
        assertEquals("2", reused.get("conversation").asText());
        assertTrue(reused.get("detail").asText().startsWith("nvme-rdma qid 1 QP 0x"), reused.toString());
        assertTrue(reused.get("detail").asText().contains("id 0x0020: Write reuses the id of the Read in frame 58"),
                reused.toString());
        Cli junit = Cli.run("check", "--report", "junit", nvme);
        assertEquals(1, junit.status(), junit.err());
        assertTrue(junit.out().contains("ULP-ID-001") && junit.out().contains("ULP-UNANS-001"), junit.out());
        Cli sarif = Cli.run("check", "--report", "sarif", nvme);
        assertEquals(1, sarif.status(), sarif.err());
        assertTrue(sarif.out().contains("\"ruleId\": \"ULP-DATA-001\""), sarif.out());
    }

    @TestFactory
    Stream<DynamicTest> jsonFindingsAreTheTruthsFindingsAndTheVerdictFollowsErrors() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Truth truth = truth(s.name());
            Cli r = Cli.run("check", "--report", "json", file(s.name()));
            assertEquals("", r.err());
            JsonNode report = json(r);
            List<String> expected = truth.findings().stream().map(f -> f.rule() + " " + f.severity() + " frame "
                    + (f.frame() == null ? "-" : f.frame()) + " conv " + f.conversation()).toList();
            List<String> actual = new ArrayList<>();
            long previousFrame = 0;
            for (JsonNode f : report.get("findings")) {
                JsonNode frames = f.get("frames");
                actual.add(f.get("rule").asText() + " " + f.get("severity").asText() + " frame "
                        + (frames.isEmpty() ? "-" : frames.get(0).asText()) + " conv "
                        + (f.get("conversation").isNull() ? null : f.get("conversation").asText()));
                long first = frames.isEmpty() ? Long.MAX_VALUE : frames.get(0).asLong();
                assertTrue(first >= previousFrame, "findings sorted by first frame: " + report);
                previousFrame = first;
            }
            assertEquals(expected.stream().sorted().toList(), actual.stream().sorted().toList(), s.name());

            boolean error = truth.findings().stream().anyMatch(f -> f.severity().equals("error"));
            assertEquals(error ? 1 : 0, r.status(), s.name());
            assertEquals(error ? "fail" : "pass", report.get("verdict").asText());
            for (String severity : List.of("error", "warning", "note")) {
                assertEquals(truth.findings().stream().filter(f -> f.severity().equals(severity)).count(),
                        report.get("counts").get(severity).asLong(), severity);
            }
        }));
    }

    @Test
    void theSingleCaptureJsonIsExactlyTheContract() throws IOException {
        JsonNode report = json(Cli.run("check", "--report", "json", file("rc_loss_nak"), "--expect",
                resource("check/expect-loss-pass.json")));
        assertEquals(List.of("findings", "expectations", "counts", "verdict"), keys(report));
        for (JsonNode f : report.get("findings")) {
            List<String> contract = new ArrayList<>(List.of("rule", "severity", "summary", "reference", "frames",
                    "conversation", "detail", "rootCause"));
            if (!f.get("rootCause").asBoolean()) {
                contract.add("causedBy"); // the first frame of the anomaly it follows from
            }
            assertEquals(contract, keys(f));
            assertTrue(f.get("frames").isArray());
            assertEquals(RuleCatalog.byId(f.get("rule").asText()).summary(), f.get("summary").asText());
        }
        assertEquals(5, report.get("expectations").size());
        for (JsonNode e : report.get("expectations")) {
            assertEquals(List.of("name", "passed", "detail"), keys(e));
            assertTrue(e.get("passed").isBoolean());
        }
        assertEquals(List.of("error", "warning", "note"), keys(report.get("counts")));
    }

    private static List<String> keys(JsonNode o) {
        List<String> keys = new ArrayList<>();
        o.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void severalCapturesNestOneContractObjectPerCaptureUnderCaptures() throws IOException {
        Cli r = Cli.run("check", "--report", "json", file("rc_send"), file("violation_bad_icrc"));
        assertEquals(1, r.status(), r.err());
        JsonNode report = json(r);
        assertEquals(List.of("captures", "counts", "verdict"), keys(report));
        assertEquals(2, report.get("captures").size());
        JsonNode first = report.get("captures").get(0);
        assertEquals(List.of("capture", "findings", "expectations", "counts", "verdict"), keys(first));
        assertEquals(file("rc_send"), first.get("capture").asText());
        assertEquals("pass", first.get("verdict").asText());
        assertEquals("fail", report.get("captures").get(1).get("verdict").asText());
        assertEquals("fail", report.get("verdict").asText());
        assertEquals(1, report.get("counts").get("error").asInt());
        assertEquals(3, report.get("counts").get("warning").asInt());

        // Each capture's object is the single-capture report plus its "capture" member.
        JsonNode alone = json(Cli.run("check", "--report", "json", file("violation_bad_icrc")));
        JsonNode nested = report.get("captures").get(1).deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) nested).remove("capture");
        assertEquals(alone, nested);
    }

    @TestFactory
    Stream<DynamicTest> everyRealCapturePassesWithNoErrorOrWarning() throws IOException {
        return SharedFiles.allCaptures().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            Cli r = Cli.run("check", "--report", "json", p.toString());
            assertEquals(0, r.status(), r.err() + r.out());
            JsonNode counts = json(r).get("counts");
            assertEquals(0, counts.get("error").asInt(), r.out());
            assertEquals(0, counts.get("warning").asInt(), r.out());
        }));
    }

    @Test
    void failOnSetsTheSeverityThatFails() {
        // rc_loss_nak: warnings only; capture_gap: one note; violation_bad_icrc: an error.
        String[][] cases = {
                {"rc_loss_nak", "error", "0"}, {"rc_loss_nak", "warning", "1"}, {"rc_loss_nak", "note", "1"},
                {"capture_gap", "error", "0"}, {"capture_gap", "warning", "0"}, {"capture_gap", "note", "1"},
                {"violation_bad_icrc", "error", "1"}, {"rc_send", "note", "0"}};
        for (String[] c : cases) {
            Cli r = Cli.run("check", file(c[0]), "--fail-on", c[1]);
            assertEquals(Integer.parseInt(c[2]), r.status(), String.join(" ", c) + "\n" + r.out() + r.err());
        }
        assertEquals(0, Cli.run("check", file("rc_loss_nak")).status(), "the default is error");
        assertEquals(1, Cli.run("check", file("rc_loss_nak"), "--fail-on", "WARNING").status(), "any case");
    }

    @Test
    void aRulesFileSwitchingOffTheOnlyErrorRulePassesTheCapture() throws IOException {
        assertEquals(1, Cli.run("check", file("violation_bad_icrc")).status());
        Cli r = Cli.run("check", "--report", "json", file("violation_bad_icrc"), "--rules",
                resource("check/rules-icrc-off.json"));
        assertEquals(0, r.status(), r.err());
        JsonNode report = json(r);
        assertFalse(rules(report).contains("IB-ICRC-001"), r.out());
        assertEquals(0, report.get("counts").get("error").asInt());
        assertEquals(3, report.get("counts").get("warning").asInt());
    }

    @Test
    void aRulesFileRaisingASeverityFailsTheCapture() throws IOException {
        assertEquals(0, Cli.run("check", file("rc_loss_nak")).status());
        Cli r = Cli.run("check", "--report", "json", file("rc_loss_nak"), "--rules",
                resource("check/rules-retransmission-error.yaml"));
        assertEquals(1, r.status(), r.err());
        JsonNode report = json(r);
        assertEquals(5, report.get("counts").get("error").asInt());
        for (JsonNode f : report.get("findings")) {
            assertEquals(f.get("rule").asText().equals("IB-RC-PSN-003") ? "error" : "warning",
                    f.get("severity").asText(), f.toString());
        }
    }

    @Test
    void aRulesFileThresholdQuietsARuleThatFiresLessOften() throws IOException {
        Cli r = Cli.run("check", "--report", "json", file("rc_loss_nak"), "--fail-on", "warning", "--rules",
                resource("check/rules-retransmission-threshold.json"));
        assertEquals(1, r.status(), "the other warnings still fail it");
        List<String> ids = rules(json(r));
        assertFalse(ids.contains("IB-RC-PSN-003"), ids.toString());
        assertEquals(5, ids.size(), ids.toString());
    }

    @Test
    void expectationsInJsonPassScopedToAConversationAndAQp() throws IOException {
        Cli r = Cli.run("check", "--report", "json", file("rc_loss_nak"), "--expect",
                resource("check/expect-loss-pass.json"));
        assertEquals(0, r.status(), r.out() + r.err());
        JsonNode e = json(r).get("expectations");
        assertEquals(5, e.size());
        e.forEach(x -> assertTrue(x.get("passed").asBoolean(), x.toString()));
        assertEquals("at most 5 retransmissions", e.get(0).get("name").asText());
        assertTrue(e.get(2).get("detail").asText().contains("in conversation 1"), e.get(2).toString());
        assertTrue(e.get(3).get("detail").asText().contains("4 completed"), e.get(3).toString());
    }

    @Test
    void expectationsInYamlFailAndFailTheCheckWithoutAnyErrorFinding() throws IOException {
        Cli r = Cli.run("check", "--report", "json", file("rc_loss_nak"), "--expect",
                resource("check/expect-loss-fail.yaml"));
        assertEquals(1, r.status(), r.out() + r.err());
        JsonNode report = json(r);
        assertEquals(0, report.get("counts").get("error").asInt());
        assertEquals("fail", report.get("verdict").asText());
        JsonNode e = report.get("expectations");
        assertEquals(4, e.size());
        e.forEach(x -> assertFalse(x.get("passed").asBoolean(), x.toString()));
        assertEquals("at most 4 retransmissions", e.get(0).get("name").asText());
        assertTrue(e.get(0).get("detail").asText().contains("5 > 4"), e.get(0).toString());
        assertTrue(e.get(1).get("detail").asText().contains("ratio"), e.get(1).toString());
        assertEquals("no retransmission on QP 26508", e.get(3).get("name").asText());
    }

    @Test
    void readExpectationsCoverCompletionCountsAndP99Latency() throws IOException {
        Cli pass = Cli.run("check", "--report", "json", file("rc_read"), "--expect",
                resource("check/expect-read-pass.yaml"));
        assertEquals(0, pass.status(), pass.out() + pass.err());
        json(pass).get("expectations").forEach(x -> assertTrue(x.get("passed").asBoolean(), x.toString()));

        Cli fail = Cli.run("check", "--report", "json", file("rc_read"), "--expect",
                resource("check/expect-read-fail.json"));
        assertEquals(1, fail.status());
        JsonNode e = json(fail).get("expectations");
        assertTrue(e.get(0).get("passed").asBoolean(), "every READ of rc_read completed");
        assertFalse(e.get(1).get("passed").asBoolean(), "no READ answers within a nanosecond");
        assertTrue(e.get(1).get("detail").asText().startsWith("p99 latency"), e.get(1).toString());

        Cli incomplete = Cli.run("check", "--report", "json", file("rc_incomplete"), "--expect",
                resource("check/expect-read-fail.json"));
        assertEquals(1, incomplete.status());
        assertFalse(json(incomplete).get("expectations").get(0).get("passed").asBoolean(),
                "rc_incomplete has a READ that never completed");
    }

    @Test
    void everyReportIsByteIdenticalOnASecondRun() {
        for (String format : List.of("text", "json", "junit", "sarif")) {
            String[] args = {"check", "--report", format, file("rc_retry_exhausted"), file("rc_loss_nak"),
                    "--expect", resource("check/expect-loss-fail.yaml"), "--rules",
                    resource("check/rules-retransmission-error.yaml")};
            Cli first = Cli.run(args);
            Cli second = Cli.run(args);
            assertEquals(1, first.status(), format + ": " + first.err());
            assertFalse(first.out().isEmpty(), format);
            assertEquals(first.out(), second.out(), format);
        }
    }

    @Test
    void reportsNameTheCaptureAsGivenAndNoOtherPath() throws IOException {
        Path cwd = Path.of("").toAbsolutePath();
        String relative = cwd.relativize(capture("violation_bad_icrc")).toString();
        for (String format : List.of("text", "json", "junit", "sarif")) {
            // The single-capture JSON contract names no capture; with two, each is named.
            Cli r = Cli.run("check", "--report", format, relative, relative);
            assertEquals(1, r.status(), r.err());
            assertTrue(r.out().contains(relative.replace('\\', '/')), format);
            assertFalse(r.out().contains(cwd.toString()), format + " leaks the working folder");
        }
    }

    @Test
    void outputOptionWritesTheReportToTheFileAndNothingToStdout(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report.sarif");
        Cli r = Cli.run("check", "--report", "sarif", "-o", out.toString(), file("violation_bad_icrc"));
        assertEquals(1, r.status(), r.err());
        assertEquals("", r.out());
        assertEquals("", r.err());
        assertEquals(Cli.run("check", "--report", "sarif", file("violation_bad_icrc")).out(),
                Files.readString(out));

        Cli again = Cli.run("check", "--output", out.toString(), file("rc_send"));
        assertEquals(0, again.status(), again.err());
        assertTrue(Files.readString(out).startsWith("verdict: PASS"), "overwritten with the text report");
    }

    @Test
    void icrcStrictBringsBackAnErrorPerFrameAndOffVerifiesNone() {
        String capture = file("capture_icrc_not_verifiable");
        Cli auto = Cli.run("check", capture);
        assertEquals(0, auto.status(), auto.out());
        assertTrue(auto.out().contains("IB-CAP-007"), auto.out());
        Cli strict = Cli.run("check", "--icrc", "strict", capture);
        assertEquals(1, strict.status(), strict.out());
        assertTrue(strict.out().contains("IB-ICRC-001  error        12"), strict.out());
        Cli off = Cli.run("check", "--icrc", "off", capture);
        assertEquals(0, off.status(), off.out());
        assertFalse(off.out().contains("IB-CAP-007") || off.out().contains("IB-ICRC-001"), off.out());
        for (String command : List.of("check", "messages", "flows", "summary", "dissect")) {
            assertOneLineError(Cli.run(command, capture, "--icrc", "sometimes"), "--icrc takes auto, strict or off");
        }
    }

    @Test
    void usageErrorsAreOneLineWithStatusTwo(@TempDir Path dir) throws IOException {
        String capture = file("rc_send");
        assertOneLineError(Cli.run("check", capture, "--fail-on", "fatal"), "--fail-on takes error, warning or note");
        assertOneLineError(Cli.run("check", capture, "--report", "xml"), "--report takes text, json, junit or sarif");
        assertOneLineError(Cli.run("check", "/no/such/file.pcap"), "no such file: /no/such/file.pcap");
        assertOneLineError(Cli.run("check", capture, "/no/such/second.pcap"), "no such file: /no/such/second.pcap");
        assertOneLineError(Cli.run("check", capture, "--rules", "/no/rules.json"), "no such file: /no/rules.json");
        assertOneLineError(Cli.run("check", capture, "--expect", "/no/expect.yaml"), "no such file: /no/expect.yaml");
        assertOneLineError(Cli.run("check", capture, "-o", dir.resolve("missing/out.txt").toString()), "-o: ");
        assertOneLineError(Cli.run("check", capture, "--rules-doc-uri", "docs/rules.md"), "--rules-doc-uri takes");

        Path unknownRule = write(dir, "unknown-rule.json", "{\"rules\": {\"IB-NOPE-001\": {\"enabled\": false}}}");
        assertOneLineError(Cli.run("check", capture, "--rules", unknownRule.toString()),
                unknownRule + ": unknown rule 'IB-NOPE-001'");
        Path badSeverity = write(dir, "bad-severity.yaml", "rules:\n  IB-CC-001:\n    severity: fatal\n");
        assertOneLineError(Cli.run("check", capture, "--rules", badSeverity.toString()), badSeverity + ": ");
        Path brokenJson = write(dir, "broken.json", "{\"rules\": {");
        assertOneLineError(Cli.run("check", capture, "--rules", brokenJson.toString()), brokenJson + ": line ");
        Path unknownKey = write(dir, "unknown-key.json", "{\"expectations\": [{\"rule\": \"IB-CC-001\", \"mx\": 1}]}");
        assertOneLineError(Cli.run("check", capture, "--expect", unknownKey.toString()),
                unknownKey + ": expectation 1: unknown key 'mx'");
        Path brokenYaml = write(dir, "broken.yaml", "expectations:\n  - rule: [\n");
        assertOneLineError(Cli.run("check", capture, "--expect", brokenYaml.toString()), brokenYaml + ": line ");
        Path badQp = write(dir, "bad-qp.yaml", "expectations:\n  - messages: any\n    min: 1\n    qp: zz\n");
        assertOneLineError(Cli.run("check", capture, "--expect", badQp.toString()), badQp + ": ");

        Cli noFile = Cli.run("check");
        assertEquals(2, noFile.status());
        assertTrue(noFile.err().startsWith("rdmascope: Missing required parameter: 'FILE"), noFile.err());
    }

    private static Path write(Path dir, String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /**
     * A capture cut inside its last record: the report covers the frames before the damage (the same
     * as a clean file of those frames), then one error line, exit 2 — the messages/flows behaviour.
     */
    @Test
    void aDamagedCaptureIsReportedUpToTheDamageThenStatusTwo(@TempDir Path dir) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(capture("violation_bad_icrc"))) {
            Frame f;
            while ((f = source.next()) != null) {
                frames.add(f);
            }
        }
        Path whole = dir.resolve("whole.pcap");
        Path clean = dir.resolve("clean.pcap");
        write(whole, frames);
        write(clean, frames.subList(0, frames.size() - 1));
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 10));

        Cli expected = Cli.run("check", "--report", "json", clean.toString());
        Cli damaged = Cli.run("check", "--report", "json", cut.toString());
        assertEquals(1, expected.status(), "the ICRC error is before the cut");
        assertEquals(2, damaged.status());
        assertEquals(expected.out(), damaged.out());
        assertTrue(damaged.err().startsWith("rdmascope: ") && damaged.err().contains("cut.pcap")
                && damaged.err().contains("frame " + frames.size()), damaged.err());
        assertEquals(1, damaged.err().strip().split("\n").length, damaged.err());

        Cli junit = Cli.run("check", "--report", "junit", cut.toString());
        assertEquals(2, junit.status());
        assertTrue(junit.out().contains("<testcase classname=\"rdmascope.capture\" name=\"read\" time=\"0\">")
                && junit.out().contains("<error message="), junit.out());
        Cli text = Cli.run("check", cut.toString());
        assertTrue(text.out().contains("read error (the report covers the frames before it): "), text.out());
        Cli sarif = Cli.run("check", "--report", "sarif", cut.toString());
        JsonNode invocation = JSON.readTree(sarif.out()).get("runs").get(0).get("invocations").get(0);
        assertFalse(invocation.get("executionSuccessful").asBoolean());
        assertEquals(1, invocation.get("toolExecutionNotifications").size());
    }

    private static void write(Path file, List<Frame> frames) throws IOException {
        try (PcapWriter w = PcapWriter.create(file, frames.get(0).linkType(), PcapWriter.DEFAULT_SNAPLEN, true)) {
            for (Frame f : frames) {
                w.write(f);
            }
        }
    }

    @Test
    void extraRocePortsAreAccepted() {
        Cli r = Cli.run("check", "--report", "json", file("rc_send"), "--roce-port", "4792");
        assertEquals(0, r.status(), r.err());
        assertEquals(Cli.run("check", "--report", "json", file("rc_send")).out(), r.out());
    }
}
