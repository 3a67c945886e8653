package io.rdmascope.cli.reports;

import io.rdmascope.rules.Expectations;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.Severity;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code check --report junit}: JUnit XML as CI servers read it (Jenkins, GitLab, Azure DevOps,
 * GitHub test-reporter actions): a {@code testsuites} root, one {@code testsuite} per capture named
 * by its path, one {@code testcase} per enabled rule (classname {@code rdmascope.rules}) that fails
 * when the rule has findings at or above {@code --fail-on}, and one per expectation (classname
 * {@code rdmascope.expectations}). Findings below the threshold do not fail their test case; they
 * are listed in its {@code system-out}. A capture cut short by damage gets a test case
 * {@code rdmascope.capture / read} with an {@code error}.
 *
 * <p>A union of several vantage points ({@code check --union}, issue 20) is one suite named by its inputs, with
 * a property per point ({@code vantage point NAME}: its capture's path); findings name their frames as every
 * point's own frames ("requester:20=switch:18"), as the text report does.
 *
 * <p>Deterministic: every {@code time} is 0, and there is no {@code timestamp} or {@code hostname}
 * (both optional in the format).
 */
public final class JunitReport implements Report {
    private static final String RULES = "rdmascope.rules";
    private static final String EXPECTATIONS = "rdmascope.expectations";
    private static final String CAPTURE = "rdmascope.capture";

    /** One test case, rendered. */
    private record Case(String classname, String name, String failureMessage, String failureType, String body,
                        boolean error, String systemOut) {
        boolean failed() {
            return failureMessage != null && !error;
        }
    }

    @Override
    public void write(CheckRun run, OutputStream out) throws IOException {
        List<List<Case>> suites = new ArrayList<>();
        int tests = 0;
        int failures = 0;
        int errors = 0;
        for (CaptureCheck c : run.captures()) {
            List<Case> cases = cases(c, run);
            suites.add(cases);
            tests += cases.size();
            failures += (int) cases.stream().filter(Case::failed).count();
            errors += (int) cases.stream().filter(Case::error).count();
        }
        StringBuilder sb = new StringBuilder(8192);
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<testsuites name=\"rdmascope check\" tests=\"").append(tests).append("\" failures=\"")
                .append(failures).append("\" errors=\"").append(errors).append("\" time=\"0\">\n");
        for (int i = 0; i < suites.size(); i++) {
            suite(sb, run.captures().get(i), suites.get(i), run);
        }
        sb.append("</testsuites>\n");
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static List<Case> cases(CaptureCheck c, CheckRun run) {
        Map<String, List<Finding>> byRule = new LinkedHashMap<>();
        for (Finding f : c.findings()) {
            byRule.computeIfAbsent(f.rule(), r -> new ArrayList<>()).add(f);
        }
        List<Case> cases = new ArrayList<>();
        if (c.readError() != null) {
            cases.add(new Case(CAPTURE, "read", c.readError(), "CaptureFormatException", c.readError(), true, null));
        }
        for (CheckRun.EnabledRule er : run.enabledRules()) {
            Rule rule = er.rule();
            String name = rule.id() + " " + rule.summary();
            List<Finding> findings = byRule.getOrDefault(rule.id(), List.of());
            if (findings.isEmpty()) {
                cases.add(new Case(RULES, name, null, null, null, false, null));
                continue;
            }
            Severity severity = Severity.parse(findings.get(0).severity());
            String listing = listing(findings, c);
            if (findings.stream().anyMatch(f -> c.fails(f, run.failOn()))) {
                String message = findings.size() + " " + severity.id() + " finding" + (findings.size() == 1 ? "" : "s")
                        + ": " + TextReport.frames(findings, c::frameText) + "; " + TextReport.conversations(findings);
                cases.add(new Case(RULES, name, message, severity.id(), listing, false, null));
            } else {
                cases.add(new Case(RULES, name, null, null, null, false, findings.size() + " " + severity.id()
                        + " finding" + (findings.size() == 1 ? "" : "s") + " below --fail-on " + run.failOn().id()
                        + ":\n" + listing));
            }
        }
        for (Expectations.Result r : c.expectations()) {
            cases.add(r.passed() ? new Case(EXPECTATIONS, r.name(), null, null, null, false, r.detail())
                    : new Case(EXPECTATIONS, r.name(), r.detail(), "expectation", r.detail(), false, null));
        }
        return cases;
    }

    /** One line per finding: where it is and what the engine saw (every finding, unlike the message). */
    private static String listing(List<Finding> findings, CaptureCheck c) {
        StringBuilder sb = new StringBuilder();
        for (Finding f : findings) {
            sb.append(f.frames().isEmpty() ? "no frame" : "frame " + c.frameText(f.frames().get(0)))
                    .append(f.conversation() == null ? "" : ", conversation " + f.conversation())
                    .append(": ").append(f.detail()).append('\n');
        }
        return sb.toString();
    }

    private static void suite(StringBuilder sb, CaptureCheck c, List<Case> cases, CheckRun run) {
        long failures = cases.stream().filter(Case::failed).count();
        long errors = cases.stream().filter(Case::error).count();
        sb.append("  <testsuite name=\"").append(Xml.attr(c.capture())).append("\" tests=\"").append(cases.size())
                .append("\" failures=\"").append(failures).append("\" errors=\"").append(errors)
                .append("\" skipped=\"0\" time=\"0\">\n");
        sb.append("    <properties>\n");
        property(sb, "capture", c.capture());
        c.pointFiles().forEach((point, file) -> property(sb, "vantage point " + point, file));
        property(sb, "fail-on", run.failOn().id());
        property(sb, "verdict", CheckRun.verdict(c.passed(run.failOn())));
        property(sb, "rdmascope.version", run.toolVersion());
        sb.append("    </properties>\n");
        for (Case k : cases) {
            sb.append("    <testcase classname=\"").append(k.classname()).append("\" name=\"")
                    .append(Xml.attr(k.name())).append("\" time=\"0\"");
            if (k.failureMessage() == null && k.systemOut() == null) {
                sb.append("/>\n");
                continue;
            }
            sb.append(">\n");
            if (k.failureMessage() != null) {
                String element = k.error() ? "error" : "failure";
                sb.append("      <").append(element).append(" message=\"").append(Xml.attr(k.failureMessage()))
                        .append("\" type=\"").append(Xml.attr(k.failureType())).append("\">")
                        .append(Xml.text(k.body())).append("</").append(element).append(">\n");
            }
            if (k.systemOut() != null) {
                sb.append("      <system-out>").append(Xml.text(k.systemOut())).append("</system-out>\n");
            }
            sb.append("    </testcase>\n");
        }
        sb.append("  </testsuite>\n");
    }

    private static void property(StringBuilder sb, String name, String value) {
        sb.append("      <property name=\"").append(Xml.attr(name)).append("\" value=\"").append(Xml.attr(value))
                .append("\"/>\n");
    }
}
