package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.HeaderType;

import java.nio.ByteBuffer;

/**
 * The unordered pair of hosts a frame travels between, read as the engine reads a packet's addresses
 * ({@link PacketFacts}): the last whole IPv4, IPv6 or GRH header, else the LRH's LIDs. Everything the
 * engine keeps — pairing of directions, CM, a conversation's state, iWARP's TCP streams — stays within
 * one such pair, so a replay split by host pair (the Spark job, issue 21) replays each part alone.
 */
public final class HostPair {
    private HostPair() {
    }

    /**
     * A key naming {@code d}'s host pair the same whichever way the frame goes, or the empty string for a
     * frame without addresses (not IP, not InfiniBand, or cut before them).
     */
    public static String keyOf(Dissection d) {
        ByteBuffer b = d.buffer();
        int kind = 0;
        long srcHi = 0;
        long srcLo = 0;
        long dstHi = 0;
        long dstLo = 0;
        int slid = -1;
        int dlid = -1;
        for (int layer = 0; layer < d.layerCount(); layer++) {
            HeaderType t = d.layerType(layer);
            int k = HeaderReads.kind(t);
            if (k == HeaderReads.OTHER || d.isLayerTruncated(layer) || d.layerLength(layer) < HeaderReads.fixedSize(k)) {
                continue; // as PacketFacts: a cut or short header names no one
            }
            int at = d.layerAt(layer);
            switch (k) {
                case HeaderReads.IPV4 -> {
                    kind = Address.IPV4;
                    srcHi = dstHi = 0;
                    srcLo = HeaderReads.u32(b, at + HeaderReads.IPV4_SOURCE);
                    dstLo = HeaderReads.u32(b, at + HeaderReads.IPV4_DESTINATION);
                }
                case HeaderReads.IPV6, HeaderReads.GRH -> {
                    int src = at + (k == HeaderReads.IPV6 ? io.rdmascope.proto.ip.Ip.V6_SRC.offset()
                            : io.rdmascope.proto.ib.InfiniBand.GRH_SGID.offset());
                    int dst = at + (k == HeaderReads.IPV6 ? io.rdmascope.proto.ip.Ip.V6_DST.offset()
                            : io.rdmascope.proto.ib.InfiniBand.GRH_DGID.offset());
                    kind = Address.IPV6;
                    srcHi = b.getLong(src);
                    srcLo = b.getLong(src + 8);
                    dstHi = b.getLong(dst);
                    dstLo = b.getLong(dst + 8);
                }
                case HeaderReads.LRH -> {
                    slid = HeaderReads.u16(b, at + HeaderReads.LRH_SLID);
                    dlid = HeaderReads.u16(b, at + HeaderReads.LRH_DLID);
                }
                default -> {
                }
            }
        }
        if (kind == 0 && slid >= 0) {
            kind = Address.LID;
            srcLo = slid;
            dstLo = dlid;
        }
        if (kind == 0) {
            return "";
        }
        boolean srcFirst = srcHi != dstHi ? Long.compareUnsigned(srcHi, dstHi) < 0 : Long.compareUnsigned(srcLo, dstLo) <= 0;
        return srcFirst ? text(kind, srcHi, srcLo, dstHi, dstLo) : text(kind, dstHi, dstLo, srcHi, srcLo);
    }

    private static String text(int kind, long aHi, long aLo, long bHi, long bLo) {
        return kind + ":" + Long.toHexString(aHi) + "." + Long.toHexString(aLo) + "-" + Long.toHexString(bHi) + "."
                + Long.toHexString(bLo);
    }
}
