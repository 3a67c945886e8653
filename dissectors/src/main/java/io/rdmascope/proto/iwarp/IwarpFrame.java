package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.stream.TcpReassembler;

import java.util.ArrayList;
import java.util.List;

/**
 * What the iWARP stream layer found in the frame just dissected: the TCP segment's connection and
 * direction, how the segment arrived, the PDUs it completed (in either direction: a gap declared on
 * an acknowledgement can free the other direction's bytes) and what went wrong in the stream. Kept by
 * the dissection's stream state and overwritten by the next frame; the replay engine reads it right
 * after dissecting the frame, the computed fields while the frame is shown.
 */
public final class IwarpFrame {
    /** Something the stream layer noticed besides PDUs. */
    public enum EventType {
        /** Stream bytes never captured (acknowledged by the peer, or held past every bound). */
        GAP,
        /** MPA framing found again after a gap; {@code to - from} bytes were skipped. */
        RESYNC,
        /** An incomplete PDU whose bytes a gap cut. */
        PDU_LOST,
        /** The first bytes of a direction are not the Request or Reply they must be, or one is invalid. */
        INVALID_STARTUP,
        /** Bytes that arrived when nothing can frame them (after a Reject, an invalid start, or the bound). */
        UNFRAMED
    }

    /** One event: its type, connection, direction (0 = from the MPA initiator) and the stream range it concerns. */
    public record Event(EventType type, IwarpConnection connection, int direction, long from, long to, long frame) {
    }

    private long number = -1;
    private IwarpConnection connection;
    private int direction;
    private TcpReassembler.Arrival arrival;
    private int seq;
    private int ack;
    private int flags;
    private int payloadLength;
    private long segmentStart = -1;
    private final List<IwarpPdu> pool = new ArrayList<>();
    private int pduCount;
    private final List<Event> events = new ArrayList<>(2);

    void begin(long frameNumber) {
        number = frameNumber;
        connection = null;
        direction = 0;
        arrival = TcpReassembler.Arrival.EMPTY;
        seq = 0;
        ack = 0;
        flags = 0;
        payloadLength = 0;
        segmentStart = -1;
        pduCount = 0;
        events.clear();
    }

    void segment(IwarpConnection c, int dir, int sequence, int acknowledgement, int tcpFlags, int length) {
        connection = c;
        direction = dir;
        seq = sequence;
        ack = acknowledgement;
        flags = tcpFlags;
        payloadLength = length;
    }

    void arrival(TcpReassembler.Arrival a) {
        arrival = a;
    }

    void segmentStart(long position) {
        segmentStart = position;
    }

    IwarpPdu newPdu() {
        if (pduCount == pool.size()) {
            pool.add(new IwarpPdu());
        }
        IwarpPdu p = pool.get(pduCount++);
        p.clear();
        return p;
    }

    void event(EventType type, IwarpConnection c, int dir, long from, long to, long frame) {
        events.add(new Event(type, c, dir, from, to, frame));
    }

    // ---- for the replay engine and the views ----------------------------------------------------------

    /** The iWARP frame of dissection {@code d}'s current frame, or null when it is not an iWARP connection's. */
    public static IwarpFrame of(Dissection d) {
        IwarpStreams s = IwarpStreams.peek(d);
        if (s == null || s.frame.number != d.frame().number() || s.frame.connection == null) {
            return null;
        }
        return s.frame;
    }

    /** The PDU whose Request/Reply or FPDU layer is {@code layer} of {@code d}, or null. */
    static IwarpPdu pduAt(Dissection d, int layer) {
        IwarpFrame f = of(d);
        if (f == null) {
            return null;
        }
        for (int i = 0; i < f.pduCount; i++) {
            if (f.pool.get(i).layer == layer) {
                return f.pool.get(i);
            }
        }
        return null;
    }

    public long number() {
        return number;
    }

    public IwarpConnection connection() {
        return connection;
    }

    /** Direction of this frame's segment: 0 from the MPA initiator, 1 from the responder. */
    public int direction() {
        return direction;
    }

    public TcpReassembler.Arrival arrival() {
        return arrival;
    }

    public int seq() {
        return seq;
    }

    public int ack() {
        return ack;
    }

    /** TCP flags of the segment (FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10). */
    public int flags() {
        return flags;
    }

    /** TCP payload bytes on the wire ({@code tcp.len}). */
    public int payloadLength() {
        return payloadLength;
    }

    /** Stream position (in its direction) of the segment's first payload byte, -1 when not known. */
    public long segmentStart() {
        return segmentStart;
    }

    public int pduCount() {
        return pduCount;
    }

    public IwarpPdu pdu(int i) {
        return pool.get(i);
    }

    public List<Event> events() {
        return events;
    }
}
