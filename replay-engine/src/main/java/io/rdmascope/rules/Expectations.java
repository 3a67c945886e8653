package io.rdmascope.rules;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ObservationKind;
import io.rdmascope.replay.ReplayResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a test run must show (the {@code --expect FILE} of {@code check}), JSON or YAML:
 * <pre>
 * expectations:
 *   - name: no bad ICRC                 # optional; a name is made up from the rest otherwise
 *     rule: IB-ICRC-001                 # findings of a rule …
 *     max: 0
 *   - observation: retransmission       # … or observations of a kind …
 *     maxRatio: 0.001                   #   (per request packet)
 *   - messages: READ                    # … or messages of a kind (or "any")
 *     allCompleted: true
 *   - messages: WRITE
 *     min: 5
 *   - messages: READ
 *     p99LatencyBelow: 100us            # ns, us, ms or s
 *     conversation: "1"                 # any expectation can be scoped to a conversation …
 *     qp: 0x11                          # … or to a QP number (either side)
 * </pre>
 */
public final class Expectations {
    private static final Set<String> KEYS = Set.of("name", "rule", "observation", "messages", "max", "min", "maxRatio",
            "allCompleted", "p99LatencyBelow", "p50LatencyBelow", "maxLatencyBelow", "conversation", "qp");

    /** One expectation's outcome: the {@code check --report json} contract (name, passed, detail). */
    public record Result(String name, boolean passed, String detail) {
    }

    private final List<JsonNode> entries;
    private final Path source;

    private Expectations(Path source, List<JsonNode> entries) {
        this.source = source;
        this.entries = entries;
    }

    public static Expectations read(Path file) throws IOException {
        JsonNode root = ConfigFiles.read(file);
        JsonNode list = root == null ? null : root.get("expectations");
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException(file + ": expected an \"expectations\" list");
        }
        List<JsonNode> entries = new ArrayList<>();
        int i = 0;
        for (JsonNode e : list) {
            i++;
            String where = file + ": expectation " + i;
            if (!e.isObject()) {
                throw new IllegalArgumentException(where + ": expected an object");
            }
            for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!KEYS.contains(k)) {
                    throw new IllegalArgumentException(where + ": unknown key '" + k + "'");
                }
            }
            int subjects = (e.has("rule") ? 1 : 0) + (e.has("observation") ? 1 : 0) + (e.has("messages") ? 1 : 0);
            if (subjects != 1) {
                throw new IllegalArgumentException(where + ": name exactly one of rule, observation, messages");
            }
            if (e.has("rule") && RuleCatalog.byId(e.get("rule").asText()) == null) {
                throw new IllegalArgumentException(where + ": unknown rule '" + e.get("rule").asText() + "'");
            }
            if (e.has("observation") && ObservationKind.ofId(e.get("observation").asText()) == null) {
                // A misspelt kind would otherwise count nothing and pass every "max" quietly.
                throw new IllegalArgumentException(where + ": unknown observation kind '"
                        + e.get("observation").asText() + "' (rdmascope rules lists them)");
            }
            if (e.has("messages") && !e.get("messages").asText().equals("any")) {
                try {
                    MessageKind.valueOf(e.get("messages").asText());
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException(where + ": unknown message kind '" + e.get("messages").asText()
                            + "' (" + Arrays.toString(MessageKind.values()) + " or any)");
                }
            }
            for (String k : List.of("p99LatencyBelow", "p50LatencyBelow", "maxLatencyBelow")) {
                if (e.has(k)) {
                    duration(e.get(k).asText(), where + ": " + k);
                }
            }
            if (e.has("qp")) {
                try {
                    parseNumber(e.get("qp").asText());
                } catch (NumberFormatException bad) {
                    throw new IllegalArgumentException(where + ": qp must be a number (decimal or 0x hex), not '"
                            + e.get("qp").asText() + "'");
                }
            }
            entries.add(e);
        }
        return new Expectations(file, entries);
    }

    /** Evaluates every expectation against a finished replay and its findings. */
    public List<Result> evaluate(ReplayResult replay, List<Finding> findings) {
        List<Result> out = new ArrayList<>();
        for (JsonNode e : entries) {
            out.add(evaluate(e, replay, findings));
        }
        return out;
    }

    private Result evaluate(JsonNode e, ReplayResult replay, List<Finding> findings) {
        Predicate<String> inScope = scope(e, replay);
        String scopeText = e.has("conversation") ? " in conversation " + e.get("conversation").asText()
                : e.has("qp") ? " on QP " + e.get("qp").asText() : "";
        if (e.has("rule")) {
            String rule = e.get("rule").asText();
            long n = findings.stream().filter(f -> f.rule().equals(rule) && inScope.test(f.conversation())).count();
            return counted(e, rule + " findings" + scopeText, n, requestPackets(replay, inScope));
        }
        if (e.has("observation")) {
            String kind = e.get("observation").asText();
            long n = replay.observations().stream()
                    .filter(o -> o.kind().id().equals(kind) && inScope.test(o.conversation())).count();
            return counted(e, kind + " observations" + scopeText, n, requestPackets(replay, inScope));
        }
        String kindText = e.get("messages").asText();
        List<Message> ms = replay.messages().stream()
                .filter(m -> kindText.equals("any") || m.kind().name().equals(kindText))
                .filter(m -> inScope.test(m.conversation())).toList();
        String what = kindText + " messages" + scopeText;
        if (e.path("allCompleted").asBoolean(false)) {
            // None at all fails: a CI run expecting READs to complete that made no READ did not test them.
            List<Message> not = ms.stream().filter(m -> !Message.COMPLETED.equals(m.status())).toList();
            boolean passed = !ms.isEmpty() && not.isEmpty();
            String detail = ms.isEmpty() ? "no " + what + " at all"
                    : not.isEmpty() ? ms.size() + " completed"
                    : not.size() + " of " + ms.size() + " not completed, first at frame " + not.get(0).frames().get(0);
            return result(e, "every " + what + " completed", passed, detail);
        }
        for (String k : List.of("p99LatencyBelow", "p50LatencyBelow", "maxLatencyBelow")) {
            if (e.has(k)) {
                long bound = duration(e.get(k).asText(), k);
                long[] latencies = ms.stream().filter(m -> m.latencyNanos() != null)
                        .mapToLong(Message::latencyNanos).sorted().toArray();
                if (latencies.length == 0) {
                    return result(e, k + " of " + what, false, "no completed " + what + " to measure");
                }
                double q = k.startsWith("p99") ? 0.99 : k.startsWith("p50") ? 0.5 : 1.0;
                long value = latencies[Math.max(0, (int) Math.ceil(q * latencies.length) - 1)];
                String label = k.substring(0, k.indexOf("Latency"));
                return result(e, label + " latency of " + what + " below " + e.get(k).asText(), value < bound,
                        label + " latency " + micros(value) + " over " + latencies.length + " messages");
            }
        }
        return counted(e, what, ms.size(), 0);
    }

    private Result counted(JsonNode e, String what, long n, long packets) {
        List<String> failures = new ArrayList<>();
        StringBuilder bounds = new StringBuilder();
        if (e.has("max")) {
            bounds.append(" at most ").append(e.get("max").asLong());
            if (n > e.get("max").asLong()) {
                failures.add(n + " > " + e.get("max").asLong());
            }
        }
        if (e.has("min")) {
            bounds.append(" at least ").append(e.get("min").asLong());
            if (n < e.get("min").asLong()) {
                failures.add(n + " < " + e.get("min").asLong());
            }
        }
        if (e.has("maxRatio")) {
            double ratio = packets == 0 ? 0 : (double) n / packets;
            bounds.append(" ratio at most ").append(e.get("maxRatio").asDouble());
            if (ratio > e.get("maxRatio").asDouble()) {
                failures.add(String.format(Locale.ROOT, "ratio %.6f > %s", ratio, e.get("maxRatio").asText()));
            }
        }
        if (bounds.length() == 0) {
            bounds.append(" at most 0");
            if (n > 0) {
                failures.add(n + " > 0");
            }
        }
        String detail = n + " " + what + (e.has("maxRatio") ? " of " + packets + " request packets" : "")
                + (failures.isEmpty() ? "" : ": " + String.join(", ", failures));
        return result(e, what + bounds, failures.isEmpty(), detail);
    }

    private static Result result(JsonNode e, String defaultName, boolean passed, String detail) {
        return new Result(e.has("name") ? e.get("name").asText() : defaultName.trim(), passed, detail);
    }

    /** A predicate on conversation ids for the expectation's scope. */
    private static Predicate<String> scope(JsonNode e, ReplayResult replay) {
        if (e.has("conversation")) {
            String id = e.get("conversation").asText();
            return id::equals;
        }
        if (e.has("qp")) {
            long qp = parseNumber(e.get("qp").asText());
            List<String> ids = replay.flows().stream()
                    .filter(f -> qpIs(f.a(), qp) || qpIs(f.b(), qp)).map(Flow::conversation).toList();
            return ids::contains;
        }
        return c -> true;
    }

    private static boolean qpIs(Flow.Side side, long qp) {
        return side.qpn() != null && side.qpn() == qp;
    }

    private static long requestPackets(ReplayResult replay, Predicate<String> inScope) {
        return replay.flows().stream().filter(f -> inScope.test(f.conversation()))
                .mapToLong(f -> f.a().requestPackets() + f.b().requestPackets()).sum();
    }

    private static long parseNumber(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
    }

    /** "100us", "2.5ms", "1s", "500ns" or a bare number of nanoseconds. */
    static long duration(String text, String where) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"µs", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
        try {
            for (String[] u : units) {
                if (t.endsWith(u[0])) {
                    return Math.round(Double.parseDouble(t.substring(0, t.length() - u[0].length()).trim())
                            * Long.parseLong(u[1]));
                }
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": '" + text + "' is not a duration (e.g. 100us, 2ms)");
        }
    }

    private static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.3f µs", nanos / 1000.0);
    }

    public Path source() {
        return source;
    }
}
