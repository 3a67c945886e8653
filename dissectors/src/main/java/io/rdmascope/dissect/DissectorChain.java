package io.rdmascope.dissect;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.erf.Erf;
import io.rdmascope.proto.eth.Ethernet;
import io.rdmascope.proto.frame.FrameFields;
import io.rdmascope.proto.ib.InfiniBandDissector;
import io.rdmascope.proto.ip.Ip;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.proto.mad.Mad;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which dissector handles what, as data (Wireshark's {@code dissector_add_uint} tables): link types,
 * ethertypes, IP protocols, and the UDP ports that carry RoCEv2. Immutable and shareable between
 * threads; each thread brings its own {@link Dissection}.
 */
public final class DissectorChain {
    private final IntDispatch linkTypes;
    private final IntDispatch etherTypes;
    private final IntDispatch ipProtocols;
    private final int[] rocePorts;
    /** tshark's {@code tcp.relative_sequence_numbers} preference: on by default, as in Wireshark. */
    private final boolean relativeTcpSequenceNumbers;

    private DissectorChain(int[] rocePorts) {
        this(rocePorts, true);
    }

    private DissectorChain(int[] rocePorts, boolean relativeTcpSequenceNumbers) {
        this.relativeTcpSequenceNumbers = relativeTcpSequenceNumbers;
        Map<Integer, Dissector> link = new HashMap<>();
        link.put(LinkTypes.ETHERNET, Ethernet::dissect);
        link.put(LinkTypes.LINUX_SLL, Ethernet::dissectSll);
        link.put(LinkTypes.LINUX_SLL2, Ethernet::dissectSll2);
        link.put(LinkTypes.RAW, DissectorChain::rawIp);
        link.put(LinkTypes.IPV4, Ip::dissectV4);
        link.put(LinkTypes.IPV6, Ip::dissectV6);
        link.put(LinkTypes.INFINIBAND, InfiniBandDissector::nativeIb);
        link.put(LinkTypes.ERF, Erf::dissect);
        this.linkTypes = IntDispatch.of(link);

        Map<Integer, Dissector> ether = new HashMap<>();
        ether.put(Ethernet.ETHERTYPE_IPV4, Ip::dissectV4);
        ether.put(Ethernet.ETHERTYPE_IPV6, Ip::dissectV6);
        ether.put(Ethernet.ETHERTYPE_VLAN, Ethernet::dissectVlan);
        ether.put(Ethernet.ETHERTYPE_QINQ, Ethernet::dissectVlan);
        ether.put(Ethernet.ETHERTYPE_ROCE, InfiniBandDissector::roceV1);
        this.etherTypes = IntDispatch.of(ether);

        Map<Integer, Dissector> ip = new HashMap<>();
        ip.put(Ip.PROTO_UDP, Transport::dissectUdp);
        ip.put(Ip.PROTO_TCP, Transport::dissectTcp);
        this.ipProtocols = IntDispatch.of(ip);

        this.rocePorts = rocePorts.clone();
        Arrays.sort(this.rocePorts);
    }

    /** RoCEv2 on UDP port 4791 only. */
    public static DissectorChain standard() {
        return new DissectorChain(new int[]{Transport.ROCE_V2_PORT});
    }

    /** RoCEv2 on 4791 and on {@code extraPorts} (test rigs and some NICs move it). */
    public static DissectorChain withRocePorts(int... extraPorts) {
        int[] ports = Arrays.copyOf(extraPorts, extraPorts.length + 1);
        ports[extraPorts.length] = Transport.ROCE_V2_PORT;
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

    /** Continues after a link header: hands the payload to the ethertype's dissector. */
    public void ethertype(Dissection d, int etherType, int offset, int end) {
        Dissector next = etherTypes.get(etherType);
        if (etherType != Ethernet.ETHERTYPE_VLAN && etherType != Ethernet.ETHERTYPE_QINQ) {
            d.add(Ethernet.ETHERTYPE, offset, 0);
        }
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
        InfiniBandDissector.roceV2(this, d, offset, end);
    }

    /** A management datagram in a UD packet to QP0/QP1. */
    public void mad(Dissection d, int offset, int end) {
        Mad.dissect(this, d, offset, end);
    }

    private static void rawIp(DissectorChain chain, Dissection d, int offset, int end) {
        if (offset >= d.capturedLength()) {
            d.markMalformed();
            return;
        }
        int version = d.u8(offset) >> 4;
        if (version == 4) {
            Ip.dissectV4(chain, d, offset, end);
        } else if (version == 6) {
            Ip.dissectV6(chain, d, offset, end);
        } else {
            Data.dissect(chain, d, offset, end);
        }
    }
}
