package io.rdmascope.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The random family: deterministic per seed, fast, free of error findings, and its truth self-consistent. */
class RandomScenarioTest {

    @Test
    void theSameSeedGivesTheSameCaptureAndTruth(@TempDir Path out) throws IOException {
        Path a = RandomScenario.write(out.resolve("a"), 17, RandomScenario.Options.defaults());
        Path b = RandomScenario.write(out.resolve("b"), 17, RandomScenario.Options.defaults());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertEquals(Files.readString(a.resolveSibling(Scenarios.TRUTH_FILE)),
                Files.readString(b.resolveSibling(Scenarios.TRUTH_FILE)));
        Path c = RandomScenario.write(out.resolve("c"), 18, RandomScenario.Options.defaults());
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
    }

    @Test
    void everySeedIsFreeOfErrorsAndItsTruthConsistent() {
        long start = System.nanoTime();
        int seeds = 200;
        for (long seed = 1; seed <= seeds; seed++) {
            RandomScenario.Result r = RandomScenario.generate(seed, RandomScenario.Options.defaults());
            Truth t = r.truth();
            String where = "seed " + seed;
            assertTrue(t.findings().stream().noneMatch(f -> f.severity().equals("error")), where + ": " + t.findings());
            Set<Integer> requestFrames = new HashSet<>();
            for (Truth.Message m : t.messages()) {
                assertFalse(m.frames().isEmpty(), where);
                for (int f : m.frames()) {
                    assertTrue(requestFrames.add(f), where + ": frame " + f + " in two messages");
                    assertTrue(f >= 1 && f <= r.frames().size(), where);
                }
            }
            for (int i = 1; i < r.frames().size(); i++) {
                assertTrue(r.frames().get(i - 1).timeNanos() <= r.frames().get(i).timeNanos(), where + ": not sorted");
            }
        }
        long perSeedMillis = (System.nanoTime() - start) / 1_000_000 / seeds;
        System.out.println("random family: " + perSeedMillis + " ms per seed");
    }
}
