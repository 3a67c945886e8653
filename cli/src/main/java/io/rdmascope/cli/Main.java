package io.rdmascope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code rdmascope} command. Exit status: 0 clean, 1 findings over the threshold (check), 2 bad
 * input or usage. Errors are one line on stderr, never a stack trace (set RDMASCOPE_DEBUG=1 to see one).
 */
@Command(name = "rdmascope", mixinStandardHelpOptions = true, version = "rdmascope 0.1.0",
        description = "Capture and protocol analyzer for RDMA traffic (InfiniBand, RoCEv1, RoCEv2).",
        subcommands = {DissectCommand.class, MessagesCommand.class, FlowsCommand.class, SummaryCommand.class, FieldsCommand.class,
                CaptureCommand.class,
                InterfacesCommand.class,
                GenerateCommand.class, CheckCommand.class, ExplainCommand.class, RulesCommand.class, CommandLine.HelpCommand.class})
public final class Main {
    public static final int EXIT_OK = 0;
    public static final int EXIT_BAD_INPUT = 2;

    /** Where verbs write bulk output as bytes (fast; tests pass their own stream). */
    private final java.io.OutputStream stdout;

    private Main(java.io.OutputStream stdout) {
        this.stdout = stdout;
    }

    java.io.OutputStream stdout() {
        return stdout;
    }

    public static void main(String[] args) {
        java.io.OutputStream stdout = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        System.exit(run(args, stdout, new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns its exit status; used by tests without forking a JVM. */
    public static int run(String[] args, java.io.OutputStream stdout, PrintWriter err) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(stdout,
                java.nio.charset.StandardCharsets.UTF_8), true);
        CommandLine cl = new CommandLine(new Main(stdout));
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("rdmascope: " + ex.getMessage());
            CommandLine sub = ex.getCommandLine();
            err.println("Try 'rdmascope " + (sub.getCommandName().equals("rdmascope") ? "" : sub.getCommandName() + " ")
                    + "--help' for more information.");
            return EXIT_BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            err.println("rdmascope: " + (ex instanceof java.io.IOException || ex instanceof DissectCommand.UsageError
                    ? "" : "internal error: ") + oneLine(ex));
            if (System.getenv("RDMASCOPE_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            return EXIT_BAD_INPUT;
        });
        try {
            return cl.execute(tsharkStyle(args));
        } catch (RuntimeException | Error e) {
            // Anything picocli's handler did not see (errors in class initialisation, say): one line.
            err.println("rdmascope: internal error: " + oneLine(e));
            if (System.getenv("RDMASCOPE_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return EXIT_BAD_INPUT;
        }
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
