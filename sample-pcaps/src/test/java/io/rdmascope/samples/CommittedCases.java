package io.rdmascope.samples;

import io.rdmascope.testsupport.SharedFiles;

import io.rdmascope.samples.ScenarioCatalog.Scenario;

import java.nio.file.Path;

/** Where the committed scenario cases live in the source tree. */
final class CommittedCases {
    private CommittedCases() {
    }

    static Path root() {
        return SharedFiles.projectRoot();
    }

    static Path folder() {
        return root().resolve("sample-pcaps").resolve("cases");
    }

    static Path caseFolder(Scenario s) {
        return folder().resolve(s.name());
    }

    static Path capture(Scenario s) {
        return caseFolder(s).resolve(s.name() + "." + s.format().extension);
    }

    static String regenerateHint() {
        return "if the change is deliberate, regenerate with sample-pcaps/update-goldens and review the diff";
    }
}
