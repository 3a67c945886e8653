package io.rdmascope.gui.model;

/** A display filter that does not compile: what is wrong, and at which 1-based column of the text. */
public final class FilterSyntaxException extends Exception {
    private final int column;
    private final String reason;

    public FilterSyntaxException(int column, String reason) {
        super("column " + column + ": " + reason);
        this.column = column;
        this.reason = reason;
    }

    public int column() {
        return column;
    }

    public String reason() {
        return reason;
    }
}
