package io.rdmascope.dissect;

import io.rdmascope.dissect.stream.TcpConversation;
import io.rdmascope.dissect.stream.TcpStreams;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.Protocols;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.frame.FrameFields;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which dissector handles what, as data (Wireshark's {@code dissector_add_uint} tables and heuristic
 * lists): link types, ethertypes, IP protocols, the UDP ports that carry RoCEv2, and the protocols
 * tried on TCP payloads, InfiniBand SEND payloads and CM private data. Every entry comes from the
 * protocol packages' own registrations ({@link ProtocolModule#register}, listed in {@link
 * Protocols#ALL}); the chain imports none of them. Immutable and shareable between threads; each
 * thread brings its own {@link Dissection}.
 */
public final class DissectorChain {
    /** IANA port of RoCEv2 (IBTA Annex A17). */
    public static final int ROCE_V2_PORT = 4791;

    private final IntDispatch linkTypes;
    private final IntDispatch etherTypes;
    private final IntDispatch ipProtocols;
    private final Dissector roceV2;
    private final Dissector managementDatagram;
    private final TcpPayloadHeuristic[] tcpPayloads;
    private final Heuristic[] rdmaPayloads;
    private final Heuristic[] iwarpPayloads;
    private final CmPrivateData[] cmPrivateData;
    private final int[] rocePorts;
    /** tshark's {@code tcp.relative_sequence_numbers} preference: on by default, as in Wireshark. */
    private final boolean relativeTcpSequenceNumbers;
    /** The {@code --decode-as} rules, in the order given; a later rule for the same selector wins. */
    private final DecodeAs[] decodeAs;
    /** The "table,protocol" pairs the packages declared, for refusing a rule none answers to. */
    private final Set<String> decodeAsDeclared;

    private DissectorChain(int[] rocePorts) {
        this(rocePorts, true, new DecodeAs[0]);
    }

    private DissectorChain(int[] rocePorts, boolean relativeTcpSequenceNumbers, DecodeAs[] decodeAs) {
        this(registrations(Protocols.ALL), rocePorts, relativeTcpSequenceNumbers, decodeAs);
    }

    private DissectorChain(Registrations r, int[] rocePorts, boolean relativeTcpSequenceNumbers,
                           DecodeAs[] decodeAs) {
        this.relativeTcpSequenceNumbers = relativeTcpSequenceNumbers;
        this.decodeAs = decodeAs.clone();
        this.decodeAsDeclared = Set.copyOf(r.decodeAs);
        for (DecodeAs rule : decodeAs) {
            check(rule, r.decodeAs);
        }
        this.linkTypes = IntDispatch.of(r.linkTypes);
        this.etherTypes = IntDispatch.of(r.etherTypes);
        this.ipProtocols = IntDispatch.of(r.ipProtocols);
        this.roceV2 = r.roceV2;
        this.managementDatagram = r.managementDatagram;
        this.tcpPayloads = r.tcpPayloads.toArray(new TcpPayloadHeuristic[0]);
        this.rdmaPayloads = r.rdmaPayloads.toArray(new Heuristic[0]);
        this.iwarpPayloads = r.iwarpPayloads.toArray(new Heuristic[0]);
        this.cmPrivateData = r.cmPrivateData.toArray(new CmPrivateData[0]);
        // The udp.port table has one hand-off, RoCEv2's (InfiniBand declares "udp.port,infiniband"):
        // a rule for a port makes it one more RoCEv2 port, as --roce-port does.
        int[] ports = rocePorts.clone();
        for (DecodeAs rule : decodeAs) {
            if (rule.table().equals(DecodeAs.UDP_PORT)) {
                ports = Arrays.copyOf(ports, ports.length + 1);
                ports[ports.length - 1] = (int) rule.selector();
            }
        }
        this.rocePorts = ports;
        Arrays.sort(this.rocePorts);
    }

    /** Refuses a rule whose table or protocol no package declared, or whose value the table cannot hold. */
    private static void check(DecodeAs rule, Set<String> declared) {
        if (!declared.contains(rule.table() + "," + rule.protocol())) {
            boolean tableKnown = declared.stream().anyMatch(pair -> pair.startsWith(rule.table() + ","));
            throw new IllegalArgumentException((tableKnown
                    ? "protocol '" + rule.protocol() + "' is not one " + rule.table() + " can be decoded as"
                    : "unknown table '" + rule.table() + "'") + "; " + decodeAsUsage(declared));
        }
        long max = switch (rule.table()) {
            case DecodeAs.TCP_PORT, DecodeAs.UDP_PORT -> 0xFFFF;
            case DecodeAs.DEST_QP -> 0xFF_FFFF;
            default -> DecodeAs.ALL;
        };
        if (max == DecodeAs.ALL ? rule.selector() != DecodeAs.ALL : rule.selector() == DecodeAs.ALL
                || rule.selector() > max) {
            throw new IllegalArgumentException("'" + rule + "': " + (max == DecodeAs.ALL
                    ? rule.table() + " takes no value (write " + rule.table() + "," + rule.protocol() + ")"
                    : rule.table() + " takes a value from 0 to " + max + " (" + rule.table() + "==VALUE,PROTOCOL)"));
        }
    }

    /** What {@code --decode-as} accepts, from what the packages declared: one line. */
    private static String decodeAsUsage(Set<String> declared) {
        Map<String, List<String>> byTable = new TreeMap<>();
        for (String pair : declared) {
            int comma = pair.indexOf(',');
            byTable.computeIfAbsent(pair.substring(0, comma), t -> new ArrayList<>()).add(pair.substring(comma + 1));
        }
        byTable.values().forEach(Collections::sort);
        StringBuilder sb = new StringBuilder("accepted: ");
        String sep = "";
        for (Map.Entry<String, List<String>> e : byTable.entrySet()) {
            sb.append(sep).append(e.getKey()).append(e.getKey().equals(DecodeAs.INFINIBAND) ? "," : "==VALUE,")
                    .append(String.join("|", e.getValue()));
            sep = "; ";
        }
        return sb.toString();
    }

    /** The one-line usage of {@code --decode-as}: the tables and protocols the packages declared. */
    public String decodeAsUsage() {
        return decodeAsUsage(decodeAsDeclared);
    }

    private static Registrations registrations(List<ProtocolModule> modules) {
        Registrations r = new Registrations();
        for (ProtocolModule m : modules) {
            m.register(r);
        }
        return r;
    }

    /** RoCEv2 on UDP port 4791 only. */
    public static DissectorChain standard() {
        return new DissectorChain(new int[]{ROCE_V2_PORT});
    }

    /** RoCEv2 on 4791 and on {@code extraPorts} (test rigs and some NICs move it). */
    public static DissectorChain withRocePorts(int... extraPorts) {
        int[] ports = Arrays.copyOf(extraPorts, extraPorts.length + 1);
        ports[extraPorts.length] = ROCE_V2_PORT;
        return new DissectorChain(ports);
    }

    /**
     * This chain with TCP sequence and acknowledgment numbers shown as on the wire (tshark's {@code -o
     * tcp.relative_sequence_numbers:FALSE}) or, with true, relative to each direction's start.
     */
    public DissectorChain withRelativeTcpSequenceNumbers(boolean relative) {
        return relative == relativeTcpSequenceNumbers ? this
                : new DissectorChain(basePorts(), relative, decodeAs);
    }

    /**
     * This chain with {@code rules} added after its own (tshark's {@code -d}). Throws {@link
     * IllegalArgumentException}, its message one line naming what is accepted, for a rule whose table
     * and protocol no package declared ({@link Registrations#decodeAs}) or whose value is out of range.
     */
    public DissectorChain withDecodeAs(List<DecodeAs> rules) {
        if (rules.isEmpty()) {
            return this;
        }
        DecodeAs[] all = Arrays.copyOf(decodeAs, decodeAs.length + rules.size());
        for (int i = 0; i < rules.size(); i++) {
            all[decodeAs.length + i] = rules.get(i);
        }
        return new DissectorChain(basePorts(), relativeTcpSequenceNumbers, all);
    }

    /** The RoCEv2 ports without those the udp.port rules added (the constructor adds them again). */
    private int[] basePorts() {
        int[] ports = rocePorts.clone();
        int n = ports.length;
        for (DecodeAs rule : decodeAs) {
            if (rule.table().equals(DecodeAs.UDP_PORT)) {
                for (int i = 0; i < n; i++) {
                    if (ports[i] == rule.selector()) {
                        ports[i] = ports[--n];
                        break;
                    }
                }
            }
        }
        return Arrays.copyOf(ports, n);
    }

    /**
     * Whether a rule chose {@code protocol} for an InfiniBand payload (RoCE or native) to queue pair
     * {@code destQp}: one on {@link DecodeAs#DEST_QP} for it, or one on the whole {@link
     * DecodeAs#INFINIBAND} table (tshark's form). Free when no rule was given.
     */
    public boolean isPayloadDecodedAs(int destQp, String protocol) {
        return decodeAs.length > 0 && (isDecodedAs(DecodeAs.DEST_QP, destQp, protocol)
                || isDecodedAs(DecodeAs.INFINIBAND, destQp, protocol));
    }

    /**
     * Whether a rule chose {@code protocol} for {@code value} of {@code table}. Rules for protocols of
     * different layers on one selector all hold ({@code tcp.port==N,iwarp_mpa} with {@code
     * tcp.port==N,smb_direct}: iWARP on the port, SMB Direct on the iWARP).
     */
    public boolean isDecodedAs(String table, long value, String protocol) {
        for (DecodeAs rule : decodeAs) { // none, usually: the loop is the whole cost
            if (rule.selects(table, value) && rule.protocol().equals(protocol)) {
                return true;
            }
        }
        return false;
    }

    /** Whether tcp.seq, tcp.ack and tcp.nxtseq are relative (the default) or raw. */
    public boolean relativeTcpSequenceNumbers() {
        return relativeTcpSequenceNumbers;
    }

    /** Dissects {@code frame} into {@code d} (which is reset first). Never throws on frame bytes. */
    public void dissect(Frame frame, Dissection d) {
        d.reset(frame);
        d.add(FrameFields.HEADER, 0, frame.capturedLength());
        Dissector link = linkTypes.get(frame.linkType());
        if (link == null) {
            Data.dissect(this, d, 0, frame.capturedLength());
        } else {
            link.dissect(this, d, 0, frame.capturedLength());
        }
    }

    /**
     * Continues after a link header: hands the payload to the ethertype's dissector (the link
     * dissector has added its own layers, the {@code ethertype} marker among them).
     */
    public void ethertype(Dissection d, int etherType, int offset, int end) {
        Dissector next = etherTypes.get(etherType);
        if (next == null) {
            Data.dissect(this, d, offset, end);
        } else {
            next.dissect(this, d, offset, end);
        }
    }

    public void ipProtocol(Dissection d, int protocol, int offset, int end) {
        Dissector next = ipProtocols.get(protocol);
        if (next == null) {
            Data.dissect(this, d, offset, end);
        } else {
            next.dissect(this, d, offset, end);
        }
    }

    public boolean isRocePort(int port) {
        if (rocePorts.length == 1) {
            return rocePorts[0] == port; // the usual case: 4791 alone
        }
        return Arrays.binarySearch(rocePorts, port) >= 0;
    }

    public void roceV2(Dissection d, int offset, int end) {
        roceV2.dissect(this, d, offset, end);
    }

    /** A management datagram in a UD packet to QP0/QP1. */
    public void mad(Dissection d, int offset, int end) {
        managementDatagram.dissect(this, d, offset, end);
    }

    /**
     * A TCP segment's payload: offered to each protocol that may ride on TCP; true when one took it
     * (else the caller shows it as data).
     */
    public boolean tcpPayload(Dissection d, int tcpLayer, int payloadStart, int payloadEnd, TcpStreams tcp,
                              TcpConversation conversation) {
        for (TcpPayloadHeuristic h : tcpPayloads) {
            if (h.dissect(this, d, tcpLayer, payloadStart, payloadEnd, tcp, conversation)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The payload of an InfiniBand packet (empty for a READ Request or an ACK): a protocol that
     * recognises it, else data.
     */
    public void rdmaPayload(Dissection d, int offset, int end) {
        for (Heuristic h : rdmaPayloads) {
            if (h.dissect(this, d, offset, end)) {
                d.markUpperLayer();
                return;
            }
        }
        Data.dissect(this, d, offset, end);
    }

    /**
     * The payload {@code [offset, end)} of a whole iWARP Send message (its bytes may lie past the
     * frame): true when a protocol recognised it, else the caller shows it as data. The iWARP package
     * says which connection and direction it came on while this runs.
     */
    public boolean iwarpPayload(Dissection d, int offset, int end) {
        for (Heuristic h : iwarpPayloads) {
            if (h.dissect(this, d, offset, end)) {
                d.markUpperLayer();
                return true;
            }
        }
        return false;
    }

    /** Whether a protocol may ride in iWARP Sends: when none, their payloads are data without asking. */
    public boolean hasIwarpPayloads() {
        return iwarpPayloads.length > 0;
    }

    /** A CM message just added as layer {@code cmLayer}: its private data offered to every reader. */
    public void cmPrivateData(Dissection d, int cmLayer) {
        for (CmPrivateData reader : cmPrivateData) {
            reader.dissect(this, d, cmLayer);
        }
    }
}
