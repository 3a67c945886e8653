package io.rdmascope.replay;

import io.rdmascope.text.Addresses;
import io.rdmascope.text.AsciiSink;

import java.nio.ByteBuffer;

/**
 * A network endpoint address as the replay engine keys conversations: an IPv4 address, an IPv6
 * address or GID, or (native InfiniBand without a GRH) a LID.
 */
public record Address(int kind, long hi, long lo) {
    public static final int IPV4 = 4;
    public static final int IPV6 = 6;
    public static final int LID = 1;

    /** How Wireshark writes it: dotted IPv4, compressed IPv6 (RFC 5952, as the dissectors print it), "LID: n". */
    public String text() {
        return switch (kind) {
            case IPV4 -> {
                AsciiSink s = new AsciiSink(16);
                Addresses.appendIpv4(s, lo);
                yield s.toString();
            }
            case LID -> "LID: " + lo;
            case IPV6 -> {
                AsciiSink s = new AsciiSink(48);
                Addresses.appendIpv6(s, ByteBuffer.allocate(16).putLong(hi).putLong(lo), 0);
                yield s.toString();
            }
            default -> "?";
        };
    }

    @Override
    public String toString() {
        return text();
    }
}
