package io.rdmascope.proto.nvmeof;

import java.util.ArrayList;
import java.util.List;

/**
 * What the NVMe-oF dissector keeps across the frames of one dissection, in capture order: the
 * ConnectRequests for port 4420 still waiting for their reply, and the queue pairs set up, each with
 * the commands it carried (for the response capsule to name the command it answers). Frames that go
 * backwards (another file, a second pass) forget everything, as the stream decoders do.
 */
final class NvmeOfQueues {
    /** A ConnectRequest's host side, until the ConnectReply names the controller's QP. */
    private record Pending(long localCommId, int hostQpn, int qid) {
    }

    /**
     * One NVMe queue on one RC queue pair: commands go to the controller's QPN, responses to the
     * host's. Commands are remembered in a ring, newest last; a response looks its CID up from the
     * newest back, so a CID the host reused answers the latest command that carried it.
     */
    static final class Queue {
        static final int REMEMBERED = 1024;
        final int hostQpn;
        final int controllerQpn;
        final int qid;
        private final long[] cids = new long[REMEMBERED];
        private final long[] frames = new long[REMEMBERED];
        /** fabrics flag (bit 24), code (bits 16-23), detail (bits 0-15). */
        private final int[] kinds = new int[REMEMBERED];
        /** The R_Key of the command's keyed SGL, or -1: what its RDMA READs and WRITEs carry. */
        private final long[] keys = new long[REMEMBERED];
        private int next;
        private int count;
        /** The command the last RDMA READ Request served (slot, or -1), and the bytes read for it since. */
        int readSlot = -1;
        long readOffset;
        /** The frame of the last RDMA READ Request, which the READ responses that follow answer. */
        long readRequestFrame;
        /** Likewise for the RDMA WRITE in progress. */
        int writeSlot = -1;
        long writeOffset;

        Queue(int hostQpn, int controllerQpn, int qid) {
            this.hostQpn = hostQpn;
            this.controllerQpn = controllerQpn;
            this.qid = qid;
        }

        void command(int cid, long frame, boolean fabrics, int code, int detail, long key) {
            keys[next] = key;
            cids[next] = cid;
            frames[next] = frame;
            kinds[next] = (fabrics ? 1 << 24 : 0) | (code & 0xFF) << 16 | (detail & 0xFFFF);
            next = (next + 1) % REMEMBERED;
            count = Math.min(count + 1, REMEMBERED);
        }

        /** Slot of the newest command with {@code cid}, or -1. */
        int find(int cid) {
            return newest(cids, cid);
        }

        /** Slot of the newest command whose keyed SGL has R_Key {@code key}, or -1. */
        int findKey(long key) {
            return newest(keys, key);
        }

        private int newest(long[] column, long value) {
            for (int i = 1; i <= count; i++) {
                int slot = Math.floorMod(next - i, REMEMBERED);
                if (column[slot] == value) {
                    return slot;
                }
            }
            return -1;
        }

        long frame(int slot) {
            return frames[slot];
        }

        boolean fabrics(int slot) {
            return (kinds[slot] >> 24) != 0;
        }

        int code(int slot) {
            return (kinds[slot] >> 16) & 0xFF;
        }

        int detail(int slot) {
            return kinds[slot] & 0xFFFF;
        }
    }

    private final List<Pending> pending = new ArrayList<>(2);
    private final List<Queue> queues = new ArrayList<>(4);
    private long lastFrame = Long.MIN_VALUE;

    /** Notes frame {@code number}; one that does not grow forgets every queue (see the class comment). */
    void beginFrame(long number) {
        if (number <= lastFrame) {
            pending.clear();
            queues.clear();
        }
        lastFrame = number;
    }

    void request(long localCommId, int hostQpn, int qid) {
        pending.removeIf(p -> p.localCommId == localCommId); // a retried REQ replaces the first
        pending.add(new Pending(localCommId, hostQpn, qid));
    }

    /** The ConnectReply answering REQ {@code remoteCommId}: the queue pair is NVMe-oF from now on. */
    boolean reply(long remoteCommId, int controllerQpn) {
        for (int i = 0; i < pending.size(); i++) {
            Pending p = pending.get(i);
            if (p.localCommId == remoteCommId) {
                pending.remove(i);
                queues.removeIf(q -> q.hostQpn == p.hostQpn || q.controllerQpn == controllerQpn); // QPNs reused
                queues.add(new Queue(p.hostQpn, controllerQpn, p.qid));
                return true;
            }
        }
        return false;
    }

    /** The queue whose controller QP is {@code destQpn} (a command), else null. */
    Queue toController(int destQpn) {
        for (int i = 0; i < queues.size(); i++) {
            if (queues.get(i).controllerQpn == destQpn) {
                return queues.get(i);
            }
        }
        return null;
    }

    /** The queue whose host QP is {@code destQpn} (a response), else null. */
    Queue toHost(int destQpn) {
        for (int i = 0; i < queues.size(); i++) {
            if (queues.get(i).hostQpn == destQpn) {
                return queues.get(i);
            }
        }
        return null;
    }

    boolean isEmpty() {
        return queues.isEmpty() && pending.isEmpty();
    }
}
