package io.rdmascope.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fleet verb: listed in help, honest that Spark is not in the CLI, one line when it cannot run. */
class FleetCommandTest {
    @Test
    void helpListsFleetAndSaysWhatItDownloads() {
        Cli top = Cli.run("--help");
        assertTrue(top.out().lines().anyMatch(l -> l.strip().startsWith("fleet ")), top.out());
        Cli r = Cli.run("fleet", "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("--out=OUT_DIR"), r.out());
        assertTrue(r.out().replaceAll("\\s+", " ").contains("downloading Spark"), r.out());
    }

    @Test
    void withoutItsLauncherFleetSaysWhereToRunItInOneLine() {
        // Tests run the CLI from target/classes, never from a checkout's jar: there is no launcher to hand over to.
        Cli r = Cli.run("fleet", "captures", "--out", "tables");
        assertEquals(2, r.status());
        assertEquals("", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("./rdmascope launcher") && r.err().contains("spark-submit"), r.err());
    }

    @Test
    void theOutputDirectoryIsRequired() {
        Cli r = Cli.run("fleet", "captures");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--out"), r.err());
    }
}
