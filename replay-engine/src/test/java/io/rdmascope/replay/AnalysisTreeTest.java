package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analysis node's model, as the GUI would read it: every item names its analysis field and the
 * frame it links to. rc_loss_nak: a 5-packet WRITE (frames 3-6, PSN 828-832 but 830 lost before the
 * capture point), a NAK in frame 7, go-back-N resends in frames 8-10, the ACK in frame 11.
 */
class AnalysisTreeTest {
    /** The rc_loss_nak capture's PSNs by frame, as the caller of {@link AnalysisTree#of} supplies them. */
    private static final Map<Long, Integer> PSNS = Map.of(3L, 15278828, 4L, 15278829, 5L, 15278831,
            6L, 15278832, 8L, 15278830, 9L, 15278831, 10L, 15278832);

    private static List<AnalysisTree.Item> flatten(List<AnalysisTree.Item> items) {
        List<AnalysisTree.Item> out = new ArrayList<>();
        for (AnalysisTree.Item i : items) {
            out.add(i);
            out.addAll(flatten(i.children()));
        }
        return out;
    }

    private static long linkOf(List<AnalysisTree.Item> items, String labelStart) {
        return flatten(items).stream().filter(i -> i.label().startsWith(labelStart)).findFirst()
                .orElseThrow(() -> new AssertionError("no item " + labelStart + " in " + items)).link();
    }

    @Test
    void aResendLinksToTheFrameItRepeatsTheNakItAnswersAndItsMessagesFrames() throws IOException {
        FrameAnalysis a = FrameAnalysis.of(TestReplays.scenario("rc_loss_nak"));
        List<AnalysisTree.Item> items = AnalysisTree.of(a, 9, f -> PSNS.getOrDefault(f, -1));
        assertEquals(5, linkOf(items, "[Retransmission of frame"));
        assertEquals(7, linkOf(items, "[Answers the NAK"));
        assertEquals(3, linkOf(items, "[First frame"));
        assertEquals(11, linkOf(items, "[Last frame"));
        assertEquals(11, linkOf(items, "[Response in frame"));
        assertTrue(flatten(items).stream().anyMatch(i -> "rdmascope.analysis.retransmission".equals(i.field())));
        assertTrue(flatten(items).stream().anyMatch(i -> "rdmascope.message.number".equals(i.field())
                && i.label().equals("[Message 2: WRITE, completed]")), items.toString());
    }

    @Test
    void aResendOfAPacketLostBeforeTheCapturePointNamesNoEarlierFrame() throws IOException {
        FrameAnalysis a = FrameAnalysis.of(TestReplays.scenario("rc_loss_nak"));
        List<AnalysisTree.Item> items = AnalysisTree.of(a, 8, f -> PSNS.getOrDefault(f, -1));
        assertTrue(flatten(items).stream().noneMatch(i -> i.label().startsWith("[Retransmission of frame")),
                items.toString());
        assertEquals(7, linkOf(items, "[Answers the NAK"));
    }

    @Test
    void theAckLinksBackToTheRequestAndAFrameTheReplayNeverSawHasNoNode() throws IOException {
        FrameAnalysis a = FrameAnalysis.of(TestReplays.scenario("rc_loss_nak"));
        List<AnalysisTree.Item> ack = AnalysisTree.of(a, 11, f -> -1);
        assertEquals(3, linkOf(ack, "[Response to frame"));
        assertEquals(List.of(), AnalysisTree.of(a, 1_000_000, f -> -1));
    }
}
