package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.Correlation;
import io.rdmascope.replay.VantageInput;
import io.rdmascope.replay.VantageUnion;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Several captures given to one verb as vantage points of the same traffic (issue 20): how they are named
 * ({@code [NAME=]FILE}, as {@code correlate} names them), their union ({@link VantageUnion}), and how a
 * union frame is told in the output: by the points and frames of each file that saw it.
 *
 * @param union the union, once indexed
 * @param files the captures, in the order named
 */
record Vantage(VantageUnion union, List<Path> files) {

    /** {@link VantageInput#parse}, two points of one name a usage error. */
    static List<VantageInput> parse(List<String> inputs) {
        try {
            return VantageInput.parse(inputs);
        } catch (IllegalArgumentException e) {
            throw new DissectCommand.UsageError(e.getMessage());
        }
    }

    /**
     * Indexes the union of {@code inputs} under the verb's options: {@code -Y} keeps a frame out as if its
     * point had not captured it, {@code -c} limits the frames read from each capture. A filter on
     * {@code rdmascope.*} fields would need a replay of the union before the union exists: refused.
     */
    static Vantage index(List<VantageInput> inputs, ReplayOptions options) throws IOException {
        if (inputs.size() > VantageUnion.MAX_POINTS) {
            throw new DissectCommand.UsageError("at most " + VantageUnion.MAX_POINTS + " vantage points in one union");
        }
        if (options.namesAnalysis()) {
            throw new DissectCommand.UsageError("-Y with rdmascope.* fields works on one capture; with several "
                    + "vantage points filter on packet fields only");
        }
        ReplayOptions.Selection selection = options.select(inputs.get(0).file());
        List<VantageUnion.Point> points = new ArrayList<>();
        for (VantageInput in : inputs) {
            points.add(new VantageUnion.Point(in.name(), () -> frames(CaptureFiles.open(in.file()))));
        }
        VantageUnion union = VantageUnion.index(points, options.chain(), selection::passes, selection.count());
        return new Vantage(union, inputs.stream().map(VantageInput::file).toList());
    }

    private static VantageUnion.FrameSource frames(PacketSource source) {
        return new VantageUnion.FrameSource() {
            @Override
            public Frame next() throws IOException {
                return source.next();
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }

    /** The union as a capture the replay verbs read like a file. */
    PacketSource source() throws IOException {
        VantageUnion.FrameSource frames = union.frames();
        return new PacketSource() {
            @Override
            public Frame next() throws IOException {
                return frames.next();
            }

            @Override
            public String name() {
                return label();
            }

            @Override
            public void close() {
                frames.close();
            }
        };
    }

    /** What the outputs call the union: its points' names joined by " + ". */
    String label() {
        return String.join(" + ", union.names());
    }

    /** Union frame {@code u} as the points saw it: "host:12", "switch:10". */
    List<String> sightings(long u) {
        return union.sightings(u).stream().map(VantageUnion.Sighting::text).toList();
    }

    /** Union frame {@code u} in text: every point's frame, "host:12=switch:10". */
    String text(long u) {
        List<String> s = sightings(u);
        return s.isEmpty() ? Long.toString(u) : String.join("=", s);
    }

    /** Union frame {@code u} in a table cell: the first point's frame that saw it, "host:12". */
    String firstText(long u) {
        List<String> s = sightings(u);
        return s.isEmpty() ? Long.toString(u) : s.get(0);
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** {@code frames}' sightings as JSON: one array of "NAME:frame" per union frame, in the same order. */
    ArrayNode json(List<Long> frames) {
        ArrayNode out = NODES.arrayNode();
        for (long f : frames) {
            ArrayNode one = out.addArray();
            sightings(f).forEach(one::add);
        }
        return out;
    }

    /**
     * The points, their captures, offsets and what the union made of them: the {@code vantage} object the
     * multi-file JSON outputs carry (docs/correlate.md).
     */
    ObjectNode describe() {
        ObjectNode o = NODES.objectNode();
        ArrayNode points = o.putArray("vantagePoints");
        Correlation.Result r = union.correlation();
        for (int i = 0; i < union.names().size(); i++) {
            ObjectNode p = points.addObject();
            p.put("name", union.names().get(i));
            p.put("file", files.get(i).toString());
            p.put("frames", union.framesRead().get(i));
            p.put("offsetToFirstNs", union.offsetsToFirst().get(i));
        }
        ArrayNode offsets = o.putArray("clockOffsets");
        // As correlate's JSON has them (docs/correlate.md).
        r.clockOffsets().forEach(c -> offsets.add(MAPPER.valueToTree(c)));
        o.put("unionFrames", union.unionFrames());
        o.put("multiSighted", r.packets().multiSighted());
        ArrayNode notes = o.putArray("notes");
        union.notes().forEach(notes::add);
        return o;
    }

    /** The same, as lines for text outputs. */
    String describeText() {
        return text(describe());
    }

    /** {@link #describe()}'s object as lines: each point, its capture, frames and clock against the first. */
    static String text(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        sb.append("Vantage points (one replay of their union: each packet once, clocks corrected; NAME:frame is "
                + "a frame of that point's capture)\n");
        String first = v.get("vantagePoints").get(0).get("name").asText();
        for (JsonNode p : v.get("vantagePoints")) {
            sb.append(String.format(Locale.ROOT, "  %-12s %s: %d frames, clock %s µs from %s%n", p.get("name").asText(),
                    p.get("file").asText(), p.get("frames").asLong(), Text.micros(p.get("offsetToFirstNs").asLong()),
                    first));
        }
        sb.append(String.format(Locale.ROOT, "  union: %d frames, %d packets seen at two points or more%n",
                v.get("unionFrames").asLong(), v.get("multiSighted").asLong()));
        for (JsonNode note : v.get("notes")) {
            sb.append("  note: ").append(note.asText()).append('\n');
        }
        return sb.toString();
    }
}
