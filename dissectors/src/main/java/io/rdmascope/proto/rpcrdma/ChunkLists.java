package io.rdmascope.proto.rpcrdma;

import io.rdmascope.dissect.Dissection;

/**
 * Walks the three chunk lists of a transport header (RFC 8166 §4.2.1): the read list (XDR optional
 * items, each a position and one segment), the write list (optional items, each a counted array of
 * segments) and the reply chunk (at most one such array). Strict on purpose, because an ordinary
 * SEND on a connection for port 20049 must not be taken for a header: every discriminator is 0 or
 * 1 and every item lies inside the payload.
 */
final class ChunkLists {
    enum Kind { READ, WRITE, REPLY }

    /** A write chunk longer than this is not a header (Linux sends at most a few dozen segments). */
    static final int MAX_SEGMENTS = 256;
    private static final int READ_ITEM = 4 + 4 + RpcRdma.SEGMENT_SIZE;

    private ChunkLists() {
    }

    /** Where the list of {@code kind} starting at {@code at} ends, or -1 when it is not well formed before {@code limit}. */
    static int end(Dissection d, int at, int limit, Kind kind) {
        int p = at;
        while (true) {
            if (p + 4 > limit) {
                return -1;
            }
            long present = d.u32(p);
            if (present == 0) {
                return p + 4;
            }
            if (present != 1) {
                return -1;
            }
            if (kind == Kind.READ) {
                p += READ_ITEM;
            } else {
                if (p + 8 > limit) {
                    return -1;
                }
                long segments = d.u32(p + 4);
                if (segments > MAX_SEGMENTS) {
                    return -1;
                }
                p += 8 + (int) segments * RpcRdma.SEGMENT_SIZE;
                if (kind == Kind.REPLY) {
                    return p <= limit ? p : -1; // one chunk at most: no terminator follows
                }
            }
        }
    }

    /** How many items (read chunks, write chunks, reply chunks) the well-formed list at {@code at} holds. */
    static int items(Dissection d, int at, int limit, Kind kind) {
        int count = 0;
        int p = at;
        while (p + 4 <= limit && d.u32(p) == 1) {
            count++;
            if (kind == Kind.READ) {
                p += READ_ITEM;
            } else {
                p += 8 + (int) d.u32(p + 4) * RpcRdma.SEGMENT_SIZE;
                if (kind == Kind.REPLY) {
                    break;
                }
            }
        }
        return count;
    }
}
