package io.rdmascope.filter;

/**
 * One lexical unit of a display filter.
 *
 * @param kind   what it is
 * @param text   the source text; for {@link Kind#STRING} the decoded bytes as ISO-8859-1 characters
 *               (one char per byte), for {@link Kind#SLICE} what lies between the brackets
 * @param column 1-based column of its first character
 * @param length characters of source text it spans
 * @param value  the code of a {@link Kind#CHAR} constant
 */
record Token(Kind kind, String text, int column, int length, long value) {

    enum Kind {
        /** A run of name/literal characters: a field, a number, an address, a byte string. */
        WORD, STRING, RAW_STRING, CHAR, SLICE,
        LPAREN, RPAREN, LBRACE, RBRACE, COMMA, DOTDOT, HASH,
        EQ, NE, ALL_EQ, ANY_NE, LT, LE, GT, GE, MATCHES, CONTAINS, IN,
        AND, OR, NOT, BITAND, PLUS, MINUS, STAR, SLASH, PERCENT,
        EOF
    }

    /** How the token reads in an error message. */
    String describe() {
        return switch (kind) {
            case EOF -> "the end of the filter";
            case STRING, RAW_STRING -> "a string";
            case CHAR -> "a character constant";
            case SLICE -> "'[" + text + "]'";
            default -> "'" + text + "'";
        };
    }

    boolean isString() {
        return kind == Kind.STRING || kind == Kind.RAW_STRING;
    }
}
