package io.rdmascope.cli.reports;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.rules.Expectations;
import io.rdmascope.rules.Finding;

import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code check --report json}, the stable contract (docs/ci.md):
 * <pre>{@code
 * {"findings": [{"rule", "severity", "summary", "reference", "frames", "conversation", "detail"}, ...],
 *  "expectations": [{"name", "passed", "detail"}, ...],
 *  "counts": {"error", "warning", "note"},
 *  "verdict": "pass" | "fail"}
 * }</pre>
 * With several captures: {@code {"captures": [{"capture": PATH, <the object above>}, ...], "counts":
 * totals, "verdict": overall}}, so one capture's object is the same either way but for its
 * {@code "capture"} member.
 */
public final class JsonReport implements Report {

    @Override
    public void write(CheckRun run, OutputStream out) throws IOException {
        if (run.captures().size() == 1) {
            Json.write(out, capture(run.captures().get(0), run, false));
            return;
        }
        ObjectNode root = Json.object();
        ArrayNode captures = root.putArray("captures");
        for (CaptureCheck c : run.captures()) {
            captures.add(capture(c, run, true));
        }
        root.set("counts", Json.counts(run.totals()));
        root.put("verdict", CheckRun.verdict(run.passed()));
        Json.write(out, root);
    }

    private static ObjectNode capture(CaptureCheck c, CheckRun run, boolean named) {
        ObjectNode o = Json.object();
        if (named) {
            o.put("capture", c.capture());
        }
        ArrayNode findings = o.putArray("findings");
        for (Finding f : c.findings()) {
            ObjectNode one = finding(f);
            findings.add(one);
            if (c.sightings() != null) {
                ArrayNode sightings = one.putArray("sightings"); // issue 20: one array per frame, "NAME:frame"s
                for (long frame : f.frames()) {
                    ArrayNode seen = sightings.addArray();
                    c.sightingsOf(frame).forEach(s -> seen.add(s.text()));
                }
            }
        }
        ArrayNode expectations = o.putArray("expectations");
        for (Expectations.Result r : c.expectations()) {
            ObjectNode e = expectations.addObject();
            e.put("name", r.name());
            e.put("passed", r.passed());
            e.put("detail", r.detail());
        }
        o.set("counts", Json.counts(c.counts()));
        o.put("verdict", CheckRun.verdict(c.passed(run.failOn())));
        return o;
    }

    static ObjectNode finding(Finding f) {
        ObjectNode o = Json.object();
        o.put("rule", f.rule());
        o.put("severity", f.severity());
        o.put("summary", f.summary());
        o.put("reference", f.reference());
        ArrayNode frames = o.putArray("frames");
        f.frames().forEach(frames::add);
        o.put("conversation", f.conversation());
        o.put("detail", f.detail());
        o.put("rootCause", f.rootCause());
        if (f.causedBy() != null) {
            o.put("causedBy", f.causedBy());
        }
        return o;
    }
}
