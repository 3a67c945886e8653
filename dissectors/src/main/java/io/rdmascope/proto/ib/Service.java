package io.rdmascope.proto.ib;

/** Transport service selected by BTH opcode bits 7:5 (IBTA 9.2.1, table 35). */
public enum Service {
    RC("Reliable Connection (RC)"),
    UC("Unreliable Connection (UC)"),
    RD("Reliable Datagram (RD)"),
    UD("Unreliable Datagram (UD)"),
    CNP("CNP"),
    XRC("Extended Reliable Connection (XRC)"),
    RESERVED("Reserved"),
    VENDOR("Manufacturer Specific");

    private final String label;

    Service(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Service ofOpcode(int opcode) {
        return values()[(opcode >> 5) & 0x7];
    }
}
