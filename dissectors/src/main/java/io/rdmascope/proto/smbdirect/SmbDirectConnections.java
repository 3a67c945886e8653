package io.rdmascope.proto.smbdirect;

import io.rdmascope.proto.mad.CmConnections;

/**
 * What the SMB Direct dissector keeps across the frames of one dissection: the connections whose CM
 * exchange for port 5445 was captured ({@link CmConnections}), each with whether either side has
 * sent its negotiate message yet ([MS-SMBD] §3.1.5: the first message of each side is the negotiate
 * exchange, every later one a Data Transfer message).
 */
final class SmbDirectConnections extends CmConnections<SmbDirectConnections.Connection> {
    /** One RC connection: the client's (the CM requester's) and the server's QPN and how far negotiation got. */
    static final class Connection implements CmConnections.Connection {
        final int clientQpn;
        final int serverQpn;
        boolean requestSeen;
        boolean responseSeen;

        Connection(int clientQpn, int serverQpn) {
            this.clientQpn = clientQpn;
            this.serverQpn = serverQpn;
        }

        @Override
        public int requesterQpn() {
            return clientQpn;
        }

        @Override
        public int responderQpn() {
            return serverQpn;
        }
    }

    SmbDirectConnections() {
        super((clientQpn, serverQpn, detail) -> new Connection(clientQpn, serverQpn));
    }
}
