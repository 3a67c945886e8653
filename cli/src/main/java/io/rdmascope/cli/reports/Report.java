package io.rdmascope.cli.reports;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * A {@code check --report} format. Every format is a pure function of the {@link CheckRun}: no
 * clock, no host name, no path but the ones the user gave, so one capture always gives the same
 * bytes (CI systems diff and cache them).
 */
public interface Report {

    /** Writes the report; leaves {@code out} open. */
    void write(CheckRun run, OutputStream out) throws IOException;

    /** The formats, by their {@code --report} name. */
    enum Format {
        TEXT, JSON, JUNIT, SARIF;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The format named {@code text}, or null when there is none. */
        public static Format parse(String text) {
            for (Format f : values()) {
                if (f.id().equalsIgnoreCase(text.strip())) {
                    return f;
                }
            }
            return null;
        }
    }
}
