package io.rdmascope.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.opentest4j.TestAbortedException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SkipReporterTest {
    private static TestIdentifier test(String method) {
        UniqueId id = UniqueId.root("engine", "x").append("method", method);
        return TestIdentifier.from(new AbstractTestDescriptor(id, method + "()",
                MethodSource.from("io.rdmascope.cli.TsharkFieldsParityTest", method)) {
            @Override
            public Type getType() {
                return Type.TEST;
            }
        });
    }

    @Test
    void eachReasonPrintedOnceWithItsTestThenCountedAtTheEnd() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SkipReporter reporter = new SkipReporter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        TestExecutionResult noTshark = TestExecutionResult.aborted(
                new TestAbortedException("Assumption failed: SKIPPED: tshark not installed"));
        reporter.executionFinished(test("first"), noTshark);
        reporter.executionFinished(test("second"), noTshark);
        reporter.executionFinished(test("passed"), TestExecutionResult.successful());
        reporter.executionSkipped(test("disabled"), "needs root");
        reporter.testPlanExecutionFinished(null);
        assertEquals("""
                [SKIPPED] TsharkFieldsParityTest > first(): tshark not installed
                [SKIPPED] TsharkFieldsParityTest > disabled(): needs root
                [SKIPPED x2] tshark not installed
                """, bytes.toString(StandardCharsets.UTF_8));
    }
}
