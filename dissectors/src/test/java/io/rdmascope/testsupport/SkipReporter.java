package io.rdmascope.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prints on the console why tests were skipped: Surefire only counts them ("Skipped: 3"), so a
 * run without tshark or without {@code ../shared} would otherwise look complete. Each distinct
 * reason is printed once, when first seen, with the test that met it; the end of the run says how
 * many tests each reason skipped. Registered for every module that uses the dissectors test-jar
 * through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}.
 */
public final class SkipReporter implements TestExecutionListener {
    private final PrintStream console;
    /** Reason to number of tests it skipped, in the order first seen. */
    private final Map<String, Integer> skipsByReason = new LinkedHashMap<>();

    public SkipReporter() {
        this(System.out);
    }

    SkipReporter(PrintStream console) {
        this.console = console;
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        record(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            record(test, result.getThrowable().map(Throwable::getMessage).orElse("assumption not met"));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        skipsByReason.forEach((reason, count) -> {
            if (count > 1) {
                console.println("[SKIPPED x" + count + "] " + reason);
            }
        });
    }

    private void record(TestIdentifier test, String rawReason) {
        String reason = reasonText(rawReason);
        Integer before = skipsByReason.merge(reason, 1, Integer::sum) - 1;
        if (before == 0) {
            console.println("[SKIPPED] " + where(test) + " > " + test.getDisplayName() + ": " + reason);
        }
    }

    /** "Assumption failed: SKIPPED: tshark not found" reads as "tshark not found". */
    static String reasonText(String raw) {
        String reason = raw == null || raw.isBlank() ? "no reason given" : raw.strip();
        for (String prefix : new String[] {"Assumption failed:", "SKIPPED:"}) {
            if (reason.startsWith(prefix)) {
                reason = reason.substring(prefix.length()).strip();
            }
        }
        return reason;
    }

    /** The test's class, short: the display name alone ("[3] linlinw5_rping.pcap") rarely says which test. */
    private static String where(TestIdentifier test) {
        String className = test.getSource().map(source -> {
            if (source instanceof MethodSource method) {
                return method.getClassName();
            }
            return source instanceof ClassSource type ? type.getClassName() : null;
        }).orElse(null);
        return className == null ? test.getUniqueId() : className.substring(className.lastIndexOf('.') + 1);
    }
}
