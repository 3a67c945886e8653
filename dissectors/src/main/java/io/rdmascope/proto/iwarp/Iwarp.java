package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.stream.ConnectionKey;
import io.rdmascope.dissect.stream.TcpConversation;
import io.rdmascope.dissect.stream.TcpReassembler;
import io.rdmascope.dissect.stream.TcpStreams;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;

import java.util.ArrayList;
import java.util.List;

/**
 * iWARP over TCP (issue 8): the entry the TCP dissector hands every segment to. A connection is
 * followed from the segment that starts with an MPA Request ("MPA ID Req Frame", RFC 5044 §7.1),
 * as Wireshark's heuristic recognises it, on any port; from its Reply when the capture began after
 * the Request; or, with {@code --decode-as tcp.port==N,iwarp_mpa}, from its next FPDU; its two
 * directions are reassembled ({@link io.rdmascope.dissect.stream.TcpReassembler}) and framed
 * ({@link MpaFramer}), and every PDU the segment completes becomes layers of this frame: MPA
 * Request/Reply, or FPDU, its markers, DDP, RDMAP, the RDMAP message header and the payload as
 * data. A PDU whose bytes are not all in this frame, in one piece and free of markers, is shown
 * from the reassembled bytes past the frame.
 */
public final class Iwarp {
    /** Every header type iWARP adds, for the field registry. */
    public static final List<HeaderType> HEADERS = headers();

    /** Layers left free after the last PDU shown, for what the link layer adds after TCP (padding, FCS). */
    private static final int SPARE_LAYERS = 3;

    private Iwarp() {
    }

    private static List<HeaderType> headers() {
        List<HeaderType> all = new ArrayList<>(Mpa.HEADERS);
        all.addAll(DdpRdmap.HEADERS);
        all.addAll(SendReassembly.HEADERS);
        return List.copyOf(all);
    }

    /**
     * Follows the TCP segment of layer {@code tcpLayer} whose payload is frame bytes {@code
     * [payloadStart, payloadEnd)} (payloadEnd per the IP length; fewer may be captured). Returns true
     * when the segment belongs to an iWARP connection (its payload is then iWARP's, shown as the PDUs
     * it completes, or as nothing while a PDU is incomplete), false to leave the payload to others.
     * {@code conversation} is the segment's connection in {@code tcp}'s table, as the TCP dissector
     * just tracked it (null without an enclosing IP header); {@code tcp.probe()} names its direction.
     */
    public static boolean dissectTcp(DissectorChain chain, Dissection d, int tcpLayer, int payloadStart, int payloadEnd,
                                     TcpStreams tcp, TcpConversation conversation) {
        long number = d.frame().number();
        IwarpStreams s = IwarpStreams.of(d);
        s.tcp = tcp;
        s.frame.begin(number);
        int at = d.layerStart(tcpLayer);
        if (conversation == null) {
            return false;
        }
        ConnectionKey probe = tcp.probe();
        int seq = (int) d.u32(at + 4);
        int ack = (int) d.u32(at + 8);
        int flags = d.u16(at + 12) & 0x0FFF;
        boolean syn = (flags & 0x02) != 0;
        boolean ackFlag = (flags & 0x10) != 0;
        int captured = Math.max(0, Math.min(payloadEnd, d.capturedLength()) - payloadStart);
        int wire = Math.max(0, payloadEnd - payloadStart);
        IwarpConnection c = conversation.upper(IwarpConnection.class);
        if (c != null && syn && !ackFlag) {
            conversation.setUpper(null); // a new connection on the same ports
            c = null;
        }
        if (c == null) {
            if (syn || wire == 0) {
                return false;
            }
            if (captured >= Mpa.KEY_REQUEST.length && startsWith(d, payloadStart, Mpa.KEY_REQUEST)) {
                c = s.create(conversation, probe, probe.fromLow());
                c.direction(0).syncAt(seq);
                if (ackFlag) {
                    c.direction(1).syncAt(ack); // the responder's next byte: where its Reply must start
                }
            } else if (captured >= Mpa.KEY_REPLY.length && startsWith(d, payloadStart, Mpa.KEY_REPLY)) {
                // The capture began between the Request and the Reply: the Reply's sender is the responder,
                // and the byte it acknowledges is the initiator's first after the Request.
                c = s.create(conversation, probe, !probe.fromLow());
                c.direction(1).syncAt(seq);
                if (ackFlag) {
                    c.direction(0).syncAt(ack);
                }
                c.requestNotCaptured(ackFlag);
            } else {
                // --decode-as tcp.port==N,iwarp_mpa: a connection whose Request was not captured (the
                // capture started after it) is followed from its next FPDU start. The side on port N is
                // the listener, so the responder (MPA's initiator is the side that connected).
                int srcPort = d.u16(at);
                int dstPort = d.u16(at + 2);
                boolean toListener = chain.isDecodedAs(DecodeAs.TCP_PORT, dstPort, Mpa.PROTOCOL.abbrev());
                if (!toListener && !chain.isDecodedAs(DecodeAs.TCP_PORT, srcPort, Mpa.PROTOCOL.abbrev())) {
                    return false;
                }
                c = s.create(conversation, probe, toListener == probe.fromLow());
                c.followMidStream();
            }
        }
        int dir = c.directionOf(probe.fromLow());
        TcpReassembler r = c.direction(dir);
        s.frame.segment(c, dir, seq, ack, flags, wire);
        s.current = d;
        try {
            if (!r.isSynced() && wire > 0 && !syn) {
                r.syncAt(seq);
            }
            if (r.isSynced()) {
                s.frame.segmentStart(r.position(seq));
            }
            s.frame.arrival(r.segment(seq, d.buffer(), d.base() + payloadStart, captured, wire, (flags & 0x01) != 0,
                    number, payloadStart, c.framer(dir)));
            if (ackFlag) {
                c.direction(1 - dir).peerAck(ack, number, c.framer(1 - dir));
            }
        } finally {
            s.current = null;
        }
        addLayers(chain, d, s.frame);
        return true;
    }

    private static boolean startsWith(Dissection d, int at, byte[] key) {
        for (int i = 0; i < key.length; i++) {
            if (d.u8(at + i) != (key[i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }

    // ---- layers -----------------------------------------------------------------------------------------

    /** Shows the frame's PDUs as layers, as many as the layer bound leaves room for. */
    static void addLayers(DissectorChain chain, Dissection d, IwarpFrame f) {
        for (int i = 0; i < f.pduCount(); i++) {
            IwarpPdu p = f.pdu(i);
            if (p.imageAt < 0) {
                continue;
            }
            if (d.layerCount() + 8 + p.markerCount + SPARE_LAYERS > Dissection.MAX_LAYERS) {
                return; // more PDUs than one frame's layers can show; the replay still sees them all
            }
            if (p.kind != IwarpPdu.Kind.FPDU) {
                p.layer = d.add(p.kind == IwarpPdu.Kind.REQUEST ? Mpa.REQUEST : Mpa.REPLY, p.imageAt, p.imageLength);
                continue;
            }
            p.layer = d.add(Mpa.FPDU, p.imageAt, p.imageLength);
            if (p.pad > 0) {
                d.add(Mpa.PADDING, p.imageAt + Mpa.ULPDU_LENGTH_LENGTH + p.ulpduLength, p.pad);
            }
            for (int m = 0; m < p.markerCount; m++) {
                d.add(m == 0 ? Mpa.MARKERS : Mpa.MARKER, p.markerAt[m], Mpa.MARKER_LENGTH);
            }
            addUlpdu(chain, d, p);
        }
    }

    /** The DDP segment and RDMAP message of an FPDU, as Wireshark's packet-iwarp-ddp-rdmap.c lays them out. */
    private static void addUlpdu(DissectorChain chain, Dissection d, IwarpPdu p) {
        int at = p.imageAt + Mpa.ULPDU_LENGTH_LENGTH;
        int ulpdu = p.ulpduLength;
        if (ulpdu < 2) {
            d.markMalformed();
            return;
        }
        boolean tagged = p.tagged();
        int opcode = p.opcode();
        int ddpLength = p.ddpHeaderLength();
        d.add(DdpRdmap.DDP, at, Math.min(ddpLength, ulpdu));
        boolean ulpField = !tagged || opcode == DdpRdmap.OP_READ_REQUEST || opcode == DdpRdmap.OP_TERMINATE
                || (opcode >= DdpRdmap.OP_SEND && opcode <= DdpRdmap.OP_SEND_SE_INVALIDATE);
        d.add(DdpRdmap.RDMAP, at + 1, Math.min(ulpField ? 5 : 1, ulpdu - 1));
        if (ulpdu < ddpLength) {
            d.markMalformed();
            return;
        }
        int rest = ulpdu - ddpLength;
        int body = at + ddpLength;
        HeaderType message = switch (opcode) {
            case DdpRdmap.OP_READ_REQUEST -> DdpRdmap.READ_REQUEST;
            case DdpRdmap.OP_TERMINATE -> DdpRdmap.TERMINATE;
            case DdpRdmap.OP_ATOMIC_REQUEST -> DdpRdmap.ATOMIC_REQUEST;
            case DdpRdmap.OP_ATOMIC_RESPONSE -> DdpRdmap.ATOMIC_RESPONSE;
            default -> null;
        };
        if (message != null) {
            int length = p.rdmapHeaderLength();
            d.add(message, body, Math.min(length, rest));
            if (rest < length) {
                d.markMalformed();
                return;
            }
            body += length;
            rest -= length;
        }
        // Wireshark hands on as payload what follows a Write, Read Response, Send or Read Request only.
        boolean payload = opcode == DdpRdmap.OP_READ_REQUEST
                || (tagged ? opcode == DdpRdmap.OP_WRITE || opcode == DdpRdmap.OP_READ_RESPONSE
                : opcode >= DdpRdmap.OP_SEND && opcode <= DdpRdmap.OP_SEND_SE_INVALIDATE);
        boolean send = !tagged && opcode >= DdpRdmap.OP_SEND && opcode <= DdpRdmap.OP_SEND_SE_INVALIDATE;
        // A whole Send message in this FPDU goes to what rides on iWARP Sends (SMB Direct), as
        // packet-iwarp-ddp-rdmap.c hands it to its heuristic list; other payloads are data.
        boolean wholeSend = send && p.last() && p.messageOffset() == 0 && p.inOrder();
        boolean taken = payload && rest > 0 && wholeSend && chain.hasIwarpPayloads()
                && offerSend(chain, d, p, body, body + rest);
        if (payload && rest > 0 && !taken) {
            d.add(Data.HEADER, body, rest);
        }
        if (send) {
            int reassembled = p.connection.sendReassembly().show(d, p.last(), body, rest);
            if (reassembled >= 0 && p.inOrder() && chain.hasIwarpPayloads()) {
                int start = d.layerStart(reassembled);
                offerSend(chain, d, p, start, start + d.layerLength(reassembled));
            }
        }
    }

    /**
     * Offers a Send message's bytes to the chain's iWARP payload protocols, telling them which Send it
     * is; true when one took them.
     */
    private static boolean offerSend(DissectorChain chain, Dissection d, IwarpPdu p, int from, int to) {
        IwarpStreams s = IwarpStreams.of(d);
        s.send = p;
        try {
            return chain.iwarpPayload(d, from, to);
        } finally {
            s.send = null;
        }
    }

    /**
     * The Send message whose payload the chain is offering to iWARP payload protocols ({@link
     * io.rdmascope.dissect.Registrations#iwarpPayload}), or null outside that call: its connection
     * (ports, sides) and direction (0 from the MPA initiator).
     */
    public static IwarpPdu sendBeingOffered(Dissection d) {
        IwarpStreams s = IwarpStreams.peek(d);
        return s == null ? null : s.send;
    }
}
