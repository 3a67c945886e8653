package io.rdmascope.cli;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.function.Function;

/**
 * A text table like tshark's statistics tables: a header line, then one line per row, columns
 * separated by two spaces and padded to their widest cell (numbers right-aligned, text left-aligned),
 * no trailing spaces. Rows are formatted twice (once to measure) rather than kept.
 *
 * <p>Fitting a terminal (docs/cli.md, "Tables and the terminal"): given a width, the table first drops
 * whole columns, least important first (a column's {@code keep} rank; 0 is never dropped), then
 * shortens the shrinkable ones (addresses, status text) with a middle ellipsis, and as a last resort
 * cuts lines at the width. A dropped column is better than a cut one: what remains is still true.
 */
final class Table {
    private static final String GAP = "  ";
    /** A shrinkable column keeps at least this many characters. */
    private static final int MIN_SHRUNK = 9;
    private static final char ELLIPSIS = '\u2026';
    private final Column[] columns;

    /**
     * A column: its header, whether its cells are right-aligned (numbers), its rank when the table must
     * lose columns (lower goes first; {@link #ESSENTIAL} never goes) and whether it may be shortened.
     */
    record Column(String header, boolean right, int keep, boolean shrinkable) {
        static final int ESSENTIAL = 0;

        static Column left(String header) {
            return new Column(header, false, ESSENTIAL, false);
        }

        static Column right(String header) {
            return new Column(header, true, ESSENTIAL, false);
        }

        /** The same column, dropped in rank order when the table is too wide (1 goes first). */
        Column drop(int rank) {
            return new Column(header, right, rank, shrinkable);
        }

        /** The same column, shortened with a middle ellipsis when dropping was not enough. */
        Column shrink() {
            return new Column(header, right, keep, true);
        }
    }

    Table(Column... columns) {
        this.columns = columns.clone();
    }

    /** Prints every column. */
    <T> void print(Writer out, List<T> rows, Function<T, String[]> cells) throws IOException {
        print(out, rows, cells, 0);
    }

    /** Prints the table fitted to {@code width} characters a line; 0 means no limit. */
    <T> void print(Writer out, List<T> rows, Function<T, String[]> cells, int width) throws IOException {
        int n = columns.length;
        int[] widths = new int[n];
        for (int i = 0; i < n; i++) {
            widths[i] = columns[i].header().length();
        }
        for (T row : rows) {
            String[] c = cells.apply(row);
            for (int i = 0; i < n; i++) {
                widths[i] = Math.max(widths[i], c[i].length());
            }
        }
        boolean[] shown = new boolean[n];
        java.util.Arrays.fill(shown, true);
        if (width > 0) {
            fit(widths, shown, width);
        }
        String[] headers = new String[n];
        for (int i = 0; i < n; i++) {
            headers[i] = columns[i].header();
        }
        StringBuilder line = new StringBuilder(256);
        line(out, line, headers, widths, shown, width);
        for (T row : rows) {
            line(out, line, cells.apply(row), widths, shown, width);
        }
    }

    /** Drops columns in rank order, then shrinks the shrinkable ones, until a line fits {@code width}. */
    private void fit(int[] widths, boolean[] shown, int width) {
        while (total(widths, shown) > width) {
            int victim = -1;
            for (int i = 0; i < columns.length; i++) {
                int rank = columns[i].keep();
                if (shown[i] && rank != Column.ESSENTIAL && (victim < 0 || rank < columns[victim].keep())) {
                    victim = i;
                }
            }
            if (victim < 0) {
                break;
            }
            shown[victim] = false;
        }
        int excess = total(widths, shown) - width;
        // Take the excess from the widest shrinkable column each time, so they end up balanced.
        while (excess > 0) {
            int widest = -1;
            for (int i = 0; i < columns.length; i++) {
                if (shown[i] && columns[i].shrinkable() && widths[i] > MIN_SHRUNK
                        && (widest < 0 || widths[i] > widths[widest])) {
                    widest = i;
                }
            }
            if (widest < 0) {
                break;
            }
            widths[widest]--;
            excess--;
        }
    }

    private static int total(int[] widths, boolean[] shown) {
        int sum = 0;
        int count = 0;
        for (int i = 0; i < widths.length; i++) {
            if (shown[i]) {
                sum += widths[i];
                count++;
            }
        }
        return sum + GAP.length() * Math.max(0, count - 1);
    }

    private void line(Writer out, StringBuilder line, String[] cells, int[] widths, boolean[] shown, int width)
            throws IOException {
        line.setLength(0);
        int last = cells.length - 1;
        while (last > 0 && !shown[last]) {
            last--;
        }
        boolean first = true;
        for (int i = 0; i <= last; i++) {
            if (!shown[i]) {
                continue;
            }
            if (!first) {
                line.append(GAP);
            }
            first = false;
            String cell = shorten(cells[i], widths[i]);
            int pad = widths[i] - cell.length();
            if (columns[i].right()) {
                line.append(" ".repeat(pad)).append(cell);
            } else {
                line.append(cell);
                if (i < last) {
                    line.append(" ".repeat(pad));
                }
            }
        }
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--; // an empty last cell
        }
        line.setLength(end);
        if (width > 0 && line.length() > width) {
            line.setLength(width - 1);
            line.append(ELLIPSIS);
        }
        out.append(line).append('\n');
    }

    /** The cell cut to {@code width} with an ellipsis in the middle (both ends of an address tell most). */
    static String shorten(String cell, int width) {
        if (cell.length() <= width) {
            return cell;
        }
        int head = width / 2;
        int tail = width - 1 - head;
        return cell.substring(0, head) + ELLIPSIS + cell.substring(cell.length() - tail);
    }
}
