package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.mad.Mad;

import java.nio.ByteBuffer;

/**
 * What the replay engine needs from one dissected frame, read straight from the buffer into
 * reusable fields: one instance per engine, overwritten frame after frame, never allocated per
 * frame. Optional headers leave their fields at -1 (or false).
 */
final class PacketFacts {
    long frame;
    long timeNanos;
    int capturedLength;
    int wireLength;
    /** Capture interface (pcapng IDB index; 0 for pcap). */
    int interfaceId;

    // Network addresses: IPv4 (in lo), IPv6 or GID (hi, lo), or a LID (in lo).
    int addressKind;
    long srcHi;
    long srcLo;
    long dstHi;
    long dstLo;
    int ecn = -1;
    int ipId = -1;
    int udpSourcePort = -1;

    Opcode opcode;
    int destQp;
    int psn;
    boolean ackRequest;
    int padCount;
    long payloadLength;
    /** Cut by the snap length (the record says the wire had more). */
    boolean truncated;
    /** Shorter than its own IP/UDP length though the record claims it whole (Dissection.isCutSilently). */
    boolean cutSilently;
    /**
     * Cut (either way) inside the BTH or an extension header: only the addresses, and the destination
     * QP when the BTH is whole, can be trusted; the engine does not replay it.
     */
    boolean headersCut;

    int aethSyndrome = -1;
    int aethMsn = -1;
    long rethVa;
    long rethRkey;
    long rethDmaLength = -1;
    int dethSourceQp = -1;
    long immediate = -1;
    long invalidateRkey = -1;
    int xrcSrq = -1;

    /**
     * A held response's verdict on timestamp inversion, set by the first request that reaches its PSN:
     * 0 undecided, 1 stamped before that request (its cause), -1 not (the capture missed its cause).
     */
    int inversionDecided;

    /** ICRC/VCRC: bad (0), good (1), unverified (2); computed only on demand. */
    private Dissection dissection;
    private RdmaContext rdma;
    private int icrcStatus = -1;
    private int vcrcStatus = -1;
    /** A copy's ICRC value, read when the copy was made (a copy keeps no reference to the frame's buffer). */
    private long icrcValueCopy = -1;

    /**
     * The header kind last seen at each layer index: consecutive frames mostly have the same layers, so
     * a layer's kind is usually known without a lookup. Made by the first {@link #read}, so copies have none.
     */
    private HeaderType[] kindOfLayerType;
    private byte[] kindOfLayer;

    // Management datagrams to QP1: the CM attribute and the layer holding the CM message.
    int madClass = -1;
    int madAttribute = -1;
    int cmLayer = -1;
    HeaderType cmType;

    /**
     * Reads frame {@code d}; false when it is not an InfiniBand transport packet. A packet cut inside its
     * transport headers reads as far as it goes, with {@link #headersCut} set.
     */
    boolean read(Dissection d) {
        RdmaContext r = d.rdma();
        boolean cut = d.isCut();
        int bthLayer = r.bthLayer;
        if (bthLayer < 0 && cut) {
            bthLayer = d.find(InfiniBand.BTH); // the dissector leaves a BTH cut short out of its context
        }
        if (bthLayer < 0 || !cut && (!r.isRdma() || d.layerLength(bthLayer) < 12)) {
            return false;
        }
        headersCut = cut && transportHeadersCut(d, bthLayer);
        if (!headersCut && d.layerLength(bthLayer) < 12) {
            return false;
        }
        if (dissection != d) {
            // One dissection serves every frame: reference fields of this long-lived object are written only
            // when they change (a reference store pays a G1 write barrier with a fence).
            dissection = d;
            rdma = r;
        }
        icrcStatus = -1;
        vcrcStatus = -1;
        frame = d.frame().number();
        timeNanos = d.frame().timeNanos();
        capturedLength = d.frame().capturedLength();
        wireLength = d.frame().wireLength();
        interfaceId = d.frame().interfaceId();
        destQp = -1;
        ByteBuffer b = d.buffer();
        addressKind = 0;
        srcHi = srcLo = dstHi = dstLo = 0;
        ecn = -1;
        ipId = -1;
        udpSourcePort = -1;
        aethSyndrome = aethMsn = dethSourceQp = xrcSrq = madClass = madAttribute = cmLayer = -1;
        rethDmaLength = immediate = invalidateRkey = -1;
        rethVa = rethRkey = 0;
        if (cmType != null) {
            cmType = null;
        }
        boolean haveLid = false;
        int declaredEnd = -1; // where the transport packet ends by its own length fields (frame offset)
        int slid = 0;
        int dlid = 0;
        int layers = d.layerCount();
        if (kindOfLayerType == null) {
            kindOfLayerType = new HeaderType[Dissection.MAX_LAYERS];
            kindOfLayer = new byte[Dissection.MAX_LAYERS];
        }
        for (int layer = 0; layer < layers; layer++) {
            HeaderType t = d.layerType(layer);
            int kind;
            if (t == kindOfLayerType[layer]) {
                kind = kindOfLayer[layer]; // the usual case: the same header type at this index as last frame
            } else {
                kind = HeaderReads.kind(t);
                kindOfLayerType[layer] = t;
                kindOfLayer[layer] = (byte) kind;
            }
            if (kind == HeaderReads.OTHER || d.isLayerTruncated(layer)
                    || d.layerLength(layer) < HeaderReads.fixedSize(kind)) {
                continue; // cut by the capture, or shorter than its type in a malformed packet (found by fuzzing)
            }
            int at = d.layerAt(layer);
            switch (kind) {
                case HeaderReads.IPV4 -> {
                    addressKind = Address.IPV4;
                    srcLo = HeaderReads.u32(b, at + HeaderReads.IPV4_SOURCE);
                    dstLo = HeaderReads.u32(b, at + HeaderReads.IPV4_DESTINATION);
                    ecn = HeaderReads.ipv4Ecn(b, at);
                    ipId = HeaderReads.u16(b, at + HeaderReads.IPV4_ID);
                }
                case HeaderReads.IPV6 -> {
                    addressKind = Address.IPV6;
                    addresses(b, at + Ip.V6_SRC.offset(), at + Ip.V6_DST.offset());
                    ecn = (b.get(at + 1) >> 4) & 3; // traffic class spans bytes 0-1: ECN is bits 21:20
                }
                case HeaderReads.UDP -> {
                    udpSourcePort = HeaderReads.u16(b, at + HeaderReads.UDP_SOURCE_PORT);
                    declaredEnd = d.layerStart(layer) + HeaderReads.u16(b, at + HeaderReads.UDP_LENGTH);
                }
                case HeaderReads.LRH -> {
                    haveLid = true;
                    slid = HeaderReads.u16(b, at + HeaderReads.LRH_SLID);
                    dlid = HeaderReads.u16(b, at + HeaderReads.LRH_DLID);
                    declaredEnd = d.layerStart(layer) + 4 * HeaderReads.lrhPacketLength(b, at); // LRH..ICRC
                }
                case HeaderReads.GRH -> {
                    addressKind = Address.IPV6;
                    addresses(b, at + InfiniBand.GRH_SGID.offset(), at + InfiniBand.GRH_DGID.offset());
                    ecn = HeaderReads.grhTrafficClass(b, at) & 3;
                    if (!haveLid) {
                        // RoCEv1: the GRH's payload length ends the packet
                        declaredEnd = d.layerStart(layer) + 40 + HeaderReads.u16(b, at + HeaderReads.GRH_PAYLOAD_LENGTH);
                    }
                }
                case HeaderReads.BTH -> {
                    psn = HeaderReads.u24(b, at + HeaderReads.BTH_PSN);
                    destQp = HeaderReads.u24(b, at + HeaderReads.BTH_DEST_QP);
                    ackRequest = HeaderReads.bthAckRequest(b, at);
                }
                case HeaderReads.AETH -> {
                    aethSyndrome = HeaderReads.u8(b, at + HeaderReads.AETH_SYNDROME);
                    aethMsn = HeaderReads.u24(b, at + HeaderReads.AETH_MSN);
                }
                case HeaderReads.RETH -> {
                    rethVa = HeaderReads.u64(b, at + HeaderReads.RETH_VA);
                    rethRkey = HeaderReads.u32(b, at + HeaderReads.RETH_R_KEY);
                    rethDmaLength = HeaderReads.u32(b, at + HeaderReads.RETH_DMA_LENGTH);
                }
                case HeaderReads.DETH -> dethSourceQp = HeaderReads.u24(b, at + HeaderReads.DETH_SOURCE_QP);
                case HeaderReads.IMMDT -> immediate = HeaderReads.u32(b, at + HeaderReads.WHOLE_WORD);
                case HeaderReads.IETH -> invalidateRkey = HeaderReads.u32(b, at + HeaderReads.WHOLE_WORD);
                case HeaderReads.XRCETH -> xrcSrq = HeaderReads.u24(b, at + HeaderReads.XRCETH_SRQ);
                case HeaderReads.MAD -> {
                    madClass = HeaderReads.u8(b, at + HeaderReads.MAD_CLASS);
                    madAttribute = HeaderReads.u16(b, at + HeaderReads.MAD_ATTRIBUTE);
                }
                case HeaderReads.CM -> {
                    if (madClass == Mad.CLASS_CM && cmLayer < 0) {
                        cmLayer = layer;
                        cmType = t;
                    }
                }
                default -> {
                }
            }
        }
        if (addressKind == 0 && haveLid) {
            addressKind = Address.LID;
            srcLo = slid;
            dstLo = dlid;
        }
        if (headersCut) {
            opcode = null;
            return true;
        }
        Opcode code = Opcodes.of(r.opcode);
        if (opcode != code) {
            opcode = code;
        }
        padCount = r.padCount;
        truncated = wireLength > capturedLength;
        cutSilently = d.isCutSilently();
        if (cut && declaredEnd > r.payloadStart && r.payloadStart >= 0) {
            // Cut by the snap length: the packet's own length fields still tell its payload length.
            payloadLength = Math.max(0, declaredEnd - 4 - padCount - r.payloadStart);
        } else {
            payloadLength = r.payloadLength;
        }
        return true;
    }

    /** Source and destination of an IPv6 header or GRH, 16 bytes each at buffer indices {@code src}, {@code dst}. */
    private void addresses(ByteBuffer b, int src, int dst) {
        srcHi = b.getLong(src);
        srcLo = b.getLong(src + 8);
        dstHi = b.getLong(dst);
        dstLo = b.getLong(dst + 8);
    }

    /** Whether the BTH, or an extension header after it, runs past the bytes the capture kept. */
    private static boolean transportHeadersCut(Dissection d, int bthLayer) {
        for (int layer = bthLayer; layer < d.layerCount(); layer++) {
            HeaderType t = d.layerType(layer);
            if (t.protocol() != InfiniBand.PROTOCOL) {
                return false; // payload (data, a MAD) follows the transport headers
            }
            if (d.isLayerTruncated(layer)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A detached copy for a packet the engine must hold (a direction not yet paired with its reverse,
     * a response that reached the capture before its request): the CRC verdicts are computed now,
     * since the dissection's buffer moves on with the next frame. CM fields are not kept (CM frames
     * are never held).
     */
    PacketFacts copy() {
        PacketFacts c = new PacketFacts();
        c.frame = frame;
        c.timeNanos = timeNanos;
        c.capturedLength = capturedLength;
        c.wireLength = wireLength;
        c.addressKind = addressKind;
        c.srcHi = srcHi;
        c.srcLo = srcLo;
        c.dstHi = dstHi;
        c.dstLo = dstLo;
        c.ecn = ecn;
        c.ipId = ipId;
        c.udpSourcePort = udpSourcePort;
        c.opcode = opcode;
        c.destQp = destQp;
        c.psn = psn;
        c.ackRequest = ackRequest;
        c.padCount = padCount;
        c.payloadLength = payloadLength;
        c.truncated = truncated;
        c.cutSilently = cutSilently;
        c.interfaceId = interfaceId;
        c.aethSyndrome = aethSyndrome;
        c.aethMsn = aethMsn;
        c.rethVa = rethVa;
        c.rethRkey = rethRkey;
        c.rethDmaLength = rethDmaLength;
        c.dethSourceQp = dethSourceQp;
        c.immediate = immediate;
        c.invalidateRkey = invalidateRkey;
        c.xrcSrq = xrcSrq;
        c.madClass = madClass;
        c.madAttribute = madAttribute;
        c.icrcStatus = icrcStatus();
        c.vcrcStatus = vcrcStatus();
        c.icrcValueCopy = icrcValue();
        return c;
    }

    /**
     * Computes the CRC verdicts now rather than when the engine first asks (a {@link ReplayFeed} does
     * it on the reading thread). A frame whose CRC cannot be computed is left to be computed on
     * demand, so that the engine meets exactly what it would have met.
     */
    void computeCrcs(boolean icrc) {
        try {
            if (icrc) {
                icrcStatus();
            }
            vcrcStatus();
        } catch (RuntimeException e) {
            icrcStatus = -1;
            vcrcStatus = -1;
        }
    }

    int icrcStatus() {
        if (icrcStatus < 0) {
            icrcStatus = rdma.icrcOffset < 0 ? Crcs.STATUS_UNVERIFIED : Crcs.icrcStatus(dissection);
        }
        return icrcStatus;
    }

    int vcrcStatus() {
        if (vcrcStatus < 0) {
            vcrcStatus = rdma.vcrcOffset < 0 ? Crcs.STATUS_UNVERIFIED : Crcs.vcrcStatus(dissection);
        }
        return vcrcStatus;
    }

    /** A raw ICRC value for telling identical copies apart, or -1 when none was captured. */
    long icrcValue() {
        if (rdma == null) {
            return icrcValueCopy;
        }
        if (rdma.icrcOffset < 0) {
            return -1;
        }
        return dissection.buffer().getInt(dissection.base() + rdma.icrcOffset) & 0xFFFFFFFFL;
    }

    /** Reads a CM field of the CM message in this frame; 0 when a short MAD does not hold it. */
    long cm(io.rdmascope.field.Field field) {
        return field.isPresent(dissection, cmLayer) ? field.read(dissection.buffer(), dissection.layerAt(cmLayer)) : 0;
    }

    Address source() {
        return new Address(addressKind, srcHi, srcLo);
    }

    Address destination() {
        return new Address(addressKind, dstHi, dstLo);
    }
}
