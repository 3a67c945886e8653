package io.rdmascope.cli;

import io.rdmascope.replay.FrameAnalysis;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17: the replay's analysis where people look. Every analysis field works with {@code -e}
 * ({@code -T fields} and {@code -T json}), {@code rdmascope fields} lists them with type and
 * description, and {@code -V} shows each frame's {@code [RDMA analysis]} node with its links.
 */
class AnalysisColumnsTest {
    private static final String CASE = GoldenOutputTest.cases().resolve("rc_loss_nak/rc_loss_nak.pcapng").toString();

    private static List<String> column(String... fields) {
        List<String> args = new java.util.ArrayList<>(List.of("dissect", CASE, "-T", "fields", "-e", "frame.number"));
        for (String f : fields) {
            args.add("-e");
            args.add(f);
        }
        Cli run = Cli.run(args.toArray(String[]::new));
        assertEquals(0, run.status(), run.err());
        return Arrays.stream(run.out().split("\n")).toList();
    }

    @Test
    void analysisFlagsPrintWithDashEAsTheyFilterWithDashY() {
        List<String> rows = column("rdmascope.analysis.retransmission");
        List<String> flagged = rows.stream().filter(r -> r.endsWith("\t1")).map(r -> r.split("\t")[0]).toList();
        assertEquals(List.of("8", "9", "10", "16", "17"), flagged); // the frames AnalysisFilterTest's -Y keeps
        assertEquals("7\t", rows.get(6)); // absent, not 0: as tshark prints a field a frame lacks
    }

    @Test
    void messageFieldsLinkRequestsAndTheirAnswer() {
        List<String> rows = column("rdmascope.message.number", "rdmascope.message.first_frame",
                "rdmascope.message.last_frame", "rdmascope.message.response_in", "rdmascope.message.response_to",
                "rdmascope.message.kind", "rdmascope.message.status", "rdmascope.role");
        // Frame 3 opens message 2 (a WRITE resent after the NAK in frame 7); frame 11 ACKs it.
        assertEquals("3\t2\t3\t11\t11\t\tWRITE\tcompleted\trequest", rows.get(2));
        assertEquals("9\t2\t3\t11\t11\t\tWRITE\tcompleted\trequest", rows.get(8));
        assertEquals("11\t2\t3\t11\t\t3\tWRITE\tcompleted\tack", rows.get(10));
        assertEquals("7\t\t\t\t\t\t\t\tnak", rows.get(6)); // a NAK completes nothing: no message
    }

    @Test
    void jsonCarriesAnalysisFieldsLikeOthers() {
        Cli run = Cli.run("dissect", CASE, "-T", "json", "-e", "frame.number", "-e", "rdmascope.message.latency",
                "-Y", "frame.number == 11");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("\"rdmascope.message.latency\": [\n          \"0.000006020\"\n"), run.out());
    }

    @Test
    void verboseShowsTheAnalysisNodeWithLinks() {
        Cli run = Cli.run("dissect", CASE, "-V", "-Y", "frame.number == 9");
        assertEquals(0, run.status(), run.err());
        String node = run.out().substring(run.out().indexOf("[RDMA analysis]"));
        assertEquals("""
                [RDMA analysis]
                    [Conversation: 1]
                    [Role: request]
                    [Message 2: WRITE, completed]
                        [Kind: WRITE]
                        [Status: completed]
                        [First PSN: 15278828]
                        [Last PSN: 15278832]
                        [Bytes: 5120]
                        [First frame: 3]
                        [Last frame: 11]
                        [Response in frame: 11]
                        [Latency: 0.000006020 seconds]
                    [retransmission, PSN 15278831]
                        [Retransmission of frame: 5]
                        [Answers the NAK in frame: 7]
                        [Expert Info (Warning/Sequence): go-back-N after NAK]

                """, node);
    }

    @Test
    void fieldsListsEveryAnalysisFieldWithTypeAndDescription() {
        Cli run = Cli.run("fields");
        assertEquals(0, run.status(), run.err());
        for (FrameAnalysis.Field f : FrameAnalysis.allFields()) {
            assertTrue(run.out().contains("\n" + f.name() + "\tFT_"), f.name());
            assertTrue(run.out().contains(f.description()), f.name());
        }
        assertTrue(run.out().contains("rdmascope.message.response_in\tFT_FRAMENUM\t"), "frame links are FT_FRAMENUM");
    }

    @Test
    void anUnknownAnalysisFieldIsAUsageError() {
        Cli run = Cli.run("dissect", CASE, "-T", "fields", "-e", "rdmascope.analysis.retransmision");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("unknown field: rdmascope.analysis.retransmision"), run.err());
    }
}
