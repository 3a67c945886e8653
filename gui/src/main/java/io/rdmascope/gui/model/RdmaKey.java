package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.replay.Address;

import java.nio.ByteBuffer;

/**
 * An InfiniBand transport packet's (source, destination, destination QP), read as the replay engine
 * keys conversations: IPv4 or IPv6 addresses for RoCEv2, GIDs where a GRH carries them, else LIDs.
 * Mirrors the replay engine's {@code PacketFacts}, which is not public.
 */
public record RdmaKey(Address source, Address destination, int destQp) {

    /** The key of the frame dissected into {@code d}, or null when it is no InfiniBand transport packet. */
    public static RdmaKey of(Dissection d) {
        RdmaContext r = d.rdma();
        if (!r.isRdma() || r.bthLayer < 0 || d.layerLength(r.bthLayer) < 12) {
            return null;
        }
        ByteBuffer b = d.buffer();
        int kind = 0;
        long srcHi = 0;
        long srcLo = 0;
        long dstHi = 0;
        long dstLo = 0;
        boolean haveLid = false;
        int slid = 0;
        int dlid = 0;
        int destQp = 0;
        for (int layer = 0; layer < d.layerCount(); layer++) {
            if (d.isLayerTruncated(layer)) {
                continue;
            }
            HeaderType t = d.layerType(layer);
            int at = d.layerAt(layer);
            if (t == Ip.IPV4) {
                kind = Address.IPV4;
                srcLo = Ip.V4_SRC.read(b, at);
                dstLo = Ip.V4_DST.read(b, at);
            } else if (t == Ip.IPV6) {
                kind = Address.IPV6;
                srcHi = b.getLong(at + Ip.V6_SRC.offset());
                srcLo = b.getLong(at + Ip.V6_SRC.offset() + 8);
                dstHi = b.getLong(at + Ip.V6_DST.offset());
                dstLo = b.getLong(at + Ip.V6_DST.offset() + 8);
            } else if (t == InfiniBand.LRH) {
                haveLid = true;
                slid = (int) InfiniBand.LRH_SLID.read(b, at);
                dlid = (int) InfiniBand.LRH_DLID.read(b, at);
            } else if (t == InfiniBand.GRH) {
                kind = Address.IPV6;
                srcHi = b.getLong(at + InfiniBand.GRH_SGID.offset());
                srcLo = b.getLong(at + InfiniBand.GRH_SGID.offset() + 8);
                dstHi = b.getLong(at + InfiniBand.GRH_DGID.offset());
                dstLo = b.getLong(at + InfiniBand.GRH_DGID.offset() + 8);
            } else if (t == InfiniBand.BTH) {
                destQp = (int) InfiniBand.BTH_DESTQP.read(b, at);
            }
        }
        if (kind == 0 && haveLid) {
            kind = Address.LID;
            srcLo = slid;
            dstLo = dlid;
        }
        return new RdmaKey(new Address(kind, srcHi, srcLo), new Address(kind, dstHi, dstLo), destQp);
    }
}
