package io.rdmascope.proto.iser;

import io.rdmascope.dissect.stream.RecentSlots;
import io.rdmascope.proto.mad.CmConnections;

/**
 * What the iSER dissector keeps across the frames of one dissection: the connections whose CM
 * exchange for port 3260 was captured ({@link CmConnections}: initiator QP, target QP), each with the
 * SCSI tasks it carried, so that a SCSI Response names its command and an RDMA transfer the task whose
 * STag it uses.
 */
final class IserSessions extends CmConnections<IserSessions.Connection> {

    /**
     * One iSER connection. Tasks are remembered in a ring, newest last; a lookup goes from the newest
     * back, so a task tag or STag reused later names the latest task that carried it.
     */
    static final class Connection implements CmConnections.Connection {
        static final int REMEMBERED = 1024;
        /** The initiator's QP; {@link CmConnections#UNKNOWN_QPN} on a connection learnt from its initiator's PDUs until its target's show it. */
        int initiatorQpn;
        /** The target's QP; {@link CmConnections#UNKNOWN_QPN} on a connection learnt from a target's PDU alone. */
        final int targetQpn;
        /**
         * The task tag of the initiator's latest PDU: on a connection learnt without CM, a target PDU
         * that answers a Login or NOP-Out (which hold no task) names it, pairing the two QPs.
         */
        long lastInitiatorTaskTag = -1;
        private final long[] itts = new long[REMEMBERED];
        private final long[] frames = new long[REMEMBERED];
        /** CDB opcode (bits 16-23) and the LUN's first two bytes (bits 0-15). */
        private final int[] kinds = new int[REMEMBERED];
        /** The Read STag (the buffer the target RDMA WRITEs into) and the Write STag (the one it reads), or -1. */
        private final long[] readStags = new long[REMEMBERED];
        private final long[] writeStags = new long[REMEMBERED];
        /** The base offsets the iSER header gave with them, and the task's expected data transfer length. */
        private final long[] readVas = new long[REMEMBERED];
        private final long[] writeVas = new long[REMEMBERED];
        private final long[] lengths = new long[REMEMBERED];
        private final RecentSlots slots = new RecentSlots(REMEMBERED);
        /** The task the RDMA WRITE in progress serves (slot, or -1). */
        int writeSlot = -1;
        /** The task of the last RDMA READ Request, which the READ responses that follow answer. */
        int readSlot = -1;

        Connection(int initiatorQpn, int targetQpn) {
            this.initiatorQpn = initiatorQpn;
            this.targetQpn = targetQpn;
        }

        @Override
        public int requesterQpn() {
            return initiatorQpn;
        }

        @Override
        public int responderQpn() {
            return targetQpn;
        }

        @Override
        public void requesterFound(int qpn) {
            initiatorQpn = qpn;
        }

        void task(long itt, long frame, int cdbOpcode, int lun, long readStag, long readVa, long writeStag,
                  long writeVa, long length) {
            int slot = slots.claim();
            itts[slot] = itt;
            readVas[slot] = readVa;
            writeVas[slot] = writeVa;
            lengths[slot] = length;
            frames[slot] = frame;
            kinds[slot] = (cdbOpcode & 0xFF) << 16 | (lun & 0xFFFF);
            readStags[slot] = readStag;
            writeStags[slot] = writeStag;
        }

        int findTask(long itt) {
            return slots.newest(itts, itt);
        }

        /**
         * The newest task whose Read STag is {@code stag} and whose buffer holds {@code va}, or -1:
         * the target moves a task's data only within the buffer the command advertised (RFC 7145 §7.3.5,
         * base offset and expected data transfer length).
         */
        int findReadStag(long stag, long va) {
            return slots.newestHolding(readStags, readVas, lengths, stag, va);
        }

        /** Likewise for the Write STag the target RDMA READs from. */
        int findWriteStag(long stag, long va) {
            return slots.newestHolding(writeStags, writeVas, lengths, stag, va);
        }

        long frame(int slot) {
            return frames[slot];
        }

        int cdbOpcode(int slot) {
            return kinds[slot] >> 16 & 0xFF;
        }

        int lun(int slot) {
            return kinds[slot] & 0xFFFF;
        }
    }

    IserSessions() {
        super((initiatorQpn, targetQpn, detail) -> new Connection(initiatorQpn, targetQpn));
    }
}
