package io.rdmascope.rules;

import io.rdmascope.replay.Observation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns the replay engine's observations into findings, under a rules configuration. */
public final class Rules {
    private Rules() {
    }

    /** Findings for {@code observations}, sorted by first frame (then rule id), as the reports list them. */
    public static List<Finding> evaluate(List<? extends Observation> observations, RulesConfig config) {
        Map<Rule, List<Finding>> byRule = new HashMap<>();
        Map<String, Summary> summaries = new HashMap<>();
        List<Rule> order = new ArrayList<>();
        for (Observation o : observations) {
            Rule rule = RuleCatalog.forObservation(o.kind());
            if (rule == null || !config.enabled(rule)) {
                continue;
            }
            List<Finding> list = byRule.computeIfAbsent(rule, r -> {
                order.add(r);
                return new ArrayList<>();
            });
            if (RuleCatalog.isSummarisedPerConversation(rule.id()) && o.conversation() != null) {
                summarise(list, summaries, rule, config, o);
                continue;
            }
            list.add(new Finding(rule.id(), config.severity(rule).id(), rule.summary(), rule.reference(),
                    o.frame() > 0 ? List.of(o.frame()) : List.of(), o.conversation(), o.detail()));
        }
        List<Finding> out = new ArrayList<>();
        for (Rule r : order) {
            List<Finding> list = byRule.get(r);
            if (list.size() > config.threshold(r)) {
                out.addAll(list);
            }
        }
        out.sort(Comparator.comparingLong(Finding::firstFrame).thenComparing(Finding::rule));
        return markConsequences(out);
    }

    /**
     * Root cause first (issue 15): in each conversation, a warning or error about the traffic that no
     * earlier one explains is an anomaly of its own (capture notes and artifacts, {@code IB-CAP-*} and
     * {@code IW-CAP-*}, are not anomalies of the traffic); a later finding of a kind that follows from
     * earlier trouble ({@link RuleCatalog#isConsequenceKind}) is a consequence of the newest anomaly
     * before it. Findings sorted by first frame in, the same order out.
     */
    static List<Finding> markConsequences(List<Finding> sorted) {
        Map<String, Long> newestAnomaly = new HashMap<>();
        List<Finding> out = new ArrayList<>(sorted.size());
        for (Finding f : sorted) {
            Long root = f.conversation() == null ? null : newestAnomaly.get(f.conversation());
            if (root != null && f.firstFrame() >= root && RuleCatalog.isConsequenceKind(f.rule())) {
                out.add(f.causedBy(root));
                continue;
            }
            out.add(f);
            Severity severity = Severity.parse(f.severity());
            if (f.conversation() != null && severity != Severity.NOTE && !f.rule().contains("-CAP-")
                    && f.firstFrame() != Long.MAX_VALUE) {
                newestAnomaly.put(f.conversation(), f.firstFrame());
            }
        }
        return out;
    }

    /** Frames a per-conversation summary lists before it only counts. */
    static final int SUMMARY_FRAMES = 100;

    /**
     * One finding per conversation for a rule whose observations say the same thing many times (packets
     * the capture missed: a lossy capture of a busy QP has thousands): the frames (the first
     * {@value #SUMMARY_FRAMES}), how many, and the first one's detail.
     */
    private static final class Summary {
        final int index;
        final String firstDetail;
        final List<Long> frames = new ArrayList<>();
        int count;

        Summary(int index, String firstDetail) {
            this.index = index;
            this.firstDetail = firstDetail;
        }
    }

    private static void summarise(List<Finding> list, Map<String, Summary> summaries, Rule rule, RulesConfig config,
                                  Observation o) {
        Summary s = summaries.get(rule.id() + ' ' + o.conversation());
        if (s == null) {
            s = new Summary(list.size(), o.detail());
            summaries.put(rule.id() + ' ' + o.conversation(), s);
            list.add(null);
        }
        s.count++;
        if (o.frame() > 0 && s.frames.size() < SUMMARY_FRAMES) {
            s.frames.add(o.frame());
        }
        String detail = s.count == 1 ? s.firstDetail : s.count + " packets missing from the capture on this "
                + "conversation (acknowledged, never shown, never resent); the first: " + s.firstDetail;
        list.set(s.index, new Finding(rule.id(), config.severity(rule).id(), rule.summary(), rule.reference(), s.frames,
                o.conversation(), detail));
    }

    /** How many findings there are of each severity. */
    public static Map<Severity, Integer> counts(List<Finding> findings) {
        Map<Severity, Integer> counts = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            counts.put(s, 0);
        }
        for (Finding f : findings) {
            counts.merge(Severity.parse(f.severity()), 1, Integer::sum);
        }
        return counts;
    }
}
