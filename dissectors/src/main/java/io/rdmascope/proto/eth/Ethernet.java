package io.rdmascope.proto.eth;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.HeaderType;
import io.rdmascope.field.Protocol;
import io.rdmascope.field.ValueNames;

import java.util.List;

/** Ethernet II, IEEE 802.1Q / 802.1ad tags and Linux cooked captures (SLL, SLL2). */
public final class Ethernet {
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_QINQ = 0x88A8;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    /** RoCEv1 (IBTA Annex A16): GRH then BTH directly in the Ethernet payload. */
    public static final int ETHERTYPE_ROCE = 0x8915;

    public static final ValueNames ETHERTYPE_NAMES = ValueNames.of(ETHERTYPE_IPV4, "IPv4", ETHERTYPE_ARP, "ARP",
            ETHERTYPE_VLAN, "802.1Q Virtual LAN", ETHERTYPE_QINQ, "802.1ad Provider Bridge (Q-in-Q)",
            ETHERTYPE_IPV6, "IPv6", ETHERTYPE_ROCE, "RDMA over Converged Ethernet");

    public static final Protocol PROTOCOL = new Protocol("eth", "Ethernet II");
    public static final Field DST = Field.ether("eth.dst", "Destination", 0);
    public static final Field SRC = Field.ether("eth.src", "Source", 6);
    public static final Field ADDR = Field.ether("eth.addr", "Address", 0).alsoAt(6);
    public static final Field TYPE = Field.uint16("eth.type", "Type", 12).hex().names(ETHERTYPE_NAMES);
    public static final HeaderType HEADER = HeaderType.protocolHeader(PROTOCOL, DST, SRC, ADDR, TYPE);

    public static final Field FCS = Field.uint32("eth.fcs", "Frame check sequence", 0).hex();
    public static final HeaderType FCS_HEADER = HeaderType.group(PROTOCOL, "eth.trailer_fcs", "Frame check sequence",
            FCS);
    public static final Field PADDING = Field.restOfHeader("eth.padding", "Padding", 0);
    public static final HeaderType PADDING_HEADER = HeaderType.group(PROTOCOL, "eth.trailer_padding", "Padding",
            PADDING);

    /** Wireshark lists "ethertype" between a link header and what it carries; so do we, for frame.protocols. */
    public static final Protocol ETHERTYPE_PROTOCOL = new Protocol("ethertype", "EtherType");
    public static final HeaderType ETHERTYPE = new HeaderType("ethertype", "EtherType", ETHERTYPE_PROTOCOL,
            FieldType.PROTOCOL, List.of());

    public static final Protocol VLAN_PROTOCOL = new Protocol("vlan", "802.1Q Virtual LAN");
    public static final Field VLAN_PRIORITY = Field.uint16("vlan.priority", "Priority", 0).mask(0xE000);
    public static final Field VLAN_DEI = Field.bool("vlan.dei", "DEI", 0, 2, 0x1000);
    public static final Field VLAN_ID = Field.uint16("vlan.id", "ID", 0).mask(0x0FFF);
    public static final Field VLAN_ETYPE = Field.uint16("vlan.etype", "Type", 2).hex().names(ETHERTYPE_NAMES);
    public static final HeaderType VLAN = HeaderType.protocolHeader(VLAN_PROTOCOL, VLAN_PRIORITY, VLAN_DEI, VLAN_ID,
            VLAN_ETYPE);

    public static final Protocol SLL_PROTOCOL = new Protocol("sll", "Linux cooked capture");
    public static final Field SLL_PKTTYPE = Field.uint16("sll.pkttype", "Packet type", 0);
    public static final Field SLL_HATYPE = Field.uint16("sll.hatype", "Link-layer address type", 2);
    public static final Field SLL_HALEN = Field.uint16("sll.halen", "Link-layer address length", 4);
    public static final Field SLL_SRC = Field.ether("sll.src.eth", "Source", 6)
            .presentWhen((d, l) -> d.layerType(l) == Ethernet.SLL ? d.u16(d.layerStart(l) + 4) == 6
                    : d.u8(d.layerStart(l) + 11) == 6);
    public static final Field SLL_ETYPE = Field.uint16("sll.etype", "Protocol", 14).hex().names(ETHERTYPE_NAMES);
    public static final HeaderType SLL = HeaderType.protocolHeader(SLL_PROTOCOL, SLL_PKTTYPE, SLL_HATYPE, SLL_HALEN,
            SLL_SRC, SLL_ETYPE);

    /** SLL2 keeps SLL's field names (as Wireshark does) at its own offsets. */
    public static final Protocol SLL2_PROTOCOL = new Protocol("sll", "Linux cooked capture v2");
    public static final HeaderType SLL2 = new HeaderType("sll", "Linux cooked capture v2", SLL2_PROTOCOL,
            FieldType.PROTOCOL, List.of(
            SLL_ETYPE.at("sll.etype", "Protocol", 0),
            Field.uint32("sll.ifindex", "Interface index", 4),
            SLL_HATYPE.at("sll.hatype", "Link-layer address type", 8),
            Field.uint8("sll.pkttype", "Packet type", 10).printedAs(FieldType.UINT16),
            Field.uint8("sll.halen", "Link-layer address length", 11).printedAs(FieldType.UINT16),
            SLL_SRC.at("sll.src.eth", "Source", 12)));

    private Ethernet() {
    }

    /** Ethernet II without a trailing FCS (pcap linktype 1). */
    public static void dissect(DissectorChain chain, Dissection d, int offset, int end) {
        dissect(chain, d, offset, end, false);
    }

    /**
     * @param withFcs whether the last four bytes are the frame check sequence (ERF ETH records keep it)
     */
    public static void dissect(DissectorChain chain, Dissection d, int offset, int end, boolean withFcs) {
        if (d.add(HEADER, offset, 14) < 0) {
            return;
        }
        int payloadEnd = end;
        if (withFcs && end - offset >= 18 && end <= d.capturedLength()) {
            payloadEnd = end - 4;
        }
        int type = d.u16(offset + 12);
        if (type < 0x0600) {
            // IEEE 802.3 length field: LLC follows; nothing RDMA rides on it.
            io.rdmascope.proto.data.Data.dissect(chain, d, offset + 14, payloadEnd);
        } else {
            ethertype(chain, d, type, offset + 14, payloadEnd);
        }
        if (payloadEnd != end) {
            d.add(FCS_HEADER, payloadEnd, 4);
        }
    }

    /** 802.1Q or 802.1ad tag; tags may stack (Q-in-Q) up to the dissection's layer bound. */
    public static void dissectVlan(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(VLAN, offset, 4) < 0) {
            return;
        }
        ethertype(chain, d, d.u16(offset + 2), offset + 4, end);
    }

    public static void dissectSll(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(SLL, offset, 16) < 0) {
            return;
        }
        ethertype(chain, d, d.u16(offset + 14), offset + 16, end);
    }

    public static void dissectSll2(DissectorChain chain, Dissection d, int offset, int end) {
        if (d.add(SLL2, offset, 20) < 0) {
            return;
        }
        ethertype(chain, d, d.u16(offset), offset + 20, end);
    }

    /**
     * Hands the payload to the ethertype's dissector. The zero-length {@code ethertype} marker goes
     * before it, except under a VLAN tag, which Wireshark's frame.protocols lists as "vlan" alone.
     */
    private static void ethertype(DissectorChain chain, Dissection d, int etherType, int offset, int end) {
        if (etherType != ETHERTYPE_VLAN && etherType != ETHERTYPE_QINQ) {
            d.add(ETHERTYPE, offset, 0);
        }
        chain.ethertype(d, etherType, offset, end);
    }

    /** Bytes after the network layer's own length inside a minimum-size Ethernet frame. */
    public static void padding(Dissection d, int offset, int end) {
        if (end > offset && d.find(HEADER) >= 0) {
            d.add(PADDING_HEADER, offset, end - offset);
        }
    }

}
