package io.rdmascope.spark;

import io.rdmascope.rules.Severity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate as check decides it (CaptureCheck.fails): severity at or above --fail-on, root causes only with --root-causes. */
class SummaryTest {
    @Test
    void aConsequenceFailsTheGateOnlyWithoutRootCauses() {
        FleetJob.Summary all = new FleetJob.Summary(Severity.ERROR, false);
        all.add("h1", "IB-RC-PSN-003", "error", false, 2);
        assertFalse(all.passed());
        FleetJob.Summary rootCauses = new FleetJob.Summary(Severity.ERROR, true);
        rootCauses.add("h1", "IB-RC-PSN-003", "error", false, 2);
        assertTrue(rootCauses.passed());
        rootCauses.add("h2", "IB-RC-NAK-001", "error", true, 1);
        assertFalse(rootCauses.passed());
    }

    @Test
    void belowTheThresholdPasses() {
        FleetJob.Summary s = new FleetJob.Summary(Severity.ERROR, false);
        s.add("h1", "IB-CAP-003", "note", true, 5);
        s.add("h1", "IB-RC-PSN-003", "warning", true, 5);
        assertTrue(s.passed());
        FleetJob.Summary warning = new FleetJob.Summary(Severity.WARNING, false);
        warning.add("h1", "IB-RC-PSN-003", "warning", true, 1);
        assertFalse(warning.passed());
    }
}
