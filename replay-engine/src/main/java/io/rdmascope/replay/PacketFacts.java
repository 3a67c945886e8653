package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.ib.Crcs;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.mad.Cm;
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
        dissection = d;
        rdma = r;
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
        cmType = null;
        boolean haveLid = false;
        int declaredEnd = -1; // where the transport packet ends by its own length fields (frame offset)
        int slid = 0;
        int dlid = 0;
        for (int layer = 0; layer < d.layerCount(); layer++) {
            HeaderType t = d.layerType(layer);
            int at = d.layerAt(layer);
            if (d.isLayerTruncated(layer) || d.layerLength(layer) < fixedSize(t)) {
                continue; // cut by the capture, or shorter than its type in a malformed packet (found by fuzzing)
            }
            if (t == Ip.IPV4) {
                addressKind = Address.IPV4;
                srcLo = Ip.V4_SRC.read(b, at);
                dstLo = Ip.V4_DST.read(b, at);
                ecn = (int) (Ip.V4_DSFIELD.read(b, at) & 3);
                ipId = (int) Ip.V4_ID.read(b, at);
            } else if (t == Ip.IPV6) {
                addressKind = Address.IPV6;
                srcHi = b.getLong(at + Ip.V6_SRC.offset());
                srcLo = b.getLong(at + Ip.V6_SRC.offset() + 8);
                dstHi = b.getLong(at + Ip.V6_DST.offset());
                dstLo = b.getLong(at + Ip.V6_DST.offset() + 8);
                ecn = (b.get(at + 1) >> 4) & 3; // traffic class spans bytes 0-1: ECN is bits 21:20
            } else if (t == Transport.UDP) {
                udpSourcePort = (int) Transport.UDP_SRCPORT.read(b, at);
                declaredEnd = d.layerStart(layer) + (int) Transport.UDP_LENGTH.read(b, at);
            } else if (t == InfiniBand.LRH) {
                haveLid = true;
                slid = (int) InfiniBand.LRH_SLID.read(b, at);
                dlid = (int) InfiniBand.LRH_DLID.read(b, at);
                declaredEnd = d.layerStart(layer) + 4 * (int) InfiniBand.LRH_PKTLEN.read(b, at); // LRH..ICRC
            } else if (t == InfiniBand.GRH) {
                addressKind = Address.IPV6;
                srcHi = b.getLong(at + InfiniBand.GRH_SGID.offset());
                srcLo = b.getLong(at + InfiniBand.GRH_SGID.offset() + 8);
                dstHi = b.getLong(at + InfiniBand.GRH_DGID.offset());
                dstLo = b.getLong(at + InfiniBand.GRH_DGID.offset() + 8);
                ecn = (int) ((InfiniBand.GRH_TCLASS.read(b, at)) & 3);
                if (!haveLid) {
                    declaredEnd = d.layerStart(layer) + 40 + (int) InfiniBand.GRH_PAYLEN.read(b, at); // RoCEv1
                }
            } else if (t == InfiniBand.BTH) {
                psn = (int) InfiniBand.BTH_PSN.read(b, at);
                destQp = (int) InfiniBand.BTH_DESTQP.read(b, at);
                ackRequest = InfiniBand.BTH_A.read(b, at) != 0;
            } else if (t == InfiniBand.AETH) {
                aethSyndrome = (int) InfiniBand.AETH_SYNDROME.read(b, at);
                aethMsn = (int) InfiniBand.AETH_MSN.read(b, at);
            } else if (t == InfiniBand.RETH) {
                rethVa = InfiniBand.RETH_VA.read(b, at);
                rethRkey = InfiniBand.RETH_R_KEY.read(b, at);
                rethDmaLength = InfiniBand.RETH_DMALEN.read(b, at);
            } else if (t == InfiniBand.DETH) {
                dethSourceQp = (int) InfiniBand.DETH_SRCQP.read(b, at);
            } else if (t == InfiniBand.IMMDT) {
                immediate = InfiniBand.IMMDT_VALUE.read(b, at);
            } else if (t == InfiniBand.IETH) {
                invalidateRkey = InfiniBand.IETH_R_KEY.read(b, at);
            } else if (t == InfiniBand.XRCETH) {
                xrcSrq = (int) InfiniBand.XRCETH_XRCSRQ.read(b, at);
            } else if (t == Mad.HEADER) {
                madClass = (int) Mad.MGMT_CLASS.read(b, at);
                madAttribute = (int) Mad.ATTRIBUTE_ID.read(b, at);
            } else if (madClass == Mad.CLASS_CM && Cm.HEADERS.contains(t)) {
                if (cmLayer < 0) {
                    cmLayer = layer;
                    cmType = t;
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
        opcode = Opcodes.of(r.opcode);
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

    /** Bytes a header must have before its fields are read here; 0 for headers read no further. */
    private static int fixedSize(HeaderType t) {
        if (t == Ip.IPV4) {
            return 20;
        }
        if (t == Ip.IPV6 || t == InfiniBand.GRH) {
            return 40;
        }
        if (t == Transport.UDP || t == InfiniBand.LRH || t == InfiniBand.DETH) {
            return 8;
        }
        if (t == InfiniBand.BTH) {
            return 12;
        }
        if (t == InfiniBand.RETH) {
            return 16;
        }
        if (t == InfiniBand.AETH || t == InfiniBand.IMMDT || t == InfiniBand.IETH || t == InfiniBand.XRCETH) {
            return 4;
        }
        if (t == Mad.HEADER) {
            return Mad.COMMON_HEADER_SIZE;
        }
        return 0;
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
