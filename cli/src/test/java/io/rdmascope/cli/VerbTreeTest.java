package io.rdmascope.cli;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run builds only the verb it runs (Main.commandLineFor, for start-up): that verb must parse and
 * print exactly as in the whole tree, and what lists the verbs must still get them all.
 */
class VerbTreeTest {
    private static CommandLine treeFor(String... args) {
        return Main.commandLineFor(args, OutputStream.nullOutputStream(), Map.of());
    }

    private final CommandLine whole = Main.commandLine(OutputStream.nullOutputStream(), Map.of());

    @TestFactory
    Stream<DynamicTest> aVerbAloneIsTheVerbOfTheWholeTree() {
        return CliHabitsTest.verbs().stream().filter(verb -> !verb.equals("help")).map(verb ->
                DynamicTest.dynamicTest(verb, () -> {
                    CommandLine alone = treeFor(verb, "some-file");
                    assertEquals(List.of(verb), List.copyOf(alone.getSubcommands().keySet()));
                    CommandLine.Model.CommandSpec mine = alone.getSubcommands().get(verb).getCommandSpec();
                    CommandLine.Model.CommandSpec wholeSpec = whole.getSubcommands().get(verb).getCommandSpec();
                    // Usage text names every option, parameter and default: the same parser.
                    assertEquals(whole.getSubcommands().get(verb).getUsageMessage(),
                            alone.getSubcommands().get(verb).getUsageMessage());
                    assertEquals(wholeSpec.options().size(), mine.options().size());
                    assertEquals(wholeSpec.positionalParameters().size(), mine.positionalParameters().size());
                }));
    }

    @Test
    void tsharkStyleDashRBuildsDissectAlone() {
        assertEquals(List.of("dissect"),
                List.copyOf(treeFor(Main.tsharkStyle(new String[] {"-r", "x.pcap"})).getSubcommands().keySet()));
    }

    @Test
    void aLoneVersionBuildsNoVerbAndStillAnswers() {
        assertTrue(treeFor("--version").getSubcommands().isEmpty());
        Cli r = Cli.run("--version");
        assertEquals(0, r.status(), r.err());
        assertEquals("rdmascope 0.1.0", r.out().strip());
    }

    @Test
    void whatListsTheVerbsGetsThemAll() {
        for (String[] args : List.of(new String[] {}, new String[] {"--help"}, new String[] {"help", "summary"},
                new String[] {"sumary", "x.pcap"}, new String[] {"--version", "summary"})) {
            assertEquals(whole.getSubcommands().keySet(), treeFor(args).getSubcommands().keySet(), String.join(" ", args));
        }
        Cli typo = Cli.run("sumary", "x.pcap");
        assertEquals(2, typo.status());
        assertTrue(typo.err().contains("did you mean 'summary'?"), typo.err());
        Cli help = Cli.run("help", "check");
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().contains("Usage: rdmascope check "), help.out());
    }
}
