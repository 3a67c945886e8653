package io.rdmascope.replay;

import java.io.IOException;

/** Public test access to the committed scenario captures for tests outside this package. */
public final class TestReplays {
    private TestReplays() {
    }

    /** Replays committed scenario {@code name} (its capture in sample-pcaps/cases/NAME/). */
    public static ReplayResult scenario(String name) throws IOException {
        io.rdmascope.samples.ScenarioCatalog.Scenario s = io.rdmascope.samples.ScenarioCatalog.byName(name);
        return Replays.of(Replays.cases().resolve(name).resolve(name + "." + s.format().extension()));
    }
}
