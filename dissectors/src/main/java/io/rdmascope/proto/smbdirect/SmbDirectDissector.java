package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.dissect.stream.StreamState;
import io.rdmascope.field.HeaderType;
import io.rdmascope.proto.data.Data;
import io.rdmascope.proto.mad.Cm;

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
    /** RC SEND opcodes that start a message (IBTA table 38): First, Only, Only with Immediate or Invalidate. */
    private static final int SEND_FIRST = 0x00;
    private static final int SEND_ONLY = 0x04;
    private static final int SEND_ONLY_WITH_IMMEDIATE = 0x05;
    private static final int SEND_ONLY_WITH_INVALIDATE = 0x17;
    /** [MS-SMBD] §3.1.1.1: MaxReceiveSize at least 128 bytes; MaxFragmentedSize at least 131072. */
    private static final long MIN_RECEIVE_SIZE = 128;
    private static final long MIN_FRAGMENTED_SIZE = 131072;

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
     * A SEND's payload {@code [offset, end)} on a known SMB Direct connection, when its bytes pass the
     * checks of the class comment. Costs one lookup and no allocation on a capture without SMB Direct.
     */
    static boolean payload(DissectorChain chain, Dissection d, int offset, int end) {
        SmbDirectConnections connections = connections(d, false);
        if (connections == null || connections.isEmpty()) {
            return false;
        }
        RdmaContext r = d.rdma();
        int opcode = r.opcode;
        if (opcode != SEND_ONLY && opcode != SEND_FIRST && opcode != SEND_ONLY_WITH_IMMEDIATE
                && opcode != SEND_ONLY_WITH_INVALIDATE) {
            return false;
        }
        connections.beginFrame(d.frame().number());
        int destQpn = d.u24(r.bthStart + 5);
        SmbDirectConnections.Connection c = connections.to(destQpn);
        if (c == null || end > d.capturedLength()) {
            return false;
        }
        int length = end - offset;
        boolean toServer = destQpn == c.serverQpn;
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
        dataMessage(chain, d, offset, end);
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
     * The Data Transfer header and what it carries: an SMB2 message when the data is whole (no
     * RemainingLength) and starts with the SMB2 header, else data. Fragments (RemainingLength not
     * zero) are not reassembled yet; their bytes show as data.
     */
    private static void dataMessage(DissectorChain chain, Dissection d, int offset, int end) {
        long dataOffset = d.u32le(offset + 12);
        long dataLength = d.u32le(offset + 16);
        d.add(SmbDirect.DATA_MESSAGE, offset, (int) Math.min(end - offset, SmbDirect.DATA_OFFSET_ALIGNED));
        if (dataLength == 0) {
            return;
        }
        int data = offset + (int) dataOffset;
        int dataEnd = data + (int) dataLength;
        boolean whole = d.u32le(offset + 8) == 0;
        if (whole && dataLength >= SmbDirect.SMB2_HEADER_SIZE && d.u32le(data) == SmbDirect.SMB2_PROTOCOL_ID
                && d.u16le(data + 4) == SmbDirect.SMB2_HEADER_SIZE) {
            d.add(SmbDirect.SMB2_HEADER, data, SmbDirect.SMB2_HEADER_SIZE);
            Data.dissect(chain, d, data + SmbDirect.SMB2_HEADER_SIZE, dataEnd);
        } else {
            Data.dissect(chain, d, data, dataEnd);
        }
    }

    private static SmbDirectConnections connections(Dissection d, boolean create) {
        if (create) {
            return StreamState.of(d).get(SmbDirectConnections.class, SmbDirectConnections::new);
        }
        StreamState s = StreamState.peek(d);
        return s == null ? null : s.peek(SmbDirectConnections.class);
    }
}
