package io.rdmascope.dissect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What protocol packages register with a {@link DissectorChain} as it is built (Wireshark's
 * {@code dissector_add_uint} and {@code heur_dissector_add}): keyed tables, the hand-offs that have one
 * dissector each, and heuristic lists tried in registration order. Used once per chain; the chain
 * turns it into arrays.
 */
public final class Registrations {
    final Map<Integer, Dissector> linkTypes = new HashMap<>();
    final Map<Integer, Dissector> etherTypes = new HashMap<>();
    final Map<Integer, Dissector> ipProtocols = new HashMap<>();
    final List<TcpPayloadHeuristic> tcpPayloads = new ArrayList<>();
    final List<Heuristic> rdmaPayloads = new ArrayList<>();
    final List<Heuristic> iwarpPayloads = new ArrayList<>();
    final List<CmPrivateData> cmPrivateData = new ArrayList<>();
    /** "table,protocol" pairs a {@link DecodeAs} rule may name, in declaration order. */
    final Set<String> decodeAs = new LinkedHashSet<>();
    Dissector roceV2;
    Dissector managementDatagram;

    Registrations() {
    }

    /** The dissector of a capture link type (pcap LINKTYPE_*). */
    public Registrations linkType(int linkType, Dissector dissector) {
        return put(linkTypes, linkType, dissector, "link type");
    }

    public Registrations etherType(int etherType, Dissector dissector) {
        return put(etherTypes, etherType, dissector, "ethertype");
    }

    public Registrations ipProtocol(int protocol, Dissector dissector) {
        return put(ipProtocols, protocol, dissector, "IP protocol");
    }

    /** What the UDP ports the chain takes for RoCEv2 carry (4791 and any {@code --roce-port}). */
    public Registrations roceV2(Dissector dissector) {
        roceV2 = only(roceV2, dissector, "RoCEv2");
        return this;
    }

    /** What a UD SEND to QP0 or QP1 carries (IBTA 13.4). */
    public Registrations managementDatagram(Dissector dissector) {
        managementDatagram = only(managementDatagram, dissector, "management datagram");
        return this;
    }

    /** A protocol that may ride on TCP, tried on every segment's payload. */
    public Registrations tcpPayload(TcpPayloadHeuristic heuristic) {
        tcpPayloads.add(heuristic);
        return this;
    }

    /**
     * A protocol that may ride on InfiniBand (RoCE and native): offered every packet's payload, empty
     * ones too, after the transport headers.
     */
    public Registrations rdmaPayload(Heuristic heuristic) {
        rdmaPayloads.add(heuristic);
        return this;
    }

    /**
     * A protocol that may ride in iWARP Send messages (Wireshark's {@code iwarp_ddp_rdmap} heuristic
     * list): offered each whole Send message's payload, from its one DDP segment or reassembled.
     */
    public Registrations iwarpPayload(Heuristic heuristic) {
        iwarpPayloads.add(heuristic);
        return this;
    }

    /** A reader of CM messages' private data. */
    public Registrations cmPrivateData(CmPrivateData reader) {
        cmPrivateData.add(reader);
        return this;
    }

    /**
     * Declares that {@code protocol} (its tshark filter name) may be chosen for traffic of {@code table}
     * (a {@link DecodeAs} table) by {@code --decode-as}. The package itself asks the chain, where it
     * decides, whether a rule chose it ({@link DissectorChain#decodedAs}); the chain only refuses rules
     * that no package declared.
     */
    public Registrations decodeAs(String table, String protocol) {
        decodeAs.add(table + "," + protocol);
        return this;
    }

    private Registrations put(Map<Integer, Dissector> table, int key, Dissector dissector, String what) {
        if (table.putIfAbsent(key, dissector) != null) {
            throw new IllegalStateException(what + " registered twice: " + key);
        }
        return this;
    }

    private static Dissector only(Dissector existing, Dissector dissector, String what) {
        if (existing != null) {
            throw new IllegalStateException(what + " registered twice");
        }
        return dissector;
    }
}
