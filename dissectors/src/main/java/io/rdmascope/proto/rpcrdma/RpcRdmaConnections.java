package io.rdmascope.proto.rpcrdma;

import io.rdmascope.proto.mad.CmConnections;

/**
 * What the RPC-over-RDMA dissector keeps across the frames of one dissection: the connections whose
 * CM exchange for port 20049 was captured ({@link CmConnections}), and the last calls by XID (for a
 * reply to name the call it answers), forgotten with the connections.
 */
final class RpcRdmaConnections extends CmConnections<RpcRdmaConnections.Connection> {
    /** One connection: the client's (the CM requester's) QP and the server's. */
    static final class Connection extends CmConnections.QueuePair {
        /** How many of a learnt connection's calls a reply may pair it by. */
        static final int PAIRING_CALLS = 64;
        /** The XIDs of the latest calls on a connection learnt without CM, newest at {@code nextCall - 1}. */
        private long[] pairingXids;
        private int nextCall;
        /** The calls whose read or reply chunks are awaited, and the RDMA READs and WRITEs filling them. */
        final Chunks chunks = new Chunks();

        Connection(int clientQpn, int serverQpn) {
            super(clientQpn, serverQpn);
        }

        @Override
        public void requesterFound(int qpn) {
            super.requesterFound(qpn);
            pairingXids = null;
        }

        /** A call on a learnt connection whose client is unknown: a reply with its XID will pair them. */
        void calledWhileUnpaired(long xid) {
            if (pairingXids == null) {
                pairingXids = new long[PAIRING_CALLS];
                java.util.Arrays.fill(pairingXids, -1);
            }
            pairingXids[nextCall] = xid;
            nextCall = (nextCall + 1) % PAIRING_CALLS;
        }

        /** Whether one of the latest calls while unpaired had {@code xid}. */
        boolean calledWith(long xid) {
            if (pairingXids != null) {
                for (long x : pairingXids) {
                    if (x == xid) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** How many calls a connection's replies are looked up among (newest first). */
    static final int REMEMBERED_CALLS = 1024;

    private final long[] callXids = new long[REMEMBERED_CALLS];
    private final byte[][] callHeaders = new byte[REMEMBERED_CALLS][];
    private int nextCall;
    private int calls;

    RpcRdmaConnections() {
        super((clientQpn, serverQpn, detail) -> new Connection(clientQpn, serverQpn));
    }

    @Override
    protected void forget() {
        calls = 0;
        nextCall = 0;
    }

    /** Whether a packet to {@code destQpn} travels on a connection set up for port 20049. */
    boolean carries(int destQpn) {
        return to(destQpn) != null;
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
