package io.rdmascope.gui.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packet list's row colours keep text readable (WCAG 2.1 contrast ≥ 4.5) for every colouring rule. */
class RowColoursTest {

    @Test
    void contrastIsWcags() {
        assertEquals(21.0, RowColours.contrast("#000000", "#ffffff"), 1e-9);
        assertEquals(1.0, RowColours.contrast("#777777", "#777777"), 1e-9);
        // Modena's selection blue with white text, what the issue found unreadable: under 4.5
        assertTrue(RowColours.contrast("#0096c9", "#ffffff") < RowColours.MIN_CONTRAST);
    }

    @Test
    void everyDefaultRuleIsReadableSelectedMarkedAndPlain() {
        for (ColoringRule rule : ColoringRule.defaults()) {
            for (boolean selected : new boolean[]{false, true}) {
                for (boolean marked : new boolean[]{false, true}) {
                    RowColours.Paint p = RowColours.of(rule, marked, selected);
                    double c = RowColours.contrast(p.text(), p.background());
                    assertTrue(c >= RowColours.MIN_CONTRAST, rule.name() + (selected ? " selected" : "")
                            + (marked ? " marked" : "") + ": " + p + " is " + c + ":1");
                }
            }
        }
    }

    @Test
    void selectionWinsOverMarkAndRuleAndNoRuleKeepsTheTablesColours() {
        ColoringRule nak = ColoringRule.defaults().get(2);
        assertEquals(new RowColours.Paint(RowColours.SELECTED_BACKGROUND, RowColours.SELECTED_TEXT),
                RowColours.of(nak, true, true));
        assertEquals(new RowColours.Paint(RowColours.MARKED_BACKGROUND, RowColours.MARKED_TEXT),
                RowColours.of(nak, true, false));
        assertEquals(new RowColours.Paint(nak.background(), nak.foreground()), RowColours.of(nak, false, false));
        assertNull(RowColours.of(null, false, false));
        assertEquals("", RowColours.style(null));
    }
}
