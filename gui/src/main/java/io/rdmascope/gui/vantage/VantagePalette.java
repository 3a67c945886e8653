package io.rdmascope.gui.vantage;

/**
 * One colour per vantage point, for the packet list's Vantage cell and the sightings table: the point that
 * saw a frame first paints it. The eight are the Okabe–Ito palette's (distinguishable with the common
 * colour-vision deficiencies), lightened so that black text on them keeps WCAG AA contrast (4.5:1);
 * points beyond the eighth reuse them in turn.
 */
public final class VantagePalette {
    private static final String[] BACKGROUNDS = {
        "#f5c77e", "#a9d8f2", "#7fd3b6", "#f7ef9a", "#8fbde0", "#f2b48a", "#e6b8d3", "#d0d0d0",
    };
    /** Black: every background above is light enough for it. */
    public static final String TEXT = "#000000";

    private VantagePalette() {
    }

    /** Background of point {@code index} (0 for the first named); null for no point. */
    public static String background(int index) {
        return index < 0 ? null : BACKGROUNDS[index % BACKGROUNDS.length];
    }

    /** How many points get a colour of their own. */
    public static int distinct() {
        return BACKGROUNDS.length;
    }
}
