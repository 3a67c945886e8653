package io.rdmascope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * The {@code rdmascope} command. Exit status: 0 clean, 1 findings over the threshold (check), 2 bad
 * input or usage. Errors are one line on stderr, never a stack trace (set RDMASCOPE_DEBUG=1 to see one).
 */
@Command(name = "rdmascope", version = "rdmascope 0.1.0",
        description = "Capture and protocol analyzer for RDMA traffic (InfiniBand, RoCEv1, RoCEv2).")
public final class Main {
    /**
     * The verbs, in the order help lists them. Added in code rather than by the annotation's
     * {@code subcommands} so that a run builds the picocli model of the one verb it runs: building all
     * fourteen by reflection is about 0.23 s of a 0.3 s start, one about 0.1 s (docs/performance.md,
     * "Issue 18: start-up and the measuring script").
     */
    static final List<Class<?>> VERBS = List.of(DissectCommand.class, MessagesCommand.class, OpsCommand.class, FlowsCommand.class,
            SummaryCommand.class, FieldsCommand.class, CaptureCommand.class, InterfacesCommand.class,
            GenerateCommand.class, CheckCommand.class, ExplainCommand.class, RulesCommand.class, MergeCommand.class,
            CorrelateCommand.class, FleetCommand.class, CommandLine.HelpCommand.class);

    public static final int EXIT_OK = 0;
    public static final int EXIT_BAD_INPUT = 2;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    /** Only the long name: -V is tshark's "detail" on the verbs, so it cannot also mean version here. */
    @Option(names = "--version", versionHelp = true, description = "Print version information and exit.")
    boolean version;

    /** Where verbs write bulk output as bytes (fast; tests pass their own stream). */
    private final java.io.OutputStream stdout;
    /** The environment the verbs read (COLUMNS); tests pass their own, so a developer's shell cannot change goldens. */
    private final Map<String, String> env;

    private Main(java.io.OutputStream stdout, Map<String, String> env) {
        this.stdout = stdout;
        this.env = env;
    }

    java.io.OutputStream stdout() {
        return stdout;
    }

    /** The terminal width tables fit, or 0 for "do not truncate" (docs/cli.md, "Tables and the terminal"). */
    int terminalColumns() {
        return TableWidth.columns(env);
    }

    public static void main(String[] args) {
        java.io.OutputStream stdout = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        System.exit(run(args, stdout, new PrintWriter(System.err, true), System.getenv()));
    }

    /** Runs the command line with an empty environment; used by tests without forking a JVM. */
    public static int run(String[] args, java.io.OutputStream stdout, PrintWriter err) {
        return run(args, stdout, err, Map.of());
    }

    /** Runs the command line and returns its exit status. */
    public static int run(String[] args, java.io.OutputStream stdout, PrintWriter err, Map<String, String> env) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(stdout,
                java.nio.charset.StandardCharsets.UTF_8), true);
        String[] line = tsharkStyle(args);
        CommandLine cl = commandLineFor(line, stdout, env);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionStrategy(parsed -> {
            String refused = parsed.isUsageHelpRequested() ? null : VerbHabits.refusedDetail(parsed);
            if (refused != null) {
                err.println("rdmascope: " + refused);
                return EXIT_BAD_INPUT;
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        cl.setParameterExceptionHandler((ex, a) -> {
            if (ex instanceof CommandLine.UnmatchedArgumentException u && VerbHabits.suggest(u, err)) {
                return EXIT_BAD_INPUT;
            }
            err.println("rdmascope: " + ex.getMessage());
            CommandLine sub = ex.getCommandLine();
            err.println("Try 'rdmascope " + (sub.getCommandName().equals("rdmascope") ? "" : sub.getCommandName() + " ")
                    + "--help' for more information.");
            return EXIT_BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            if (BrokenPipe.is(ex)) {
                return EXIT_OK; // the reader went away (| head): tshark is silent too, and so is every Unix filter
            }
            err.println("rdmascope: " + (ex instanceof java.io.IOException || ex instanceof DissectCommand.UsageError
                    ? "" : "internal error: ") + oneLine(ex));
            if (System.getenv("RDMASCOPE_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            return EXIT_BAD_INPUT;
        });
        try {
            return cl.execute(line);
        } catch (RuntimeException | Error e) {
            // Anything picocli's handler did not see (errors in class initialisation, say): one line.
            err.println("rdmascope: internal error: " + oneLine(e));
            if (System.getenv("RDMASCOPE_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return EXIT_BAD_INPUT;
        }
    }

    /** The command tree with every verb's shared habits installed (tests walk it). */
    static CommandLine commandLine(java.io.OutputStream stdout, Map<String, String> env) {
        return commandLine(stdout, env, VERBS);
    }

    /**
     * The tree a command line needs: only its verb when its first word names one exactly (what the
     * verb parses and prints is the same as in the whole tree); none for a lone --version; the whole
     * tree otherwise, since top-level help, {@code help VERB} and the answer to an unknown verb list
     * the verbs.
     */
    static CommandLine commandLineFor(String[] args, java.io.OutputStream stdout, Map<String, String> env) {
        if (args.length == 1 && args[0].equals("--version")) {
            return commandLine(stdout, env, List.of());
        }
        if (args.length > 0) {
            for (Class<?> verb : VERBS) {
                if (verb != CommandLine.HelpCommand.class && verb.getAnnotation(Command.class).name().equals(args[0])) {
                    return commandLine(stdout, env, List.of(verb));
                }
            }
        }
        return commandLine(stdout, env);
    }

    private static CommandLine commandLine(java.io.OutputStream stdout, Map<String, String> env, List<Class<?>> verbs) {
        CommandLine cl = new CommandLine(new Main(stdout, env));
        for (Class<?> verb : verbs) {
            cl.addSubcommand(verb);
        }
        VerbHabits.install(cl);
        return cl;
    }

    /** tshark users type {@code rdmascope -r FILE …}: treat a leading -r as the dissect verb. */
    static String[] tsharkStyle(String[] args) {
        if (args.length > 0 && args[0].startsWith("-r")) {
            String[] withVerb = new String[args.length + 1];
            withVerb[0] = "dissect";
            System.arraycopy(args, 0, withVerb, 1, args.length);
            return withVerb;
        }
        return args;
    }

    static String oneLine(Throwable ex) {
        String message = ex.getMessage();
        if (message == null || message.isBlank()) {
            message = ex.getClass().getSimpleName();
        }
        if (ex instanceof java.nio.file.NoSuchFileException) {
            message = "no such file: " + message;
        } else if (ex instanceof java.nio.file.AccessDeniedException) {
            message = "permission denied: " + message;
        }
        return message.replace('\n', ' ');
    }
}
