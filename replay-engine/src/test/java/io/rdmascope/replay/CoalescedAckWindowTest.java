package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The coalesced-ACK window (issue 18 finds a slot by bisection while ACKs came in frame order, by a scan
 * after one did not): what it reports must be what counting each ACK's messages by hand gives, whether the
 * message undone is still in the window, left it, or belongs to an ACK met out of order.
 */
class CoalescedAckWindowTest {
    private static final class Collect implements ReplayListener {
        final List<Observation> observations = new ArrayList<>();

        @Override
        public void message(Message message) {
        }

        @Override
        public void observation(Observation observation) {
            observations.add(observation);
        }
    }

    private static Map<Long, Integer> coalesced(Collect c) {
        Map<Long, Integer> byFrame = new TreeMap<>();
        for (Observation o : c.observations) {
            if (o instanceof Observation.CoalescedAck a) {
                byFrame.put(a.frame(), a.messages());
            }
        }
        return byFrame;
    }

    private static MessageBuilder message(long frame) {
        return new MessageBuilder(MessageKind.SEND, (int) frame, (int) frame, frame, frame * 1_000);
    }

    private static void run(boolean outOfOrder) {
        Collect collect = new Collect();
        Conversation c = new Conversation("1", Transport.RC, new Address(Address.IPV4, 0, 1), new Address(Address.IPV4, 0, 2),
                collect, ReplayLimits.defaults(), new Conversation.CaptureState());
        Map<Long, Integer> expected = new TreeMap<>();
        List<MessageBuilder> first = new ArrayList<>();
        // 200 ACKs, each completing three messages: the window of 64 slots overflows many times.
        for (long ack = 10; ack <= 2_000; ack += 10) {
            for (int k = 0; k < 3; k++) {
                MessageBuilder m = message(ack - 3 + k);
                c.ackCompleted(m, ack, (int) ack);
                if (k == 0) {
                    first.add(m);
                }
            }
            expected.put(ack, 3);
            if (outOfOrder && ack == 1_500) {
                // An ACK met after later ones (a held response): a slot below the highest, so scans from here on.
                MessageBuilder late = message(1_205);
                c.ackCompleted(late, 1_205, 1_205);
                MessageBuilder late2 = message(1_206);
                c.ackCompleted(late2, 1_205, 1_205);
                expected.put(1_205L, 2);
            }
        }
        // Undo the first message of every tenth ACK: the recent ones are still in the window (their count
        // goes down), the older ones left it (reported already with three).
        for (int i = 0; i < first.size(); i += 10) {
            MessageBuilder m = first.get(i);
            long ack = m.ackCountedFrame();
            c.ackUndone(m);
            if (ack > 2_000 - 10 * 64) {
                expected.put(ack, 2);
            }
        }
        c.finish(Long.MAX_VALUE);
        assertEquals(expected, coalesced(collect));
    }

    @Test
    void countsFollowEveryAckInFrameOrder() {
        run(false);
    }

    @Test
    void countsFollowEveryAckWhenOneIsMetOutOfOrder() {
        run(true);
    }
}
