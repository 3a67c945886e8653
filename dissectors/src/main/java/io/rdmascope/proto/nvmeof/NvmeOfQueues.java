package io.rdmascope.proto.nvmeof;

import io.rdmascope.dissect.stream.RecentSlots;
import io.rdmascope.proto.mad.CmConnections;

/**
 * What the NVMe-oF dissector keeps across the frames of one dissection: the queue pairs whose CM
 * exchange for port 4420 was captured ({@link CmConnections}; the REQ's private data names the queue
 * id), each with the commands it carried (for the response capsule to name the command it answers).
 */
final class NvmeOfQueues extends CmConnections<NvmeOfQueues.Queue> {
    /**
     * The queue id of a queue learnt without CM whose first command did not tell it (no Connect, no
     * admin-only command): 0xFFFF, which no queue has (NVMe 1.4 §5.4: identifiers up to 65534).
     */
    static final int UNKNOWN_QID = 0xFFFF;

    /**
     * One NVMe queue on one RC queue pair: commands go to the controller's QPN, responses to the
     * host's. Commands are remembered in a ring, newest last; a response looks its CID up from the
     * newest back, so a CID the host reused answers the latest command that carried it.
     */
    static final class Queue implements CmConnections.Connection {
        static final int REMEMBERED = 1024;
        /** The host's QP; {@link CmConnections#UNKNOWN_QPN} on a queue learnt from commands until a response or transfer shows it. */
        int hostQpn;
        /** The controller's QP; {@link CmConnections#UNKNOWN_QPN} on a queue learnt from a response alone. */
        final int controllerQpn;
        /** The queue id, from the CM request or, on a queue learnt without CM, its first command ({@link #UNKNOWN_QID}). */
        int qid;
        private final long[] cids = new long[REMEMBERED];
        private final long[] frames = new long[REMEMBERED];
        /** fabrics flag (bit 24), code (bits 16-23), detail (bits 0-15). */
        private final int[] kinds = new int[REMEMBERED];
        /** The R_Key of the command's keyed SGL, or -1: what its RDMA READs and WRITEs carry. */
        private final long[] keys = new long[REMEMBERED];
        /** The address and length of that SGL: a transfer outside them serves none of its commands. */
        private final long[] addresses = new long[REMEMBERED];
        private final long[] lengths = new long[REMEMBERED];
        private final RecentSlots slots = new RecentSlots(REMEMBERED);
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

        @Override
        public int requesterQpn() {
            return hostQpn;
        }

        @Override
        public void requesterFound(int qpn) {
            hostQpn = qpn;
        }

        @Override
        public int responderQpn() {
            return controllerQpn;
        }

        void command(int cid, long frame, boolean fabrics, int code, int detail, long key, long address,
                     long length) {
            int slot = slots.claim();
            keys[slot] = key;
            addresses[slot] = address;
            lengths[slot] = length;
            cids[slot] = cid;
            frames[slot] = frame;
            kinds[slot] = (fabrics ? 1 << 24 : 0) | (code & 0xFF) << 16 | (detail & 0xFFFF);
        }

        /** Slot of the newest command with {@code cid}, or -1. */
        int find(int cid) {
            return slots.newest(cids, cid);
        }

        /**
         * Slot of the newest command whose keyed SGL has R_Key {@code key} and a buffer holding
         * {@code address}, or -1: NVMe-oF 1.1 §7.3.2 lets the controller move a command's data only
         * within the host memory its SGL describes.
         */
        int findKey(long key, long address) {
            return slots.newestHolding(keys, addresses, lengths, key, address);
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

    NvmeOfQueues() {
        super(Queue::new);
    }
}
