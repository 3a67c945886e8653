package io.rdmascope.proto.mad;

import io.rdmascope.dissect.Dissection;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The connections an upper protocol learns from captured CM exchanges, in capture order: the
 * ConnectRequests for its port still waiting for their reply, and the queue-pair pairs the replies
 * set up, each with the protocol's own state. NVMe-oF, iSER, RPC-over-RDMA and SMB Direct all claim
 * a queue pair only when its REQ (for their port, {@link Cm#isTcpPortRequest}) and the REP answering
 * it were captured; this is that bookkeeping once. A protocol subclasses it (its stream state is
 * keyed by class) and adds what it keeps per connection. Frames that go backwards (another file, a
 * second pass) forget everything, as the stream decoders do.
 *
 * @param <C> the protocol's state of one connection
 */
public abstract class CmConnections<C extends CmConnections.Connection> {
    /**
     * One connection's two queue pairs: the REQ sender's (the requester) and the REP sender's. A
     * connection learnt from traffic ({@link #learnResponder}) starts with one of them {@link
     * #UNKNOWN_QPN} and is told the other when the traffic shows it ({@link Connection#requesterFound}).
     */
    public interface Connection {
        int requesterQpn();

        int responderQpn();

        /** Names the requester's QP of a connection learnt with only its responder's. */
        void requesterFound(int qpn);
    }

    /** The QP of a side a connection learnt without CM has not shown yet. */
    public static final int UNKNOWN_QPN = -1;

    /** A connection's two QPs, the requester's settable for a connection learnt without CM: what a protocol's connection may extend. */
    public abstract static class QueuePair implements Connection {
        private int requesterQpn;
        private final int responderQpn;

        protected QueuePair(int requesterQpn, int responderQpn) {
            this.requesterQpn = requesterQpn;
            this.responderQpn = responderQpn;
        }

        @Override
        public final int requesterQpn() {
            return requesterQpn;
        }

        @Override
        public final int responderQpn() {
            return responderQpn;
        }

        @Override
        public void requesterFound(int qpn) {
            requesterQpn = qpn;
        }
    }

    /** Makes a connection's state once its REP was seen; {@code detail} is what the REQ noted. */
    public interface Opener<C> {
        C open(int requesterQpn, int responderQpn, int detail);
    }

    /** A ConnectRequest's requester side, until the ConnectReply names the responder's QP. */
    private record Pending(long localCommId, int requesterQpn, int detail) {
    }

    /** CM message offsets (IBTA 12.6.5 REQ, 12.6.8 REP). */
    private static final int REQ_LOCAL_COMM_ID = 0;
    private static final int REQ_LOCAL_QPN = 32;
    private static final int REP_REMOTE_COMM_ID = 4;
    private static final int REP_LOCAL_QPN = 12;

    private final Opener<C> opener;
    private final List<Pending> pending = new ArrayList<>(2);
    private final List<C> connections = new ArrayList<>(4);
    private long lastFrame = Long.MIN_VALUE;

    protected CmConnections(Opener<C> opener) {
        this.opener = opener;
    }

    /** Notes frame {@code number}; one that does not grow forgets every connection (see the class comment). */
    public final void beginFrame(long number) {
        if (number <= lastFrame) {
            pending.clear();
            connections.clear();
            forget();
        }
        lastFrame = number;
    }

    /** What a subclass keeps beside the connections, forgotten with them. */
    protected void forget() {
    }

    /** The REQ whose CM data starts at frame offset {@code reqStart}, already known to be for the port. */
    public final void request(Dissection d, int reqStart, int detail) {
        long localCommId = d.u32(reqStart + REQ_LOCAL_COMM_ID);
        pending.removeIf(p -> p.localCommId == localCommId); // a retried REQ replaces the first
        pending.add(new Pending(localCommId, d.u24(reqStart + REQ_LOCAL_QPN), detail));
    }

    /**
     * The REP whose CM data starts at {@code repStart}: when it answers a pending REQ, its queue pairs
     * carry the protocol from now on; the new connection, else null.
     */
    public final C reply(Dissection d, int repStart) {
        long remoteCommId = d.u32(repStart + REP_REMOTE_COMM_ID);
        int responderQpn = d.u24(repStart + REP_LOCAL_QPN);
        for (int i = 0; i < pending.size(); i++) {
            Pending p = pending.get(i);
            if (p.localCommId == remoteCommId) {
                pending.remove(i);
                connections.removeIf(c -> c.requesterQpn() == p.requesterQpn
                        || c.responderQpn() == responderQpn); // QPNs reused
                C c = opener.open(p.requesterQpn, responderQpn, p.detail);
                connections.add(c);
                return c;
            }
        }
        return null;
    }

    /** The connection whose responder's QP is {@code destQpn} (a packet towards the responder), else null. */
    public final C toResponder(int destQpn) {
        for (int i = 0; i < connections.size(); i++) {
            if (connections.get(i).responderQpn() == destQpn) {
                return connections.get(i);
            }
        }
        return null;
    }

    /** The connection whose requester's QP is {@code destQpn} (a packet towards the requester), else null. */
    public final C toRequester(int destQpn) {
        for (int i = 0; i < connections.size(); i++) {
            if (connections.get(i).requesterQpn() == destQpn) {
                return connections.get(i);
            }
        }
        return null;
    }

    /** The first connection one of whose QPs is {@code destQpn}, else null. */
    public final C to(int destQpn) {
        for (int i = 0; i < connections.size(); i++) {
            C c = connections.get(i);
            if (c.requesterQpn() == destQpn || c.responderQpn() == destQpn) {
                return c;
            }
        }
        return null;
    }

    /**
     * The connection whose responder's QP is {@code destQpn}, opened with an unknown requester when
     * there is none: {@code --decode-as} chose the QP and a message's content showed that it goes to
     * the responder (a command, an iSCSI initiator's PDU, an RPC call), with no CM exchange captured
     * to say so. The requester's QP is not in an RC packet (a BTH names only its destination), so it
     * stays unknown until the protocol finds evidence of it ({@link #unpaired}).
     */
    public final C learnResponder(int destQpn, int detail) {
        return known(toResponder(destQpn), UNKNOWN_QPN, destQpn, detail);
    }

    /**
     * A QP {@code --decode-as} chose that the content showed to be a requester's, with no learnt
     * connection to pair it with (a response whose command was not captured): a connection with an
     * unknown responder, so that later packets to the QP are decoded on it.
     */
    public final C learnRequester(int destQpn, int detail) {
        return known(toRequester(destQpn), destQpn, UNKNOWN_QPN, detail);
    }

    /** {@code found}, or a connection of the two QPs opened now when it is null. */
    private C known(C found, int requesterQpn, int responderQpn, int detail) {
        if (found != null) {
            return found;
        }
        C c = opener.open(requesterQpn, responderQpn, detail);
        connections.add(c);
        return c;
    }

    /**
     * The newest learnt connection whose requester is still unknown and that {@code evidence}
     * accepts (it holds the command a response answers, the buffer an RDMA transfer uses), else null.
     */
    public final C unpaired(Predicate<C> evidence) {
        for (int i = connections.size() - 1; i >= 0; i--) {
            C c = connections.get(i);
            if (c.requesterQpn() == UNKNOWN_QPN && evidence.test(c)) {
                return c;
            }
        }
        return null;
    }

    /** Whether nothing was learnt: no REQ pending, no connection. */
    public final boolean isEmpty() {
        return connections.isEmpty() && pending.isEmpty();
    }
}
