package io.rdmascope.cli.reports;

/** The little XML the JUnit report needs: escaping for attribute values and text. */
final class Xml {
    private Xml() {
    }

    /**
     * {@code text} safe inside double-quoted attributes and element content. Characters XML 1.0 does
     * not allow at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF) become U+FFFD:
     * a detail line must not make the whole report unreadable. In attributes, tab/LF/CR are written
     * as character references so that attribute-value normalisation keeps them.
     */
    static String escape(String text, boolean attribute) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append(attribute ? "&quot;" : "\"");
                case '\n' -> sb.append(attribute ? "&#10;" : "\n");
                case '\r' -> sb.append("&#13;");
                case '\t' -> sb.append(attribute ? "&#9;" : "\t");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        sb.append(c).append(text.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
                        sb.append('\uFFFD');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    static String attr(String text) {
        return escape(text, true);
    }

    static String text(String text) {
        return escape(text, false);
    }
}
