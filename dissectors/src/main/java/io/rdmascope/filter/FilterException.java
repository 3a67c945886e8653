package io.rdmascope.filter;

/**
 * A display filter that cannot be compiled: its message is {@code "column N: what was wrong or
 * expected"}, N counting characters of the filter text from 1. For an error at the end of the text N
 * is one past its last character.
 */
public final class FilterException extends Exception {
    private final int column;
    private final String reason;

    public FilterException(int column, String reason) {
        super("column " + column + ": " + reason);
        this.column = column;
        this.reason = reason;
    }

    /** 1-based column of the character the error points at. */
    public int column() {
        return column;
    }

    /** The message without its column. */
    public String reason() {
        return reason;
    }
}
