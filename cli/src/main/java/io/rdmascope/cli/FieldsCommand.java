package io.rdmascope.cli;

import io.rdmascope.field.Field;
import io.rdmascope.field.FieldRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Lists every field name, like {@code tshark -G fields}: abbreviation, type, display name. */
@Command(name = "fields", description = "List every field and protocol name (like tshark -G fields), then the replay's analysis "
        + "fields (rdmascope.analysis.*, rdmascope.message.*) with their description.")
final class FieldsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (FieldRegistry.Entry e : FieldRegistry.standard().entries()) {
            if (e instanceof FieldRegistry.FieldEntry fe) {
                Field f = fe.field();
                out.println(f.abbrev() + "\tFT_" + f.type() + "\t" + f.name() + "\t"
                        + (f.base() == null ? "" : "BASE_" + f.base()) + "\t0x" + Long.toHexString(f.mask()));
            } else if (e instanceof FieldRegistry.HeaderEntry he) {
                out.println(he.abbrev() + "\tFT_" + he.header().selfType() + "\t" + he.header().name() + "\t\t0x0");
            } else {
                out.println(e.abbrev() + "\tFT_PROTOCOL\t" + ((FieldRegistry.ProtocolEntry) e).protocol().name()
                        + "\t\t0x0");
            }
        }
        // The replay's analysis fields (-Y, -e, -V's analysis node): their type, then what they say.
        for (io.rdmascope.replay.FrameAnalysis.Field f : io.rdmascope.replay.FrameAnalysis.allFields()) {
            out.println(f.name() + "\tFT_" + analysisType(f.type()) + "\t" + f.description() + "\t\t0x0");
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /** Wireshark's type name for an analysis field's values, as -e prints them. */
    private static String analysisType(io.rdmascope.replay.FrameAnalysis.Type t) {
        return switch (t) {
            case BOOLEAN -> "BOOLEAN";
            case UNSIGNED -> "UINT64";
            case STRING -> "STRING";
            case NANOSECONDS -> "RELATIVE_TIME";
            case FRAME -> "FRAMENUM";
        };
    }
}
