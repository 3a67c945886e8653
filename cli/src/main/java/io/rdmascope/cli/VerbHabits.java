package io.rdmascope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The habits every verb shares, installed on the command tree rather than declared per verb so that
 * a verb added later cannot miss them (docs/cli.md):
 * <ul>
 *   <li>{@code -h}/{@code --help} on every verb, always (picocli then skips required-option checks).</li>
 *   <li>{@code -V} is tshark's "detail": a verb that has no detail view gets a hidden {@code -V} that is
 *       refused with one line and exit status 2 — never picocli's version flag, which printed nothing
 *       on a verb and succeeded.</li>
 *   <li>An unknown verb or option is answered with the nearest valid one.</li>
 * </ul>
 */
final class VerbHabits {
    private static final String NO_DETAIL = "no detail view: -V is refused";

    private VerbHabits() {
    }

    /** Adds {@code -h/--help} and the refusing {@code -V} to every subcommand that lacks them. */
    static void install(CommandLine root) {
        for (CommandLine verb : root.getSubcommands().values()) {
            CommandSpec spec = verb.getCommandSpec();
            if (spec.findOption("--help") == null && spec.findOption("-h") == null) {
                spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                        .description("Show this help message and exit.").build());
            }
            if (spec.findOption("-V") == null) {
                spec.addOption(OptionSpec.builder("-V").arity("0").type(boolean.class).hidden(true)
                        .description(NO_DETAIL).build());
            }
        }
    }

    /** Whether {@code verb} answers -V with detail (rather than refusing it). */
    static boolean hasDetail(CommandSpec verb) {
        OptionSpec v = verb.findOption("-V");
        return v != null && !NO_DETAIL.equals(String.join("", v.description()));
    }

    /**
     * The refusal when the parsed verb was given -V and has no detail view, else null: one line
     * naming where the detail is.
     */
    static String refusedDetail(ParseResult parsed) {
        ParseResult verb = parsed;
        while (verb.subcommand() != null) {
            verb = verb.subcommand();
        }
        if (verb.commandSpec().parent() == null || !verb.hasMatchedOption("-V") || hasDetail(verb.commandSpec())) {
            return null;
        }
        String name = verb.commandSpec().name();
        return name + " has no detail view (-V); the per-frame tree is 'rdmascope dissect -V FILE'"
                + (verb.commandSpec().findOption("--json") != null ? ", every field of " + name + " is in --json" : "");
    }

    /**
     * Writes the answer to an unknown verb or option with the nearest valid name; false when the
     * exception is about something else (the caller then prints picocli's message).
     */
    static boolean suggest(UnmatchedArgumentException ex, PrintWriter err) {
        List<String> unmatched = ex.getUnmatched();
        if (unmatched.isEmpty()) {
            return false;
        }
        CommandLine where = ex.getCommandLine();
        String arg = unmatched.get(0);
        if (arg.equals("-V") && where.getCommandSpec().parent() == null) {
            err.println("rdmascope: -V (detail) belongs to a verb, as in 'rdmascope dissect -V FILE'; "
                    + "the version is 'rdmascope --version'");
            return true;
        }
        if (arg.startsWith("-")) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            List<String> options = new ArrayList<>();
            for (OptionSpec o : where.getCommandSpec().options()) {
                if (!o.hidden()) {
                    options.addAll(List.of(o.names()));
                }
            }
            String near = Nearest.of(name, options);
            err.println("rdmascope: " + verbName(where) + "unknown option '" + name + "'"
                    + (near == null ? "" : "; did you mean '" + near + "'?"));
            return true;
        }
        if (where.getCommandSpec().parent() == null) { // the top command takes no positional arguments

            Map<String, CommandLine> verbs = where.getSubcommands();
            String near = Nearest.of(arg, verbs.keySet());
            err.println("rdmascope: unknown command '" + arg + "'" + (near == null
                    ? " (commands: " + String.join(", ", verbs.keySet()) + ")" : "; did you mean '" + near + "'?"));
            return true;
        }
        return false;
    }

    private static String verbName(CommandLine where) {
        return where.getCommandSpec().parent() == null ? "" : where.getCommandName() + ": ";
    }

    /** The nearest name by edit distance, when it is near enough to be a typo. */
    static final class Nearest {
        private Nearest() {
        }

        static String of(String typed, Collection<String> names) {
            String best = null;
            int bestDistance = Integer.MAX_VALUE;
            for (String n : names) {
                int d = distance(typed, n);
                if (d < bestDistance) {
                    best = n;
                    bestDistance = d;
                }
            }
            // A typo changes a few characters: a third of the word, at least two.
            return best != null && bestDistance <= Math.max(2, typed.length() / 3) ? best : null;
        }

        /** Optimal-string-alignment distance: insertions, deletions, substitutions and swapped neighbours. */
        static int distance(String a, String b) {
            int[][] d = new int[a.length() + 1][b.length() + 1];
            for (int i = 0; i <= a.length(); i++) {
                d[i][0] = i;
            }
            for (int j = 0; j <= b.length(); j++) {
                d[0][j] = j;
            }
            for (int i = 1; i <= a.length(); i++) {
                for (int j = 1; j <= b.length(); j++) {
                    int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                    d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                    if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                    }
                }
            }
            return d[a.length()][b.length()];
        }
    }
}
