package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.stream.Fragments;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.iwarp.Iwarp;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.iwarp.IwarpPdu;
import io.rdmascope.proto.mad.Cm;
import io.rdmascope.proto.mad.CmConnections;

import static io.rdmascope.proto.ib.RcOpcodes.SEND_FIRST;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY_WITH_IMMEDIATE;
import static io.rdmascope.proto.ib.RcOpcodes.SEND_ONLY_WITH_INVALIDATE;

/**
 * Finds SMB Direct on InfiniBand and RoCE and decodes it. A queue pair is SMB Direct when its
 * connection was captured: a ConnectRequest whose RDMA-CM service ID names TCP port 5445 ([MS-SMBD]
 * §1.9; the IP CM service ID of IBTA annex A11) and the ConnectReply that answers it. On such a
 * connection a SEND is still taken only when its bytes are what [MS-SMBD] §2.2 allows: the client's
 * first message a 20-byte Negotiate Request offering version 1.0, the server's first a 32-byte
 * Negotiate Response that chose it, every later one a Data Transfer message whose reserved bits are
 * zero and whose data lies 8-byte aligned inside the message. Wireshark 4.0 guesses SMB Direct from
 * the bytes of any SEND; without the CM exchange we guess nothing, so no other traffic is taken for it.
 */
final class SmbDirectDissector {
    /** [MS-SMBD] §3.1.1.1: MaxReceiveSize at least 128 bytes; MaxFragmentedSize at least 131072. */
    private static final long MIN_RECEIVE_SIZE = 128;
    private static final long MIN_FRAGMENTED_SIZE = 131072;

    /** NextCommand in the SMB2 header ([MS-SMB2] §2.2.1.2). */
    private static final int NEXT_COMMAND = 20;
    /** Compounded SMB2 messages decoded in one SMB Direct message at most (Windows sends a handful). */
    private static final int MAX_COMPOUNDED = 32;

    private SmbDirectDissector() {
    }

    /** CM messages: a REQ for port 5445 starts a pending connection; the REP that answers it makes it one. */
    static void cm(DissectorChain chain, Dissection d, int cmLayer) {
        HeaderType message = d.layerType(cmLayer);
        int at = d.layerStart(cmLayer);
        if (message == Cm.REQ) {
            if (!Cm.isTcpPortRequest(d, at, SmbDirect.PORT)) {
                return;
            }
            SmbDirectConnections connections = connections(d, true);
            connections.beginFrame(d.frame().number());
            connections.request(d, at, 0);
        } else if (message == Cm.REP) {
            SmbDirectConnections connections = connections(d, false);
            if (connections != null) {
                connections.beginFrame(d.frame().number());
                connections.reply(d, at);
            }
        }
    }

    /**
     * A SEND's payload {@code [offset, end)} on a known SMB Direct connection, or to a queue pair
     * {@code --decode-as} names, when its bytes pass the checks of the class comment. Costs one lookup
     * and no allocation on a capture without SMB Direct.
     */
    static boolean payload(DissectorChain chain, Dissection d, int offset, int end) {
        RdmaContext r = d.rdma();
        int opcode = r.opcode;
        if (opcode != SEND_ONLY && opcode != SEND_FIRST && opcode != SEND_ONLY_WITH_IMMEDIATE
                && opcode != SEND_ONLY_WITH_INVALIDATE) {
            return false;
        }
        int destQpn = d.u24(r.bthStart + 5);
        boolean chosen = chain.isPayloadDecodedAs(destQpn, SmbDirect.PROTOCOL.abbrev());
        SmbDirectConnections connections = connections(d, chosen);
        if (connections == null || (connections.isEmpty() && !chosen)) {
            return false;
        }
        connections.beginFrame(d.frame().number());
        SmbDirectConnections.Connection c = connections.to(destQpn);
        if (end > d.capturedLength()) {
            return false;
        }
        if (c != null && !c.learnt) {
            return message(chain, d, offset, end, c, destQpn == c.responderQpn());
        }
        if (!chosen || !messageByContent(chain, d, offset, end, connections.decodedAs(destQpn))) {
            return false;
        }
        learn(d, connections, destQpn);
        return true;
    }

    /**
     * Which side of a connection {@code destQpn} is, from a message decoded by content on a queue pair
     * {@code --decode-as} names with no CM exchange captured: what the operation view pairs commands
     * and responses by (SmbDirectOperations). A Negotiate Request ([MS-SMBD] §3.1.5.2) and an SMB2
     * request go to the server (only the client sends requests, [MS-SMB2] §3.2.4); a Negotiate
     * Response and an SMB2 response go to the client. An RC packet names only its destination, so a
     * connection is learnt first with its client's QP unknown, and the response that answers one of
     * its requests (by message id) or its Negotiate Request tells it. A response with no such
     * connection (its request was not captured) opens one with the server unknown. An oplock or lease
     * break (message id all ones, §3.3.4.6) answers nothing and teaches nothing. A fragment or a
     * credits-only message says nothing of direction. Decoding does not change: a learnt connection's
     * messages are decoded by content as before.
     */
    private static void learn(Dissection d, SmbDirectConnections connections, int destQpn) {
        int smb2 = d.find(SmbDirect.SMB2_HEADER);
        boolean negotiateRequest = smb2 < 0 && d.find(SmbDirect.NEGOTIATE_REQUEST) >= 0;
        if (smb2 < 0 && !negotiateRequest && d.find(SmbDirect.NEGOTIATE_RESPONSE) < 0) {
            return;
        }
        int at = smb2 < 0 ? -1 : d.layerStart(smb2);
        long messageId = smb2 < 0 ? 0 : SmbDirect.smb2MessageId(d, at);
        boolean toServer = negotiateRequest || (smb2 >= 0 && !SmbDirect.isSmb2Response(d, at));
        if (toServer) {
            SmbDirectConnections.Connection c = connections.learnResponder(destQpn, 0);
            c.learnt = true;
            if (c.requesterQpn() != CmConnections.UNKNOWN_QPN) {
                return;
            }
            if (negotiateRequest) {
                c.negotiateAwaited = true;
            } else {
                c.requested(messageId);
            }
            return;
        }
        if (connections.to(destQpn) != null || (smb2 >= 0 && messageId == SmbDirect.SMB2_UNSOLICITED_MESSAGE_ID)) {
            return;
        }
        SmbDirectConnections.Connection c = connections.unpaired(smb2 < 0
                ? u -> u.negotiateAwaited : u -> u.wasRequested(messageId));
        if (c != null) {
            c.requesterFound(destQpn);
        } else {
            connections.learnRequester(destQpn, 0).learnt = true;
        }
    }

    /**
     * A whole iWARP Send message's payload: SMB Direct when its connection went to TCP port 5445
     * ([MS-SMBD] §2.1: SMB Direct over iWARP listens there) or {@code --decode-as tcp.port==N,smb_direct}
     * names one of its ports, and its bytes pass the checks of the class comment. The MPA initiator
     * is the client: its first message is the Negotiate Request.
     */
    static boolean iwarpPayload(DissectorChain chain, Dissection d, int offset, int end) {
        IwarpPdu send = Iwarp.sendBeingOffered(d);
        if (send == null) {
            return false;
        }
        IwarpConnection iwarp = send.connection();
        int serverPort = iwarp.port(1);
        int clientPort = iwarp.port(0);
        if (serverPort != SmbDirect.PORT
                && !chain.isDecodedAs(DecodeAs.TCP_PORT, serverPort, SmbDirect.PROTOCOL.abbrev())
                && !chain.isDecodedAs(DecodeAs.TCP_PORT, clientPort, SmbDirect.PROTOCOL.abbrev())) {
            return false;
        }
        SmbDirectConnections.Connection c = iwarp.upper(SmbDirectConnections.Connection.class);
        if (c == null) {
            c = new SmbDirectConnections.Connection(-1, -1);
            // Taken up mid-stream (--decode-as): the negotiation happened before the capture.
            c.requestSeen = iwarp.midStream();
            c.responseSeen = iwarp.midStream();
            iwarp.setUpper(c);
        }
        return message(chain, d, offset, end, c, send.direction() == 0);
    }

    /** One SMB Direct message on connection {@code c}, sent to the server ({@code toServer}) or to the client. */
    private static boolean message(DissectorChain chain, Dissection d, int offset, int end,
                                   SmbDirectConnections.Connection c, boolean toServer) {
        int length = end - offset;
        if (toServer && !c.requestSeen) {
            if (!isNegotiateRequest(d, offset, length)) {
                return false;
            }
            c.requestSeen = true;
            d.add(SmbDirect.NEGOTIATE_REQUEST, offset, length);
            return true;
        }
        if (!toServer && !c.responseSeen) {
            if (!isNegotiateResponse(d, offset, length)) {
                return false;
            }
            c.responseSeen = true;
            d.add(SmbDirect.NEGOTIATE_RESPONSE, offset, length);
            return true;
        }
        if (!isDataMessage(d, offset, length)) {
            return false;
        }
        dataMessage(chain, d, offset, end, c.fragments[toServer ? 0 : 1]);
        return true;
    }

    /**
     * A message to a queue pair {@code --decode-as} names, with no captured connection to say which
     * side sent it or how far negotiation got: a negotiate message when its bytes are exactly one
     * (as Wireshark's heuristic decides), else a Data Transfer message.
     */
    private static boolean messageByContent(DissectorChain chain, Dissection d, int offset, int end,
                                            Fragments fragments) {
        int length = end - offset;
        if (isNegotiateRequest(d, offset, length)) {
            d.add(SmbDirect.NEGOTIATE_REQUEST, offset, length);
        } else if (isNegotiateResponse(d, offset, length)) {
            d.add(SmbDirect.NEGOTIATE_RESPONSE, offset, length);
        } else if (isDataMessage(d, offset, length)) {
            dataMessage(chain, d, offset, end, fragments);
        } else {
            return false;
        }
        return true;
    }

    /** [MS-SMBD] §2.2.1: 20 bytes, a version range holding 1.0, reserved zero, sizes the spec allows. */
    private static boolean isNegotiateRequest(Dissection d, int at, int length) {
        return length == SmbDirect.NEGOTIATE_REQUEST_SIZE
                && d.u16le(at) <= SmbDirect.VERSION_1 && d.u16le(at + 2) >= SmbDirect.VERSION_1
                && d.u16le(at + 4) == 0 && d.u16le(at + 6) > 0 && d.u32le(at + 8) > 0
                && d.u32le(at + 12) >= MIN_RECEIVE_SIZE && d.u32le(at + 16) >= MIN_FRAGMENTED_SIZE;
    }

    /** [MS-SMBD] §2.2.2: 32 bytes, version 1.0 chosen inside the range offered, reserved zero. */
    private static boolean isNegotiateResponse(Dissection d, int at, int length) {
        return length == SmbDirect.NEGOTIATE_RESPONSE_SIZE && d.u16le(at + 4) == SmbDirect.VERSION_1
                && d.u16le(at) <= SmbDirect.VERSION_1 && d.u16le(at + 2) >= SmbDirect.VERSION_1
                && d.u16le(at + 6) == 0;
    }

    /**
     * [MS-SMBD] §2.2.3: at least 20 bytes; only the ResponseRequested flag; reserved zero; no data
     * (offset and length zero) or data 8-byte aligned from byte 24 on, inside the message.
     */
    private static boolean isDataMessage(Dissection d, int at, int length) {
        if (length < SmbDirect.DATA_HEADER_SIZE || (d.u16le(at + 4) & ~SmbDirect.FLAG_RESPONSE_REQUESTED) != 0
                || d.u16le(at + 6) != 0) {
            return false;
        }
        long dataOffset = d.u32le(at + 12);
        long dataLength = d.u32le(at + 16);
        if (dataLength == 0) {
            return dataOffset == 0 || dataOffset >= SmbDirect.DATA_OFFSET_ALIGNED;
        }
        return dataOffset >= SmbDirect.DATA_OFFSET_ALIGNED && dataOffset % 8 == 0
                && dataOffset + dataLength <= length;
    }

    /**
     * The Data Transfer header and what it carries. A message whose RemainingLength is not zero is a
     * fragment of an SMB2 message ([MS-SMBD] §3.1.5.1): its data is kept in {@code fragments} and
     * shown as data; the fragment with RemainingLength zero completes the message, which is shown
     * reassembled (the fragments' frames, its length) with the SMB2 header decoded on the whole, as
     * Wireshark's packet-smb-direct.c reassembles. A whole message's SMB2 header is decoded in place.
     */
    private static void dataMessage(DissectorChain chain, Dissection d, int offset, int end, Fragments fragments) {
        long dataOffset = d.u32le(offset + 12);
        long dataLength = d.u32le(offset + 16);
        d.add(SmbDirect.DATA_MESSAGE, offset, (int) Math.min(end - offset, SmbDirect.DATA_OFFSET_ALIGNED));
        int data = offset + (int) dataOffset;
        int dataEnd = data + (int) dataLength;
        boolean more = d.u32le(offset + 8) != 0;
        if (!more && fragments.count() == 0) {
            if (dataLength > 0) {
                smb2(chain, d, data, dataEnd);
            }
            return;
        }
        fragments.add(d, data, (int) dataLength);
        if (more) {
            if (dataLength > 0) {
                Data.dissectReassembled(chain, d, data, dataEnd);
            }
            return;
        }
        boolean room = d.layerCount() + 4 <= Dissection.MAX_LAYERS;
        if (fragments.overflowed() || !room) {
            Data.dissectReassembled(chain, d, data, dataEnd);
        } else {
            byte[] whole = fragments.bytes();
            int at = SmbDirect.REASSEMBLY.show(d, fragments.frameList(), whole);
            smb2(chain, d, at, at + whole.length);
        }
        fragments.reset();
    }

    /**
     * An SMB2 message at {@code [data, dataEnd)}: its header when it starts with one, the rest as data.
     * A compounded message ([MS-SMB2] §3.2.4.1.4, §3.3.5.2.7) is several, each header's NextCommand
     * the offset of the next from its own start (8-byte aligned, §2.2.1): every header is decoded,
     * each followed by its body as data, as Wireshark decodes the chain.
     */
    private static void smb2(DissectorChain chain, Dissection d, int data, int dataEnd) {
        int at = data;
        for (int n = 0; n < MAX_COMPOUNDED && isSmb2Header(d, at, dataEnd)
                && d.layerCount() + 2 <= Dissection.MAX_LAYERS; n++) {
            d.add(SmbDirect.SMB2_HEADER, at, SmbDirect.SMB2_HEADER_SIZE);
            long next = d.u32le(at + NEXT_COMMAND);
            boolean chained = next >= SmbDirect.SMB2_HEADER_SIZE && next % 8 == 0 && next < dataEnd - at;
            int end = chained ? at + (int) next : dataEnd;
            Data.dissectReassembled(chain, d, at + SmbDirect.SMB2_HEADER_SIZE, end);
            if (!chained) {
                return;
            }
            at = end;
        }
        Data.dissectReassembled(chain, d, at, dataEnd);
    }

    /** [MS-SMB2] §2.2.1: the protocol id 0xFE 'S' 'M' 'B' and StructureSize 64, whole before {@code end}. */
    private static boolean isSmb2Header(Dissection d, int at, int end) {
        return end - at >= SmbDirect.SMB2_HEADER_SIZE && d.u32le(at) == SmbDirect.SMB2_PROTOCOL_ID
                && d.u16le(at + 4) == SmbDirect.SMB2_HEADER_SIZE;
    }

    private static SmbDirectConnections connections(Dissection d, boolean create) {
        if (create) {
            return StreamState.of(d).get(SmbDirectConnections.class, SmbDirectConnections::new);
        }
        return StreamState.peek(d, SmbDirectConnections.class);
    }
}
