package io.rdmascope.text;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.ProtocolModule.Addresses;
import io.rdmascope.proto.Protocols;

/**
 * The packet-list columns of one frame (Source, Destination, Protocol, Info), as tshark's one-line
 * output and the GUI's packet list show them. Each protocol package words its own part
 * ({@link ProtocolModule}): addresses (the highest precedence wins: IP over GRH over LRH over
 * Ethernet), the carrier's whole line (InfiniBand for RDMA frames), else the top protocol's name
 * and the first Info a package gives, and last what rides on top (iWARP, NVMe-oF) replacing or
 * extending the line.
 */
public final class PacketSummary {
    private PacketSummary() {
    }

    /** The four text columns of a dissected frame. */
    public record Columns(String source, String destination, String protocol, String info) {
    }

    /** The columns of a dissected frame. */
    public static Columns of(Dissection d) {
        // CM MADs keep these addresses on purpose. tshark 4.0 shows a RoCE ConnectRequest as
        // "LID: 65535 → 10.0.0.2": while it records the connection (first pass only) it reuses
        // pinfo->src to register a conversation under the REQ's Primary Local Port LID, and that
        // overwrites the Source column. It is a side effect, not a display choice: `tshark -2`
        // (second pass, conversation already known) shows "10.0.0.1 → 10.0.0.2", and on native IB
        // the LID it writes usually equals the LRH's SLID anyway. We show what `tshark -2` shows.
        Addresses addresses = null;
        ProtocolModule.Columns line = null;
        for (ProtocolModule m : Protocols.ALL) {
            Addresses a = m.addresses(d);
            if (a != null && (addresses == null || a.precedence() > addresses.precedence())) {
                addresses = a;
            }
            if (line == null) {
                line = m.carrier(d);
            }
        }
        if (line == null) {
            line = new ProtocolModule.Columns(topProtocol(d), otherInfo(d));
        }
        for (ProtocolModule m : Protocols.ALL) {
            ProtocolModule.Columns upper = m.upper(d, line);
            if (upper != null) {
                line = upper;
            }
        }
        String info = line.info();
        if (d.isMalformed()) {
            info = info + " [Malformed Packet]";
        }
        return new Columns(addresses == null ? "" : addresses.source(),
                addresses == null ? "" : addresses.destination(), line.protocol(), info);
    }

    /**
     * The highest protocol decoded, as Wireshark's Protocol column: the last layer whose package
     * names it ({@link ProtocolModule#protocolColumn}); "Data" when none does.
     */
    private static String topProtocol(Dissection d) {
        for (int i = d.layerCount() - 1; i >= 0; i--) {
            int layer = i;
            String name = Protocols.first(m -> m.protocolColumn(d, layer));
            if (name != null) {
                return name;
            }
        }
        return "Data";
    }

    /**
     * The first Info a package gives; else, never blank (issue 17), the first fallback (ARP in
     * tshark's words, what the IP header says it carries), else the top layer's name and size.
     */
    private static String otherInfo(Dissection d) {
        String info = Protocols.first(m -> m.info(d));
        if (info == null) {
            info = Protocols.first(m -> m.fallbackInfo(d));
        }
        if (info != null) {
            return info;
        }
        int top = d.layerCount() - 1;
        return top <= 0 ? "" : d.layerType(top).name() + " (" + d.layerLength(top) + " bytes)";
    }
}
