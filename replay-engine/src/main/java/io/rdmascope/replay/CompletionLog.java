package io.rdmascope.replay;

import java.util.Arrays;

/**
 * Completed messages not yet added to their conversation's statistics, shared by every conversation of
 * one replay and added conversation by conversation when full or when statistics are read.
 *
 * <p>Why: with many conversations interleaved, each completed message went to another conversation's
 * counters, latency samples and goodput series than the message before, the first touch of those lines
 * in a while ({@code ConversationStats.completed} was 3-4 % of a counting replay, docs/performance.md,
 * "Issue 18: the replay thread's hand-out"). Written here in sequence and added a conversation's run at a
 * time, each line is fetched once per run instead of once per message.
 *
 * <p>The statistics come out as they would with every message added at once: a conversation's
 * completions are added in the order they came (a chain through {@link #next}, its head and tail kept
 * on the conversation's {@link ConversationStats}, which the replay has at hand), and nothing is read
 * from them before {@link #flush} (only {@link Conversation#flow} reads them).
 */
final class CompletionLog {
    private static final int DEFAULT_CAPACITY = 1024;

    private final ConversationStats[] stats;
    private final byte[] sides;
    private final byte[] kinds;
    /** The message's bytes; its latency and completion time, meaningful where {@link #completedAt} is set. */
    private final long[] bytes;
    private final long[] latencies;
    private final long[] completedAt;
    private final boolean[] completed;
    /** The same conversation's next entry, -1 at its last. */
    private final int[] next;
    private int size;

    CompletionLog() {
        this(DEFAULT_CAPACITY);
    }

    /** {@code capacity}: entries held before they are added (tests force many flushes with a few). */
    CompletionLog(int capacity) {
        stats = new ConversationStats[capacity];
        sides = new byte[capacity];
        kinds = new byte[capacity];
        bytes = new long[capacity];
        latencies = new long[capacity];
        completedAt = new long[capacity];
        completed = new boolean[capacity];
        next = new int[capacity];
    }

    /** Message {@code m} of side {@code side}'s requester completed (or ended) in conversation {@code s}. */
    void add(ConversationStats s, int side, MessageBuilder m) {
        int i = size++;
        stats[i] = s;
        sides[i] = (byte) side;
        kinds[i] = (byte) m.kind.ordinal();
        bytes[i] = m.bytes;
        completed[i] = m.hasCompletion();
        latencies[i] = m.latencyNanos;
        completedAt[i] = m.firstTimeNanos + m.latencyNanos;
        next[i] = -1;
        if (s.pendingTail >= 0) {
            next[s.pendingTail] = i;
        } else {
            s.pendingHead = i;
        }
        s.pendingTail = i;
        if (size == stats.length) {
            flush();
        }
    }

    /** Adds every entry to its conversation's statistics, one conversation's run at a time, in order. */
    void flush() {
        for (int i = 0; i < size; i++) {
            ConversationStats s = stats[i];
            if (s.pendingHead < 0) {
                continue; // its run was added at its first entry
            }
            for (int j = s.pendingHead; j >= 0; j = next[j]) {
                s.add(sides[j], kinds[j], bytes[j], completed[j], completedAt[j], latencies[j]);
            }
            s.pendingHead = -1;
            s.pendingTail = -1;
        }
        Arrays.fill(stats, 0, size, null);
        size = 0;
    }
}
