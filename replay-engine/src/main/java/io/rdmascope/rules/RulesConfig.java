package io.rdmascope.rules;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * A user's adjustments to the catalog (the {@code --rules FILE} of {@code check}): rules switched
 * off, severities changed, and per-rule thresholds — a rule with a threshold N reports its findings
 * only when it fires more than N times. JSON (or the same in YAML, for a .yaml/.yml file):
 * <pre>{@code
 * {"rules": {"IB-RC-PSN-003": {"severity": "note", "threshold": 10},
 *            "IB-CC-001": {"enabled": false}}}
 * }</pre>
 */
public final class RulesConfig {
    private final Map<String, Boolean> enabled = new HashMap<>();
    private final Map<String, Severity> severities = new HashMap<>();
    private final Map<String, Integer> thresholds = new HashMap<>();

    /** The catalog as it is. */
    public static RulesConfig defaults() {
        return new RulesConfig();
    }

    /** Reads a rules file; every rule id and key is checked, so a typo is an error, not a silent no-op. */
    public static RulesConfig read(Path file) throws IOException {
        JsonNode root = ConfigFiles.read(file);
        RulesConfig c = new RulesConfig();
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + ": expected a JSON object with a \"rules\" member");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!key.equals("rules")) {
                throw new IllegalArgumentException(file + ": unknown member '" + key + "' (expected \"rules\")");
            }
        }
        JsonNode rules = root.path("rules");
        for (Iterator<Map.Entry<String, JsonNode>> it = rules.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String id = e.getKey();
            if (RuleCatalog.byId(id) == null) {
                throw new IllegalArgumentException(file + ": unknown rule '" + id + "'");
            }
            for (Iterator<Map.Entry<String, JsonNode>> f = e.getValue().fields(); f.hasNext(); ) {
                Map.Entry<String, JsonNode> setting = f.next();
                JsonNode v = setting.getValue();
                switch (setting.getKey()) {
                    case "enabled" -> {
                        if (!v.isBoolean()) {
                            throw new IllegalArgumentException(file + ": " + id + ".enabled must be true or false");
                        }
                        c.enabled.put(id, v.asBoolean());
                    }
                    case "severity" -> c.severities.put(id, Severity.parse(v.asText()));
                    case "threshold" -> {
                        if (!v.canConvertToInt() || v.asInt() < 0) {
                            throw new IllegalArgumentException(file + ": " + id + ".threshold must be a count >= 0");
                        }
                        c.thresholds.put(id, v.asInt());
                    }
                    default -> throw new IllegalArgumentException(file + ": " + id + ": unknown setting '"
                            + setting.getKey() + "' (enabled, severity, threshold)");
                }
            }
        }
        return c;
    }

    public boolean enabled(Rule r) {
        return enabled.getOrDefault(r.id(), true);
    }

    public Severity severity(Rule r) {
        return severities.getOrDefault(r.id(), r.severity());
    }

    /** Findings of this rule are reported only when it fires more than this many times. */
    public int threshold(Rule r) {
        return thresholds.getOrDefault(r.id(), 0);
    }
}
