package io.rdmascope.gui.model;

import io.rdmascope.replay.AnalysisFields;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.filter.DisplayFilter;
import io.rdmascope.filter.FilterException;

import java.util.List;

/**
 * The one adapter between the GUI and the display-filter language ({@code io.rdmascope.filter}):
 * names resolve through the dissectors' {@link FieldRegistry}, then through the replay engine's
 * per-frame analysis ({@link AnalysisFields}: {@code rdmascope.analysis.retransmission}, …).
 */
public final class DisplayFilterCompiler implements FilterCompiler {
    private final FieldRegistry registry;
    private final AnalysisFields analysis;

    public DisplayFilterCompiler(AnalysisFields analysis) {
        this(FieldRegistry.standard(), analysis);
    }

    public DisplayFilterCompiler(FieldRegistry registry, AnalysisFields analysis) {
        this.registry = registry;
        this.analysis = analysis;
    }

    @Override
    public FrameFilter compile(String text) throws FilterSyntaxException {
        try {
            return new Compiled(DisplayFilter.compile(text, registry, List.of(analysis)));
        } catch (FilterException e) {
            throw new FilterSyntaxException(e.column(), e.reason());
        }
    }

    private record Compiled(DisplayFilter filter) implements FrameFilter {
        @Override
        public boolean matches(Dissection d) {
            return filter.matches(d);
        }

        @Override
        public boolean matchesEverything() {
            return filter.matchesEverything();
        }

        @Override
        public String text() {
            return filter.text();
        }

        @Override
        public FrameFilter copy() {
            return new Compiled(filter.copy());
        }
    }
}
