package io.rdmascope.ops;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.iwarp.DdpRdmap;
import io.rdmascope.proto.iwarp.IwarpConnection;
import io.rdmascope.proto.iwarp.IwarpFrame;
import io.rdmascope.proto.iwarp.IwarpPdu;
import io.rdmascope.replay.Address;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The operation tracker's input from iWARP (RFC 5040 RDMAP, RFC 5041 DDP, RFC 5044 MPA over TCP): for
 * the queues whose commands travel on a TCP connection ({@link io.rdmascope.dissect.ops.OperationEvents.Queue#transport()}),
 * what {@link OperationTracker} does from BTH, RETH and AETH on RoCE, done from what the iWARP stream
 * layer found in each frame ({@link IwarpFrame}):
 * <ul>
 *   <li>data: a tagged DDP segment of an RDMA Write whose STag and tagged offset (RFC 5041 §5.2) fall in
 *       a buffer an outstanding command of the connection offered belongs to that command; so does an
 *       RDMA Read Request whose data source STag and offset do (RFC 5040 §4.4), and the Read Response
 *       segments that come back to its data sink STag and offset range (RFC 5040 §5.2: a Read
 *       Response is tagged with the sink's STag and offset). Each tagged segment names its own place, so
 *       every one is matched by itself (IBTA's Middle and Last packets carry no RETH; DDP segments do);</li>
 *   <li>delivery: the first TCP ACK from the responder whose acknowledgment number reaches past the
 *       command's last byte (RFC 9293 §3.4: cumulative); the last byte is where the frame's last
 *       in-order Send from the requester ends, so two commands in one segment share their ACK;</li>
 *   <li>teardown: the connection's first TCP FIN or RST (RFC 9293 §3.6, §3.5.2), or an RDMAP Terminate
 *       (RFC 5040 §5.4: it ends the stream in error), from either side.</li>
 * </ul>
 * A PDU counts in the frame where the stream reached it in order ({@link IwarpPdu#inOrder()}), which is
 * where its data frame is listed. Costs nothing until a command was seen on an iWARP connection; after
 * that, one stream-state lookup per frame.
 */
final class IwarpTransport {
    private static final int FIN = 0x01;
    private static final int RST = 0x04;
    private static final int ACK = 0x10;

    private final int maxReads;
    private final Map<IwarpConnection, Link> links = new IdentityHashMap<>();

    /** @param maxReads Read Requests remembered per connection while their responses are awaited */
    IwarpTransport(int maxReads) {
        this.maxReads = maxReads;
    }

    /** One TCP connection with queues: who sends commands, its queues, its Read Requests awaiting responses. */
    private static final class Link {
        /** The direction (0: from the MPA initiator) of its first command: the requester's, whose peer's ACKs deliver. */
        final int requesterDirection;
        final List<OperationTracker.QueueState> queues = new ArrayList<>(1);
        final ArrayDeque<Read> reads = new ArrayDeque<>();

        Link(int requesterDirection) {
            this.requesterDirection = requesterDirection;
        }
    }

    /** An RDMA Read Request matched to a command: its responses land in {@code [sinkOffset, sinkOffset + size)} of {@code sinkStag}. */
    private record Read(OperationTracker.Pending owner, long sinkStag, long sinkOffset, long size) {
        boolean holds(long stag, long offset) {
            return stag == sinkStag && Long.compareUnsigned(offset, sinkOffset) >= 0
                    && Long.compareUnsigned(offset - sinkOffset, size) < 0;
        }
    }

    /** Whether any queue travels on an iWARP connection (until then, frames cost nothing here). */
    boolean tracking() {
        return !links.isEmpty();
    }

    /** A new queue, made by a command in frame {@code d}: its connection is the frame's. */
    void add(OperationTracker.QueueState q, Dissection d) {
        IwarpConnection c = (IwarpConnection) q.queue.transport();
        Link link = links.get(c);
        if (link == null) {
            IwarpFrame f = IwarpFrame.of(d);
            link = new Link(f != null && f.connection() == c ? f.direction() : 0);
            links.put(c, link);
        }
        link.queues.add(q);
    }

    /** A command just seen in frame {@code d}: where its bytes end, for the ACK that delivers it. */
    void commanded(OperationTracker.Pending p, Dissection d) {
        IwarpFrame f = IwarpFrame.of(d);
        if (f == null || f.connection() != p.queue.queue.transport()) {
            return;
        }
        long end = -1;
        for (int i = 0; i < f.pduCount(); i++) {
            IwarpPdu pdu = f.pdu(i);
            if (pdu.inOrder() && pdu.kind() == IwarpPdu.Kind.FPDU && pdu.direction() == f.direction()
                    && pdu.hasDdpHeader() && !pdu.tagged() && isSend(pdu.opcode()) && pdu.last()) {
                long e = pdu.endSeq() & 0xFFFFFFFFL;
                if (end < 0 || after(e, end)) {
                    end = e;
                }
            }
        }
        p.transportEnd = end;
    }

    /**
     * Frame {@code d}, before its extractors run: its data segments and its ACK. A segment often carries
     * the responder's RDMA Write, the ACK of the command and the response together; they count in that
     * order, before the response ends the command.
     */
    void transfers(Dissection d, long frame, long nanos) {
        visit(d, frame, nanos, false);
    }

    /**
     * Frame {@code d}, after its extractors ran: a Terminate, FIN or RST tears the connection down after
     * whatever else the segment carried (a FIN follows the segment's data, RFC 9293 §3.6).
     */
    void teardown(Dissection d, long frame, long nanos) {
        visit(d, frame, nanos, true);
    }

    private void visit(Dissection d, long frame, long nanos, boolean afterExtractors) {
        IwarpFrame f = IwarpFrame.of(d);
        Link link = f == null ? null : links.get(f.connection());
        if (link == null) {
            return;
        }
        for (int i = 0; i < f.pduCount(); i++) {
            IwarpPdu pdu = f.pdu(i);
            if (!pdu.inOrder() || pdu.kind() != IwarpPdu.Kind.FPDU || !pdu.hasDdpHeader()) {
                continue;
            }
            if (!afterExtractors) {
                transfer(link, pdu, frame, nanos);
            } else if (!pdu.tagged() && pdu.opcode() == DdpRdmap.OP_TERMINATE) {
                tornDown(link, frame, nanos, Operation.BY_TERMINATE);
            }
        }
        int flags = f.flags();
        if (!afterExtractors) {
            if ((flags & ACK) != 0 && f.direction() != link.requesterDirection) {
                acknowledged(link, f.ack() & 0xFFFFFFFFL, nanos);
            }
        } else if ((flags & RST) != 0) {
            tornDown(link, frame, nanos, Operation.BY_RST);
        } else if ((flags & FIN) != 0) {
            tornDown(link, frame, nanos, Operation.BY_FIN);
        }
    }

    private void transfer(Link link, IwarpPdu pdu, long frame, long nanos) {
        int opcode = pdu.opcode();
        if (pdu.tagged()) {
            if (opcode == DdpRdmap.OP_WRITE) {
                data(OperationTracker.owner(link.queues, pdu.stag(), pdu.taggedOffset()), frame, nanos);
            } else if (opcode == DdpRdmap.OP_READ_RESPONSE) {
                readResponse(link, pdu, frame, nanos);
            }
        } else if (opcode == DdpRdmap.OP_READ_REQUEST) {
            OperationTracker.Pending p = OperationTracker.owner(link.queues, pdu.readSourceStag(),
                    pdu.readSourceOffset());
            if (p != null) {
                data(p, frame, nanos);
                if (link.reads.size() >= maxReads) {
                    link.reads.poll(); // responses the capture never showed: forget the oldest, stay bounded
                }
                link.reads.add(new Read(p, pdu.readSinkStag(), pdu.readSinkOffset(), pdu.readSize()));
            }
        }
    }

    /**
     * A Read Response segment: the command whose Read Request named its sink; the request is done with
     * its last byte. Responses come in the order of the requests (RFC 5040 §5.5), and a responder reuses
     * its sink buffers, so the oldest request still open for the place wins, and one whose command has
     * ended (its last response lost to the capture) is forgotten here.
     */
    private static void readResponse(Link link, IwarpPdu pdu, long frame, long nanos) {
        long stag = pdu.stag();
        long offset = pdu.taggedOffset();
        for (Iterator<Read> it = link.reads.iterator(); it.hasNext(); ) {
            Read r = it.next();
            if (r.owner.done) {
                it.remove();
            } else if (r.holds(stag, offset)) {
                data(r.owner, frame, nanos);
                if (pdu.last() && offset + pdu.payloadLength() - r.sinkOffset >= r.size) {
                    it.remove();
                }
                return;
            }
        }
    }

    /** A data frame of {@code p} (several segments of it in one frame: listed once). */
    private static void data(OperationTracker.Pending p, long frame, long nanos) {
        if (p == null || p.done) {
            return;
        }
        if (p.dataFrames != null && p.dataFrames.get(p.dataFrames.size() - 1) == frame) {
            p.lastDataNanos = nanos;
            return;
        }
        p.data(frame, nanos);
    }

    /** An ACK from the responder up to {@code ack}: the commands whose last byte it reaches were delivered. */
    private static void acknowledged(Link link, long ack, long nanos) {
        for (OperationTracker.QueueState q : link.queues) {
            for (OperationTracker.Pending p : q.all()) {
                if (p.ackNanos < 0 && p.transportEnd >= 0 && !after(p.transportEnd, ack)) {
                    p.ackNanos = nanos;
                }
            }
        }
    }

    private static void tornDown(Link link, long frame, long nanos, String by) {
        for (OperationTracker.QueueState q : link.queues) {
            q.tornDown(frame, nanos, by);
        }
    }

    /** The capture ended. */
    void clear() {
        links.clear();
    }

    /** Whether 32-bit sequence number {@code a} lies after {@code b} (RFC 9293 §3.4: modulo 2^32). */
    private static boolean after(long a, long b) {
        return (int) (a - b) > 0;
    }

    private static boolean isSend(int opcode) {
        return opcode >= DdpRdmap.OP_SEND && opcode <= DdpRdmap.OP_SEND_SE_INVALIDATE;
    }

    /** "TCP 10.0.1.1:50123/10.0.1.2:5445", the MPA initiator's endpoint first; IPv6 addresses in brackets. */
    static String text(IwarpConnection c) {
        return "TCP " + endpoint(c, 0) + "/" + endpoint(c, 1);
    }

    private static String endpoint(IwarpConnection c, int side) {
        if (c.family() == 4) {
            return new Address(Address.IPV4, 0, c.addressLo(side)).text() + ":" + c.port(side);
        }
        return "[" + new Address(Address.IPV6, c.addressHi(side), c.addressLo(side)).text() + "]:" + c.port(side);
    }
}
