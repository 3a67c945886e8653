package io.rdmascope.rules;

import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Observation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Rules#evaluate}: per-conversation summaries and root-cause marks. */
class RulesTest {

    @Test
    void packetsMissingFromTheCaptureAreOneFindingPerConversation() {
        List<Observation> observations = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            observations.add(new Observation.MissingFromCapture(10 + i, "1", 1000 + i));
        }
        observations.add(new Observation.MissingFromCapture(500, "2", 7));
        List<Finding> findings = Rules.evaluate(observations, RulesConfig.defaults());
        assertEquals(2, findings.size());
        Finding one = findings.get(0);
        assertEquals("1", one.conversation());
        assertEquals(Rules.SUMMARY_FRAMES, one.frames().size(), "frames listed up to the cap");
        assertEquals(10L, one.firstFrame());
        assertTrue(one.detail().startsWith("150 packets missing from the capture"), one.detail());
        assertEquals(List.of(500L), findings.get(1).frames());
        assertFalse(findings.get(1).detail().contains("packets missing"), "a single miss keeps its own detail");
    }

    @Test
    void aConsequenceFollowsTheNewestAnomalyOfItsConversationOnly() {
        List<Observation> observations = List.of(
                new Observation.PacketLost(5, "1", 100, false),
                new Observation.Retransmission(7, "1", 100, Observation.Trigger.NAK),
                new Observation.Retransmission(8, "2", 300, Observation.Trigger.TIMEOUT), // another conversation
                new Observation.PacketLost(13, "1", 104, true),
                new Observation.MessageIncomplete(20, "1", 104, MessageKind.SEND));
        List<Finding> f = Rules.evaluate(observations, RulesConfig.defaults());
        assertTrue(f.get(0).rootCause());
        assertEquals(5L, f.get(1).causedBy());
        assertTrue(f.get(2).rootCause(), "nothing earlier in conversation 2 explains it");
        assertNull(f.get(2).causedBy());
        assertTrue(f.get(3).rootCause());
        assertEquals(13L, f.get(4).causedBy(), "the newest anomaly before it, not the first");
    }
}
