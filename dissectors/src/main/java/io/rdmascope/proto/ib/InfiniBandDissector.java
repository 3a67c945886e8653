package io.rdmascope.proto.ib;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.RdmaContext.Encapsulation;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.ip.Ip;

import java.util.List;

/**
 * The InfiniBand transport, reached three ways that share one core ({@link #transport}): RoCEv2
 * (UDP port 4791), RoCEv1 (ethertype 0x8915: GRH then BTH) and native InfiniBand (LRH first).
 * The core walks the opcode table's header chain, then payload, pad and ICRC.
 */
public final class InfiniBandDissector {
    /** IBTA 8.3.1: GRH next-header value for the IBA transport. */
    public static final int GRH_NEXT_HEADER_IBA = 0x1B;
    /** GSI (QP1) carries MADs, connection management among them. */
    public static final int QP_GSI = 1;
    public static final int QP_SMI = 0;

    private InfiniBandDissector() {
    }

    /** Fixed size of each InfiniBand header type (IBTA 9.2–9.3). */
    public static int sizeOf(HeaderType h) {
        return h.fixedLength(); // from the header's field layout (IBTA 9.2-9.3 header formats)
    }

    /** RoCEv2: the UDP payload is BTH … ICRC. */
    public static void roceV2(DissectorChain chain, Dissection d, int offset, int end) {
        RdmaContext r = d.rdma();
        int ipLayer = Ip.enclosingIpLayer(d, d.layerCount());
        if (ipLayer >= 0) {
            r.encapsulation = d.layerType(ipLayer) == Ip.IPV4 ? Encapsulation.ROCE_V2_IPV4
                    : Encapsulation.ROCE_V2_IPV6;
            r.coverageStart = d.layerStart(ipLayer);
            r.networkHeaderLength = d.layerLength(ipLayer);
        }
        transport(chain, d, offset, end);
    }

    /** RoCEv1: GRH (IPv6 layout, next header 0x1B) then BTH … ICRC inside the Ethernet payload. */
    public static void roceV1(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(InfiniBand.GRH, offset, 40) < 0) {
            return;
        }
        RdmaContext r = d.rdma();
        r.encapsulation = Encapsulation.ROCE_V1;
        r.coverageStart = offset;
        r.networkHeaderLength = 40;
        d.declaredEnd(offset + 40 + d.u16(offset + 4));
        int packetEnd = Math.min(end, offset + 40 + d.u16(offset + 4));
        if (d.u8(offset + 6) != GRH_NEXT_HEADER_IBA) {
            Data.dissect(chain, d, offset + 40, packetEnd);
            return;
        }
        transport(chain, d, offset + 40, packetEnd);
    }

    /** Native InfiniBand from the LRH (pcap linktype 247, ERF type INFINIBAND): LRH [GRH] BTH … ICRC VCRC. */
    public static void nativeIb(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(InfiniBand.LRH, offset, 8) < 0) {
            return;
        }
        RdmaContext r = d.rdma();
        r.encapsulation = Encapsulation.INFINIBAND;
        r.coverageStart = offset;
        int packetLength = (d.u16(offset + 4) & 0x07FF) * 4; // LRH through ICRC, VCRC excluded
        int packetEnd = offset + packetLength;
        if (packetLength < 8 + 4) {
            d.markMalformed();
            return;
        }
        d.declaredEnd(packetEnd + 2);
        if (packetEnd + 2 <= d.capturedLength() && !d.isCutSilently()) {
            r.vcrcOffset = packetEnd;
        }
        int lnh = d.u8(offset + 1) & 0x3;
        int at = offset + 8;
        switch (lnh) {
            case 3 -> {
                if (d.add(InfiniBand.GRH, at, 40) < 0) {
                    return;
                }
                r.hasGrh = true;
                r.networkHeaderLength = 48;
                if (d.u8(at + 6) != GRH_NEXT_HEADER_IBA) {
                    Data.dissect(chain, d, at + 40, Math.min(end, packetEnd));
                    addVcrc(d, r);
                    return;
                }
                transport(chain, d, at + 40, Math.min(end, packetEnd));
            }
            case 2 -> {
                r.networkHeaderLength = 8;
                transport(chain, d, at, Math.min(end, packetEnd));
            }
            default -> {
                // Raw (non-IBA) packets: an ethertype-framed payload with no ICRC (IBTA 7.7.4 / 5.3).
                Data.dissect(chain, d, at, Math.min(end, packetEnd));
            }
        }
        addVcrc(d, r);
    }

    private static void addVcrc(Dissection d, RdmaContext r) {
        if (r.vcrcOffset >= 0) {
            d.add(InfiniBand.VCRC_HEADER, r.vcrcOffset, 2);
        }
    }

    /**
     * The shared core: BTH at {@code offset}, the opcode's extension headers, payload, pad and the
     * ICRC in the last four bytes before {@code end}.
     */
    public static void transport(DissectorChain chain, Dissection d, int offset, int end) {
        RdmaContext r = d.rdma();
        int bthLayer = d.add(InfiniBand.BTH, offset, 12);
        if (bthLayer < 0) {
            return;
        }
        r.bthLayer = bthLayer;
        r.bthStart = offset;
        int opcodeByte = d.u8(offset);
        r.opcode = opcodeByte;
        r.padCount = (d.u8(offset + 1) >> 4) & 0x3;
        Opcode opcode = Opcodes.of(opcodeByte);
        if (opcode.service() == Service.RD && isDc(d, r, offset)) {
            r.dynamicallyConnected = true;
            opcode = Opcodes.dc(opcodeByte, (d.u8(offset + 1) & 0x80) == 0);
            r.dcConnect = opcode.headers().contains(InfiniBand.DCCETH);
        }
        // The ICRC closes the packet when the whole packet was captured; a cut leaves it out. A snaplen
        // cut shows as end == captured length with a longer wire length; a silent cut as a frame shorter
        // than its own IP/UDP length (Dissection.declaredEnd). No ICRC then: the last four bytes are
        // payload. Wireshark still shows them as an ICRC on a silently cut frame; we do not.
        boolean cutByCapture = end >= d.capturedLength() && d.isCut();
        boolean icrcCaptured = end - 4 >= offset + 12 && end <= d.capturedLength() && !cutByCapture;
        int headersEnd = icrcCaptured ? end - 4 : end;
        int at = offset + 12;
        // Indexed, not for-each: the opcode table mixes List.of shapes, and the iterator of a list the JIT
        // cannot pin to one class is allocated for every frame.
        List<HeaderType> chainHeaders = opcode.headers();
        for (int i = 0, count = chainHeaders.size(); i < count; i++) {
            HeaderType h = chainHeaders.get(i);
            int size = sizeOf(h);
            if (at + size > headersEnd) {
                if (at + size > d.capturedLength()) {
                    d.add(h, at, size); // cut by the capture: keeps what is there, flags malformed
                } else {
                    d.add(h, at, Math.max(0, headersEnd - at)); // the packet is shorter than its headers
                    d.markMalformed();
                }
                return;
            }
            d.add(h, at, size);
            at += size;
        }
        int payloadEnd = headersEnd;
        if (icrcCaptured) {
            payloadEnd = headersEnd - r.padCount;
            if (payloadEnd < at) {
                d.markMalformed(); // pad count larger than what follows the headers
                payloadEnd = at;
            }
        }
        r.payloadStart = at;
        r.payloadLength = payloadEnd - at;
        if (payloadEnd > at) {
            if (!opcode.isDefined()) {
                d.add(InfiniBand.VENDOR, at, payloadEnd - at);
            } else if (isManagementDatagram(d, opcode, offset)) {
                chain.mad(d, at, payloadEnd);
            } else {
                chain.rdmaPayload(d, at, payloadEnd); // a ULP that claims it (NVMe-oF, issue 19), else data
            }
        } else if (opcode.isDefined()) {
            // No payload (an RDMA READ Request, an ACK): still offered, since a ULP may claim the transfer.
            chain.rdmaPayload(d, at, at);
        }
        if (icrcCaptured) {
            if (payloadEnd < headersEnd) {
                d.add(InfiniBand.PAD, payloadEnd, headersEnd - payloadEnd);
            }
            r.icrcOffset = headersEnd;
            d.add(InfiniBand.ICRC_HEADER, headersEnd, 4);
        }
    }

    /**
     * Whether an RD-range opcode is Mellanox DC rather than IBTA RD (docs/dc.md, "DC or RD?").
     *
     * <p>Over RoCE (v1 or v2) it is always DC: no RoCE device implements RD (rdma-core and the Linux
     * verbs have no RD QP type), while ConnectX NICs send DC there.
     *
     * <p>On native InfiniBand both can occur in principle, and the first octet after the BTH tells
     * them apart: in RD it is the RDETH's reserved octet (IBTA Vol. 1 9.3.1, RDETH: 8 reserved bits
     * then the 24-bit EE context; a sender writes reserved bits as zero), in DC the DCETH's
     * flags, which ConnectX sets (0x11 on requests, 0x10 on responses on every packet of the real
     * captures). So a non-zero octet there is DC and a zero one RD. Wireshark 4.0 takes every
     * 0x40–0x5F opcode as DC, native InfiniBand included; an RD packet is shown as RD here.
     */
    static boolean isDc(Dissection d, RdmaContext r, int bthOffset) {
        return switch (r.encapsulation) {
            case NONE -> false;
            case INFINIBAND -> bthOffset + 12 < d.capturedLength() && d.u8(bthOffset + 12) != 0;
            default -> true;
        };
    }

    /** MADs ride in UD SEND Only packets to QP0 (SMI) or QP1 (GSI) (IBTA 13.4). */
    private static boolean isManagementDatagram(Dissection d, Opcode opcode, int bthOffset) {
        if (opcode.service() != Service.UD || opcode.operation() != Operation.SEND_ONLY) {
            return false;
        }
        int destQp = d.u24(bthOffset + 5);
        return destQp == QP_GSI || destQp == QP_SMI;
    }
}
