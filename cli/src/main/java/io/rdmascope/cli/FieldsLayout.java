package io.rdmascope.cli;

import io.rdmascope.text.FieldText;

import java.util.List;

/**
 * tshark's {@code -E} options for {@code -T fields}: header line, separator, aggregator for
 * repeated fields, which occurrences, and quoting.
 */
record FieldsLayout(boolean header, char separator, char aggregator, FieldText.Occurrence occurrence, char quote) {

    static FieldsLayout parse(List<String> options) {
        boolean header = false;
        char separator = '\t';
        char aggregator = ',';
        FieldText.Occurrence occurrence = FieldText.Occurrence.ALL;
        char quote = 0;
        for (String option : options) {
            int eq = option.indexOf('=');
            if (eq < 0) {
                throw new DissectCommand.UsageError("-E takes KEY=VALUE, got '" + option + "'");
            }
            String key = option.substring(0, eq);
            String value = option.substring(eq + 1);
            switch (key) {
                case "header" -> header = yes(value, option);
                case "separator" -> separator = character(value, option);
                case "aggregator" -> aggregator = character(value, option);
                case "occurrence" -> occurrence = switch (value) {
                    case "f" -> FieldText.Occurrence.FIRST;
                    case "l" -> FieldText.Occurrence.LAST;
                    case "a" -> FieldText.Occurrence.ALL;
                    default -> throw new DissectCommand.UsageError("-E occurrence takes f, l or a");
                };
                case "quote" -> quote = switch (value) {
                    case "d" -> '"';
                    case "s" -> '\'';
                    case "n" -> 0;
                    default -> throw new DissectCommand.UsageError("-E quote takes d, s or n");
                };
                default -> throw new DissectCommand.UsageError("unknown -E option '" + key
                        + "' (header, separator, aggregator, occurrence, quote)");
            }
        }
        return new FieldsLayout(header, separator, aggregator, occurrence, quote);
    }

    private static boolean yes(String value, String option) {
        return switch (value) {
            case "y", "yes", "true" -> true;
            case "n", "no", "false" -> false;
            default -> throw new DissectCommand.UsageError("-E " + option + ": expected y or n");
        };
    }

    /** tshark spells tab and space as /t and /s. */
    private static char character(String value, String option) {
        return switch (value) {
            case "/t" -> '\t';
            case "/s" -> ' ';
            default -> {
                if (value.length() != 1) {
                    throw new DissectCommand.UsageError("-E " + option + ": expected one character, /t or /s");
                }
                yield value.charAt(0);
            }
        };
    }
}
