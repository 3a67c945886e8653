package io.rdmascope.proto.eth;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.Registrations;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.text.TreeLabels;

import java.util.List;

/** Ethernet II, VLAN tags and Linux cooked captures: link types, ethertypes, addresses, ARP's Info. */
public final class EthernetModule implements ProtocolModule {
    @Override
    public List<HeaderType> headers() {
        return List.of(Ethernet.HEADER, Ethernet.ETHERTYPE, Ethernet.VLAN, Ethernet.SLL, Ethernet.SLL2,
                Ethernet.FCS_HEADER, Ethernet.PADDING_HEADER);
    }

    @Override
    public void register(Registrations r) {
        r.linkType(LinkTypes.ETHERNET, Ethernet::dissect);
        r.linkType(LinkTypes.LINUX_SLL, Ethernet::dissectSll);
        r.linkType(LinkTypes.LINUX_SLL2, Ethernet::dissectSll2);
        r.etherType(Ethernet.ETHERTYPE_VLAN, Ethernet::dissectVlan);
        r.etherType(Ethernet.ETHERTYPE_QINQ, Ethernet::dissectVlan);
    }

    @Override
    public Addresses addresses(Dissection d) {
        int eth = d.find(Ethernet.HEADER);
        if (eth < 0 || d.layerLength(eth) < 12) {
            return null;
        }
        return new Addresses(TreeLabels.text(Ethernet.SRC, d, eth), TreeLabels.text(Ethernet.DST, d, eth),
                Addresses.ETHERNET);
    }

    /**
     * "Ethernet", "ARP" or "SLL". Ethernet's trailer (the padding that brings a short frame up to 60
     * bytes, the FCS) comes after the payload but belongs to the Ethernet layer below it, so it never
     * names the column: a TCP SYN in a padded 60-byte frame is {@code TCP}, not {@code Ethernet}.
     */
    @Override
    public String protocolColumn(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        if (h == Ethernet.PADDING_HEADER || h == Ethernet.FCS_HEADER || h == Ethernet.ETHERTYPE) {
            return null;
        }
        return switch (h.protocol().abbrev()) {
            // a cut Ethernet header has no type field to read (found by fuzzing)
            case "eth" -> d.layerLength(layer) >= 14 && !d.isLayerTruncated(layer)
                    && d.u16(d.layerStart(layer) + 12) == Ethernet.ETHERTYPE_ARP ? "ARP" : "Ethernet";
            case "sll" -> "SLL";
            default -> null;
        };
    }

    /** ARP in tshark's words (RFC 826 over Ethernet/IPv4). */
    @Override
    public String fallbackInfo(Dissection d) {
        int eth = d.find(Ethernet.HEADER);
        if (eth >= 0 && d.layerLength(eth) >= 14 && !d.isLayerTruncated(eth)
                && d.u16(d.layerStart(eth) + 12) == Ethernet.ETHERTYPE_ARP) {
            return arpInfo(d, d.layerStart(eth) + 14);
        }
        return null;
    }

    @Override
    public String headerLabel(Dissection d, int layer) {
        HeaderType h = d.layerType(layer);
        if (h == Ethernet.HEADER && d.layerLength(layer) >= 12) {
            return h.name() + ", Src: " + TreeLabels.text(Ethernet.SRC, d, layer) + ", Dst: "
                    + TreeLabels.text(Ethernet.DST, d, layer);
        }
        if (h == Ethernet.VLAN && d.layerLength(layer) >= 2) {
            int at = d.layerAt(layer);
            return h.name() + ", PRI: " + Ethernet.VLAN_PRIORITY.read(d.buffer(), at) + ", DEI: "
                    + Ethernet.VLAN_DEI.read(d.buffer(), at) + ", ID: " + Ethernet.VLAN_ID.read(d.buffer(), at);
        }
        return null;
    }

    /**
     * tshark's ARP Info: "Who has 10.0.0.2? Tell 10.0.0.1" for a request, "10.0.0.2 is at
     * 02:00:00:00:00:02" for a reply; null for ARP that is not Ethernet/IPv4 or not captured whole.
     */
    private static String arpInfo(Dissection d, int at) {
        if (at + 28 > d.capturedLength() || d.u16(at) != 1 || d.u16(at + 2) != Ethernet.ETHERTYPE_IPV4
                || d.u8(at + 4) != 6 || d.u8(at + 5) != 4) {
            return null;
        }
        String senderIp = ipv4(d, at + 14);
        String targetIp = ipv4(d, at + 24);
        return switch (d.u16(at + 6)) {
            case 1 -> "Who has " + targetIp + "? Tell " + senderIp;
            case 2 -> {
                StringBuilder mac = new StringBuilder(17);
                for (int i = 0; i < 6; i++) {
                    mac.append(i > 0 ? ":" : "").append(Character.forDigit(d.u8(at + 8 + i) >> 4, 16))
                            .append(Character.forDigit(d.u8(at + 8 + i) & 0xF, 16));
                }
                yield senderIp + " is at " + mac;
            }
            default -> "ARP opcode " + d.u16(at + 6);
        };
    }

    private static String ipv4(Dissection d, int at) {
        return d.u8(at) + "." + d.u8(at + 1) + "." + d.u8(at + 2) + "." + d.u8(at + 3);
    }
}
