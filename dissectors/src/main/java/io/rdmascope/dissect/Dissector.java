package io.rdmascope.dissect;

/**
 * Decodes one protocol starting at frame offset {@code offset}. {@code end} is the exclusive frame
 * offset where the bytes that belong to this protocol (and what it carries) stop: the captured
 * length, or less where an enclosing header says so (IP total length, UDP length). A dissector
 * never throws on packet bytes: a header cut short is recorded by {@link Dissection#add} and the
 * dissector stops.
 */
@FunctionalInterface
public interface Dissector {
    void dissect(DissectorChain chain, Dissection d, int offset, int end);
}
