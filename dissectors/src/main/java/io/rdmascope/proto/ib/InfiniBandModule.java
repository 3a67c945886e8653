package io.rdmascope.proto.ib;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.text.TreeLabels;

import java.util.List;
import java.util.Set;

/** The InfiniBand transport over RoCEv2, RoCEv1 and native links: registrations, columns, tree text. */
public final class InfiniBandModule implements ProtocolModule {
    /**
     * Computed fields Wireshark would add as generated items, printed in brackets as tshark prints
     * those: the CRC checks, which tshark 4.0 does not make.
     */
    private static final Set<Field> GENERATED = Set.of(InfiniBand.ICRC_COMPUTED, InfiniBand.ICRC_STATUS,
            InfiniBand.VCRC_COMPUTED, InfiniBand.VCRC_STATUS);

    @Override
    public List<HeaderType> headers() {
        return InfiniBand.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.linkType(LinkTypes.INFINIBAND, InfiniBandDissector::nativeIb);
        r.etherType(Ethernet.ETHERTYPE_ROCE, InfiniBandDissector::roceV1);
        r.roceV2(InfiniBandDissector::roceV2);
        // --decode-as udp.port==N,infiniband: RoCEv2 on a port other than 4791 (tshark's own table entry)
        r.decodeAs(DecodeAs.UDP_PORT, InfiniBand.PROTOCOL.abbrev());
    }

    @Override
    public Addresses addresses(Dissection d) {
        int grh = d.find(InfiniBand.GRH);
        if (grh >= 0 && d.layerLength(grh) == 40) {
            return new Addresses("GID: " + TreeLabels.text(InfiniBand.GRH_SGID, d, grh),
                    "GID: " + TreeLabels.text(InfiniBand.GRH_DGID, d, grh), Addresses.GRH);
        }
        int lrh = d.find(InfiniBand.LRH);
        if (lrh >= 0 && d.layerLength(lrh) == 8) {
            return new Addresses("LID: " + InfiniBand.LRH_SLID.read(d.buffer(), d.layerAt(lrh)),
                    "LID: " + InfiniBand.LRH_DLID.read(d.buffer(), d.layerAt(lrh)), Addresses.LRH);
        }
        return null;
    }

    /** An RDMA frame's whole line: "RRoCE" (v2), "RoCE" (v1) or "InfiniBand", and the transport's Info. */
    @Override
    public Columns carrier(Dissection d) {
        RdmaContext r = d.rdma();
        if (!r.isRdma()) {
            return null;
        }
        String protocol = switch (r.encapsulation) {
            case ROCE_V2_IPV4, ROCE_V2_IPV6 -> "RRoCE";
            case ROCE_V1 -> "RoCE";
            default -> "InfiniBand";
        };
        return new Columns(protocol, InfiniBandInfo.rdmaInfo(d, r));
    }

    /** tshark 4.0 shows the CRC as one field line; our check of it follows as generated lines. */
    @Override
    public String headerLabel(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        if (h == InfiniBand.ICRC_HEADER && d.layerLength(layer) == 4) {
            return "Invariant CRC: " + TreeLabels.text(InfiniBand.ICRC, d, layer);
        }
        if (h == InfiniBand.VCRC_HEADER && d.layerLength(layer) == 2) {
            return "Variant CRC: " + TreeLabels.text(InfiniBand.VCRC, d, layer);
        }
        return null;
    }

    @Override
    public boolean isGenerated(Field f) {
        return GENERATED.contains(f);
    }

    /** The CRC value is the CRC header's own line, so not repeated inside it. */
    @Override
    public boolean isHidden(Field f, HeaderType h) {
        return h == InfiniBand.ICRC_HEADER && f == InfiniBand.ICRC || h == InfiniBand.VCRC_HEADER && f == InfiniBand.VCRC;
    }

    /** Wireshark names the syndrome's kind after its value: "Syndrome: 31, Ack" (packet-infiniband.c). */
    @Override
    public void appendToFieldLabel(StringBuilder sb, Field f, Dissection d, int layer) {
        if (f == InfiniBand.AETH_SYNDROME) {
            String kind = InfiniBand.AETH_SYNDROME_OPCODE.valueNames()
                    .nameOf(InfiniBand.AETH_SYNDROME_OPCODE.read(d.buffer(), d.layerAt(layer)));
            sb.append(", ").append(kind);
        }
    }

    /** The ICRC and VCRC close the InfiniBand node even after a payload shown as its own protocol. */
    @Override
    public boolean rejoinsItsProtocol(HeaderType h) {
        return h == InfiniBand.ICRC_HEADER || h == InfiniBand.VCRC_HEADER;
    }
}
