package io.rdmascope.cli.reports;

import io.rdmascope.rules.Rule;
import io.rdmascope.rules.Severity;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code check} invocation, everything a report prints: the captures in the order given, the
 * {@code --fail-on} threshold, and the catalog's rules as the rules file left them (enabled ones, in
 * catalog order, with their effective severity).
 */
public record CheckRun(List<CaptureCheck> captures, Severity failOn, List<EnabledRule> enabledRules,
                       String toolVersion) {
    public CheckRun {
        captures = List.copyOf(captures);
        enabledRules = List.copyOf(enabledRules);
    }

    /**
     * A catalog rule the rules file left on, with the severity its findings carry and its threshold
     * (findings are reported only when the rule fires more than this many times; 0 by default).
     */
    public record EnabledRule(Rule rule, Severity severity, int threshold) {
    }

    /** Every capture passed. */
    public boolean passed() {
        return captures.stream().allMatch(c -> c.passed(failOn));
    }

    /** Findings per severity over all captures. */
    public Map<Severity, Integer> totals() {
        Map<Severity, Integer> totals = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            totals.put(s, 0);
        }
        for (CaptureCheck c : captures) {
            c.counts().forEach((s, n) -> totals.merge(s, n, Integer::sum));
        }
        return totals;
    }

    static String verdict(boolean passed) {
        return passed ? "pass" : "fail";
    }
}
