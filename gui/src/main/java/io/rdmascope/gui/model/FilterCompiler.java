package io.rdmascope.gui.model;

/** Compiles display-filter text; see {@link FrameFilter} for why the GUI keeps this seam. */
@FunctionalInterface
public interface FilterCompiler {
    /**
     * Compiles {@code text}; a blank text gives the filter every frame passes.
     *
     * @throws FilterSyntaxException with the 1-based column of the mistake
     */
    FrameFilter compile(String text) throws FilterSyntaxException;
}
