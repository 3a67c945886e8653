package io.rdmascope.rules;

import java.util.Locale;

/** How much a finding matters; ordered from most to least severe. */
public enum Severity {
    ERROR, WARNING, NOTE;

    /** Lower-case name, as reports and rules files spell it. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this severity is at least as severe as {@code threshold}. */
    public boolean reaches(Severity threshold) {
        return ordinal() <= threshold.ordinal();
    }

    public static Severity parse(String text) {
        for (Severity s : values()) {
            if (s.id().equalsIgnoreCase(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("severity must be error, warning or note, not '" + text + "'");
    }
}
