package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;

import java.util.List;
import java.util.Map;

/** iWARP over TCP (issue 8): MPA, DDP and RDMAP, followed from a connection's MPA Request. */
public final class IwarpModule implements ProtocolModule {
    /**
     * Subtrees without a value of their own (FT_NONE) and the fields Wireshark shows inside them:
     * the DDP and RDMAP control fields over their bits, the buffer models over their fields.
     */
    private static final Map<Field, List<Field>> SUBTREES = Map.of(
            DdpRdmap.DDP_CONTROL, List.of(DdpRdmap.DDP_TAGGED_FLAG, DdpRdmap.DDP_LAST_FLAG, DdpRdmap.DDP_RSVD,
                    DdpRdmap.DDP_DV),
            DdpRdmap.DDP_TAGGED, List.of(DdpRdmap.DDP_STAG, DdpRdmap.DDP_TO),
            DdpRdmap.DDP_UNTAGGED, List.of(DdpRdmap.DDP_QN, DdpRdmap.DDP_MSN, DdpRdmap.DDP_MO),
            DdpRdmap.RDMA_CONTROL, List.of(DdpRdmap.RDMA_VERSION, DdpRdmap.RDMA_RSV, DdpRdmap.RDMA_OPCODE));

    @Override
    public List<HeaderType> headers() {
        return Iwarp.HEADERS;
    }

    @Override
    public void register(Registrations r) {
        r.tcpPayload(Iwarp::dissectTcp);
        // --decode-as tcp.port==N,iwarp_mpa: follow a connection on port N whose Request was not captured.
        // (tshark 4.0's tcp.port table has no iwarp_mpa: MPA is a heuristic there.)
        r.decodeAs(DecodeAs.TCP_PORT, Mpa.PROTOCOL.abbrev());
    }

    @Override
    public Columns upper(Dissection d, Columns below) {
        if (d.rdma().isRdma()) {
            return null;
        }
        IwarpInfo.Summary s = IwarpInfo.of(d, below.info());
        return s == null ? null : new Columns(s.protocol(), s.info());
    }

    /** tshark 4.0 makes no CRC check of its own (its MPA check is iwarp_mpa.crc_check): ours are generated items. */
    @Override
    public boolean isGenerated(Field f) {
        return f == Mpa.CRC_COMPUTED || f == Mpa.CRC_STATUS;
    }

    @Override
    public List<Field> subtreeMembers(Field f) {
        return SUBTREES.get(f);
    }

    /**
     * Wireshark 4.0 files DDP and RDMAP under one protocol ({@code packet-iwarp-ddp-rdmap.c}) with a
     * "DDP header" and an "RDMAP header" inside; ours are two protocols (field names must start with
     * their protocol's), shown under Wireshark's one node.
     */
    @Override
    public String combinedProtocolLabel(HeaderType h) {
        return h.protocol() == DdpRdmap.DDP_PROTOCOL || h.protocol() == DdpRdmap.RDMAP_PROTOCOL
                ? DdpRdmap.COMBINED_LABEL : null;
    }

    /** "Read request" and the other RDMAP message headers show inside "RDMAP header". */
    @Override
    public boolean nestsIn(HeaderType h, HeaderType previous) {
        return h.protocol() == DdpRdmap.RDMAP_PROTOCOL && h != DdpRdmap.RDMAP && previous == DdpRdmap.RDMAP;
    }
}
