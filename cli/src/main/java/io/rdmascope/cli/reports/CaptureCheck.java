package io.rdmascope.cli.reports;

import io.rdmascope.replay.VantageUnion;
import io.rdmascope.rules.Expectations;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.Severity;

import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * What {@code check} found in one capture: its findings (sorted by first frame, as
 * {@link Rules#evaluate} gives them), the outcome of each expectation, and the error that cut the
 * reading short, if any (then everything else covers the frames before the damage).
 *
 * @param capture      the capture's path exactly as the user gave it (reports print nothing else)
 * @param findings     the findings, sorted by first frame
 * @param expectations one result per expectation of the {@code --expect} file, in file order
 * @param readError    one line naming the damage, or null when the file was read to its end
 * @param rootCausesOnly {@code --root-causes}: only findings that are root causes can fail the capture
 * @param sightings    for a union of several vantage points (issue 20, {@code check --union}): each point's
 *                     own frame of a union frame, in the order the points were named; null for one capture
 * @param pointFiles   for a union: each point's name and its capture's path as the user gave it, in the order
 *                     named (reports locate a finding in each point's own file); empty for one capture
 */
public record CaptureCheck(String capture, List<Finding> findings, List<Expectations.Result> expectations,
                           String readError, boolean rootCausesOnly, LongFunction<List<VantageUnion.Sighting>> sightings,
                           Map<String, String> pointFiles) {
    public CaptureCheck {
        findings = List.copyOf(findings);
        expectations = List.copyOf(expectations);
        pointFiles = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(pointFiles));
    }

    public CaptureCheck(String capture, List<Finding> findings, List<Expectations.Result> expectations,
                        String readError, boolean rootCausesOnly) {
        this(capture, findings, expectations, readError, rootCausesOnly, null, Map.of());
    }

    /** Each point's own frame of union frame {@code frame}; empty for one capture. */
    public List<VantageUnion.Sighting> sightingsOf(long frame) {
        return sightings == null ? List.of() : sightings.apply(frame);
    }

    /** Frame {@code frame} as the text reports name it: its number, or for a union every point's frame. */
    public String frameText(long frame) {
        List<VantageUnion.Sighting> seen = sightingsOf(frame);
        return seen.isEmpty() ? Long.toString(frame)
                : String.join("=", seen.stream().map(VantageUnion.Sighting::text).toList());
    }

    public CaptureCheck(String capture, List<Finding> findings, List<Expectations.Result> expectations,
                        String readError) {
        this(capture, findings, expectations, readError, false);
    }

    /** Whether {@code f} counts toward the verdict: at or above {@code failOn}, and a root cause when only those count. */
    public boolean fails(Finding f, Severity failOn) {
        return Severity.parse(f.severity()).reaches(failOn) && (!rootCausesOnly || f.rootCause());
    }

    /** Findings per severity, every severity present. */
    public Map<Severity, Integer> counts() {
        return Rules.counts(findings);
    }

    /** Whether a finding reaches {@code failOn}. */
    public boolean hasFindingAtOrAbove(Severity failOn) {
        return findings.stream().anyMatch(f -> fails(f, failOn));
    }

    /** No finding at or above {@code failOn} and every expectation met (a read error is the exit status's business). */
    public boolean passed(Severity failOn) {
        return !hasFindingAtOrAbove(failOn) && expectations.stream().allMatch(Expectations.Result::passed);
    }
}
