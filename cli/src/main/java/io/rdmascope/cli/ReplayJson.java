package io.rdmascope.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The replay engine's records as JSON, the way the truth files are written: Jackson's field order
 * (the records' declaration order), two-space indent, LF line ends, {@code "key": value}, empty arrays
 * as {@code []}, and a final newline.
 */
final class ReplayJson {
    private static final ObjectWriter WRITER;

    static {
        DefaultIndenter lf = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("").withArrayEmptySeparator("");
        WRITER = new ObjectMapper().writer(new DefaultPrettyPrinter(separators).withObjectIndenter(lf)
                .withArrayIndenter(lf)).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    private ReplayJson() {
    }

    /** Writes {@code value} (a tree or a record) and a newline; leaves {@code out} open. */
    static void writeValue(OutputStream out, Object value) throws IOException {
        WRITER.writeValue(out, value);
        out.write('\n');
    }

    /** Writes {@code values} as one JSON array and a newline; leaves {@code out} open. */
    static void writeArray(OutputStream out, List<?> values) throws IOException {
        WRITER.writeValue(out, values);
        out.write('\n');
    }
}
