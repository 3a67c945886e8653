package io.rdmascope.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in-process and captures what it prints. */
record Cli(int status, String out, String err) {
    static Cli run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int status = Main.run(args, out, new PrintWriter(err, true));
        return new Cli(status, out.toString(StandardCharsets.UTF_8), err.toString());
    }
}
