package io.rdmascope.samples;

import io.rdmascope.text.Addresses;
import io.rdmascope.text.AsciiSink;

import java.nio.ByteBuffer;

/** Address text for truth files, as the dissectors (and Wireshark) print it. */
final class Gids {
    private Gids() {
    }

    /** RFC 5952 IPv6 / GID text. */
    static String text(byte[] address) {
        AsciiSink s = new AsciiSink(48);
        Addresses.appendIpv6(s, ByteBuffer.wrap(address), 0);
        return s.toString();
    }

    /** Dotted IPv4 text. */
    static String ipv4(byte[] address) {
        AsciiSink s = new AsciiSink(16);
        Addresses.appendIpv4(s, ByteBuffer.wrap(address).getInt() & 0xFFFFFFFFL);
        return s.toString();
    }

    /** MAC text with colons. */
    static String mac(byte[] address) {
        AsciiSink s = new AsciiSink(18);
        Addresses.appendMac(s, ByteBuffer.wrap(address), 0);
        return s.toString();
    }
}
