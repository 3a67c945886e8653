package io.rdmascope.field;

/**
 * A protocol as the user sees it: its filter name ({@code infiniband}) and display name
 * ({@code InfiniBand}). Several header types may belong to one protocol (BTH, RETH, … under
 * InfiniBand); {@code frame.protocols} lists protocols, not headers.
 */
public record Protocol(String abbrev, String name) {
}
