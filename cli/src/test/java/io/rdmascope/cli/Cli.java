package io.rdmascope.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Runs the CLI in-process and captures what it prints. */
record Cli(int status, String out, String err) {
    /** With an empty environment: no COLUMNS, so output is never fitted to a terminal. */
    static Cli run(String... args) {
        return runWith(Map.of(), args);
    }

    static Cli runWith(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int status = Main.run(args, out, new PrintWriter(err, true), env);
        return new Cli(status, out.toString(StandardCharsets.UTF_8), err.toString());
    }
}
