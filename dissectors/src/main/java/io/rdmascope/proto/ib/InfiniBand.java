package io.rdmascope.proto.ib;

import io.rdmascope.field.Base;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/**
 * InfiniBand transport headers (IBTA Vol. 1 ch. 5 and 9), declared once. Abbreviations are
 * Wireshark's ({@code ../shared/reference/wireshark-fields.tsv}) wherever Wireshark has the field;
 * what Wireshark 4.0 lacks (FECN/BECN, ImmDt and IETH values, XRCETH, FETH, CNP, ICRC verification)
 * is named in the same style under {@code infiniband.}.
 */
public final class InfiniBand {
    public static final Protocol PROTOCOL = new Protocol("infiniband", "InfiniBand");

    // ---- LRH: Local Route Header (native IB only), IBTA 7.7 ----
    public static final Field LRH_VL = Field.uint8("infiniband.lrh.vl", "Virtual Lane", 0).mask(0xF0).hex();
    public static final Field LRH_LVER = Field.uint8("infiniband.lrh.lver", "Link Version", 0).mask(0x0F);
    public static final Field LRH_SL = Field.uint8("infiniband.lrh.sl", "Service Level", 1).mask(0xF0);
    public static final Field LRH_RESERVED2 = Field.uint8("infiniband.lrh.reserved2", "Reserved (2 bits)", 1)
            .mask(0x0C);
    public static final Field LRH_LNH = Field.uint8("infiniband.lrh.lnh", "Link Next Header", 1).mask(0x03).hex()
            .names(ValueNames.of(0, "Raw (non-IBA)", 1, "IP non-IBA (IPv6)", 2, "IBA local (BTH)",
                    3, "IBA global (GRH)"));
    public static final Field LRH_DLID = Field.uint16("infiniband.lrh.dlid", "Destination Local ID", 2);
    public static final Field LRH_RESERVED5 = Field.uint16("infiniband.lrh.reserved5", "Reserved (5 bits)", 4)
            .mask(0xF800);
    public static final Field LRH_PKTLEN = Field.uint16("infiniband.lrh.pktlen", "Packet Length", 4).mask(0x07FF);
    public static final Field LRH_SLID = Field.uint16("infiniband.lrh.slid", "Source Local ID", 6);
    public static final HeaderType LRH = HeaderType.subHeader(PROTOCOL, "infiniband.lrh", "Local Route Header",
            LRH_VL, LRH_LVER, LRH_SL, LRH_RESERVED2, LRH_LNH, LRH_DLID, LRH_RESERVED5, LRH_PKTLEN, LRH_SLID);

    // ---- GRH: Global Route Header, IBTA 8.3 (also RoCEv1's network header) ----
    public static final Field GRH_IPVER = Field.uint8("infiniband.grh.ipver", "IP Version", 0).mask(0xF0);
    public static final Field GRH_TCLASS = Field.uint16("infiniband.grh.tclass", "Traffic Class", 0).mask(0x0FF0);
    public static final Field GRH_FLOWLABEL = Field.uint32("infiniband.grh.flowlabel", "Flow Label", 0)
            .mask(0x000FFFFF);
    public static final Field GRH_PAYLEN = Field.uint16("infiniband.grh.paylen", "Payload Length", 4);
    public static final Field GRH_NXTHDR = Field.uint8("infiniband.grh.nxthdr", "Next Header", 6);
    public static final Field GRH_HOPLMT = Field.uint8("infiniband.grh.hoplmt", "Hop Limit", 7);
    public static final Field GRH_SGID = Field.ipv6("infiniband.grh.sgid", "Source GID", 8);
    public static final Field GRH_DGID = Field.ipv6("infiniband.grh.dgid", "Destination GID", 24);
    public static final HeaderType GRH = HeaderType.subHeader(PROTOCOL, "infiniband.grh", "Global Route Header",
            GRH_IPVER, GRH_TCLASS, GRH_FLOWLABEL, GRH_PAYLEN, GRH_NXTHDR, GRH_HOPLMT, GRH_SGID, GRH_DGID);

    // ---- BTH: Base Transport Header, IBTA 9.2 ----
    public static final Field BTH_OPCODE = Field.uint8("infiniband.bth.opcode", "Opcode", 0)
            .names(Opcodes.valueNames());
    public static final Field BTH_SE = Field.bool("infiniband.bth.se", "Solicited Event", 1, 1, 0x80);
    public static final Field BTH_M = Field.bool("infiniband.bth.m", "MigReq", 1, 1, 0x40);
    public static final Field BTH_PADCNT = Field.uint8("infiniband.bth.padcnt", "Pad Count", 1).mask(0x30);
    public static final Field BTH_TVER = Field.uint8("infiniband.bth.tver", "Header Version", 1).mask(0x0F);
    public static final Field BTH_P_KEY = Field.uint16("infiniband.bth.p_key", "Partition Key", 2);
    /** Byte 4 bit 7: Wireshark 4.0 shows the byte as "Reserved"; IBTA 1.2.1 A10 and Linux define FECN/BECN. */
    public static final Field BTH_FECN = Field.bool("infiniband.bth.fecn", "Forward Explicit Congestion Notification",
            4, 1, 0x80);
    public static final Field BTH_BECN = Field.bool("infiniband.bth.becn", "Backward Explicit Congestion Notification",
            4, 1, 0x40);
    public static final Field BTH_RESERVED6 = Field.uint8("infiniband.bth.reserved6", "Reserved (6 bits)", 4)
            .mask(0x3F);
    public static final Field BTH_DESTQP = Field.uint24("infiniband.bth.destqp", "Destination Queue Pair", 5).hex();
    public static final Field BTH_A = Field.bool("infiniband.bth.a", "Acknowledge Request", 8, 1, 0x80);
    public static final Field BTH_RESERVED7 = Field.uint8("infiniband.bth.reserved7", "Reserved (7 bits)", 8)
            .mask(0x7F);
    public static final Field BTH_PSN = Field.uint24("infiniband.bth.psn", "Packet Sequence Number", 9);
    public static final HeaderType BTH = HeaderType.subHeader(PROTOCOL, "infiniband.bth", "Base Transport Header",
            BTH_OPCODE, BTH_SE, BTH_M, BTH_PADCNT, BTH_TVER, BTH_P_KEY, BTH_FECN, BTH_BECN, BTH_RESERVED6,
            BTH_DESTQP, BTH_A, BTH_RESERVED7, BTH_PSN);

    // ---- Extension headers, IBTA 9.3 ----
    public static final Field RDETH_EECNXT = Field.uint24("infiniband.rdeth.eecnxt", "E2E Context", 1);
    public static final HeaderType RDETH = HeaderType.subHeader(PROTOCOL, "infiniband.rdeth",
            "RDETH - Reliable Datagram Extended Transport Header", RDETH_EECNXT);

    /** Wireshark declares the 32-bit Q_Key as FT_UINT64, so it prints 16 hex digits; we print the same. */
    public static final Field DETH_Q_KEY = Field.uint32("infiniband.deth.q_key", "Queue Key", 0).hex()
            .printedAs(FieldType.UINT64);
    public static final Field DETH_SRCQP = Field.uint24("infiniband.deth.srcqp", "Source Queue Pair", 5).hex()
            .printedAs(FieldType.UINT32);
    public static final HeaderType DETH = HeaderType.subHeader(PROTOCOL, "infiniband.deth",
            "DETH - Datagram Extended Transport Header", DETH_Q_KEY, DETH_SRCQP);

    public static final Field RETH_VA = Field.uint64("infiniband.reth.va", "Virtual Address", 0).hex();
    public static final Field RETH_R_KEY = Field.uint32("infiniband.reth.r_key", "Remote Key", 8).hex();
    public static final Field RETH_DMALEN = Field.uint32("infiniband.reth.dmalen", "DMA Length", 12)
            .base(Base.DEC_HEX);
    public static final HeaderType RETH = HeaderType.subHeader(PROTOCOL, "infiniband.reth",
            "RETH - RDMA Extended Transport Header", RETH_VA, RETH_R_KEY, RETH_DMALEN);

    /** Wireshark 4.0 files AtomicETH's VA and R_Key under infiniband.reth.*; ours stay with their header. */
    public static final Field ATOMICETH_VA = Field.uint64("infiniband.atomiceth.va", "Virtual Address", 0).hex();
    public static final Field ATOMICETH_R_KEY = Field.uint32("infiniband.atomiceth.r_key", "Remote Key", 8).hex();
    public static final Field ATOMICETH_SWAPDT = Field.uint64("infiniband.atomiceth.swapdt", "Swap (Or Add) Data", 12);
    public static final Field ATOMICETH_CMPDT = Field.uint64("infiniband.atomiceth.cmpdt", "Compare Data", 20);
    public static final HeaderType ATOMICETH = HeaderType.subHeader(PROTOCOL, "infiniband.atomiceth",
            "AtomicETH - Atomic Extended Transport Header", ATOMICETH_VA, ATOMICETH_R_KEY, ATOMICETH_SWAPDT,
            ATOMICETH_CMPDT);

    /** AETH syndrome kinds (IBTA 9.7.5.2.x, table 44): bits 6:5 of the syndrome. */
    public static final int AETH_ACK = 0;
    public static final int AETH_RNR_NAK = 1;
    public static final int AETH_RESERVED = 2;
    public static final int AETH_NAK = 3;

    public static final Field AETH_SYNDROME = Field.uint8("infiniband.aeth.syndrome", "Syndrome", 0);
    public static final Field AETH_SYNDROME_RESERVED = Field.uint8("infiniband.aeth.syndrome.reserved", "Reserved", 0)
            .mask(0x80);
    public static final Field AETH_SYNDROME_OPCODE = Field.uint8("infiniband.aeth.syndrome.opcode", "OpCode", 0)
            .mask(0x60).names(ValueNames.of(0, "Ack", 1, "RNR Nak", 2, "Reserved", 3, "Nak"));
    public static final Field AETH_CREDIT_COUNT = Field.uint8("infiniband.aeth.syndrome.credit_count",
            "Credit Count", 0).mask(0x1F).presentWhen((d, l) -> aethKind(d, l) == AETH_ACK);
    public static final Field AETH_TIMER = Field.uint8("infiniband.aeth.syndrome.timer", "Timer", 0).mask(0x1F)
            .names(Aeth.RNR_TIMER_NAMES).presentWhen((d, l) -> aethKind(d, l) == AETH_RNR_NAK);
    public static final Field AETH_RESERVED_VALUE = Field.uint8("infiniband.aeth.syndrome.reserved_value",
            "Reserved", 0).mask(0x1F).presentWhen((d, l) -> aethKind(d, l) == AETH_RESERVED);
    public static final Field AETH_ERROR_CODE = Field.uint8("infiniband.aeth.syndrome.error_code", "Error Code", 0)
            .mask(0x1F).names(Aeth.NAK_CODE_NAMES).presentWhen((d, l) -> aethKind(d, l) == AETH_NAK);
    public static final Field AETH_MSN = Field.uint24("infiniband.aeth.msn", "Message Sequence Number", 1);
    public static final HeaderType AETH = HeaderType.subHeader(PROTOCOL, "infiniband.aeth",
            "AETH - ACK Extended Transport Header", AETH_SYNDROME, AETH_SYNDROME_RESERVED, AETH_SYNDROME_OPCODE,
            AETH_CREDIT_COUNT, AETH_TIMER, AETH_RESERVED_VALUE, AETH_ERROR_CODE, AETH_MSN);

    public static final Field ATOMICACKETH_ORIGREMDT = Field.uint64("infiniband.atomicacketh.origremdt",
            "Original Remote Data", 0);
    public static final HeaderType ATOMICACKETH = HeaderType.subHeader(PROTOCOL, "infiniband.atomicacketh",
            "ATOMICACKETH - Atomic ACK Extended Transport Header", ATOMICACKETH_ORIGREMDT);

    /**
     * Wireshark 4.0 names both the ImmDt header and its one field {@code infiniband.immdt} (raw
     * bytes), so its {@code -e infiniband.immdt} prints the bytes twice. One name cannot be a header
     * and a field here, so the header keeps Wireshark's name (same bytes, printed once) and the value
     * — what applications read from the CQE — gets a name of its own.
     */
    public static final Field IMMDT_VALUE = Field.uint32("infiniband.immdt.value", "Immediate Data", 0).hex();
    public static final HeaderType IMMDT = HeaderType.subHeader(PROTOCOL, "infiniband.immdt",
            "IMMDT - Immediate Data Extended Transport Header", IMMDT_VALUE);

    /** As for ImmDt: Wireshark's {@code infiniband.ieth} is the header here, the R_Key has its own name. */
    public static final Field IETH_R_KEY = Field.uint32("infiniband.ieth.r_key", "R_Key to invalidate", 0).hex();
    public static final HeaderType IETH = HeaderType.subHeader(PROTOCOL, "infiniband.ieth",
            "IETH - Invalidate Extended Transport Header", IETH_R_KEY);

    /** XRC Extended Transport Header (IBTA Annex A14): names the XRC SRQ at the target. */
    public static final Field XRCETH_XRCSRQ = Field.uint24("infiniband.xrceth.xrcsrq", "XRC SRQ Number", 1).hex();
    public static final HeaderType XRCETH = HeaderType.subHeader(PROTOCOL, "infiniband.xrceth",
            "XRCETH - XRC Extended Transport Header", XRCETH_XRCSRQ);

    /** FLUSH Extended Transport Header (IBTA 1.5 memory placement extensions). */
    public static final Field FETH_SEL = Field.uint32("infiniband.feth.sel", "Selectivity Level", 0).mask(0x30)
            .names(ValueNames.of(0, "Memory region range (RETH)", 1, "Whole memory region"));
    public static final Field FETH_PLT = Field.uint32("infiniband.feth.plt", "Placement Type", 0).mask(0x0F)
            .names(ValueNames.of(1, "Global visibility", 2, "Persistence", 3, "Global visibility and persistence"));
    public static final HeaderType FETH = HeaderType.subHeader(PROTOCOL, "infiniband.feth",
            "FETH - FLUSH Extended Transport Header", FETH_SEL, FETH_PLT);

    /**
     * Mellanox Dynamically Connected: the 8 bytes ConnectX puts after the BTH of every DC packet
     * (Wireshark 4.0 skips them as part of a 20-byte BTH and names none of them). Byte 0: flags
     * (0x11 in the captured requests, 0x10 in responses); bytes 1–3: the sending DC QP — the DCI
     * in requests, the DCT in responses; bytes 4–7: an identifier whose meaning is not public.
     * docs/dc.md gives the evidence and sources.
     */
    public static final Field DCETH_FLAGS = Field.uint8("infiniband.dceth.flags", "DC Flags", 0).hex();
    public static final Field DCETH_SRCQP = Field.uint24("infiniband.dceth.srcqp",
            "Source DC QP (DCI in requests, DCT in responses)", 1).hex();
    public static final Field DCETH_DCTN = Field.computed("infiniband.dceth.dctn", "DCT Number", FieldType.UINT24,
            Base.HEX, new Field.Computation() {
                @Override
                public long value(io.rdmascope.dissect.Dissection d, int layer) {
                    return dctNumber(d);
                }

                @Override
                public boolean isPresent(io.rdmascope.dissect.Dissection d, int layer) {
                    // A DC connect goes to QP 0xFFFFFF: its BTH names no DCT.
                    return d.find(DCETH) >= 0 && (d.u8(d.rdma().bthStart) & 0x1F) != 0x15;
                }
            });
    public static final Field DCETH_ID = Field.uint32("infiniband.dceth.id", "DC Identifier", 4).hex();
    public static final HeaderType DCETH = HeaderType.subHeader(PROTOCOL, "infiniband.dceth",
            "DCETH - Dynamically Connected Extended Transport Header (Mellanox)", DCETH_FLAGS, DCETH_SRCQP,
            DCETH_DCTN, DCETH_ID);

    /**
     * The DC connect header of a DC connect packet (RESYNC 0x55, SE clear): 16 bytes after the
     * DETH, whose last 8 bytes are the 64-bit DC access key the DCT checks (mlx5dv
     * {@code dc_access_key}; perftest's 0xffeeddcc shows there in the capture).
     */
    public static final Field DCCETH_CONTROL = Field.uint32("infiniband.dcceth.control", "DC Connect Control", 0)
            .hex();
    public static final Field DCCETH_RESERVED = Field.uint32("infiniband.dcceth.reserved", "Reserved", 4).hex();
    public static final Field DCCETH_ACCESS_KEY = Field.uint64("infiniband.dcceth.access_key", "DC Access Key", 8)
            .hex();
    public static final HeaderType DCCETH = HeaderType.subHeader(PROTOCOL, "infiniband.dcceth",
            "DCCETH - DC Connect Extended Transport Header (Mellanox)", DCCETH_CONTROL, DCCETH_RESERVED,
            DCCETH_ACCESS_KEY);

    /** RoCEv2 CNP body: 16 reserved bytes after the BTH (IBTA Annex A17.9.3). */
    public static final Field CNP_RESERVED = Field.bytes("infiniband.cnp.reserved", "Reserved", 0, 16);
    public static final HeaderType CNP = HeaderType.subHeader(PROTOCOL, "infiniband.cnp",
            "CNP - Congestion Notification Packet", CNP_RESERVED);

    /** Data of an opcode in the reserved or manufacturer-specific ranges, not decoded further. */
    public static final Field VENDOR_DATA = Field.restOfHeader("infiniband.vendor.data", "Data", 0);
    public static final HeaderType VENDOR = HeaderType.subHeader(PROTOCOL, "infiniband.vendor",
            "Unknown/Vendor Specific Data", VENDOR_DATA);

    /** The 0–3 pad bytes after the payload that BTH.PadCnt announces. */
    public static final Field PAD_BYTES = Field.restOfHeader("infiniband.pad.bytes", "Pad", 0);
    public static final HeaderType PAD = HeaderType.subHeader(PROTOCOL, "infiniband.pad", "Pad", PAD_BYTES);

    // ---- CRCs, IBTA 7.8 ----
    public static final Field ICRC = Field.uint32("infiniband.invariant.crc", "Invariant CRC", 0).hex();
    public static final Field ICRC_COMPUTED = Field.computed("infiniband.invariant.crc.computed",
            "Computed Invariant CRC", FieldType.UINT32, Base.HEX, Crcs.ICRC_COMPUTED);
    public static final Field ICRC_STATUS = Field.computed("infiniband.invariant.crc.status",
            "Invariant CRC status", FieldType.UINT8, Base.NONE, Crcs.ICRC_STATUS).names(Crcs.STATUS_NAMES);
    public static final HeaderType ICRC_HEADER = HeaderType.group(PROTOCOL, "infiniband.invariant",
            "Invariant CRC", ICRC, ICRC_COMPUTED, ICRC_STATUS);

    public static final Field VCRC = Field.uint16("infiniband.variant.crc", "Variant CRC", 0).hex();
    public static final Field VCRC_COMPUTED = Field.computed("infiniband.variant.crc.computed",
            "Computed Variant CRC", FieldType.UINT16, Base.HEX, Crcs.VCRC_COMPUTED);
    public static final Field VCRC_STATUS = Field.computed("infiniband.variant.crc.status",
            "Variant CRC status", FieldType.UINT8, Base.NONE, Crcs.VCRC_STATUS).names(Crcs.STATUS_NAMES);
    public static final HeaderType VCRC_HEADER = HeaderType.group(PROTOCOL, "infiniband.variant",
            "Variant CRC", VCRC, VCRC_COMPUTED, VCRC_STATUS);

    /** Every InfiniBand transport header type, for the field registry. */
    public static final List<HeaderType> HEADERS = List.of(LRH, GRH, BTH, RDETH, DETH, RETH, ATOMICETH, AETH,
            ATOMICACKETH, IMMDT, IETH, XRCETH, FETH, DCETH, DCCETH, CNP, VENDOR, PAD, ICRC_HEADER, VCRC_HEADER);

    private InfiniBand() {
    }

    /** The DCT number: the BTH destination QP of a DC request, the DCETH source QP of a response. */
    static long dctNumber(io.rdmascope.dissect.Dissection d) {
        int bth = d.rdma().bthStart;
        int at = d.layerAt(d.find(DCETH)); // an index into d.buffer(), not a frame offset
        boolean request = bth >= 0 && Opcodes.of(d.u8(bth)).operation().isRequest()
                || bth >= 0 && (d.u8(bth) & 0x1F) == 0x15;
        return request ? d.u24(bth + 5) : DCETH_SRCQP.read(d.buffer(), at);
    }

    static int aethKind(io.rdmascope.dissect.Dissection d, int layer) {
        return (d.buffer().get(d.layerAt(layer)) >> 5) & 0x3;
    }
}
