package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Completed messages reach their conversation's statistics by way of a shared log, added a
 * conversation's run at a time (issue 18): the statistics must be what adding each message at once
 * gives, in particular the goodput series, which starts at its first message and coarsens as time goes
 * on, so a conversation's completions must be added in the order they came. Random completions over a
 * few conversations, some without a completion (failed, dropped), the log small enough to fill many times,
 * and read (flushed) mid-way as well as at the end.
 */
class CompletionLogTest {
    private static final int CONVERSATIONS = 5;

    private static MessageBuilder message(Random random, long start) {
        MessageKind kind = MessageKind.values()[random.nextInt(MessageKind.values().length)];
        MessageBuilder m = new MessageBuilder(kind, 1, 1, 1, start);
        m.bytes = random.nextInt(1 << 16);
        if (random.nextInt(5) == 0) {
            m.finish(Message.FAILED, 0, 0);
        } else {
            m.finish(Message.COMPLETED, 2, start + random.nextInt(1 << 20)); // latencies past the exact range too
        }
        return m;
    }

    private static String describe(ConversationStats s) {
        Flow.Series g = s.goodput.snapshot();
        LatencyHistogram all = s.latency();
        StringBuilder b = new StringBuilder();
        b.append(Arrays.toString(s.messages)).append(Arrays.toString(s.messageBytes))
                .append(" goodput ").append(g.startNanos()).append('/').append(g.bucketNanos()).append(Arrays.toString(g.bytes()))
                .append(" latency ").append(all.count()).append(' ').append(all.min()).append(' ').append(all.max());
        for (double q : new double[] {0.5, 0.9, 0.99}) {
            b.append(' ').append(all.percentile(q));
        }
        for (LatencyHistogram h : s.latencyByKind) {
            b.append(h == null ? " -" : " " + h.count() + "/" + h.percentile(0.5) + "/" + h.max());
        }
        return b.toString();
    }

    @Test
    void statisticsAreThoseOfAddingEachMessageAtOnce() {
        for (long seed = 1; seed <= 40; seed++) {
            for (int capacity : new int[] {1, 3, 64}) {
                Random random = new Random(seed);
                CompletionLog log = new CompletionLog(capacity);
                ConversationStats[] logged = new ConversationStats[CONVERSATIONS];
                ConversationStats[] direct = new ConversationStats[CONVERSATIONS];
                for (int c = 0; c < CONVERSATIONS; c++) {
                    logged[c] = new ConversationStats();
                    direct[c] = new ConversationStats();
                }
                long time = 0;
                int messages = 5_000 + random.nextInt(3_000);
                for (int i = 0; i < messages; i++) {
                    // Bursts of one conversation and long idle stretches: the goodput series coarsens.
                    time += random.nextInt(8) == 0 ? random.nextInt(1 << 24) : random.nextInt(2_000);
                    int c = random.nextInt(4) == 0 ? 0 : random.nextInt(CONVERSATIONS);
                    int side = random.nextInt(2);
                    MessageBuilder m = message(random, time);
                    log.add(logged[c], side, m);
                    direct[c].add(side, m.kind.ordinal(), m.bytes, m.hasCompletion(), m.firstTimeNanos + m.latencyNanos,
                            m.latencyNanos);
                    if (i == messages / 2) {
                        log.flush(); // statistics read mid-way, then more completions
                        for (int k = 0; k < CONVERSATIONS; k++) {
                            assertEquals(describe(direct[k]), describe(logged[k]), "seed " + seed + ", mid-way");
                        }
                    }
                }
                log.flush();
                for (int c = 0; c < CONVERSATIONS; c++) {
                    assertEquals(describe(direct[c]), describe(logged[c]), "seed " + seed + ", capacity " + capacity);
                    assertArrayEquals(direct[c].goodput.snapshot().bytes(), logged[c].goodput.snapshot().bytes());
                }
            }
        }
    }
}
