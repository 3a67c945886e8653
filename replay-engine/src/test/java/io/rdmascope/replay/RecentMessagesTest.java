package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The recent messages hand a message out from the copies of its hand-out fields they keep (issue 18), so
 * what a conversation reports must be what reading every builder at hand-out gives, whatever happened to
 * the builder while it waited: completed, counted toward an ACK and taken back, reopened and placed again,
 * removed, placed twice, handed out before. Two identical pools of builders go through the same random
 * steps, one kept in {@link RecentMessages}, the other in the {@code ArrayDeque} the channel used before,
 * handed out by {@link Conversation#emit} (which reads the builder); messages, counts and coalesced-ACK
 * observations must agree, for a listener that keeps messages and for one that only counts.
 */
class RecentMessagesTest {
    private static final class Collect implements ReplayListener {
        final boolean keeps;
        final List<Object> seen = new ArrayList<>();

        Collect(boolean keeps) {
            this.keeps = keeps;
        }

        @Override
        public boolean keepsMessages() {
            return keeps;
        }

        @Override
        public void messageCounted() {
            seen.add("counted");
        }

        @Override
        public void message(Message message) {
            seen.add(message);
        }

        @Override
        public void observation(Observation observation) {
            seen.add(observation);
        }
    }

    private static Conversation conversation(Collect listener) {
        return new Conversation("1", Transport.RC, new Address(Address.IPV4, 0, 1), new Address(Address.IPV4, 0, 2),
                listener, ReplayLimits.defaults(), new Conversation.CaptureState());
    }

    /** One step on a builder, the same on both pools. */
    private static void mutate(int what, MessageBuilder m, Conversation c, long frame) {
        switch (what) {
            case 0 -> {
                m.completionAckPsn((int) frame);
                c.ackCompleted(m, frame, (int) frame);
                m.finish(Message.COMPLETED, frame, frame * 10);
            }
            case 1 -> m.finish(Message.COMPLETED, frame, frame * 10); // completed by something else than its ACK
            case 2 -> m.finish(Message.FAILED, 0, 0);
            case 3 -> c.ackUndone(m);
            case 4 -> m.reopen();
            case 5 -> m.completionAckPsn(-1);
            default -> c.ackCompleted(m, frame, (int) frame);
        }
    }

    private static List<Object> replay(long seed, boolean keeps, boolean recentMessages) {
        Random random = new Random(seed);
        Collect listener = new Collect(keeps);
        Conversation c = conversation(listener);
        MessageBuilder[] pool = new MessageBuilder[12];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new MessageBuilder(MessageKind.SEND, i, i, i + 1, (i + 1) * 10L);
        }
        RecentMessages recent = new RecentMessages();
        ArrayDeque<MessageBuilder> before = new ArrayDeque<>();
        long frame = 100;
        for (int step = 0; step < 600; step++) {
            int op = random.nextInt(10);
            MessageBuilder m = pool[random.nextInt(pool.length)];
            frame += 1 + random.nextInt(3);
            if (op < 3) {
                if (recentMessages) {
                    recent.addLast(m);
                } else {
                    before.addLast(m);
                }
            } else if (op < 5) {
                listener.seen.add(recentMessages ? recent.remove(m) : before.remove(m));
            } else if (op < 8) {
                // ACK frames shared by several messages (a coalesced ACK), now and then one met late
                long ack = frame / 8 * 8 - (random.nextInt(4) == 0 ? 8 : 0);
                mutate(random.nextInt(7), m, c, ack);
            } else if (recentMessages ? !recent.isEmpty() : !before.isEmpty()) {
                if (recentMessages) {
                    recent.handOutFirst(c, 0);
                } else {
                    c.emit(before.pollFirst(), 0);
                }
            }
            listener.seen.add(recentMessages ? recent.size() : before.size());
            if (recentMessages) {
                List<MessageBuilder> order = new ArrayList<>();
                recent.forEach(order::add);
                listener.seen.add(order.stream().map(b -> b.firstPsn).toList());
            } else {
                listener.seen.add(before.stream().map(b -> b.firstPsn).toList());
            }
        }
        while (recentMessages ? !recent.isEmpty() : !before.isEmpty()) {
            if (recentMessages) {
                recent.handOutFirst(c, 0);
            } else {
                c.emit(before.pollFirst(), 0);
            }
        }
        c.finish(frame);
        return listener.seen;
    }

    @Test
    void handsOutWhatReadingEachBuilderGives() {
        for (long seed = 1; seed <= 300; seed++) {
            for (boolean keeps : new boolean[] {true, false}) {
                List<Object> expected = replay(seed, keeps, false);
                List<Object> actual = replay(seed, keeps, true);
                int at = 0;
                while (at < Math.min(expected.size(), actual.size()) && expected.get(at).equals(actual.get(at))) {
                    at++;
                }
                String where = "seed " + seed + (keeps ? ", keeping" : ", counting") + ", first difference at " + at;
                assertEquals(expected.size(), actual.size(), where);
                assertEquals(expected.subList(at, Math.min(at + 3, expected.size())),
                        actual.subList(at, Math.min(at + 3, actual.size())), where);
            }
        }
    }
}
