package io.rdmascope.build;

import io.rdmascope.dissect.RdmaContext.Encapsulation;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.ib.InfiniBand;
import io.rdmascope.proto.ib.InfiniBandDissector;
import io.rdmascope.proto.ib.Opcode;
import io.rdmascope.proto.ib.Opcodes;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one InfiniBand transport packet — RoCEv2 over IPv4 or IPv6, RoCEv1, or native InfiniBand —
 * from the same field declarations the dissector decodes with:
 * <pre>{@code
 * byte[] frame = RocePacket.v2Ipv4(srcMac, dstMac, srcIp, dstIp)
 *         .vlan(100, 3).udpSourcePort(49152).ecn(2)
 *         .opcode(0x06).destQp(0x11).psn(42).ackReq(true)
 *         .set(InfiniBand.RETH_VA, 0x1000).set(InfiniBand.RETH_R_KEY, 0x1234).set(InfiniBand.RETH_DMALEN, 3000)
 *         .payload(bytes)
 *         .build();
 * }</pre>
 *
 * <p>The extension headers after the BTH are exactly {@code Opcodes.of(opcode).headers()} (over RoCE,
 * and on native IB after {@link #dynamicallyConnected}, {@code Opcodes.dc} for the RD-range opcodes), in order;
 * their fields are zero unless {@link #set set}. Any field of any header in the packet — Ethernet,
 * 802.1Q, IP, UDP, LRH, GRH, BTH, extension headers — can be set by its declaration. What the
 * builder works out by itself (every length, the ethertypes and next-header values, the IPv4 header
 * checksum, BTH.PadCnt, the ICRC and the VCRC) is worked out only for fields the caller did not set:
 * an explicit value always wins, which is how tests craft lying lengths and wrong pad counts.
 *
 * <p>Conventions the builder follows:
 * <ul>
 *   <li>Pad (IBTA Vol. 1 9.2): {@code (4 - payload % 4) % 4} zero bytes after the payload, so that
 *       payload plus pad is a whole number of 4-byte words; BTH.PadCnt says how many.</li>
 *   <li>ICRC (IBTA Vol. 1 7.8.1, Annexes A16/A17): computed by {@link InvariantCrc}, an
 *       implementation independent of the dissector's, and stored least significant byte first.
 *       {@link #corruptIcrc()} stores its complement instead.</li>
 *   <li>VCRC (IBTA Vol. 1 7.8.2), native IB only: computed by {@link VariantCrc} over the packet as
 *       finally sent, so a packet with a corrupt ICRC still carries a good VCRC, as a packet damaged
 *       before its last link would.</li>
 *   <li>RoCEv2 (Annex A17): UDP destination port 4791, source port 49152 unless set (it is flow
 *       entropy to the network, nothing to the receiver), UDP checksum 0 as RoCE NICs send it,
 *       IPv4 Don't Fragment set, TTL / hop limit 64.</li>
 *   <li>P_Key 0xFFFF (the default partition, full member) unless set.</li>
 *   <li>Ethernet frames carry no FCS, as libpcap delivers them.</li>
 * </ul>
 * The builder does not police the opcode table: payload on an opcode that allows none, or a reserved
 * opcode, is built as asked, because tests of the replay engine's rules need such packets.
 * Timestamps are none of the builder's business: the generator and the capture writers own them.
 */
public final class RocePacket {
    /** IPv4 TTL / IPv6 and GRH hop limit unless set: Linux's default. */
    private static final int DEFAULT_HOP_LIMIT = 64;
    /** Start of the IANA dynamic port range; Linux rxe draws its entropy ports from 0xC000 upwards too. */
    public static final int DEFAULT_UDP_SOURCE_PORT = 0xC000;
    /** The default P_Key (IBTA Vol. 1 10.9, partitioning): partition 0x7FFF, full member. */
    public static final int DEFAULT_P_KEY = 0xFFFF;
    /** The GSI's well-known Q_Key (IBTA Vol. 1 ch. 13; bit 31 set: a controlled Q_Key). */
    public static final long GSI_Q_KEY = 0x80010000L;

    private final Encapsulation encapsulation;
    private final byte[] srcMac;
    private final byte[] dstMac;
    private final byte[] srcAddress;
    private final byte[] dstAddress;
    private final int slid;
    private final int dlid;
    private byte[] sgid;
    private byte[] dgid;

    private final List<int[]> vlanTags = new ArrayList<>(); // {tpid, priority, dei, id}
    private int trafficClass;
    private int flowLabel;
    private int hopLimit = DEFAULT_HOP_LIMIT;
    private boolean networkFieldsTouched;
    private int ipId;
    private boolean dontFragment = true;
    private int udpSourcePort = DEFAULT_UDP_SOURCE_PORT;
    private int udpDestPort = Transport.ROCE_V2_PORT;
    private int vl;
    private int sl;

    private int opcode = 0x04; // RC SEND Only
    private byte[] payload = new byte[0];
    private final Map<Field, Object> assignments = new LinkedHashMap<>();
    private boolean corruptIcrc;
    private Long icrcShown;
    private boolean corruptVcrc;
    /** Pad bytes written after the payload when not the aligning count ({@link #padBytes}); null: aligning. */
    private Integer padBytes;
    /** Native IB only: write the RD-range opcodes as Mellanox DC ({@link #dynamicallyConnected}). */
    private boolean dcOnNativeIb;

    private RocePacket(Encapsulation encapsulation, byte[] srcMac, byte[] dstMac, byte[] srcAddress,
                       byte[] dstAddress, int slid, int dlid) {
        this.encapsulation = encapsulation;
        this.srcMac = srcMac == null ? null : length(srcMac, 6, "MAC address");
        this.dstMac = dstMac == null ? null : length(dstMac, 6, "MAC address");
        int addressLength = encapsulation == Encapsulation.ROCE_V2_IPV4 ? 4 : 16;
        this.srcAddress = srcAddress == null ? null : length(srcAddress, addressLength, "address");
        this.dstAddress = dstAddress == null ? null : length(dstAddress, addressLength, "address");
        this.slid = checkRange(slid, 0xFFFF, "SLID");
        this.dlid = checkRange(dlid, 0xFFFF, "DLID");
    }

    // ---- encapsulations ---------------------------------------------------------------------

    /** RoCEv2 over IPv4: Ethernet / IPv4 / UDP 4791 / BTH … ICRC (Annex A17). */
    public static RocePacket v2Ipv4(byte[] srcMac, byte[] dstMac, byte[] srcIp, byte[] dstIp) {
        return new RocePacket(Encapsulation.ROCE_V2_IPV4, srcMac, dstMac, srcIp, dstIp, 0, 0);
    }

    /** RoCEv2 over IPv6: Ethernet / IPv6 / UDP 4791 / BTH … ICRC (Annex A17). */
    public static RocePacket v2Ipv6(byte[] srcMac, byte[] dstMac, byte[] srcIp, byte[] dstIp) {
        return new RocePacket(Encapsulation.ROCE_V2_IPV6, srcMac, dstMac, srcIp, dstIp, 0, 0);
    }

    /** RoCEv1: Ethernet (ethertype 0x8915) / GRH / BTH … ICRC, no LRH, no VCRC (Annex A16). */
    public static RocePacket v1(byte[] srcMac, byte[] dstMac, byte[] sgid, byte[] dgid) {
        return new RocePacket(Encapsulation.ROCE_V1, srcMac, dstMac, sgid, dgid, 0, 0);
    }

    /**
     * Native InfiniBand: LRH / BTH … ICRC / VCRC, recorded under link type 247 (or in an ERF
     * record); add a GRH with {@link #grh}.
     */
    public static RocePacket nativeIb(int slid, int dlid) {
        return new RocePacket(Encapsulation.INFINIBAND, null, null, null, null, slid, dlid);
    }

    /** Native IB only: puts a GRH after the LRH (LNH = 3, IBTA Vol. 1 8.3). */
    public RocePacket grh(byte[] sourceGid, byte[] destinationGid) {
        requireEncapsulation(Encapsulation.INFINIBAND, "grh");
        this.sgid = length(sourceGid, 16, "GID");
        this.dgid = length(destinationGid, 16, "GID");
        return this;
    }

    /**
     * An independent copy with every setting of this one: a generator keeps one recipe per packet
     * and tweaks a copy for a one-off emission (a corrupt ICRC on one transmission only).
     */
    public RocePacket copy() {
        RocePacket c = new RocePacket(encapsulation, srcMac, dstMac, srcAddress, dstAddress, slid, dlid);
        c.sgid = sgid == null ? null : sgid.clone();
        c.dgid = dgid == null ? null : dgid.clone();
        for (int[] tag : vlanTags) {
            c.vlanTags.add(tag.clone());
        }
        c.trafficClass = trafficClass;
        c.flowLabel = flowLabel;
        c.hopLimit = hopLimit;
        c.networkFieldsTouched = networkFieldsTouched;
        c.ipId = ipId;
        c.dontFragment = dontFragment;
        c.udpSourcePort = udpSourcePort;
        c.udpDestPort = udpDestPort;
        c.vl = vl;
        c.sl = sl;
        c.opcode = opcode;
        c.payload = payload.clone();
        for (Map.Entry<Field, Object> e : assignments.entrySet()) {
            c.assignments.put(e.getKey(), e.getValue() instanceof byte[] b ? b.clone() : e.getValue());
        }
        c.corruptIcrc = corruptIcrc;
        c.icrcShown = icrcShown;
        c.corruptVcrc = corruptVcrc;
        c.padBytes = padBytes;
        c.dcOnNativeIb = dcOnNativeIb;
        return c;
    }

    // ---- link and network ---------------------------------------------------------------------

    /** Adds an 802.1Q tag (outermost first when called repeatedly). */
    public RocePacket vlan(int id, int priority) {
        return vlanTag(Ethernet.ETHERTYPE_VLAN, id, priority, false);
    }

    /** Adds a tag with any TPID: 0x88A8 for an 802.1ad service tag in front of a customer tag. */
    public RocePacket vlanTag(int tpid, int id, int priority, boolean dropEligible) {
        requireEthernet("vlan");
        vlanTags.add(new int[]{checkRange(tpid, 0xFFFF, "TPID"), checkRange(priority, 7, "priority"),
                dropEligible ? 1 : 0, checkRange(id, 0xFFF, "VLAN id")});
        return this;
    }

    /** The whole IPv4 TOS byte / IPv6 or GRH traffic class (DSCP in bits 7:2, ECN in 1:0). */
    public RocePacket trafficClass(int value) {
        trafficClass = checkRange(value, 0xFF, "traffic class");
        networkFieldsTouched = true;
        return this;
    }

    /** DSCP, the upper six bits of the traffic class. */
    public RocePacket dscp(int value) {
        return trafficClass((checkRange(value, 0x3F, "DSCP") << 2) | (trafficClass & 0x3));
    }

    /** ECN bits of the traffic class (RFC 3168): 0 not ECT, 1 and 2 ECT, 3 CE. */
    public RocePacket ecn(int value) {
        return trafficClass((trafficClass & 0xFC) | checkRange(value, 3, "ECN"));
    }

    /** IPv6 / GRH flow label. */
    public RocePacket flowLabel(int value) {
        flowLabel = checkRange(value, 0xFFFFF, "flow label");
        networkFieldsTouched = true;
        return this;
    }

    /** IPv4 TTL / IPv6 or GRH hop limit. */
    public RocePacket hopLimit(int value) {
        hopLimit = checkRange(value, 0xFF, "hop limit");
        networkFieldsTouched = true;
        return this;
    }

    /** IPv4 identification. */
    public RocePacket ipId(int value) {
        requireEncapsulation(Encapsulation.ROCE_V2_IPV4, "ipId");
        ipId = checkRange(value, 0xFFFF, "IP id");
        return this;
    }

    /** IPv4 Don't Fragment (set by default). */
    public RocePacket dontFragment(boolean value) {
        requireEncapsulation(Encapsulation.ROCE_V2_IPV4, "dontFragment");
        dontFragment = value;
        return this;
    }

    /** RoCEv2 UDP source port: flow entropy for ECMP (Annex A17). */
    public RocePacket udpSourcePort(int port) {
        requireRoceV2("udpSourcePort");
        udpSourcePort = checkRange(port, 0xFFFF, "port");
        return this;
    }

    /** RoCEv2 UDP destination port, 4791 unless a test rig moved it. */
    public RocePacket udpDestPort(int port) {
        requireRoceV2("udpDestPort");
        udpDestPort = checkRange(port, 0xFFFF, "port");
        return this;
    }

    /** Native IB virtual lane (15 carries subnet management). */
    public RocePacket vl(int value) {
        requireEncapsulation(Encapsulation.INFINIBAND, "vl");
        vl = checkRange(value, 0xF, "VL");
        return this;
    }

    /** Native IB service level. */
    public RocePacket sl(int value) {
        requireEncapsulation(Encapsulation.INFINIBAND, "sl");
        sl = checkRange(value, 0xF, "SL");
        return this;
    }

    // ---- BTH (IBTA Vol. 1 9.2) ----------------------------------------------------------------

    /** The BTH opcode; it decides the extension headers ({@link Opcodes#of}). */
    public RocePacket opcode(int code) {
        opcode = checkRange(code, 0xFF, "opcode");
        return this;
    }

    public RocePacket destQp(int qpn) {
        return set(InfiniBand.BTH_DESTQP, qpn);
    }

    public RocePacket psn(int psn) {
        return set(InfiniBand.BTH_PSN, psn);
    }

    public RocePacket ackReq(boolean value) {
        return set(InfiniBand.BTH_A, value);
    }

    public RocePacket solicited(boolean value) {
        return set(InfiniBand.BTH_SE, value);
    }

    /** BTH.M: the requester's migration state (automatic path migration). */
    public RocePacket migReq(boolean value) {
        return set(InfiniBand.BTH_M, value);
    }

    public RocePacket fecn(boolean value) {
        return set(InfiniBand.BTH_FECN, value);
    }

    public RocePacket becn(boolean value) {
        return set(InfiniBand.BTH_BECN, value);
    }

    public RocePacket pKey(int value) {
        return set(InfiniBand.BTH_P_KEY, value);
    }

    /** ImmDt (IBTA 9.3.4): the 32-bit immediate value, sent big-endian. */
    public RocePacket immediate(long value) {
        return set(InfiniBand.IMMDT_VALUE, value);
    }

    /** IETH (IBTA 9.3.5): the R_Key the responder invalidates. */
    public RocePacket invalidateRkey(long rkey) {
        return set(InfiniBand.IETH_R_KEY, rkey);
    }

    // ---- any field ------------------------------------------------------------------------------

    /**
     * Sets any field of any header the packet will contain, by its declaration. Checked against
     * the field's width now; checked against the packet's headers by {@link #build}, which fails if
     * no header (or more than one, e.g. stacked VLAN tags) declares the field.
     */
    public RocePacket set(Field field, long value) {
        if (field == InfiniBand.BTH_OPCODE) {
            return opcode((int) value);
        }
        headerOf(ownerOf(field)).set(field, value); // width check, where the mistake is made
        assignments.remove(field);
        assignments.put(field, value);
        return this;
    }

    public RocePacket set(Field field, boolean value) {
        return set(field, value ? 1L : 0L);
    }

    /** Sets a byte-string field (MAC, IPv6 address or GID, raw bytes such as the CNP's reserved 16). */
    public RocePacket set(Field field, byte[] value) {
        headerOf(ownerOf(field)).set(field, value);
        assignments.remove(field);
        assignments.put(field, value.clone());
        return this;
    }

    // ---- payload and CRCs ---------------------------------------------------------------------

    /** Payload bytes after the extension headers; the pad is added by {@link #build}. */
    public RocePacket payload(byte[] bytes) {
        payload = bytes.clone();
        return this;
    }

    /**
     * A management datagram to the GSI (IBTA Vol. 1 ch. 13): UD SEND Only to QP1 with the GSI Q_Key
     * in the DETH, the MAD as payload. Source QP, P_Key and PSN stay settable.
     */
    public RocePacket gsiMad(byte[] mad) {
        opcode(0x64);
        destQp(1);
        set(InfiniBand.DETH_Q_KEY, GSI_Q_KEY);
        set(InfiniBand.DETH_SRCQP, 1);
        return payload(mad);
    }

    /**
     * Writes exactly {@code count} (0-3) pad bytes after the payload instead of the count that aligns it,
     * leaving payload plus pad off a 4-byte boundary (a violation of IBTA 9.2); BTH.PadCnt says
     * {@code count} unless set explicitly. For crafting misaligned packets.
     */
    public RocePacket padBytes(int count) {
        padBytes = checkRange(count, 3, "pad bytes");
        return this;
    }

    /** Stores the complement of the correct ICRC. */
    public RocePacket corruptIcrc() {
        corruptIcrc = true;
        return this;
    }

    /** Stores exactly this ICRC, as {@code infiniband.invariant.crc} shows it (wire bytes big-endian). */
    public RocePacket icrc(long shownValue) {
        icrcShown = shownValue & 0xFFFFFFFFL;
        return this;
    }

    /** Native IB: stores the complement of the correct VCRC. */
    public RocePacket corruptVcrc() {
        requireEncapsulation(Encapsulation.INFINIBAND, "corruptVcrc");
        corruptVcrc = true;
        return this;
    }

    public Encapsulation encapsulation() {
        return encapsulation;
    }

    /**
     * On native InfiniBand, writes an RD-range opcode (0x40–0x5F) as Mellanox DC rather than IBTA RD
     * (over RoCE it always is DC). The dissector tells the two apart there by the octet after the
     * BTH (docs/dc.md), so {@code infiniband.dceth.flags} must be set non-zero, as ConnectX sets it.
     */
    public RocePacket dynamicallyConnected() {
        if (encapsulation != Encapsulation.INFINIBAND) {
            throw new IllegalStateException("over RoCE the RD-range opcodes are always DC; this is for native IB");
        }
        dcOnNativeIb = true;
        return this;
    }

    /** libpcap link type of the built frame. */
    public int linkType() {
        return encapsulation == Encapsulation.INFINIBAND ? LinkTypes.INFINIBAND : LinkTypes.ETHERNET;
    }

    // ---- building -------------------------------------------------------------------------------

    /** The frame: Ethernet without FCS, or native IB from the LRH through the VCRC. */
    public byte[] build() {
        return buildPacket().bytes();
    }

    /** The frame with the layout the builder gave it. */
    public BuiltPacket buildPacket() {
        Opcode row = Opcodes.of(opcode);
        boolean isNativeIb = encapsulation == Encapsulation.INFINIBAND;
        if (row.service() == io.rdmascope.proto.ib.Service.RD && (!isNativeIb || dcOnNativeIb)) {
            // Over RoCE the RD opcodes are Mellanox DC, as the dissector reads them (docs/dc.md); on
            // native IB when asked, with DCETH flags that tell the dissector so.
            if (isNativeIb && !(assignments.get(InfiniBand.DCETH_FLAGS) instanceof Number flags
                    && flags.longValue() != 0)) {
                throw new IllegalStateException("a DC packet on native InfiniBand needs non-zero "
                        + "infiniband.dceth.flags: with zero there it reads as RD (docs/dc.md)");
            }
            Object se = assignments.get(InfiniBand.BTH_SE);
            boolean seSet = se instanceof Boolean b ? b : se instanceof Number n && n.longValue() != 0;
            row = Opcodes.dc(opcode, !seSet);
        }
        int pad = padBytes != null ? padBytes : (4 - payload.length % 4) % 4;
        boolean isNative = encapsulation == Encapsulation.INFINIBAND;
        boolean hasGrh = encapsulation == Encapsulation.ROCE_V1 || (isNative && sgid != null);
        if (isNative && !hasGrh && networkFieldsTouched) {
            throw new IllegalStateException("traffic class, flow label and hop limit need a GRH; call grh() first");
        }

        List<Header> chain = new ArrayList<>();
        int chainLength = 0;
        for (HeaderType h : row.headers()) {
            Header header = new Header(h, InfiniBandDissector.sizeOf(h));
            chain.add(header);
            chainLength += header.length();
        }
        // BTH through ICRC: what UDP, the GRH and (with the LRH) PktLen count.
        int transportLength = 12 + chainLength + payload.length + pad + 4;

        List<Header> headers = new ArrayList<>();
        Header ip = null;
        if (!isNative) {
            int networkEtherType = switch (encapsulation) {
                case ROCE_V2_IPV4 -> Ethernet.ETHERTYPE_IPV4;
                case ROCE_V2_IPV6 -> Ethernet.ETHERTYPE_IPV6;
                default -> Ethernet.ETHERTYPE_ROCE;
            };
            headers.addAll(ethernetAndTags(srcMac, dstMac, vlanTags, networkEtherType));
        }
        switch (encapsulation) {
            case ROCE_V2_IPV4 -> {
                ip = ipv4(srcAddress, dstAddress, trafficClass, ipId, dontFragment, hopLimit, Ip.PROTO_UDP,
                        20 + 8 + transportLength);
                headers.add(ip);
                headers.add(udp(8 + transportLength));
            }
            case ROCE_V2_IPV6 -> {
                headers.add(ipv6(srcAddress, dstAddress, trafficClass, flowLabel, hopLimit, Ip.PROTO_UDP,
                        8 + transportLength));
                headers.add(udp(8 + transportLength));
            }
            case ROCE_V1 -> headers.add(grhHeader(srcAddress, dstAddress, transportLength));
            case INFINIBAND -> {
                Header lrh = new Header(InfiniBand.LRH, 8)
                        .set(InfiniBand.LRH_VL, vl)
                        .set(InfiniBand.LRH_SL, sl)
                        .set(InfiniBand.LRH_LNH, hasGrh ? 3 : 2)
                        .set(InfiniBand.LRH_DLID, dlid)
                        .set(InfiniBand.LRH_SLID, slid);
                int words = (8 + (hasGrh ? 40 : 0) + transportLength) / 4; // LRH through ICRC (IBTA 7.7)
                if (words > HeaderWriter.maxValue(InfiniBand.LRH_PKTLEN)) {
                    throw new IllegalStateException("packet of " + words * 4 + " bytes exceeds LRH.PktLen");
                }
                lrh.set(InfiniBand.LRH_PKTLEN, words);
                headers.add(lrh);
                if (hasGrh) {
                    headers.add(grhHeader(sgid, dgid, transportLength));
                }
            }
            default -> throw new IllegalStateException(String.valueOf(encapsulation));
        }
        Header bth = new Header(InfiniBand.BTH, 12)
                .set(InfiniBand.BTH_OPCODE, opcode)
                .set(InfiniBand.BTH_PADCNT, pad)
                .set(InfiniBand.BTH_P_KEY, DEFAULT_P_KEY);
        headers.add(bth);
        headers.addAll(chain);

        applyAssignments(headers, row);

        int headerBytes = 0;
        for (Header h : headers) {
            headerBytes += h.length();
        }
        int icrcAt = headerBytes + payload.length + pad;
        int vcrcAt = isNative ? icrcAt + 4 : -1;
        byte[] out = new byte[icrcAt + 4 + (isNative ? 2 : 0)];
        List<BuiltPacket.Span> spans = new ArrayList<>();
        int at = 0;
        int networkAt = -1;
        for (Header h : headers) {
            h.writeTo(out, at);
            spans.add(new BuiltPacket.Span(h.type(), at, h.length()));
            HeaderType t = h.type();
            if (networkAt < 0 && (t == Ip.IPV4 || t == Ip.IPV6 || t == InfiniBand.GRH || t == InfiniBand.LRH)) {
                networkAt = at;
            }
            at += h.length();
        }
        System.arraycopy(payload, 0, out, at, payload.length);

        if (ip != null) {
            // Ip declares ip.hdr_len as a computed byte count (Wireshark's), so the raw IHL nibble has
            // no field of its own: a 20-byte header without options is IHL 5.
            out[networkAt] = (byte) ((out[networkAt] & 0xF0) | 5);
            if (!ip.isSet(Ip.V4_CHECKSUM)) {
                HeaderWriter.write(out, networkAt, Ip.V4_CHECKSUM, Checksums.internet(out, networkAt, 20, 0));
            }
        }

        InvariantCrc.Scope scope = switch (encapsulation) {
            case ROCE_V2_IPV4 -> InvariantCrc.Scope.ROCE_V2_IPV4;
            case ROCE_V2_IPV6 -> InvariantCrc.Scope.ROCE_V2_IPV6;
            case ROCE_V1 -> InvariantCrc.Scope.ROCE_V1;
            default -> hasGrh ? InvariantCrc.Scope.IB_GLOBAL : InvariantCrc.Scope.IB_LOCAL;
        };
        if (icrcShown != null) {
            HeaderWriter.write(out, icrcAt, InfiniBand.ICRC, icrcShown);
        } else {
            int crc = InvariantCrc.compute(out, scope, networkAt, icrcAt);
            InvariantCrc.store(out, icrcAt, corruptIcrc ? ~crc : crc);
        }
        if (isNative) {
            int vcrc = VariantCrc.compute(out, networkAt, vcrcAt);
            VariantCrc.store(out, vcrcAt, corruptVcrc ? ~vcrc & 0xFFFF : vcrc);
        }
        return new BuiltPacket(out, linkType(), encapsulation, spans, at, payload.length, pad, icrcAt, vcrcAt);
    }

    private void applyAssignments(List<Header> headers, Opcode row) {
        for (Map.Entry<Field, Object> e : assignments.entrySet()) {
            Field field = e.getKey();
            Header target = null;
            for (Header h : headers) {
                if (h.declares(field)) {
                    if (target != null) {
                        throw new IllegalStateException(field.abbrev() + " is ambiguous: this packet has more than one "
                                + h.type().abbrev());
                    }
                    target = h;
                }
            }
            if (target == null) {
                throw new IllegalStateException(field.abbrev() + " is not in this packet: opcode 0x"
                        + Integer.toHexString(row.code()) + " (" + row.name() + ") carries " + row.headers()
                        + " after the BTH, over " + encapsulation);
            }
            if (e.getValue() instanceof byte[] bytes) {
                target.set(field, bytes);
            } else {
                target.set(field, (Long) e.getValue());
            }
        }
    }

    private Header udp(int length) {
        return new Header(Transport.UDP, 8)
                .set(Transport.UDP_SRCPORT, udpSourcePort)
                .set(Transport.UDP_DSTPORT, udpDestPort)
                .set(Transport.UDP_LENGTH, checkRange(length, 0xFFFF, "UDP length"))
                .set(Transport.UDP_CHECKSUM, 0);
    }

    private Header grhHeader(byte[] source, byte[] destination, int transportLength) {
        return new Header(InfiniBand.GRH, 40)
                .set(InfiniBand.GRH_IPVER, 6)
                .set(InfiniBand.GRH_TCLASS, trafficClass)
                .set(InfiniBand.GRH_FLOWLABEL, flowLabel)
                .set(InfiniBand.GRH_PAYLEN, checkRange(transportLength, 0xFFFF, "GRH PayLen"))
                .set(InfiniBand.GRH_NXTHDR, InfiniBandDissector.GRH_NEXT_HEADER_IBA)
                .set(InfiniBand.GRH_HOPLMT, hopLimit)
                .set(InfiniBand.GRH_SGID, source)
                .set(InfiniBand.GRH_DGID, destination);
    }

    // ---- shared with EthernetFrame ---------------------------------------------------------------

    /** Ethernet header and 802.1Q tags; each type field names what follows it. */
    static List<Header> ethernetAndTags(byte[] srcMac, byte[] dstMac, List<int[]> tags, int etherType) {
        List<Header> out = new ArrayList<>();
        Header eth = new Header(Ethernet.HEADER, 14)
                .set(Ethernet.DST, dstMac)
                .set(Ethernet.SRC, srcMac)
                .set(Ethernet.TYPE, tags.isEmpty() ? etherType : tags.get(0)[0]);
        out.add(eth);
        for (int i = 0; i < tags.size(); i++) {
            int[] tag = tags.get(i);
            out.add(new Header(Ethernet.VLAN, 4)
                    .set(Ethernet.VLAN_PRIORITY, tag[1])
                    .set(Ethernet.VLAN_DEI, tag[2])
                    .set(Ethernet.VLAN_ID, tag[3])
                    .set(Ethernet.VLAN_ETYPE, i + 1 < tags.size() ? tags.get(i + 1)[0] : etherType));
        }
        return out;
    }

    /** An IPv4 header without options; the caller fixes the IHL nibble and the checksum once laid out. */
    static Header ipv4(byte[] src, byte[] dst, int tos, int id, boolean dontFragment, int ttl, int protocol,
                       int totalLength) {
        return new Header(Ip.IPV4, 20)
                .set(Ip.V4_VERSION, 4)
                .set(Ip.V4_DSFIELD, tos)
                .set(Ip.V4_LEN, checkRange(totalLength, 0xFFFF, "IPv4 total length"))
                .set(Ip.V4_ID, id)
                .set(Ip.V4_FLAGS_DF, dontFragment)
                .set(Ip.V4_TTL, ttl)
                .set(Ip.V4_PROTO, protocol)
                .set(Ip.V4_SRC, src)
                .set(Ip.V4_DST, dst);
    }

    static Header ipv6(byte[] src, byte[] dst, int trafficClass, int flowLabel, int hopLimit, int nextHeader,
                       int payloadLength) {
        return new Header(Ip.IPV6, 40)
                .set(Ip.V6_VERSION, 6)
                .set(Ip.V6_TCLASS, trafficClass)
                .set(Ip.V6_FLOW, flowLabel)
                .set(Ip.V6_PLEN, checkRange(payloadLength, 0xFFFF, "IPv6 payload length"))
                .set(Ip.V6_NXT, nextHeader)
                .set(Ip.V6_HLIM, hopLimit)
                .set(Ip.V6_SRC, src)
                .set(Ip.V6_DST, dst);
    }

    // ---- checks ---------------------------------------------------------------------------------

    /** The header type a field belongs to, among every type the builder can emit. */
    private static HeaderType ownerOf(Field field) {
        for (HeaderType t : BUILDABLE) {
            for (Field f : t.fields()) {
                if (f == field) {
                    return t;
                }
            }
        }
        throw new IllegalArgumentException(field.abbrev() + " is not a field of any header a RoCE/IB packet has");
    }

    private static final List<HeaderType> BUILDABLE = buildable();

    /** An empty header of {@code type} at its full size, for checking a value against its field. */
    private static Header headerOf(HeaderType type) {
        return new Header(type, sizeOf(type));
    }

    /** Size of every header type the builder emits; the IB ones come from the dissector's table. */
    static int sizeOf(HeaderType type) {
        return type.fixedLength(); // every header the builder emits has a fixed size, its fields' end
    }

    private static List<HeaderType> buildable() {
        List<HeaderType> types = new ArrayList<>(List.of(Ethernet.HEADER, Ethernet.VLAN, Ip.IPV4, Ip.IPV6,
                Transport.UDP));
        for (HeaderType t : InfiniBand.HEADERS) {
            if (t != InfiniBand.ICRC_HEADER && t != InfiniBand.VCRC_HEADER && t != InfiniBand.PAD
                    && t != InfiniBand.VENDOR) {
                types.add(t);
            }
        }
        return List.copyOf(types);
    }

    private void requireEncapsulation(Encapsulation wanted, String what) {
        if (encapsulation != wanted) {
            throw new IllegalStateException(what + "() applies to " + wanted + ", not " + encapsulation);
        }
    }

    private void requireEthernet(String what) {
        if (encapsulation == Encapsulation.INFINIBAND) {
            throw new IllegalStateException(what + "() needs an Ethernet encapsulation");
        }
    }

    private void requireRoceV2(String what) {
        if (encapsulation != Encapsulation.ROCE_V2_IPV4 && encapsulation != Encapsulation.ROCE_V2_IPV6) {
            throw new IllegalStateException(what + "() applies to RoCEv2 only");
        }
    }

    static int checkRange(int value, int max, String what) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + " must be 0.." + max + ", got " + value);
        }
        return value;
    }

    static byte[] length(byte[] bytes, int expected, String what) {
        if (bytes.length != expected) {
            throw new IllegalArgumentException(what + " must be " + expected + " bytes, got " + bytes.length);
        }
        return bytes.clone();
    }
}
