package io.rdmascope.cli;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.text.AsciiSink;
import io.rdmascope.text.FieldText;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code -e} fields of {@code dissect}, in the order given: dissector fields from the registry
 * and the replay's analysis fields ({@code rdmascope.analysis.*}, {@code rdmascope.message.*},
 * {@code rdmascope.conversation}, {@code rdmascope.role}; issue 17). An analysis field needs the
 * finished replay, so {@link #needsAnalysis} tells the command to replay first, as {@code -Y} does.
 */
final class FieldColumns {
    /** One {@code -e} field: exactly one of {@code entry} and {@code analysis} is set. */
    record Column(String abbrev, FieldRegistry.Entry entry, FrameAnalysis.Field analysis) {
    }

    private final List<Column> columns;

    private FieldColumns(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    /** Resolves {@code names}; unknown names are one usage error naming them all. */
    static FieldColumns resolve(List<String> names) {
        List<Column> out = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        FieldRegistry registry = FieldRegistry.standard();
        for (String name : names) {
            FieldRegistry.Entry e = registry.lookup(name);
            FrameAnalysis.Field a = e == null ? FrameAnalysis.field(name) : null;
            if (e == null && a == null) {
                unknown.add(name);
            } else {
                out.add(new Column(name, e, a));
            }
        }
        if (!unknown.isEmpty()) {
            throw new DissectCommand.UsageError("unknown field" + (unknown.size() > 1 ? "s" : "") + ": "
                    + String.join(", ", unknown) + " (rdmascope fields lists them)");
        }
        return new FieldColumns(out);
    }

    List<Column> columns() {
        return columns;
    }

    boolean isEmpty() {
        return columns.isEmpty();
    }

    boolean needsAnalysis() {
        return columns.stream().anyMatch(c -> c.analysis() != null);
    }

    /**
     * Appends column {@code c}'s values in frame {@code d}, joined by {@code aggregator}; returns how
     * many. An analysis field has at most one value per frame, printed as tshark prints its type
     * (booleans 1, times in seconds with nine decimals); {@code analysis} is null when none is needed.
     */
    static int append(AsciiSink out, Column c, Dissection d, char aggregator, FieldText.Occurrence which,
                      FrameAnalysis analysis) {
        if (c.entry() != null) {
            return FieldText.appendOccurrences(out, c.entry(), d, aggregator, which);
        }
        Object v = analysis == null ? null : analysis.value(c.analysis(), d.frame().number());
        if (v == null) {
            return 0;
        }
        if (v instanceof Boolean b) {
            out.append(b ? '1' : '0');
        } else if (c.analysis().type() == FrameAnalysis.Type.NANOSECONDS && v instanceof Number n) {
            out.appendSeconds(n.longValue());
        } else {
            out.append(v.toString());
        }
        return 1;
    }
}
