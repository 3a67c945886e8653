package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;

/**
 * A compiled display filter as the GUI uses it. The GUI codes against this and {@link FilterCompiler}
 * rather than the filter package itself, so that the packet list, the colouring rules and their view
 * models can be tested with a stub predicate, and a change of the filter API touches one adapter
 * ({@link DisplayFilterCompiler}).
 *
 * <p>Like a {@link Dissection}, a compiled filter belongs to one thread; {@link #copy()} gives another
 * thread its own.
 */
public interface FrameFilter {
    /** Whether the frame dissected into {@code d} passes. */
    boolean matches(Dissection d);

    /** True for the blank filter, which every frame passes. */
    boolean matchesEverything();

    /** The filter as written. */
    String text();

    /** The same filter for use on another thread. */
    FrameFilter copy();

    /** The filter every frame passes. */
    static FrameFilter all() {
        return new FrameFilter() {
            @Override
            public boolean matches(Dissection d) {
                return true;
            }

            @Override
            public boolean matchesEverything() {
                return true;
            }

            @Override
            public String text() {
                return "";
            }

            @Override
            public FrameFilter copy() {
                return this;
            }
        };
    }
}
