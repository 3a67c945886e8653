package io.rdmascope.cli;

import java.util.Map;

/**
 * The width the tables of {@code messages} and {@code flows} fit (docs/cli.md, "Tables and the
 * terminal"). {@code COLUMNS} from the environment when it holds a width; otherwise no limit. The
 * launcher exports the terminal's width as {@code COLUMNS} when its standard output is a terminal
 * (bash keeps COLUMNS unexported), so a table piped to a file or another program is never cut — the
 * habit tshark keeps for its output, which scripts rely on.
 */
final class TableWidth {
    /** Narrower than this no table is readable; a smaller COLUMNS is taken as this. */
    static final int NARROWEST = 40;

    private TableWidth() {
    }

    /** The width to fit, or 0 for "no limit". */
    static int columns(Map<String, String> env) {
        String text = env.get("COLUMNS");
        if (text == null || text.isBlank()) {
            return 0;
        }
        try {
            int columns = Integer.parseInt(text.strip());
            return columns <= 0 ? 0 : Math.max(NARROWEST, columns);
        } catch (NumberFormatException e) {
            return 0; // not a width: as if unset
        }
    }
}
