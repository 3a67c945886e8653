package io.rdmascope.cli.reports;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.rules.Severity;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * JSON the way every rdmascope JSON output looks (the {@code messages --json} printer): members in
 * insertion order, two-space indent, LF, {@code "key": value}, {@code []} for empty arrays, final
 * newline. Reports build trees rather than serialise records so that the contract is spelled out
 * here, not inherited from whatever the engine's records grow.
 */
final class Json {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectWriter WRITER;

    static {
        DefaultIndenter lf = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("").withArrayEmptySeparator("");
        WRITER = new ObjectMapper().writer(new DefaultPrettyPrinter(separators).withObjectIndenter(lf)
                .withArrayIndenter(lf)).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    private Json() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    /** {"error": n, "warning": n, "note": n}. */
    static ObjectNode counts(Map<Severity, Integer> counts) {
        ObjectNode o = object();
        for (Severity s : Severity.values()) {
            o.put(s.id(), counts.getOrDefault(s, 0));
        }
        return o;
    }

    static void write(OutputStream out, JsonNode tree) throws IOException {
        WRITER.writeValue(out, tree);
        out.write('\n');
        out.flush();
    }
}
