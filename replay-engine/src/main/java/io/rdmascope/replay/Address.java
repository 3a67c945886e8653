package io.rdmascope.replay;

/**
 * A network endpoint address as the replay engine keys conversations: an IPv4 address, an IPv6
 * address or GID, or (native InfiniBand without a GRH) a LID.
 */
public record Address(int kind, long hi, long lo) {
    public static final int IPV4 = 4;
    public static final int IPV6 = 6;
    public static final int LID = 1;

    /** How Wireshark writes it: dotted IPv4, compressed IPv6 (RFC 5952), "LID: n". */
    public String text() {
        return switch (kind) {
            case IPV4 -> (lo >>> 24 & 0xFF) + "." + (lo >>> 16 & 0xFF) + "." + (lo >>> 8 & 0xFF) + "." + (lo & 0xFF);
            case LID -> "LID: " + lo;
            case IPV6 -> ipv6();
            default -> "?";
        };
    }

    private String ipv6() {
        int[] words = new int[8];
        for (int i = 0; i < 4; i++) {
            words[i] = (int) (hi >>> (48 - 16 * i)) & 0xFFFF;
            words[4 + i] = (int) (lo >>> (48 - 16 * i)) & 0xFFFF;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && words[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLength - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(words[i]));
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}
