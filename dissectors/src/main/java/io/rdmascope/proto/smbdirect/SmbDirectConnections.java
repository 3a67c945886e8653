package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.stream.Fragments;
import io.rdmascope.proto.mad.CmConnections;

import java.util.HashMap;
import java.util.Map;

/**
 * What the SMB Direct dissector keeps across the frames of one dissection: the connections whose CM
 * exchange for port 5445 was captured ({@link CmConnections}), each with whether either side has
 * sent its negotiate message yet ([MS-SMBD] §3.1.5: the first message of each side is the negotiate
 * exchange, every later one a Data Transfer message).
 */
final class SmbDirectConnections extends CmConnections<SmbDirectConnections.Connection> {
    /** One RC connection: the client's (the CM requester's) and the server's QPN and how far negotiation got. */
    static final class Connection extends CmConnections.QueuePair {
        boolean requestSeen;
        boolean responseSeen;
        /** The SMB2 message being put together from Data Transfer fragments: towards the server, the client. */
        final Fragments[] fragments = {newFragments(), newFragments()};

        Connection(int clientQpn, int serverQpn) {
            super(clientQpn, serverQpn);
        }
    }

    /**
     * Queue pairs decoded as SMB Direct by {@code --decode-as} without a captured CM exchange: the
     * fragments of the message being reassembled towards each, by destination QPN.
     */
    private final Map<Integer, Fragments> decodedAs = new HashMap<>();

    SmbDirectConnections() {
        super((clientQpn, serverQpn, detail) -> new Connection(clientQpn, serverQpn));
    }

    /** The fragments of the message being reassembled towards {@code destQpn}, a QP chosen by --decode-as. */
    Fragments decodedAs(int destQpn) {
        return decodedAs.computeIfAbsent(destQpn, q -> newFragments());
    }

    @Override
    protected void forget() {
        decodedAs.clear();
    }

    static Fragments newFragments() {
        return new Fragments(SmbDirect.MAX_FRAGMENTS, SmbDirect.MAX_REASSEMBLED);
    }
}
