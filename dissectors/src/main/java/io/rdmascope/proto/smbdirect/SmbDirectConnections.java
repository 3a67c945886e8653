package io.rdmascope.proto.smbdirect;

import io.rdmascope.dissect.stream.Fragments;
import io.rdmascope.proto.mad.CmConnections;

import java.util.HashMap;
import java.util.Map;

/**
 * What the SMB Direct dissector keeps across the frames of one dissection: the connections whose CM
 * exchange for port 5445 was captured ({@link CmConnections}), each with whether either side has
 * sent its negotiate message yet ([MS-SMBD] §3.1.5: the first message of each side is the negotiate
 * exchange, every later one a Data Transfer message), and the connections learnt from the traffic of
 * queue pairs {@code --decode-as} names (SmbDirectDissector.learn), which the operation view needs.
 */
final class SmbDirectConnections extends CmConnections<SmbDirectConnections.Connection> {
    /** One RC connection: the client's (the CM requester's) and the server's QPN and how far negotiation got. */
    static final class Connection extends CmConnections.QueuePair {
        boolean requestSeen;
        boolean responseSeen;
        /** The SMB2 message being put together from Data Transfer fragments: towards the server, the client. */
        final Fragments[] fragments = {newFragments(), newFragments()};
        /**
         * Learnt from a {@code --decode-as} queue pair's traffic, not from a CM exchange: its messages are
         * still decoded by content, and its client's QP may be unknown until a response shows it.
         */
        boolean learnt;
        /** On a learnt connection whose client is unknown: a Negotiate Request went to the server unanswered. */
        boolean negotiateAwaited;
        /** On a learnt connection whose client is unknown: the message ids of its latest SMB2 requests, a ring. */
        private long[] requestIds;
        private int requestCount;

        Connection(int clientQpn, int serverQpn) {
            super(clientQpn, serverQpn);
        }

        /** Notes an SMB2 request's message id, the evidence a response to an unknown client QP is paired by. */
        void requested(long messageId) {
            if (requestIds == null) {
                requestIds = new long[REMEMBERED_REQUESTS];
            }
            requestIds[requestCount++ % REMEMBERED_REQUESTS] = messageId;
        }

        /** Whether one of the latest requests noted carried {@code messageId}. */
        boolean wasRequested(long messageId) {
            for (int i = Math.min(requestCount, REMEMBERED_REQUESTS) - 1; i >= 0; i--) {
                if (requestIds[i] == messageId) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Requests remembered per learnt connection whose client is unknown: it is told the client by the
     * first response to one of them, normally the answer to its first request.
     */
    static final int REMEMBERED_REQUESTS = 64;

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
