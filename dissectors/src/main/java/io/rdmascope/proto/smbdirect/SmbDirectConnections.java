package io.rdmascope.proto.smbdirect;

import java.util.ArrayList;
import java.util.List;

/**
 * What the SMB Direct dissector keeps across the frames of one dissection, in capture order: the
 * ConnectRequests for port 5445 still waiting for their reply, and the connections set up, each with
 * whether either side has sent its negotiate message yet ([MS-SMBD] §3.1.5: the first message of
 * each side is the negotiate exchange, every later one a Data Transfer message). Frames that go
 * backwards (another file, a second pass) forget everything, as the other stream decoders do.
 */
final class SmbDirectConnections {
    /** A ConnectRequest's client side, until the ConnectReply names the server's QP. */
    private record Pending(long localCommId, int clientQpn) {
    }

    /** One RC connection: the client's and the server's QPN and how far negotiation got. */
    static final class Connection {
        final int clientQpn;
        final int serverQpn;
        boolean requestSeen;
        boolean responseSeen;

        Connection(int clientQpn, int serverQpn) {
            this.clientQpn = clientQpn;
            this.serverQpn = serverQpn;
        }
    }

    private final List<Pending> pending = new ArrayList<>(2);
    private final List<Connection> connections = new ArrayList<>(2);
    private long lastFrame = Long.MIN_VALUE;

    /** Notes frame {@code number}; one that does not grow forgets every connection (see the class comment). */
    void beginFrame(long number) {
        if (number <= lastFrame) {
            pending.clear();
            connections.clear();
        }
        lastFrame = number;
    }

    void request(long localCommId, int clientQpn) {
        pending.removeIf(p -> p.localCommId == localCommId); // a retried REQ replaces the first
        pending.add(new Pending(localCommId, clientQpn));
    }

    /** The ConnectReply answering REQ {@code remoteCommId}: the queue pair carries SMB Direct from now on. */
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

    /** The connection one of whose QPs is {@code destQpn}, or null. */
    Connection to(int destQpn) {
        for (int i = 0; i < connections.size(); i++) {
            Connection c = connections.get(i);
            if (c.clientQpn == destQpn || c.serverQpn == destQpn) {
                return c;
            }
        }
        return null;
    }

    boolean isEmpty() {
        return connections.isEmpty() && pending.isEmpty();
    }
}
