package io.rdmascope.build;

/**
 * Address literals for building packets: MAC, IPv4, IPv6 and GIDs as byte arrays in wire order.
 * Parsed here rather than through {@link java.net.InetAddress}, which turns {@code ::ffff:a.b.c.d}
 * into a 4-byte IPv4 address (a RoCE GID needs all 16 bytes) and may try a DNS lookup on a typo.
 */
public final class Addresses {
    private Addresses() {
    }

    /** {@code "7c:fe:90:75:3c:d8"} (or with dashes) → 6 bytes. */
    public static byte[] mac(String text) {
        String[] parts = text.split("[:-]");
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address: " + text);
        }
        byte[] out = new byte[6];
        for (int i = 0; i < 6; i++) {
            out[i] = (byte) parseHex(parts[i], 0xFF, text);
        }
        return out;
    }

    /** {@code "10.0.17.1"} → 4 bytes. */
    public static byte[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: " + text);
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (parts[i].isEmpty() || parts[i].length() > 3 || !parts[i].chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("not an IPv4 address: " + text);
            }
            int v = Integer.parseInt(parts[i]);
            if (v > 255) {
                throw new IllegalArgumentException("not an IPv4 address: " + text);
            }
            out[i] = (byte) v;
        }
        return out;
    }

    /** An IPv6 literal or GID ({@code "fe80::1"}, {@code "::ffff:15.0.0.2"}) → 16 bytes. */
    public static byte[] ipv6(String text) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            throw new IllegalArgumentException("not an IPv6 address: " + text);
        }
        int[] head = groups(gap >= 0 ? text.substring(0, gap) : text, text);
        int[] tail = gap >= 0 ? groups(text.substring(gap + 2), text) : new int[0];
        int count = head.length + tail.length;
        if (gap < 0 ? count != 8 : count > 7) {
            throw new IllegalArgumentException("not an IPv6 address: " + text);
        }
        byte[] out = new byte[16];
        for (int i = 0; i < head.length; i++) {
            out[2 * i] = (byte) (head[i] >>> 8);
            out[2 * i + 1] = (byte) head[i];
        }
        for (int i = 0; i < tail.length; i++) {
            int g = 8 - tail.length + i;
            out[2 * g] = (byte) (tail[i] >>> 8);
            out[2 * g + 1] = (byte) tail[i];
        }
        return out;
    }

    /** The IPv4-mapped GID {@code ::ffff:a.b.c.d} that RoCE uses for an IPv4 address (RFC 4291 2.5.5.2). */
    public static byte[] ipv4MappedGid(byte[] ipv4) {
        if (ipv4.length != 4) {
            throw new IllegalArgumentException("IPv4 address expected, got " + ipv4.length + " bytes");
        }
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ipv4, 0, gid, 12, 4);
        return gid;
    }

    /** 16-bit groups of one side of "::"; a dotted IPv4 tail counts as two groups. */
    private static int[] groups(String side, String text) {
        if (side.isEmpty()) {
            return new int[0];
        }
        String[] parts = side.split(":", -1);
        boolean dottedTail = parts[parts.length - 1].contains(".");
        int[] out = new int[parts.length + (dottedTail ? 1 : 0)];
        for (int i = 0; i < parts.length; i++) {
            if (dottedTail && i == parts.length - 1) {
                byte[] v4 = ipv4(parts[i]);
                out[i] = ((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF);
                out[i + 1] = ((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF);
            } else {
                if (parts[i].isEmpty() || parts[i].length() > 4) {
                    throw new IllegalArgumentException("not an IPv6 address: " + text);
                }
                out[i] = parseHex(parts[i], 0xFFFF, text);
            }
        }
        return out;
    }

    private static int parseHex(String digits, int max, String text) {
        try {
            int v = Integer.parseInt(digits, 16);
            if (v < 0 || v > max || digits.startsWith("+") || digits.startsWith("-")) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an address: " + text, e);
        }
    }
}
