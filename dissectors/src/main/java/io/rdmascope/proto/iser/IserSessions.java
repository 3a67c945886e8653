package io.rdmascope.proto.iser;

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
        final int initiatorQpn;
        final int targetQpn;
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
        private int next;
        private int count;
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

        void task(long itt, long frame, int cdbOpcode, int lun, long readStag, long readVa, long writeStag,
                  long writeVa, long length) {
            itts[next] = itt;
            readVas[next] = readVa;
            writeVas[next] = writeVa;
            lengths[next] = length;
            frames[next] = frame;
            kinds[next] = (cdbOpcode & 0xFF) << 16 | (lun & 0xFFFF);
            readStags[next] = readStag;
            writeStags[next] = writeStag;
            next = (next + 1) % REMEMBERED;
            count = Math.min(count + 1, REMEMBERED);
        }

        int findTask(long itt) {
            return newest(itts, itt);
        }

        /**
         * The newest task whose Read STag is {@code stag} and whose buffer holds {@code va}, or -1:
         * the target moves a task's data only within the buffer the command advertised (RFC 7145 §7.3.5,
         * base offset and expected data transfer length).
         */
        int findReadStag(long stag, long va) {
            return newest(readStags, readVas, stag, va);
        }

        /** Likewise for the Write STag the target RDMA READs from. */
        int findWriteStag(long stag, long va) {
            return newest(writeStags, writeVas, stag, va);
        }

        private int newest(long[] stags, long[] vas, long stag, long va) {
            for (int i = 1; i <= count; i++) {
                int slot = Math.floorMod(next - i, REMEMBERED);
                if (stags[slot] == stag && Long.compareUnsigned(va - vas[slot], lengths[slot]) < 0) {
                    return slot;
                }
            }
            return -1;
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
