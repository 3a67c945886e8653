package io.rdmascope.dissect;

import io.rdmascope.dissect.stream.TcpConversation;
import io.rdmascope.dissect.stream.TcpStreams;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.Protocols;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.frame.FrameFields;

import java.util.Arrays;
import java.util.List;

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
    private final CmPrivateData[] cmPrivateData;
    private final int[] rocePorts;
    /** tshark's {@code tcp.relative_sequence_numbers} preference: on by default, as in Wireshark. */
    private final boolean relativeTcpSequenceNumbers;

    private DissectorChain(int[] rocePorts) {
        this(rocePorts, true);
    }

    private DissectorChain(int[] rocePorts, boolean relativeTcpSequenceNumbers) {
        this(registrations(Protocols.ALL), rocePorts, relativeTcpSequenceNumbers);
    }

    private DissectorChain(Registrations r, int[] rocePorts, boolean relativeTcpSequenceNumbers) {
        this.relativeTcpSequenceNumbers = relativeTcpSequenceNumbers;
        this.linkTypes = IntDispatch.of(r.linkTypes);
        this.etherTypes = IntDispatch.of(r.etherTypes);
        this.ipProtocols = IntDispatch.of(r.ipProtocols);
        this.roceV2 = r.roceV2;
        this.managementDatagram = r.managementDatagram;
        this.tcpPayloads = r.tcpPayloads.toArray(new TcpPayloadHeuristic[0]);
        this.rdmaPayloads = r.rdmaPayloads.toArray(new Heuristic[0]);
        this.cmPrivateData = r.cmPrivateData.toArray(new CmPrivateData[0]);
        this.rocePorts = rocePorts.clone();
        Arrays.sort(this.rocePorts);
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
        return relative == relativeTcpSequenceNumbers ? this : new DissectorChain(rocePorts, relative);
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
            if (h.dissect(d, tcpLayer, payloadStart, payloadEnd, tcp, conversation)) {
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
                return;
            }
        }
        Data.dissect(this, d, offset, end);
    }

    /** A CM message just added as layer {@code cmLayer}: its private data offered to every reader. */
    public void cmPrivateData(Dissection d, int cmLayer) {
        for (CmPrivateData reader : cmPrivateData) {
            reader.dissect(this, d, cmLayer);
        }
    }
}
