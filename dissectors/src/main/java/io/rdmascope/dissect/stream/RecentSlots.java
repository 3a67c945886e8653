package io.rdmascope.dissect.stream;

/**
 * The slot positions of a fixed-size ring of remembered commands, newest last, for a protocol that
 * keeps its commands' fields in parallel arrays of {@link #capacity()} entries (NVMe-oF's queues,
 * iSER's connections). Lookups go from the newest back, so an id or key a sender reused names the
 * latest command that carried it; the oldest is overwritten once the ring is full.
 */
public final class RecentSlots {
    private final int capacity;
    private int next;
    private int count;

    public RecentSlots(int capacity) {
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    /** The slot the next command's fields go into; the caller fills every column at it. */
    public int claim() {
        int slot = next;
        next = (next + 1) % capacity;
        count = Math.min(count + 1, capacity);
        return slot;
    }

    /** Slot of the newest command whose {@code column} holds {@code value}, or -1. */
    public int newest(long[] column, long value) {
        for (int i = 1; i <= count; i++) {
            int slot = Math.floorMod(next - i, capacity);
            if (column[slot] == value) {
                return slot;
            }
        }
        return -1;
    }

    /**
     * Slot of the newest command whose {@code keys} holds {@code key} and whose buffer
     * {@code [bases, bases + lengths)} holds {@code address} (unsigned), or -1: a responder moves a
     * command's data only within the buffer the command advertised under that key.
     */
    public int newestHolding(long[] keys, long[] bases, long[] lengths, long key, long address) {
        for (int i = 1; i <= count; i++) {
            int slot = Math.floorMod(next - i, capacity);
            if (keys[slot] == key && Long.compareUnsigned(address - bases[slot], lengths[slot]) < 0) {
                return slot;
            }
        }
        return -1;
    }
}
