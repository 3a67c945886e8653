package io.rdmascope.cli;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.function.Function;

/**
 * A text table like tshark's statistics tables: a header line, then one line per row, columns
 * separated by two spaces and padded to their widest cell (numbers right-aligned, text left-aligned),
 * no trailing spaces. Rows are formatted twice (once to measure) rather than kept.
 */
final class Table {
    private static final String GAP = "  ";
    private final String[] headers;
    private final boolean[] right;

    /** A column: its header and whether its cells are right-aligned (numbers). */
    record Column(String header, boolean right) {
        static Column left(String header) {
            return new Column(header, false);
        }

        static Column right(String header) {
            return new Column(header, true);
        }
    }

    Table(Column... columns) {
        headers = new String[columns.length];
        right = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            headers[i] = columns[i].header();
            right[i] = columns[i].right();
        }
    }

    <T> void print(Writer out, List<T> rows, Function<T, String[]> cells) throws IOException {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = headers[i].length();
        }
        for (T row : rows) {
            String[] c = cells.apply(row);
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], c[i].length());
            }
        }
        StringBuilder line = new StringBuilder(256);
        line(out, line, headers, widths);
        for (T row : rows) {
            line(out, line, cells.apply(row), widths);
        }
    }

    private void line(Writer out, StringBuilder line, String[] cells, int[] widths) throws IOException {
        line.setLength(0);
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                line.append(GAP);
            }
            int pad = widths[i] - cells[i].length();
            if (right[i]) {
                line.append(" ".repeat(pad)).append(cells[i]);
            } else {
                line.append(cells[i]);
                if (i < cells.length - 1) {
                    line.append(" ".repeat(pad));
                }
            }
        }
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--; // an empty last cell
        }
        line.setLength(end);
        out.append(line).append('\n');
    }
}
