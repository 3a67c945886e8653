package io.rdmascope.samples;

/**
 * A node of the generated fabric: one port with a MAC, IPv4 and IPv6 addresses, a GID (the IPv6
 * address, as RoCE GIDs are) and an InfiniBand LID.
 */
public record Host(String name, byte[] mac, byte[] ipv4, byte[] ipv6, int lid, long caGuid) {

    /** Host number {@code n} (1-based) of a fabric: 10.0.0.n, fd00::n, LID n, locally administered MAC. */
    public static Host numbered(int n) {
        if (n < 1 || n > 250) {
            throw new IllegalArgumentException("host number must be 1..250");
        }
        byte[] mac = {0x02, 0x1e, 0x67, 0x00, 0x00, (byte) n};
        byte[] ipv4 = {10, 0, 0, (byte) n};
        byte[] ipv6 = new byte[16];
        ipv6[0] = (byte) 0xfd;
        ipv6[15] = (byte) n;
        // Node GUID from the MAC the way mlx5 and rxe derive it (EUI-64: insert ff:fe).
        long guid = 0x021e67fffe000000L | n;
        return new Host("host" + n, mac, ipv4, ipv6, n, guid);
    }

    /** The GID a RoCEv1 or native-IB GRH carries. */
    public byte[] gid() {
        return ipv6.clone();
    }

    /** Dotted IPv4 text, for truth files. */
    public String ipv4Text() {
        return Gids.ipv4(ipv4);
    }
}
