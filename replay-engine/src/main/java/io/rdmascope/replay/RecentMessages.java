package io.rdmascope.replay;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A requester's finished messages that late duplicates may still find, oldest first, each handed out
 * ({@link Conversation#handOut}) when it leaves. It behaves as the {@code ArrayDeque} it replaces (add at
 * the end, take from the front, remove the first occurrence, iterate oldest first), and keeps beside each
 * message what its hand-out reads: the ACK frame it was counted toward, whether it was final as that
 * ACK's completion, whether it was handed out already.
 *
 * <p>Why: a message leaves 64 messages of its requester after it finished, thousands of frames of other
 * channels later, and reading its builder then (the object header for the cast, the ACK bookkeeping on one
 * or two more lines) was the largest share of the hand-out (docs/performance.md, "Issue 18: the replay
 * thread's hand-out"). These arrays hold 8 to 64 messages' answers a cache line, so a counting replay's
 * hand-out reads no builder; a keeping one reads it for the {@link Message} anyway.
 *
 * <p>The copy stays true because every change of those builder fields goes through a
 * {@link MessageBuilder} method that refreshes the builder's own placement ({@link #refresh}). A builder
 * placed twice (retired again before it left) is read from its newer placement, which the builder
 * refreshes; the older placement is marked to read the builder itself when it leaves, as before.
 *
 * <p>Removing from the middle (a resend reopens a message, a join) leaves a hole, skipped by everything
 * here, so a placement's position ({@code ticket}, counted since the channel began) never moves.
 */
final class RecentMessages implements Iterable<MessageBuilder> {
    /** Hand-out flags, as {@link MessageBuilder#handOutFlags} gives them. */
    static final byte EMITTED = 1;
    static final byte FINAL_AT_ACK = 2;
    /** An older placement of a builder placed again: its hand-out reads the builder. */
    private static final byte READ_BUILDER = 4;

    private MessageBuilder[] builders = new MessageBuilder[16];
    /** The ACK frame the message was counted toward ({@link MessageBuilder#ackCountedFrame}), -1 none. */
    private long[] ackFrames = new long[16];
    private byte[] flags = new byte[16];
    /** Tickets: the oldest placement not yet taken (or a hole), and one past the newest. */
    private long head;
    private long tail;
    private int size;

    private int index(long ticket) {
        return (int) ticket & (builders.length - 1);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void addLast(MessageBuilder m) {
        if (tail - head == builders.length) {
            grow();
        }
        RecentMessages before = m.recentIn;
        if (before != null && before.holds(m, m.recentTicket)) {
            int at = before.index(m.recentTicket);
            before.flags[at] |= READ_BUILDER; // the builder no longer refreshes that placement
        }
        long ticket = tail++;
        int i = index(ticket);
        builders[i] = m;
        size++;
        m.recentIn = this;
        m.recentTicket = ticket;
        ackFrames[i] = m.ackCountedFrame();
        flags[i] = m.handOutFlags();
    }

    /** Whether {@code m} still sits at {@code ticket} (not taken, removed or overwritten since). */
    private boolean holds(MessageBuilder m, long ticket) {
        return ticket >= head && ticket < tail && builders[index(ticket)] == m;
    }

    /** {@code m}'s hand-out fields changed: its newest placement, if still here, copies them again. */
    void refresh(MessageBuilder m) {
        long ticket = m.recentTicket;
        if (holds(m, ticket)) {
            int i = index(ticket);
            ackFrames[i] = m.ackCountedFrame();
            flags[i] = (byte) ((flags[i] & READ_BUILDER) | m.handOutFlags());
        }
    }

    /**
     * Takes the oldest message and hands it out to {@code conversation} as side {@code side}'s: from the
     * copies kept here, or from the builder for an older placement of a builder placed again.
     */
    void handOutFirst(Conversation conversation, int side) {
        skipHoles();
        if (size == 0) {
            throw new NoSuchElementException();
        }
        int i = index(head);
        MessageBuilder m = builders[i];
        builders[i] = null;
        head++;
        size--;
        byte f = flags[i];
        if ((f & READ_BUILDER) != 0) {
            conversation.emit(m, side);
        } else {
            conversation.handOut(m, side, ackFrames[i], f);
        }
    }

    /** Removes the oldest placement of {@code m}; false when it is not here. */
    boolean remove(MessageBuilder m) {
        for (long t = head; t < tail; t++) {
            int i = index(t);
            if (builders[i] == m) {
                builders[i] = null;
                size--;
                skipHoles();
                return true;
            }
        }
        return false;
    }

    private void skipHoles() {
        while (head < tail && builders[index(head)] == null) {
            head++;
        }
    }

    /** Twice the room, every placement at its ticket's index in the larger arrays. */
    private void grow() {
        int capacity = builders.length * 2;
        MessageBuilder[] b = new MessageBuilder[capacity];
        long[] a = new long[capacity];
        byte[] f = new byte[capacity];
        for (long t = head; t < tail; t++) {
            int from = index(t);
            int to = (int) t & (capacity - 1);
            b[to] = builders[from];
            a[to] = ackFrames[from];
            f[to] = flags[from];
        }
        builders = b;
        ackFrames = a;
        flags = f;
    }

    /** Oldest first, holes skipped. */
    @Override
    public Iterator<MessageBuilder> iterator() {
        return new Iterator<>() {
            private long next = nextFrom(head);

            private long nextFrom(long t) {
                while (t < tail && builders[index(t)] == null) {
                    t++;
                }
                return t;
            }

            @Override
            public boolean hasNext() {
                return next < tail;
            }

            @Override
            public MessageBuilder next() {
                if (next >= tail) {
                    throw new NoSuchElementException();
                }
                MessageBuilder m = builders[index(next)];
                next = nextFrom(next + 1);
                return m;
            }
        };
    }
}
