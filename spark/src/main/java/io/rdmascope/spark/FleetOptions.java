package io.rdmascope.spark;

import io.rdmascope.rules.Severity;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The job's command line: {@code INPUT OUTPUT [--vantage-pattern REGEX] [--fail-on SEVERITY]
 * [--root-causes] [--master URL]}; {@code --out OUTPUT} may name the output instead ({@code rdmascope fleet}'s
 * spelling). A later {@code --master} wins, so the launcher's default {@code local[*]} gives way to the user's. Bad usage is one line ({@link UsageError}), exit status 2.
 *
 * @param vantagePattern finds a file's vantage in its path under INPUT ('/'-separated): the group named
 *                       "vantage", else group 1; files it does not match are left out (and counted)
 * @param failOn         as {@code check --fail-on}
 * @param rootCausesOnly as {@code check --root-causes}
 * @param master         the Spark master for an embedded run ({@code rdmascope fleet}); null under spark-submit
 */
record FleetOptions(String input, String output, Pattern vantagePattern, Severity failOn, boolean rootCausesOnly,
                    String master) {
    /** By default each sub-directory of INPUT is a vantage: the first component of a file's path. */
    static final Pattern ONE_DIRECTORY_PER_VANTAGE = Pattern.compile("^([^/]+)/");

    static final String USAGE = "usage: FleetJob INPUT OUTPUT (or INPUT --out OUTPUT) [--vantage-pattern REGEX]"
            + " [--fail-on error|warning|note]"
            + " [--root-causes] [--master URL]";

    /** A usage mistake, said in one line. */
    static final class UsageError extends RuntimeException {
        UsageError(String message) {
            super(message);
        }
    }

    static FleetOptions parse(List<String> args) {
        String input = null;
        String output = null;
        Pattern pattern = ONE_DIRECTORY_PER_VANTAGE;
        Severity failOn = Severity.ERROR;
        boolean rootCauses = false;
        String master = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--vantage-pattern" -> {
                    String p = value(args, ++i, a);
                    try {
                        pattern = Pattern.compile(p);
                    } catch (PatternSyntaxException e) {
                        throw new UsageError("--vantage-pattern: not a regular expression: " + e.getDescription());
                    }
                    if (pattern.matcher("").groupCount() < 1) {
                        throw new UsageError("--vantage-pattern needs a group that captures the vantage, e.g. '^([^/]+)/'");
                    }
                }
                case "--fail-on" -> {
                    String s = value(args, ++i, a);
                    try {
                        failOn = Severity.parse(s.strip());
                    } catch (IllegalArgumentException e) {
                        throw new UsageError("--fail-on takes error, warning or note (got '" + s + "')");
                    }
                }
                case "--out" -> {
                    if (output != null) {
                        throw new UsageError("the output directory is given twice ('" + output + "')");
                    }
                    output = value(args, ++i, a);
                }
                case "--root-causes" -> rootCauses = true;
                case "--master" -> master = value(args, ++i, a);
                default -> {
                    if (a.startsWith("-") && a.length() > 1) {
                        throw new UsageError("unknown option " + a + "; " + USAGE);
                    }
                    if (input == null) {
                        input = a;
                    } else if (output == null) {
                        output = a;
                    } else {
                        throw new UsageError("unexpected argument '" + a + "'; " + USAGE);
                    }
                }
            }
        }
        if (output == null) {
            throw new UsageError(USAGE);
        }
        return new FleetOptions(input, output, pattern, failOn, rootCauses, master);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new UsageError(option + " needs a value");
        }
        return args.get(i);
    }

    /** The vantage a file at {@code relative} belongs to, or null when the pattern leaves it out. */
    String vantageOf(String relative) {
        java.util.regex.Matcher m = vantagePattern.matcher(relative);
        if (!m.find()) {
            return null;
        }
        String v;
        try {
            v = m.group("vantage");
        } catch (IllegalArgumentException e) {
            v = m.group(1);
        }
        return v == null || v.isEmpty() ? null : v;
    }
}
