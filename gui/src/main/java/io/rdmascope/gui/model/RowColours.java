package io.rdmascope.gui.model;

import javafx.scene.paint.Color;

/**
 * The colours a packet-list row is painted with, and the contrast check that keeps its text
 * readable. A selected row always takes the selection's own pair of colours, whatever rule matched
 * it: a rule's text colour (orange, yellow) is chosen against the rule's background, not against
 * the selection's blue. Marked rows are black with white text, as Wireshark's default.
 *
 * <p>Contrast is WCAG 2.1's (success criterion 1.4.3): (L1 + 0.05) / (L2 + 0.05) over the relative
 * luminances; 4.5 is the level-AA minimum for normal text.
 */
public final class RowColours {
    /** The selection bar: dark enough for white text at 8:1. */
    public static final String SELECTED_BACKGROUND = "#1d4f91";
    public static final String SELECTED_TEXT = "#ffffff";
    public static final String MARKED_BACKGROUND = "#000000";
    public static final String MARKED_TEXT = "#ffffff";
    /** WCAG 2.1 level AA for normal text. */
    public static final double MIN_CONTRAST = 4.5;

    /** Background and text colour of a row, CSS colour strings. */
    public record Paint(String background, String text) {
    }

    private RowColours() {
    }

    /** How a row is painted; null when it keeps the table's own colours (no rule matched). */
    public static Paint of(ColoringRule rule, boolean marked, boolean selected) {
        if (selected) {
            return new Paint(SELECTED_BACKGROUND, SELECTED_TEXT);
        }
        if (marked) {
            return new Paint(MARKED_BACKGROUND, MARKED_TEXT);
        }
        return rule == null ? null : new Paint(rule.background(), rule.foreground());
    }

    /** The row's inline style for a paint (null paint: none). */
    public static String style(Paint p) {
        return p == null ? "" : "-fx-background: " + p.background() + "; -fx-text-background-color: " + p.text() + ";";
    }

    /** WCAG contrast ratio of two CSS colours, 1 to 21. */
    public static double contrast(String a, String b) {
        return contrast(Color.web(a), Color.web(b));
    }

    public static double contrast(Color a, Color b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    /** WCAG relative luminance of an sRGB colour. */
    static double luminance(Color c) {
        return 0.2126 * linear(c.getRed()) + 0.7152 * linear(c.getGreen()) + 0.0722 * linear(c.getBlue());
    }

    private static double linear(double v) {
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }
}
