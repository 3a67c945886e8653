package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link ReplayResult#sortByFirstFrame} gives the order the comparator it replaced gave (first request
 * frame, then first PSN as a signed int, no frame last, ties in hand-out order), on random lists with
 * many ties, empty frame lists, negative and extreme PSNs, and lists already in order.
 */
class MessageOrderTest {
    private static final Comparator<Message> REPLACED = Comparator.comparingInt((Message m) ->
            m.frames().isEmpty() ? Integer.MAX_VALUE : m.frames().get(0)).thenComparingInt(Message::firstPsn);

    @Test
    void theSameOrderAsTheComparatorItReplaced() {
        Random random = new Random(18);
        for (int round = 0; round < 400; round++) {
            int size = random.nextInt(round < 50 ? 40 : 3000);
            int frames = 1 + random.nextInt(round % 3 == 0 ? 5 : 100_000);
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                int psn = switch (random.nextInt(6)) {
                    case 0 -> Integer.MIN_VALUE;
                    case 1 -> -1 - random.nextInt(3);
                    case 2 -> Integer.MAX_VALUE;
                    default -> random.nextInt(4);
                };
                List<Integer> at = random.nextInt(8) == 0 ? List.of()
                        : List.of(round % 5 == 0 ? Integer.MAX_VALUE - random.nextInt(2) : random.nextInt(frames));
                messages.add(message(i, psn, at));
            }
            if (round % 7 == 0) {
                messages.sort(REPLACED); // already in order: the early return keeps it
            }
            List<Message> expected = new ArrayList<>(messages);
            expected.sort(REPLACED);
            ReplayResult.sortByFirstFrame(messages);
            assertEquals(expected.size(), messages.size());
            for (int i = 0; i < expected.size(); i++) {
                assertSame(expected.get(i), messages.get(i), "round " + round + ", position " + i);
            }
        }
    }

    private static Message message(int id, int firstPsn, List<Integer> frames) {
        return new Message(Integer.toString(id), "a", "b", 1, 2, MessageKind.SEND, Transport.RC, firstPsn, firstPsn,
                0, frames, List.of(), null, null, Message.COMPLETED, null, null, null);
    }
}
