package io.rdmascope.proto.rpcrdma;

import java.util.ArrayList;
import java.util.List;

/**
 * What the RPC-over-RDMA dissector keeps across the frames of one dissection, in capture order: the
 * ConnectRequests for port 20049 still waiting for their reply, the queue pairs set up (both QPNs),
 * and the last calls by XID (for a reply to name the call it answers). Frames that go backwards
 * (another file, a second pass) forget everything, as the other stream decoders do.
 */
final class RpcRdmaConnections {
    private record Pending(long localCommId, int clientQpn) {
    }

    private record Connection(int clientQpn, int serverQpn) {
    }

    /** How many calls a connection's replies are looked up among (newest first). */
    static final int REMEMBERED_CALLS = 1024;

    private final List<Pending> pending = new ArrayList<>(2);
    private final List<Connection> connections = new ArrayList<>(4);
    private final long[] callXids = new long[REMEMBERED_CALLS];
    private final byte[][] callHeaders = new byte[REMEMBERED_CALLS][];
    private int nextCall;
    private int calls;
    private long lastFrame = Long.MIN_VALUE;

    /** Notes frame {@code number}; one that does not grow forgets everything (see the class comment). */
    void beginFrame(long number) {
        if (number <= lastFrame) {
            pending.clear();
            connections.clear();
            calls = 0;
            nextCall = 0;
        }
        lastFrame = number;
    }

    void request(long localCommId, int clientQpn) {
        pending.removeIf(p -> p.localCommId == localCommId); // a retried REQ replaces the first
        pending.add(new Pending(localCommId, clientQpn));
    }

    /** The ConnectReply answering REQ {@code remoteCommId}: the queue pair carries RPC-over-RDMA from now on. */
    boolean reply(long remoteCommId, int serverQpn) {
        for (int i = 0; i < pending.size(); i++) {
            Pending p = pending.get(i);
            if (p.localCommId == remoteCommId) {
                pending.remove(i);
                connections.removeIf(c -> c.clientQpn == p.clientQpn || c.serverQpn == serverQpn); // QPNs reused
                connections.add(new Connection(p.clientQpn, serverQpn));
                return true;
            }
        }
        return false;
    }

    /** Whether a packet to {@code destQpn} travels on a connection set up for port 20049. */
    boolean carries(int destQpn) {
        for (int i = 0; i < connections.size(); i++) {
            Connection c = connections.get(i);
            if (c.clientQpn == destQpn || c.serverQpn == destQpn) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return connections.isEmpty() && pending.isEmpty();
    }

    /** Remembers a call's first six words (RFC 5531 §9), which its reply's generated fields repeat. */
    void call(long xid, byte[] header) {
        callXids[nextCall] = xid;
        callHeaders[nextCall] = header;
        nextCall = (nextCall + 1) % REMEMBERED_CALLS;
        calls = Math.min(calls + 1, REMEMBERED_CALLS);
    }

    /** The newest call with {@code xid}'s first six words, or null when none was seen. */
    byte[] callOf(long xid) {
        for (int i = 1; i <= calls; i++) {
            int slot = Math.floorMod(nextCall - i, REMEMBERED_CALLS);
            if (callXids[slot] == xid) {
                return callHeaders[slot];
            }
        }
        return null;
    }
}
