package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A builder keeps its request frames itself (issue 18): the lists it hands out must be what a list object gave. */
class MessageBuilderTest {
    private static MessageBuilder builder(long firstFrame) {
        return new MessageBuilder(MessageKind.SEND, 100, 100, firstFrame, 1_000);
    }

    @Test
    void framesComeOutInCaptureOrderAndAHandedOutListNeverChanges() {
        MessageBuilder one = builder(7);
        assertEquals(List.of(7), one.frameList());
        assertEquals(7, one.firstFrame());
        assertEquals(List.of(), one.responseFrameList());

        MessageBuilder m = builder(10);
        m.addFrame(12, 1_100, 101, 256);
        m.addFrame(15, 1_200, 102, 256);
        List<Integer> handedOut = m.frameList(); // shares the builder's array
        m.addFrame(16, 1_300, 103, 256); // must copy before writing
        assertEquals(List.of(10, 12, 15), handedOut);
        assertEquals(List.of(10, 12, 15, 16), m.frameList());
        assertEquals(4, m.frameCount());

        MessageBuilder late = builder(20);
        late.addFrame(21, 1_100, 101, 256);
        late.addFrame(5, 900, 99, 256); // a late FIRST, shown after later PSNs' frames
        assertEquals(List.of(5, 20, 21), late.frameList(), "sorted into capture order");
        assertEquals(5, late.firstFrame());
        assertEquals(900, late.earliestFrameNanos());

        m.addResponseFrame(30);
        m.addResponseFrame(31);
        assertEquals(List.of(30, 31), m.responseFrameList());
    }

    @Test
    void splittingMovesTheLaterPsnsFramesAndKeepsTheirOrder() {
        MessageBuilder m = builder(10);
        m.firstPayload(256);
        m.addFrame(11, 1_100, 101, 256);
        m.addFrame(12, 1_200, 102, 128);
        List<Integer> before = m.frameList();
        MessageBuilder tail = new MessageBuilder(MessageKind.SEND, 102, 102, 0, 1_000);
        m.moveFramesAfter(101, tail);
        assertEquals(List.of(10, 11, 12), before, "a list handed out before the split is unchanged");
        assertEquals(List.of(10, 11), m.frameList());
        assertEquals(List.of(12), tail.frameList());
        assertEquals(512, m.distinctBytes());
        assertEquals(128, tail.distinctBytes());
        assertEquals(102, tail.lowestPsn(-1));

        MessageBuilder joined = builder(1);
        joined.appendFrames(m);
        joined.appendFrames(tail);
        assertEquals(List.of(1, 10, 11, 12), joined.frameList());
    }
}
