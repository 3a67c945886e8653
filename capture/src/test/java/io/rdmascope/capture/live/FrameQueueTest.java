package io.rdmascope.capture.live;

import io.rdmascope.frame.Frame;
import io.rdmascope.frame.LinkTypes;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The capture-to-consumer queue never blocks the capture thread and counts every frame it refuses. */
class FrameQueueTest {
    private static Frame frame(int bytes) {
        return Frame.of(1, 0, LinkTypes.ETHERNET, new byte[bytes]);
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() throws InterruptedException {
        FrameQueue q = new FrameQueue(3, 1 << 20);
        for (int i = 0; i < 3; i++) {
            assertTrue(q.offer(frame(60)));
        }
        assertFalse(q.offer(frame(60)));
        assertFalse(q.offer(frame(60)));
        assertEquals(2, q.dropped());
        assertEquals(3, q.accepted());
        assertEquals(180, q.bytes());
        // Room again once the consumer takes one; the drop count stays.
        q.poll(1, TimeUnit.MILLISECONDS);
        assertTrue(q.offer(frame(60)));
        assertEquals(2, q.dropped());
        assertEquals(4, q.accepted());
    }

    @Test
    void theByteBoundDropsTooButAFrameBiggerThanTheBoundPassesAnEmptyQueue() {
        FrameQueue q = new FrameQueue(100, 1000);
        assertTrue(q.offer(frame(600)));
        assertFalse(q.offer(frame(600)), "1200 bytes would exceed the 1000-byte bound");
        assertEquals(600, q.bytes(), "a refused frame's bytes are not kept");
        assertTrue(q.offer(frame(400)));
        assertEquals(1000, q.bytes());
        q.poll();
        q.poll();
        assertEquals(0, q.bytes());
        Frame huge = frame(5000);
        assertTrue(q.offer(huge), "alone in the queue, one oversized frame is accepted");
        assertSame(huge, q.poll());
        assertEquals(1, q.dropped());
    }

    @Test
    void aSlowConsumerSeesEveryAcceptedFrameInOrderAndAcceptedPlusDroppedIsEverything() throws Exception {
        FrameQueue q = new FrameQueue(16, 1 << 20);
        int total = 20_000;
        long[] taken = new long[1];
        Thread consumer = new Thread(() -> {
            long expected = 1;
            try {
                while (true) {
                    Frame f = q.poll(200, TimeUnit.MILLISECONDS);
                    if (f == null) {
                        break;
                    }
                    assertTrue(f.number() >= expected, "order");
                    expected = f.number() + 1;
                    taken[0]++;
                    if (taken[0] % 64 == 0) {
                        Thread.sleep(1);   // slower than the producer
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        consumer.start();
        for (int i = 1; i <= total; i++) {
            q.offer(Frame.of(i, 0, LinkTypes.ETHERNET, new byte[64]));
        }
        consumer.join(10_000);
        assertTrue(q.dropped() > 0, "the consumer was slower: some frames must have been dropped");
        assertEquals(total, q.accepted() + q.dropped());
        assertEquals(q.accepted(), taken[0]);
        assertNull(q.poll());
    }
}
