package io.rdmascope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.rdmascope.cli.CheckCommandTest.file;
import static io.rdmascope.cli.CheckCommandTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmascope explain}, {@code check --root-causes} and the root-cause marks (issue 15). */
class ExplainCommandTest {

    /** Position of {@code needle} in {@code text}, failing when absent. */
    private static int at(String text, String needle) {
        int i = text.indexOf(needle);
        assertTrue(i >= 0, "missing '" + needle + "' in:\n" + text);
        return i;
    }

    @Test
    void thePsnReuseStoryIsToldInOrder() {
        Cli r = Cli.run("explain", file("broken_psn_reuse"), "--conversation", "2");
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        int read = at(out, "READ PSN 1-3");
        int reuse = at(out, "Request reuses a PSN (IB-RC-PSN-004, error): RC SEND Only at PSN 3");
        int ack = at(out, "ACK of a PSN never sent (IB-RC-MATCH-002, error): ack of unsent psn at PSN 16777215");
        int stall = at(out, "Queue pair stalled (IB-RC-STALL-001, error)");
        assertTrue(read < reuse && reuse < ack && ack < stall, out);
        assertTrue(out.substring(stall).contains("nothing moved for 3.000 s"), out);
        assertTrue(out.contains("unfinished: SEND PSN 3 (frame 12)"), out);
        assertFalse(out.contains("Conversation 1"), "--conversation shows only that one");
    }

    @Test
    void aConversationWithNothingToSayGetsOneLine() {
        Cli r = Cli.run("explain", file("rc_send"));
        assertEquals(0, r.status(), r.err());
        assertEquals(1, r.out().strip().split("\n").length, r.out());
        assertTrue(r.out().contains("nothing to report"), r.out());
    }

    @Test
    void jsonCarriesTheSameAccount() throws IOException {
        JsonNode root = json(Cli.run("explain", "--json", file("broken_stall_disconnect")));
        assertEquals("broken_stall_disconnect.pcapng", root.get("capture").asText());
        JsonNode c = root.get("conversations").get(0);
        List<String> keys = new ArrayList<>();
        c.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("conversation", "transport", "endpoints", "setup", "state", "firstAnomaly", "before",
                "consequences", "otherFindings", "end", "text"), keys);
        assertEquals("IB-RC-PSN-004", c.get("firstAnomaly").get("rule").asText());
        assertEquals("READ", c.get("before").get(0).get("kind").asText());
        JsonNode consequences = c.get("consequences");
        assertEquals("IB-RC-TEARDOWN-001", consequences.get(consequences.size() - 1).get("rule").asText(),
                "the teardown ends the story");
        assertEquals("IB-RC-STALL-001", consequences.get(consequences.size() - 2).get("rule").asText());
        assertEquals(1, c.get("end").get("messages").get("failed").asInt());
        assertEquals("failed", c.get("end").get("unfinished").get(0).get("status").asText());
    }

    @Test
    void anUnknownConversationIsAOneLineError() {
        Cli r = Cli.run("explain", file("rc_send"), "--conversation", "9");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("rdmascope: --conversation 9: the capture has no such conversation"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }

    @Test
    void consequencesPointAtTheirAnomalyAndCanBeLeftOutOfTheVerdict() throws IOException {
        JsonNode report = json(Cli.run("check", "--report", "json", file("rc_loss_nak")));
        List<String> marks = new ArrayList<>();
        for (JsonNode f : report.get("findings")) {
            marks.add(f.get("frames").get(0).asText() + (f.get("rootCause").asBoolean() ? " root"
                    : " after " + f.get("causedBy").asText()));
        }
        // Two losses, each with the NAK and go-back-N it caused; the fabric duplicate stands alone.
        assertEquals(List.of("5 root", "7 after 5", "8 after 5", "9 after 5", "10 after 5", "13 root", "15 after 13",
                "16 after 13", "17 after 13", "21 root"), marks);

        // In the stall story every error but the PSN reuse follows from it: with --root-causes it still
        // fails (the reuse is an error); once a rules file makes the reuse a warning, only consequences are
        // errors, and --root-causes passes the run where the plain verdict fails it.
        assertEquals(1, Cli.run("check", "--root-causes", file("broken_psn_reuse")).status());
        String warning = CheckCommandTest.resource("check/rules-psn-reuse-warning.json");
        assertEquals(1, Cli.run("check", "--rules", warning, file("broken_psn_reuse")).status());
        assertEquals(0, Cli.run("check", "--rules", warning, "--root-causes", file("broken_psn_reuse")).status());
        Cli text = Cli.run("check", file("broken_psn_reuse"));
        assertTrue(text.out().contains("first anomalies"), text.out());
        assertTrue(text.out().contains("conversation 2, frame 12: IB-RC-PSN-004 error"), text.out());
    }
}
