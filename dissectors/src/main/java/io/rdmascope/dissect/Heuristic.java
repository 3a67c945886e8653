package io.rdmascope.dissect;

/**
 * A dissector that looks before it takes (Wireshark's heuristic dissectors): given bytes
 * {@code [offset, end)} it decodes them and returns true when they are its protocol's, or returns
 * false having added nothing, so that the next heuristic, and finally {@code data}, can try.
 */
@FunctionalInterface
public interface Heuristic {
    boolean dissect(DissectorChain chain, Dissection d, int offset, int end);
}
