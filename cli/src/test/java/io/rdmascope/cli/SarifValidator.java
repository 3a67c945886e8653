package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A structural check of SARIF logs against the OASIS SARIF 2.1.0 standard ("SARIF v2.1.0", OASIS
 * Standard, 27 March 2020; section numbers below are its) for every object type rdmascope emits,
 * and against GitHub code scanning's documented requirements ("SARIF support for code scanning",
 * docs.github.com). No JSON Schema validator is available offline to the build, and the schema is
 * not copied into the repository; this checks what the schema would for these objects: required
 * members, member types, enumerations, and that each object has only the members the standard
 * defines for it (the schema's "additionalProperties": false) — a misspelt member is an error, not
 * silently ignored by a consumer.
 */
final class SarifValidator {
    private final List<String> problems = new ArrayList<>();

    private static final Set<String> LEVELS = Set.of("none", "note", "warning", "error");
    private static final Set<String> KINDS = Set.of("notApplicable", "pass", "fail", "review", "open",
            "informational");

    /** Problems found, each "JSON path: what"; empty when the log passes. */
    static List<String> validate(JsonNode log, boolean github) {
        SarifValidator v = new SarifValidator();
        v.sarifLog(log, "$", github);
        return v.problems;
    }

    private void problem(String path, String text) {
        problems.add(path + ": " + text);
    }

    /** Object with only {@code allowed} members, all of {@code required} present. */
    private boolean object(JsonNode n, String path, Set<String> allowed, String... required) {
        if (n == null || !n.isObject()) {
            problem(path, "expected an object");
            return false;
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                problem(path, "member '" + k + "' is not defined for this object");
            }
        }
        for (String r : required) {
            if (!n.has(r)) {
                problem(path, "required member '" + r + "' is missing");
            }
        }
        return true;
    }

    private void string(JsonNode n, String path) {
        if (n != null && !n.isTextual()) {
            problem(path, "expected a string");
        }
    }

    private void integer(JsonNode n, String path, long minimum) {
        if (n != null && (!n.isIntegralNumber() || n.asLong() < minimum)) {
            problem(path, "expected an integer >= " + minimum);
        }
    }

    private void bool(JsonNode n, String path) {
        if (n != null && !n.isBoolean()) {
            problem(path, "expected true or false");
        }
    }

    private void oneOf(JsonNode n, String path, Set<String> values) {
        if (n != null && (!n.isTextual() || !values.contains(n.asText()))) {
            problem(path, "expected one of " + values + ", got " + n);
        }
    }

    /** A URI (absolute = true) or URI reference (RFC 3986), as the schema's "format": "uri"/"uri-reference". */
    private void uri(JsonNode n, String path, boolean absolute) {
        if (n == null) {
            return;
        }
        if (!n.isTextual()) {
            problem(path, "expected a string");
            return;
        }
        try {
            URI u = new URI(n.asText());
            if (absolute && !u.isAbsolute()) {
                problem(path, "expected an absolute URI, got '" + n.asText() + "'");
            }
        } catch (URISyntaxException e) {
            problem(path, "not a URI: " + e.getMessage());
        }
    }

    private List<JsonNode> array(JsonNode n, String path, boolean unique) {
        List<JsonNode> items = new ArrayList<>();
        if (n == null) {
            return items;
        }
        if (!n.isArray()) {
            problem(path, "expected an array");
            return items;
        }
        Set<JsonNode> seen = new HashSet<>();
        for (JsonNode item : n) {
            if (unique && !seen.add(item)) {
                problem(path, "items must be unique (" + item + " twice)");
            }
            items.add(item);
        }
        return items;
    }

    // §3.13 sarifLog
    private void sarifLog(JsonNode log, String path, boolean github) {
        if (!object(log, path, Set.of("$schema", "version", "runs", "inlineExternalProperties", "properties"),
                "version", "runs")) {
            return;
        }
        uri(log.get("$schema"), path + ".$schema", true); // §3.13.3
        if (!"2.1.0".equals(log.path("version").asText())) { // §3.13.2
            problem(path + ".version", "must be \"2.1.0\"");
        }
        if (github && !log.has("$schema")) {
            problem(path, "GitHub wants $schema");
        }
        List<JsonNode> runs = array(log.get("runs"), path + ".runs", false);
        if (github && runs.size() > 20) {
            problem(path + ".runs", "GitHub accepts at most 20 runs");
        }
        for (int i = 0; i < runs.size(); i++) {
            run(runs.get(i), path + ".runs[" + i + "]", github);
        }
        properties(log.get("properties"), path + ".properties");
    }

    // §3.14 run
    private void run(JsonNode run, String path, boolean github) {
        if (!object(run, path, Set.of("tool", "invocations", "conversion", "language", "versionControlProvenance",
                "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results", "automationDetails",
                "runAggregates", "baselineGuid", "redactionTokens", "defaultEncoding", "defaultSourceLanguage",
                "newlineSequences", "columnKind", "externalPropertyFileReferences", "threadFlowLocations",
                "taxonomies", "addresses", "translations", "policies", "webRequests", "webResponses",
                "specialLocations", "properties"), "tool")) {
            return;
        }
        // §3.18 tool
        JsonNode tool = run.get("tool");
        List<JsonNode> rules = List.of();
        if (object(tool, path + ".tool", Set.of("driver", "extensions", "properties"), "driver")) {
            rules = toolComponent(tool.get("driver"), path + ".tool.driver", github);
        }
        List<JsonNode> invocations = array(run.get("invocations"), path + ".invocations", false);
        for (int i = 0; i < invocations.size(); i++) {
            invocation(invocations.get(i), path + ".invocations[" + i + "]", rules);
        }
        if (github && !run.has("results")) {
            problem(path, "GitHub wants results (may be empty)");
        }
        List<JsonNode> results = array(run.get("results"), path + ".results", false);
        for (int i = 0; i < results.size(); i++) {
            result(results.get(i), path + ".results[" + i + "]", rules, github);
        }
        properties(run.get("properties"), path + ".properties");
    }

    // §3.19 toolComponent; returns its rules
    private List<JsonNode> toolComponent(JsonNode c, String path, boolean github) {
        if (!object(c, path, Set.of("guid", "name", "organization", "product", "productSuite", "shortDescription",
                "fullDescription", "fullName", "version", "semanticVersion", "dottedQuadFileVersion",
                "releaseDateUtc", "downloadUri", "informationUri", "globalMessageStrings", "notifications", "rules",
                "taxa", "locations", "language", "contents", "isComprehensive", "localizedDataSemanticVersion",
                "minimumRequiredLocalizedDataSemanticVersion", "associatedComponent", "translationMetadata",
                "supportedTaxonomies", "properties"), "name")) {
            return List.of();
        }
        string(c.get("name"), path + ".name");
        string(c.get("version"), path + ".version");
        string(c.get("semanticVersion"), path + ".semanticVersion");
        uri(c.get("informationUri"), path + ".informationUri", true);
        List<JsonNode> rules = array(c.get("rules"), path + ".rules", true);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            String p = path + ".rules[" + i + "]";
            reportingDescriptor(rules.get(i), p, github);
            if (!ids.add(rules.get(i).path("id").asText())) {
                problem(p + ".id", "rule ids must be unique within a tool component (§3.49.3)");
            }
        }
        properties(c.get("properties"), path + ".properties");
        return rules;
    }

    // §3.49 reportingDescriptor
    private void reportingDescriptor(JsonNode d, String path, boolean github) {
        if (!object(d, path, Set.of("id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames",
                "shortDescription", "fullDescription", "messageStrings", "defaultConfiguration", "helpUri", "help",
                "relationships", "properties"), "id")) {
            return;
        }
        string(d.get("id"), path + ".id");
        multiformat(d.get("shortDescription"), path + ".shortDescription");
        multiformat(d.get("fullDescription"), path + ".fullDescription");
        multiformat(d.get("help"), path + ".help");
        uri(d.get("helpUri"), path + ".helpUri", true); // §3.49.12: absolute URI
        reportingConfiguration(d.get("defaultConfiguration"), path + ".defaultConfiguration");
        properties(d.get("properties"), path + ".properties");
        if (github) {
            for (String k : List.of("shortDescription", "fullDescription", "help")) {
                if (!d.path(k).has("text")) {
                    problem(path, "GitHub requires " + k + ".text");
                }
            }
            for (String k : List.of("shortDescription", "fullDescription")) {
                if (d.path(k).path("text").asText().length() > 1024) {
                    problem(path + "." + k, "GitHub shows at most 1024 characters");
                }
            }
        }
    }

    // §3.50 reportingConfiguration
    private void reportingConfiguration(JsonNode c, String path) {
        if (c == null || !object(c, path, Set.of("enabled", "level", "rank", "parameters", "properties"))) {
            return;
        }
        bool(c.get("enabled"), path + ".enabled");
        oneOf(c.get("level"), path + ".level", LEVELS);
        properties(c.get("parameters"), path + ".parameters");
        properties(c.get("properties"), path + ".properties");
    }

    // §3.12 multiformatMessageString
    private void multiformat(JsonNode m, String path) {
        if (m == null || !object(m, path, Set.of("text", "markdown", "properties"), "text")) {
            return;
        }
        string(m.get("text"), path + ".text");
        string(m.get("markdown"), path + ".markdown");
    }

    // §3.11 message: text or id
    private void message(JsonNode m, String path, boolean github) {
        if (!object(m, path, Set.of("text", "markdown", "id", "arguments", "properties"))) {
            return;
        }
        if (!m.has("text") && !m.has("id")) {
            problem(path, "a message needs text or id (§3.11.3)");
        }
        if (github && !m.has("text")) {
            problem(path, "GitHub requires message.text");
        }
        string(m.get("text"), path + ".text");
    }

    // §3.20 invocation
    private void invocation(JsonNode inv, String path, List<JsonNode> rules) {
        if (!object(inv, path, Set.of("commandLine", "arguments", "responseFiles", "startTimeUtc", "endTimeUtc",
                "exitCode", "ruleConfigurationOverrides", "notificationConfigurationOverrides",
                "toolExecutionNotifications", "toolConfigurationNotifications", "exitCodeDescription",
                "exitSignalName", "exitSignalNumber", "processStartFailureMessage", "executionSuccessful", "machine",
                "account", "processId", "executableLocation", "workingDirectory", "environmentVariables", "stdin",
                "stdout", "stderr", "stdoutStderr", "properties"), "executionSuccessful")) {
            return;
        }
        bool(inv.get("executionSuccessful"), path + ".executionSuccessful");
        List<JsonNode> overrides = array(inv.get("ruleConfigurationOverrides"), path + ".ruleConfigurationOverrides",
                true);
        for (int i = 0; i < overrides.size(); i++) {
            // §3.51 configurationOverride, §3.52 reportingDescriptorReference
            String p = path + ".ruleConfigurationOverrides[" + i + "]";
            JsonNode o = overrides.get(i);
            if (object(o, p, Set.of("configuration", "descriptor", "properties"), "configuration", "descriptor")) {
                reportingConfiguration(o.get("configuration"), p + ".configuration");
                JsonNode ref = o.get("descriptor");
                if (object(ref, p + ".descriptor", Set.of("id", "index", "guid", "toolComponent", "properties"))) {
                    integer(ref.get("index"), p + ".descriptor.index", -1);
                    int index = ref.path("index").asInt(-1);
                    if (index >= 0 && (index >= rules.size()
                            || !rules.get(index).path("id").asText().equals(ref.path("id").asText()))) {
                        problem(p + ".descriptor", "index " + index + " does not name rule " + ref.path("id"));
                    }
                }
            }
        }
        List<JsonNode> notes = array(inv.get("toolExecutionNotifications"), path + ".toolExecutionNotifications",
                true);
        for (int i = 0; i < notes.size(); i++) {
            // §3.58 notification
            String p = path + ".toolExecutionNotifications[" + i + "]";
            JsonNode n = notes.get(i);
            if (object(n, p, Set.of("locations", "message", "level", "threadId", "timeUtc", "exception", "descriptor",
                    "associatedRule", "properties"), "message")) {
                message(n.get("message"), p + ".message", false);
                oneOf(n.get("level"), p + ".level", LEVELS);
                List<JsonNode> locations = array(n.get("locations"), p + ".locations", true);
                for (int j = 0; j < locations.size(); j++) {
                    location(locations.get(j), p + ".locations[" + j + "]", false, false);
                }
            }
        }
    }

    // §3.27 result
    private void result(JsonNode r, String path, List<JsonNode> rules, boolean github) {
        if (!object(r, path, Set.of("guid", "correlationGuid", "ruleId", "ruleIndex", "rule", "taxa", "kind", "level",
                "message", "analysisTarget", "locations", "webRequest", "webResponse", "fingerprints",
                "partialFingerprints", "codeFlows", "graphs", "graphTraversals", "stacks", "relatedLocations",
                "suppressions", "baselineState", "rank", "attachments", "workItemUris", "hostedViewerUri",
                "provenance", "fixes", "occurrenceCount", "properties"), "message")) {
            return;
        }
        string(r.get("ruleId"), path + ".ruleId");
        integer(r.get("ruleIndex"), path + ".ruleIndex", -1);
        int index = r.path("ruleIndex").asInt(-1);
        if (index >= 0 && (index >= rules.size()
                || !rules.get(index).path("id").asText().equals(r.path("ruleId").asText()))) {
            problem(path + ".ruleIndex", "does not name the rule of ruleId (§3.27.6)");
        }
        if (r.has("ruleId") && rules.stream().noneMatch(d -> d.path("id").asText().equals(r.get("ruleId").asText()))) {
            problem(path + ".ruleId", "no rule in tool.driver.rules has this id");
        }
        oneOf(r.get("kind"), path + ".kind", KINDS);
        oneOf(r.get("level"), path + ".level", LEVELS);
        if (r.has("level") && r.has("kind") && !"fail".equals(r.get("kind").asText())
                && !"none".equals(r.get("level").asText())) {
            problem(path, "a level other than none needs kind fail (§3.27.10)");
        }
        message(r.get("message"), path + ".message", github);
        List<JsonNode> locations = array(r.get("locations"), path + ".locations", false);
        if (github) {
            if (!r.has("ruleId")) {
                problem(path, "GitHub filters alerts by ruleId");
            }
            if (locations.isEmpty()) {
                problem(path + ".locations", "GitHub requires at least one location");
            }
            if (locations.size() > 1000) {
                problem(path + ".locations", "GitHub accepts at most 1000 locations per result");
            }
        }
        for (int i = 0; i < locations.size(); i++) {
            location(locations.get(i), path + ".locations[" + i + "]", github, true);
        }
        JsonNode fingerprints = r.get("partialFingerprints");
        if (fingerprints != null) {
            if (!fingerprints.isObject()) {
                problem(path + ".partialFingerprints", "expected an object");
            } else {
                fingerprints.fields().forEachRemaining(e -> string(e.getValue(),
                        path + ".partialFingerprints." + e.getKey()));
            }
        }
        properties(r.get("properties"), path + ".properties");
    }

    // §3.28 location
    private void location(JsonNode l, String path, boolean github, boolean primary) {
        if (!object(l, path, Set.of("id", "physicalLocation", "logicalLocations", "message", "annotations",
                "relationships", "properties"))) {
            return;
        }
        JsonNode physical = l.get("physicalLocation");
        if (physical != null) {
            physicalLocation(physical, path + ".physicalLocation", github);
        } else if (github && primary) {
            problem(path, "GitHub requires physicalLocation.artifactLocation.uri");
        }
        List<JsonNode> logical = array(l.get("logicalLocations"), path + ".logicalLocations", true);
        for (int i = 0; i < logical.size(); i++) {
            // §3.33 logicalLocation
            String p = path + ".logicalLocations[" + i + "]";
            JsonNode ll = logical.get(i);
            if (object(ll, p, Set.of("name", "index", "fullyQualifiedName", "decoratedName", "parentIndex", "kind",
                    "properties"))) {
                string(ll.get("name"), p + ".name");
                string(ll.get("fullyQualifiedName"), p + ".fullyQualifiedName");
                string(ll.get("kind"), p + ".kind");
            }
        }
        properties(l.get("properties"), path + ".properties");
    }

    // §3.29 physicalLocation, §3.4 artifactLocation, §3.30 region
    private void physicalLocation(JsonNode p, String path, boolean github) {
        if (!object(p, path, Set.of("address", "artifactLocation", "region", "contextRegion", "properties"))) {
            return;
        }
        if (!p.has("address") && !p.has("artifactLocation")) {
            problem(path, "needs address or artifactLocation (§3.29.2)");
        }
        JsonNode a = p.get("artifactLocation");
        if (a != null && object(a, path + ".artifactLocation", Set.of("uri", "uriBaseId", "index", "description",
                "properties"))) {
            uri(a.get("uri"), path + ".artifactLocation.uri", false);
            if (github) {
                if (!a.has("uri")) {
                    problem(path + ".artifactLocation", "GitHub requires uri");
                } else {
                    try {
                        URI u = new URI(a.get("uri").asText());
                        if (u.isAbsolute() && !"file".equals(u.getScheme())) {
                            problem(path + ".artifactLocation.uri", "GitHub shows only relative or file: URIs");
                        }
                    } catch (URISyntaxException e) {
                        // reported above
                    }
                }
            }
        }
        JsonNode region = p.get("region");
        if (region != null && object(region, path + ".region", Set.of("startLine", "startColumn", "endLine",
                "endColumn", "charOffset", "charLength", "byteOffset", "byteLength", "snippet", "message",
                "sourceLanguage", "properties"))) {
            integer(region.get("startLine"), path + ".region.startLine", 1);   // §3.30.5
            integer(region.get("startColumn"), path + ".region.startColumn", 1);
            integer(region.get("endLine"), path + ".region.endLine", 1);
            integer(region.get("endColumn"), path + ".region.endColumn", 1);
            integer(region.get("byteOffset"), path + ".region.byteOffset", 0);
            if (region.has("endLine") && region.path("endLine").asLong() < region.path("startLine").asLong()) {
                problem(path + ".region", "endLine before startLine (§3.30.7)");
            }
            if (region.has("endLine") && !region.has("startLine")) {
                problem(path + ".region", "endLine without startLine");
            }
            if (github && !region.has("startLine")) {
                problem(path + ".region", "GitHub places alerts by region.startLine");
            }
        }
    }

    // §3.8 property bags: any members; "tags", if present, an array of unique strings
    private void properties(JsonNode bag, String path) {
        if (bag == null) {
            return;
        }
        if (!bag.isObject()) {
            problem(path, "a property bag is an object");
            return;
        }
        if (bag.has("tags")) {
            for (JsonNode t : array(bag.get("tags"), path + ".tags", true)) {
                string(t, path + ".tags[]");
            }
        }
    }
}
