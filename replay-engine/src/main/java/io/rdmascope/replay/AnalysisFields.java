package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldType;
import io.rdmascope.filter.FilterFieldProvider;
import io.rdmascope.filter.FilterValues;
import io.rdmascope.filter.ProvidedField;

import java.util.Collection;
import java.util.List;

/**
 * The replay engine's per-frame verdicts ({@link FrameAnalysis}) as display-filter fields, so that
 * {@code rdmascope.analysis.retransmission} or {@code rdmascope.message.kind == "READ"} filter and
 * colour the packet list. Filters compile before the replay has finished; until then (and for a frame
 * the replay did not reach) the fields are absent.
 */
public final class AnalysisFields implements FilterFieldProvider {
    private volatile FrameAnalysis analysis;

    /** Makes {@code a} the analysis the fields read (null: none yet). */
    public void use(FrameAnalysis a) {
        this.analysis = a;
    }

    public FrameAnalysis current() {
        return analysis;
    }

    @Override
    public ProvidedField field(String name) {
        FrameAnalysis.Field f = FrameAnalysis.field(name);
        if (f == null) {
            return null;
        }
        FieldType type = switch (f.type()) {
            case BOOLEAN -> FieldType.BOOLEAN;
            case UNSIGNED -> FieldType.UINT64;
            case STRING -> FieldType.STRING;
            case NANOSECONDS -> FieldType.RELATIVE_TIME;
            case FRAME -> FieldType.FRAMENUM;
        };
        return new ProvidedField() {
            @Override
            public FieldType type() {
                return type;
            }

            @Override
            public void values(Dissection d, FilterValues out) {
                FrameAnalysis a = analysis;
                if (a == null) {
                    return;
                }
                Object v = a.value(f, d.frame().number());
                if (v instanceof Boolean b) {
                    out.add(b ? 1 : 0);
                } else if (v instanceof Number n) {
                    out.add(n.longValue());
                } else if (v instanceof CharSequence s) {
                    out.add(s);
                }
            }
        };
    }

    @Override
    public Collection<String> names() {
        return FrameAnalysis.allFields().stream().map(FrameAnalysis.Field::name).toList();
    }

    /** Every analysis field name, for completion in the filter bar. */
    public static List<String> allNames() {
        return FrameAnalysis.allFields().stream().map(FrameAnalysis.Field::name).toList();
    }
}
