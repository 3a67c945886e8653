package io.rdmascope.frame;

/** libpcap LINKTYPE_ values this project reads or writes (tcpdump.org linktypes list). */
public final class LinkTypes {
    public static final int ETHERNET = 1;
    public static final int RAW = 101;
    public static final int LINUX_SLL = 113;
    public static final int ERF = 197;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int INFINIBAND = 247;
    public static final int LINUX_SLL2 = 276;

    private LinkTypes() {
    }

    /** Human name as Wireshark's "Encapsulation type" shows it. */
    public static String name(int linkType) {
        return switch (linkType) {
            case ETHERNET -> "Ethernet";
            case RAW -> "Raw IP";
            case LINUX_SLL -> "Linux cooked-mode capture v1";
            case ERF -> "Extensible Record Format";
            case IPV4 -> "Raw IPv4";
            case IPV6 -> "Raw IPv6";
            case INFINIBAND -> "InfiniBand";
            case LINUX_SLL2 -> "Linux cooked-mode capture v2";
            default -> "Unknown link type " + linkType;
        };
    }
}
