package io.rdmascope.replay;

/**
 * A requester's last {@code size} request transmissions, indexed by PSN modulo {@code size}: what a
 * resend, a duplicate or a NAK is compared with. One slot is eight longs side by side rather than
 * one array per field: every request writes a whole slot and a resend reads most of it, and with
 * many queue pairs the rings do not fit in the cache, so a slot spread over twelve arrays cost
 * twelve cache misses where one contiguous slot costs one or two.
 */
final class TransmissionRing {
    private static final int LONGS_PER_SLOT = 8;
    // Slot layout: the PSN and IPv4 ID share a long, as do the transmission count, opcode, kind and CRC flag.
    private static final int PSN_AND_IP_ID = 0;
    static final int SEQ = 1;
    static final int FRAME = 2;
    static final int TIME = 3;
    static final int ICRC = 4;
    static final int LENGTH = 5;
    static final int DMA_LENGTH = 6;
    private static final int COUNTS = 7;
    private static final long BAD_CRC = 1L << 56;

    private final long[] slots;

    /** {@code size} slots, each empty (PSN -1). */
    TransmissionRing(int size) {
        slots = new long[size * LONGS_PER_SLOT];
        for (int s = 0; s < size; s++) {
            slots[s * LONGS_PER_SLOT + PSN_AND_IP_ID] = 0xFFFFFFFFL; // PSN -1: nothing sent at this slot yet
        }
    }

    /** Overwrites slot {@code slot} with one transmission. */
    void record(int slot, int psn, long seq, long frame, long timeNanos, long icrc, int ipId, boolean badCrc,
                int transmissions, int opcode, int kind, long length, long dmaLength) {
        int at = slot * LONGS_PER_SLOT;
        slots[at + PSN_AND_IP_ID] = ((long) ipId << 32) | (psn & 0xFFFFFFFFL);
        slots[at + SEQ] = seq;
        slots[at + FRAME] = frame;
        slots[at + TIME] = timeNanos;
        slots[at + ICRC] = icrc;
        slots[at + LENGTH] = length;
        slots[at + DMA_LENGTH] = dmaLength;
        slots[at + COUNTS] = (transmissions & 0xFFFFFFFFL) | ((long) (opcode & 0xFFFF) << 32)
                | ((long) (kind & 0xFF) << 48) | (badCrc ? BAD_CRC : 0);
    }

    /** One of the plain fields of slot {@code slot}: {@link #SEQ}, {@link #FRAME}, {@link #TIME}, {@link #ICRC}, {@link #LENGTH}, {@link #DMA_LENGTH}. */
    long get(int slot, int field) {
        return slots[slot * LONGS_PER_SLOT + field];
    }

    int psn(int slot) {
        return (int) get(slot, PSN_AND_IP_ID);
    }

    int ipId(int slot) {
        return (int) (get(slot, PSN_AND_IP_ID) >> 32);
    }

    int transmissions(int slot) {
        return (int) get(slot, COUNTS);
    }

    /** The opcode byte of the transmission (0–255). */
    int opcode(int slot) {
        return (int) (get(slot, COUNTS) >>> 32) & 0xFFFF;
    }

    /** The {@code Operation.Kind} ordinal. */
    int kind(int slot) {
        return (int) (get(slot, COUNTS) >>> 48) & 0xFF;
    }

    boolean badCrc(int slot) {
        return (get(slot, COUNTS) & BAD_CRC) != 0;
    }
}
