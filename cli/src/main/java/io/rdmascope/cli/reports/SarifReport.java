package io.rdmascope.cli.reports;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.replay.VantageUnion;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rule;
import io.rdmascope.rules.RuleCatalog;
import io.rdmascope.rules.Severity;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code check --report sarif}: SARIF 2.1.0 (OASIS), shaped for GitHub code scanning.
 *
 * <p>One run; {@code tool.driver} is rdmascope with the whole rule catalog as {@code rules} (so a
 * result's {@code ruleIndex} does not depend on the rules file). What a rules file changed goes where
 * SARIF puts run-time configuration: {@code invocations[0].ruleConfigurationOverrides} (a rule switched
 * off, its level, its threshold as a parameter).
 *
 * <p><b>Locations.</b> SARIF locates results in text (line/column) or bytes (offset/length); a
 * capture is a sequence of frames. A finding's location is the capture file as the user named it
 * ({@code artifactLocation.uri}, a relative reference when the path was relative, as GitHub wants)
 * and a region whose {@code startLine} and {@code endLine} are the frame number: "line" N is frame N,
 * the unit Wireshark, tshark and every rdmascope report number. GitHub requires
 * {@code region.startLine} to place an alert and does not use {@code byteOffset} (ossf/scorecard met
 * the same limit for binary files and also sets startLine); frame numbers are also what a user
 * types into Wireshark's "Go to packet". A finding no frame shows gets no region: the alert is about
 * the whole file. The conversation is a {@code logicalLocation} ("conversation 3").
 *
 * <p><b>Several vantage points</b> ({@code check --union}, issue 20): the union's frames are no file's, so a
 * finding is located in each point's own capture that saw its first frame, one {@code location} per point in
 * the order named (GitHub shows the first), its region that point's own frame numbers; the union frames stay
 * in {@code properties.frames} and each frame's "NAME:frame"s in {@code properties.sightings}, as
 * {@code --report json} gives them. A finding no point's frame shows is located in every point's file.
 *
 * <p><b>Fingerprints.</b> GitHub's upload action computes {@code primaryLocationLineHash} by hashing
 * the text of the cited line, which for a binary capture is arbitrary bytes; results therefore also
 * carry {@code partialFingerprints["rdmascope/v1"]}, a hash of rule, conversation, frame and detail,
 * stable for an unchanged capture.
 */
public final class SarifReport implements Report {
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
    /** GitHub shows at most 1024 characters of a rule's descriptions. */
    static final int GITHUB_DESCRIPTION_LIMIT = 1024;

    private final String rulesDocUri;

    /**
     * @param rulesDocUri absolute URI of a published docs/rules.md; each rule's {@code helpUri} is it plus
     *                    {@code #<rule id in lower case>} (the anchors RulesDoc writes). Null: no helpUri (SARIF
     *                    requires it to be absolute, §3.49.12, and the project has no published address to
     *                    default to); the help text still names docs/rules.md.
     */
    public SarifReport(String rulesDocUri) {
        this.rulesDocUri = rulesDocUri;
    }

    @Override
    public void write(CheckRun run, OutputStream out) throws IOException {
        ObjectNode log = Json.object();
        log.put("$schema", SCHEMA);
        log.put("version", "2.1.0");
        ObjectNode sarifRun = log.putArray("runs").addObject();
        ObjectNode driver = sarifRun.putObject("tool").putObject("driver");
        driver.put("name", "rdmascope");
        driver.put("semanticVersion", run.toolVersion());
        ArrayNode rules = driver.putArray("rules");
        List<Rule> catalog = RuleCatalog.all();
        for (Rule r : catalog) {
            rules.add(descriptor(r));
        }
        sarifRun.set("invocations", Json.array().add(invocation(run, catalog)));
        ArrayNode results = sarifRun.putArray("results");
        for (CaptureCheck c : run.captures()) {
            String uri = uri(c.capture());
            Map<String, Integer> seen = new HashMap<>();
            for (Finding f : c.findings()) {
                results.add(result(f, c, uri, catalog, seen));
            }
        }
        Json.write(out, log);
    }

    private ObjectNode descriptor(Rule r) {
        ObjectNode d = Json.object();
        String anchor = r.id().toLowerCase(Locale.ROOT);
        d.put("id", r.id());
        d.putObject("shortDescription").put("text", r.summary());
        d.putObject("fullDescription").put("text", limit(r.explanation()));
        ObjectNode help = d.putObject("help");
        help.put("text", r.summary() + ". " + r.explanation() + "\nReference: " + r.reference()
                + "\nSee docs/rules.md#" + anchor + " (rdmascope rules --markdown).");
        help.put("markdown", "**" + r.summary() + "** (" + r.severity().id() + ", revision " + r.revision() + ")\n\n"
                + r.explanation() + "\n\nReference: " + r.reference() + "\n\nRaised by the replay engine's "
                + String.join(", ", r.observations().stream().map(o -> "`" + o + "`").toList())
                + " observation" + (r.observations().size() == 1 ? "" : "s") + ". See `docs/rules.md#" + anchor
                + "` (`rdmascope rules --markdown`).");
        if (rulesDocUri != null) {
            d.put("helpUri", rulesDocUri + "#" + anchor);
        }
        d.putObject("defaultConfiguration").put("level", r.severity().id());
        ObjectNode properties = d.putObject("properties");
        properties.putArray("tags").add("rdma").add("conformance");
        properties.put("problem.severity", r.severity() == Severity.NOTE ? "recommendation" : r.severity().id());
        properties.put("reference", r.reference());
        properties.put("revision", r.revision());
        return d;
    }

    /** The run's one invocation: read errors as notifications, the rules file's changes as overrides. */
    private static ObjectNode invocation(CheckRun run, List<Rule> catalog) {
        ObjectNode inv = Json.object();
        boolean clean = run.captures().stream().allMatch(c -> c.readError() == null);
        inv.put("executionSuccessful", clean);
        Map<String, CheckRun.EnabledRule> enabled = new HashMap<>();
        run.enabledRules().forEach(er -> enabled.put(er.rule().id(), er));
        ArrayNode overrides = Json.array();
        for (int i = 0; i < catalog.size(); i++) {
            Rule r = catalog.get(i);
            CheckRun.EnabledRule er = enabled.get(r.id());
            if (er != null && er.severity() == r.severity() && er.threshold() == 0) {
                continue;
            }
            ObjectNode o = overrides.addObject();
            ObjectNode descriptor = o.putObject("descriptor");
            descriptor.put("id", r.id());
            descriptor.put("index", i);
            ObjectNode configuration = o.putObject("configuration");
            if (er == null) {
                configuration.put("enabled", false);
                continue;
            }
            configuration.put("level", er.severity().id());
            if (er.threshold() > 0) {
                // §3.50.5: rule parameters are a property bag; rdmascope's one parameter is the threshold.
                configuration.putObject("parameters").put("threshold", er.threshold());
            }
        }
        if (!overrides.isEmpty()) {
            inv.set("ruleConfigurationOverrides", overrides);
        }
        ArrayNode notifications = Json.array();
        for (CaptureCheck c : run.captures()) {
            if (c.readError() != null) {
                ObjectNode n = notifications.addObject();
                n.put("level", "error");
                n.putObject("message").put("text", c.readError()
                        + " (results cover the frames before the damage)");
                n.putArray("locations").addObject().putObject("physicalLocation").putObject("artifactLocation")
                        .put("uri", uri(c.capture()));
            }
        }
        if (!notifications.isEmpty()) {
            inv.set("toolExecutionNotifications", notifications);
        }
        return inv;
    }

    private static ObjectNode result(Finding f, CaptureCheck c, String uri, List<Rule> catalog,
                                     Map<String, Integer> seen) {
        ObjectNode r = Json.object();
        r.put("ruleId", f.rule());
        int index = indexOf(catalog, f.rule());
        if (index >= 0) {
            r.put("ruleIndex", index);
        }
        r.put("level", f.severity());
        String where = (f.frames().isEmpty() ? "no single frame" : "frame " + c.frameText(f.frames().get(0)))
                + (f.conversation() == null ? "" : ", conversation " + f.conversation());
        r.putObject("message").put("text", f.summary() + " (" + where + "): " + f.detail() + ".");
        ArrayNode locations = r.putArray("locations");
        if (c.pointFiles().isEmpty()) {
            location(locations, f, uri, f.frames().isEmpty() ? 0 : f.frames().get(0),
                    f.frames().isEmpty() ? 0 : f.frames().get(f.frames().size() - 1));
        } else {
            pointLocations(locations, f, c);
        }
        String hash = hash(f.rule() + '\u0000' + f.conversation() + '\u0000' + f.frames() + '\u0000' + f.detail());
        int occurrence = seen.merge(hash, 1, Integer::sum);
        r.putObject("partialFingerprints").put("rdmascope/v1", hash + ":" + occurrence);
        ObjectNode properties = r.putObject("properties");
        ArrayNode frames = properties.putArray("frames");
        f.frames().forEach(frames::add);
        if (!c.pointFiles().isEmpty()) {
            ArrayNode sightings = properties.putArray("sightings");
            for (long frame : f.frames()) {
                ArrayNode one = sightings.addArray();
                c.sightingsOf(frame).forEach(s -> one.add(s.text()));
            }
        }
        properties.put("conversation", f.conversation());
        return r;
    }

    /** A location in {@code uri}: frames {@code first}..{@code last} as lines (0: no region, the whole file). */
    private static void location(ArrayNode locations, Finding f, String uri, long first, long last) {
        ObjectNode location = locations.addObject();
        ObjectNode physical = location.putObject("physicalLocation");
        physical.putObject("artifactLocation").put("uri", uri);
        if (first > 0) {
            ObjectNode region = physical.putObject("region");
            region.put("startLine", first);
            region.put("endLine", Math.max(first, last));
        }
        if (f.conversation() != null) {
            location.putArray("logicalLocations").addObject().put("name", "conversation " + f.conversation());
        }
    }

    /**
     * A union's finding in each point's own capture: every point that saw its first frame, from that frame to
     * the point's own frame of the finding's last frame (or its first again when the point did not see the
     * last); every point's file without a region when no point's frame shows the finding.
     */
    private static void pointLocations(ArrayNode locations, Finding f, CaptureCheck c) {
        List<VantageUnion.Sighting> first = f.frames().isEmpty() ? List.of() : c.sightingsOf(f.frames().get(0));
        List<VantageUnion.Sighting> last = f.frames().isEmpty() ? List.of()
                : c.sightingsOf(f.frames().get(f.frames().size() - 1));
        if (first.isEmpty()) {
            c.pointFiles().values().forEach(file -> location(locations, f, uri(file), 0, 0));
            return;
        }
        for (VantageUnion.Sighting s : first) {
            long end = last.stream().filter(l -> l.point().equals(s.point())).mapToLong(VantageUnion.Sighting::frame)
                    .findFirst().orElse(s.frame());
            location(locations, f, uri(c.pointFiles().get(s.point())), s.frame(), end);
        }
    }

    private static int indexOf(List<Rule> catalog, String id) {
        for (int i = 0; i < catalog.size(); i++) {
            if (catalog.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The capture path as the user gave it, as a URI reference (RFC 3986): '\' becomes '/', a
     * leading "./" goes (GitHub matches results to repository files by their relative path), and
     * anything but unreserved characters, sub-delimiters, '@' and '/' is percent-encoded as UTF-8
     * (so a space or '#' in a file name, or a ':' that would read as a scheme, stays part of the path).
     */
    static String uri(String path) {
        String p = path.replace('\\', '/');
        while (p.startsWith("./") && p.length() > 2) {
            p = p.substring(2);
        }
        StringBuilder sb = new StringBuilder(p.length() + 8);
        for (byte b : p.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            boolean alphanumeric = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
            if (alphanumeric || "-._~/!$&'()*+,;=@".indexOf(c) >= 0) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        URI.create(sb.toString()); // cannot fail: every character left is legal in a path
        return sb.toString();
    }

    private static String limit(String text) {
        return text.length() <= GITHUB_DESCRIPTION_LIMIT ? text
                : text.substring(0, GITHUB_DESCRIPTION_LIMIT - 1) + "\u2026";
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
