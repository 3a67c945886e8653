package io.rdmascope.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.rules.Finding;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The three output tables. Their columns are the CLI's JSON contracts — {@code messages --json}
 * ({@link Message}), {@code flows --json} ({@link Flow}), a finding of {@code check --report json}
 * ({@link Finding}) — read off the records the contracts serialise, so a field the engine adds reaches
 * the tables too; plus {@code vantage} and {@code file} (the ring file of the row's first frame) in front.
 * Every frame reference becomes {@code {file, frame}}: the ring file and the frame's number within it.
 */
final class Tables {
    static final String MESSAGES = "messages";
    static final String FLOWS = "flows";
    static final String FINDINGS = "findings";

    /** (ring file, frame number within it). */
    static final StructType FRAME = new StructType()
            .add("file", DataTypes.StringType, false)
            .add("frame", DataTypes.LongType, false);

    /** Record components that hold frame numbers, by record and name. */
    private static final Set<String> FRAME_FIELDS = Set.of("Message.frames", "Message.responseFrames",
            "Message.completionFrame", "Finding.frames", "Finding.causedBy", "Transition.frame");

    private Tables() {
    }

    static StructType schema(String table) {
        StructType contract = switch (table) {
            case MESSAGES -> struct(Message.class);
            case FLOWS -> struct(Flow.class);
            case FINDINGS -> struct(Finding.class);
            default -> throw new IllegalArgumentException(table);
        };
        StructType t = new StructType().add("vantage", DataTypes.StringType, false)
                .add("file", DataTypes.StringType, true);
        for (StructField f : contract.fields()) {
            t = t.add(f);
        }
        return t;
    }

    private static StructType struct(Class<?> record) {
        StructType t = new StructType();
        for (RecordComponent c : record.getRecordComponents()) {
            String name = record.getSimpleName() + "." + c.getName();
            DataType type = FRAME_FIELDS.contains(name)
                    ? (List.class.isAssignableFrom(c.getType()) ? DataTypes.createArrayType(FRAME, false) : FRAME)
                    : type(c.getGenericType());
            t = t.add(c.getName(), type, !c.getType().isPrimitive());
        }
        return t;
    }

    private static DataType type(Type type) {
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type[] args = p.getActualTypeArguments();
            if (List.class.isAssignableFrom(raw)) {
                return DataTypes.createArrayType(type(args[0]), true);
            }
            if (Map.class.isAssignableFrom(raw)) {
                return DataTypes.createMapType(DataTypes.StringType, type(args[1]), true); // JSON keys are text
            }
            throw new IllegalArgumentException("no column type for " + type);
        }
        Class<?> c = (Class<?>) type;
        if (c == String.class || c.isEnum()) {
            return DataTypes.StringType;
        }
        if (c == int.class || c == Integer.class) {
            return DataTypes.IntegerType;
        }
        if (c == long.class || c == Long.class) {
            return DataTypes.LongType;
        }
        if (c == double.class || c == Double.class) {
            return DataTypes.DoubleType;
        }
        if (c == boolean.class || c == Boolean.class) {
            return DataTypes.BooleanType;
        }
        if (c == long[].class) {
            return DataTypes.createArrayType(DataTypes.LongType, false);
        }
        if (c.isRecord()) {
            return struct(c);
        }
        throw new IllegalArgumentException("no column type for " + c);
    }

    /** Which table a replay row kind goes to. */
    static String tableOf(String kind) {
        return switch (kind) {
            case ReplayRow.MESSAGE -> MESSAGES;
            case ReplayRow.FLOW -> FLOWS;
            case ReplayRow.FINDING -> FINDINGS;
            default -> null;
        };
    }

    /**
     * A group's row in the output's names: the vantage-wide conversation id, frame references as
     * {file, frame}, and {@code vantage}/{@code file} in front. A flow's {@code file} is its conversation's first frame's.
     */
    static String finalJson(ReplayRow row, Numbering numbering, ObjectMapper json) {
        ObjectNode in;
        try {
            in = (ObjectNode) json.readTree(row.getJson());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String vantage = row.getVantage();
        ObjectNode out = json.createObjectNode();
        out.put("vantage", vantage);
        out.putNull("file");
        Long first = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            JsonNode v = e.getValue();
            switch (row.getKind() + "." + name) {
                case "message.conversation", "finding.conversation", "flow.conversation" ->
                        out.put(name, numbering.conversation(vantage, row.getGroup(), v.isNull() ? null : v.asText()));
                case "message.frames", "message.responseFrames", "finding.frames" -> {
                    ArrayNode a = out.putArray(name);
                    for (JsonNode f : v) {
                        a.add(frame(numbering, vantage, f.asLong(), json));
                    }
                    if (!name.equals("responseFrames") && first == null && !v.isEmpty()) {
                        first = v.get(0).asLong();
                    }
                }
                case "message.completionFrame", "finding.causedBy" ->
                        out.set(name, v.isNull() ? v : frame(numbering, vantage, v.asLong(), json));
                case "flow.lifecycle" -> {
                    ArrayNode a = out.putArray(name);
                    for (JsonNode t : v) {
                        ObjectNode copy = ((ObjectNode) t).deepCopy();
                        copy.set("frame", frame(numbering, vantage, t.get("frame").asLong(), json));
                        a.add(copy);
                    }
                }
                default -> out.set(name, v);
            }
        }
        if (row.getKind().equals(ReplayRow.FLOW)) {
            first = numbering.firstFrame(vantage, row.getGroup(), in.get("conversation").asText());
        }
        if (first != null) {
            out.put("file", numbering.frame(vantage, first).file());
        }
        return out.toString();
    }

    private static ObjectNode frame(Numbering numbering, String vantage, long frame, ObjectMapper json) {
        Numbering.FrameRef r = numbering.frame(vantage, frame);
        ObjectNode o = json.createObjectNode();
        o.put("file", r.file());
        o.put("frame", r.frame());
        return o;
    }

    /** The column names of a table, in order (tests compare rows by them). */
    static List<String> columns(String table) {
        List<String> names = new ArrayList<>();
        for (StructField f : schema(table).fields()) {
            names.add(f.name());
        }
        return names;
    }
}
