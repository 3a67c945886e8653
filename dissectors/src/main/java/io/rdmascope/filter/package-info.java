/**
 * Wireshark-compatible display filters: {@link io.rdmascope.filter.DisplayFilter} compiles a filter
 * once (lexer, recursive-descent parser, compiler with type checks) into a tree that tests
 * dissected frames on the fast path. Names resolve through the
 * {@link io.rdmascope.field.FieldRegistry}, then through {@link io.rdmascope.filter.FilterFieldProvider}s
 * for fields computed outside the dissectors (the replay engine's analysis). The language and where it
 * departs from tshark 4.0: {@code docs/filters.md}.
 */
package io.rdmascope.filter;
