package io.rdmascope.gui.findings;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.findings.FindingsViewModel.PointFrame;
import io.rdmascope.gui.findings.FindingsViewModel.Row;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The findings of several vantage points (issue 20): where the points disagree is among them, and every
 * finding names each point's own frames, which select the packet they are sightings of. The committed run
 * {@code vantage_rc}: {@code rdmascope check --union} on its three captures reports 19 warnings, two of them
 * IB-VP-LOSS-001 (frames responder:40 and switch:45=responder:44).
 */
class VantageFindingsTest {

    private static MainViewModel union() {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.vantage("vantage_rc", "requester", "switch", "responder"));
        return vm;
    }

    private static List<Row> rows(MainViewModel vm, String rule) {
        return vm.findings().rows().stream().filter(r -> r.rule().equals(rule)).toList();
    }

    @Test
    void thePointsDisagreementsAreFindingsAsCheckCountsThem() {
        MainViewModel vm = union();
        assertTrue(vm.findings().vantage().get());
        assertEquals("0 errors, 19 warnings, 0 notes", vm.findings().counts().get());
        List<Row> loss = rows(vm, "IB-VP-LOSS-001");
        assertEquals(List.of("responder:40", "switch:45=responder:44"), loss.stream().map(Row::vantageText).sorted().toList());
        for (Row r : loss) {
            assertFalse(r.explanation().isBlank());
            assertTrue(r.detail().contains("never at"), r.detail());
            assertTrue(r.conversation() != null, r.toString());
        }
        // what the conversation's diagnosis tells includes them
        Row ack = loss.stream().filter(r -> r.vantageText().equals("responder:40")).findFirst().orElseThrow();
        assertEquals("2", ack.conversation());
        vm.conversations().selected().set("2");
        assertTrue(vm.diagnosis().lines().stream().anyMatch(l -> l.text().contains("IB-VP-LOSS-001")
                && l.text().contains("seen at responder (frame 40), never at switch")
                && l.frames().contains((int) ack.frame())), vm.diagnosis().lines().toString());
    }

    @Test
    void everyFindingNamesEachPointsFramesAndTheyLeadToThePacket() {
        MainViewModel vm = union();
        for (Row r : vm.findings().rows()) {
            assertFalse(r.points().isEmpty(), r.rule() + " at union frame " + r.frame());
            for (PointFrame p : r.points()) {
                assertTrue(p.unionFrame() > 0, p.text());
            }
        }
        Row atomicAck = rows(vm, "IB-VP-LOSS-001").stream().filter(r -> r.vantageText().startsWith("switch:45"))
                .findFirst().orElseThrow();
        vm.findings().choose(atomicAck);
        assertEquals(atomicAck.frame(), vm.selection().current().get());
        vm.selection().select(1);
        PointFrame responder = atomicAck.points().get(1);
        assertEquals("responder:44", responder.text());
        vm.findings().choose(responder);
        assertEquals(atomicAck.frame(), vm.selection().current().get());
        assertEquals(List.of("responder", "switch"), vm.sightings().rows().stream().map(s -> s.point()).toList());

        // a retransmission seen everywhere names its frame at all three points
        Row retransmission = rows(vm, "IB-RC-PSN-003").get(0);
        assertEquals(3, retransmission.points().size(), retransmission.vantageText());
        PointFrame atSwitch = retransmission.points().get(1);
        vm.findings().choose(atSwitch);
        assertEquals(retransmission.frame(), vm.selection().current().get());
    }

    @Test
    void oneCaptureHasNoPointFrames() {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario("rc_loss_nak"));
        assertFalse(vm.findings().vantage().get());
        assertTrue(vm.findings().rows().stream().allMatch(r -> r.points().isEmpty() && r.vantageText().isEmpty()));
        assertTrue(vm.findings().rows().stream().noneMatch(r -> r.rule().startsWith("IB-VP-")));
    }
}
