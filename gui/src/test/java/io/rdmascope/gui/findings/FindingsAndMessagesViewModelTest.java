package io.rdmascope.gui.findings;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.messages.MessagesViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.rules.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Findings, messages and conversations: what they list, and what choosing a row selects. */
class FindingsAndMessagesViewModelTest {

    private static MainViewModel opened(String scenario) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario(scenario));
        return vm;
    }

    @Test
    void findingsListSeverityRuleExplanationAndFrame() {
        MainViewModel vm = opened("rc_loss_nak");
        FindingsViewModel.Row nak = vm.findings().rows().stream().filter(r -> r.rule().equals("IB-RC-NAK-001"))
                .findFirst().orElseThrow();
        assertEquals(Severity.WARNING, nak.severity());
        assertEquals(7, nak.frame());
        assertEquals("1", nak.conversation());
        assertFalse(nak.explanation().isBlank());
    }

    @Test
    void findingsTellConsequencesFromRootCauses() {
        MainViewModel vm = opened("broken_psn_reuse");
        FindingsViewModel.Row reuse = vm.findings().rows().stream().filter(r -> r.rule().equals("IB-RC-PSN-004"))
                .findFirst().orElseThrow();
        FindingsViewModel.Row stall = vm.findings().rows().stream().filter(r -> r.rule().equals("IB-RC-STALL-001"))
                .findFirst().orElseThrow();
        assertNull(reuse.causedBy());
        assertEquals("", reuse.cause());
        assertEquals(12L, stall.causedBy());
        assertEquals("\u21b3 frame 12", stall.cause());
    }

    @Test
    void choosingAFindingSelectsItsFrame() {
        MainViewModel vm = opened("rc_loss_nak");
        vm.findings().choose(vm.findings().rows().get(1));
        assertEquals(7, vm.selection().current().get());
        assertEquals(7, vm.details().frame().get());
    }

    @Test
    void anErrorFindingIsCountedAsOne() {
        MainViewModel vm = opened("violation_bad_icrc");
        assertTrue(vm.findings().counts().get().startsWith("1 error,"), vm.findings().counts().get());
    }

    @Test
    void choosingAMessageSelectsAllItsFrames() {
        MainViewModel vm = opened("rc_loss_nak");
        MessagesViewModel.Row write = vm.messages().rows().get(1);
        assertEquals("WRITE", write.kind());
        assertEquals("15278828-15278832", write.psns());
        assertEquals(5120, write.bytes());
        vm.messages().choose(write);
        assertEquals(List.of(3, 4, 5, 6, 8, 9, 10, 11), vm.selection().frames().get());
        assertEquals(3, vm.selection().current().get());
    }

    @Test
    void messagesCanBeLimitedToOneConversation() {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.mixed());
        int all = vm.messages().rows().size();
        vm.messages().conversation().set("1");
        assertTrue(vm.messages().rows().size() < all);
        assertTrue(vm.messages().rows().stream().allMatch(r -> r.conversation().equals("1")));
        vm.messages().conversation().set(null);
        assertEquals(all, vm.messages().rows().size());
    }

    @Test
    void conversationsShowTheirSidesAndStatistics() {
        MainViewModel vm = opened("rc_loss_nak");
        var row = vm.conversations().rows().get(0);
        assertEquals("10.0.0.1", row.addressA());
        assertEquals("0x00de19", row.qpA());
        assertEquals("10.0.0.2", row.addressB());
        assertEquals(4, row.messages());
        assertEquals(5, row.retransmissions());
        assertEquals(2, row.naks());
        assertEquals("rdmascope.conversation == \"1\"", vm.conversations().filterForSelected());
    }

    @Test
    void theConversationFilterShowsItsMessageFrames() {
        MainViewModel vm = opened("rc_loss_nak");
        vm.filterBar().apply(vm.conversations().filterForSelected());
        assertTrue(vm.packetList().rows().size() > 0);
        assertTrue(vm.packetList().rows().size() <= 22);
    }
}
