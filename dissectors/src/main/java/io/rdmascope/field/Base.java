package io.rdmascope.field;

/** How an integer is displayed, as Wireshark's {@code BASE_*}; it also decides {@code -T fields} text. */
public enum Base {
    NONE, DEC, HEX, DEC_HEX, HEX_DEC, OCT
}
