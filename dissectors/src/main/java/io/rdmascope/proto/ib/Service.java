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
    VENDOR("Manufacturer Specific"),
    /**
     * Mellanox/NVIDIA Dynamically Connected transport: RD's opcodes (0x40–0x5F) with a DC header
     * after the BTH. Never returned by {@link #ofOpcode}; the dissector chooses it by encapsulation
     * (docs/dc.md).
     */
    DC("Dynamically Connected (DC)");

    private final String label;

    Service(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Opcode bits 7:5 of this service, in place (IBTA 9.2.1, table 35); DC uses RD's range. */
    public int prefix() {
        return (this == DC ? RD.ordinal() : ordinal()) << 5;
    }

    public static Service ofOpcode(int opcode) {
        return values()[(opcode >> 5) & 0x7];
    }
}
