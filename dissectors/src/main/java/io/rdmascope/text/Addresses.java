package io.rdmascope.text;

import java.nio.ByteBuffer;

/** Address text as Wireshark prints it: MAC with colons, dotted IPv4, RFC 5952 IPv6. */
public final class Addresses {
    private Addresses() {
    }

    public static void appendMac(AsciiSink out, ByteBuffer b, int at) {
        out.appendHexBytes(b, at, 6, ':');
    }

    public static void appendIpv4(AsciiSink out, long value) {
        out.appendDecimal((value >>> 24) & 0xFF).append('.').appendDecimal((value >>> 16) & 0xFF).append('.')
                .appendDecimal((value >>> 8) & 0xFF).append('.').appendDecimal(value & 0xFF);
    }

    /**
     * RFC 5952 text: lowercase, leading zeros dropped, the longest run (first if tied) of two or more
     * zero groups as "::", and IPv4-mapped addresses as {@code ::ffff:a.b.c.d} (RoCEv2 GIDs look so).
     */
    public static void appendIpv6(AsciiSink out, ByteBuffer b, int at) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = b.getShort(at + 2 * i) & 0xFFFF;
        }
        boolean mapped = groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0 && groups[4] == 0
                && groups[5] == 0xFFFF;
        if (mapped) {
            out.append("::ffff:");
            appendIpv4(out, ((long) groups[6] << 16) | groups[7]);
            return;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j;
        }
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLength) {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
    }
}
