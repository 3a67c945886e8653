package io.rdmascope.gui.ladder;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.ladder.LadderViewModel.Arrow;
import io.rdmascope.gui.ladder.LadderViewModel.Kind;
import io.rdmascope.gui.ladder.LadderViewModel.Mark;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ladder diagram's view model over the committed scenarios. */
class LadderViewModelTest {

    private static MainViewModel opened(String scenario) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario(scenario));
        return vm;
    }

    private static Set<Integer> framesWith(List<Arrow> arrows, Mark mark) {
        return arrows.stream().filter(a -> a.is(mark)).map(Arrow::frame).collect(Collectors.toSet());
    }

    @Test
    void theLossScenarioHasOneArrowPerFrame() {
        MainViewModel vm = opened("rc_loss_nak");
        List<Arrow> arrows = vm.ladder().diagram().get().arrows();
        assertEquals(22, arrows.size());
        for (int i = 0; i < 22; i++) {
            assertEquals(i + 1, arrows.get(i).frame());
        }
        assertEquals("Conversation 1: 22 frames", vm.ladder().status().get());
    }

    @Test
    void requestsGoFromAToBAndAnswersComeBack() {
        List<Arrow> arrows = opened("rc_loss_nak").ladder().diagram().get().arrows();
        assertTrue(arrows.get(0).fromA());
        assertEquals(Kind.REQUEST, arrows.get(0).kind());
        assertEquals("SEND Only PSN=15278827", arrows.get(0).label());
        assertFalse(arrows.get(1).fromA());
        assertEquals(Kind.ACK, arrows.get(1).kind());
        assertEquals("Acknowledge PSN=15278827 ACK", arrows.get(1).label());
    }

    @Test
    void retransmissionsNaksDuplicatesAndLossesAreMarked() {
        List<Arrow> arrows = opened("rc_loss_nak").ladder().diagram().get().arrows();
        assertEquals(Set.of(8, 9, 10, 16, 17), framesWith(arrows, Mark.RETRANSMISSION));
        assertEquals(Kind.NAK, arrows.get(6).kind());
        assertEquals(Kind.NAK, arrows.get(14).kind());
        assertEquals(Set.of(21), framesWith(arrows, Mark.DUPLICATE));
        assertEquals(Set.of(13), framesWith(arrows, Mark.LOST), "lost after the capture point");
        assertEquals(Set.of(5), framesWith(arrows, Mark.GAP), "a packet before frame 5 never reached the capture point");
    }

    @Test
    void rnrNaksAndCnpsAreArrowsOfTheirOwnKind() {
        assertTrue(opened("rc_rnr").ladder().diagram().get().arrows().stream().anyMatch(a -> a.kind() == Kind.RNR_NAK));
        List<Arrow> ecn = opened("congestion_ecn").ladder().diagram().get().arrows();
        assertTrue(ecn.stream().anyMatch(a -> a.kind() == Kind.CNP));
        assertTrue(ecn.stream().anyMatch(a -> a.is(Mark.ECN_CE)));
    }

    @Test
    void readResponsesAreNotRequests() {
        List<Arrow> arrows = opened("rc_read").ladder().diagram().get().arrows();
        assertTrue(arrows.stream().anyMatch(a -> a.kind() == Kind.READ_RESPONSE && !a.fromA()));
    }

    @Test
    void cmFramesJoinTheirConversation() {
        MainViewModel vm = opened("cm_lifecycle");
        List<Arrow> arrows = vm.ladder().diagram().get().arrows();
        assertTrue(arrows.stream().anyMatch(a -> a.kind() == Kind.CM && a.label().startsWith("CM: ConnectRequest")),
                arrows.toString());
    }

    @Test
    void clickingAnArrowSelectsItsFrame() {
        MainViewModel vm = opened("rc_loss_nak");
        vm.ladder().choose(6);
        assertEquals(7, vm.selection().current().get());
        assertEquals(6, vm.ladder().rowOf(7));
        assertEquals(-1, vm.ladder().rowOf(99));
    }

    @Test
    void zoomStaysWithinItsBounds() {
        LadderViewModel ladder = opened("rc_loss_nak").ladder();
        for (int i = 0; i < 50; i++) {
            ladder.zoomIn();
        }
        assertEquals(LadderViewModel.MAX_ROW, ladder.rowHeight().get());
        for (int i = 0; i < 50; i++) {
            ladder.zoomOut();
        }
        assertEquals(LadderViewModel.MIN_ROW, ladder.rowHeight().get());
        ladder.zoomReset();
        assertEquals(LadderViewModel.DEFAULT_ROW, ladder.rowHeight().get());
    }

    @Test
    void choosingAnotherConversationRedrawsTheLadder() {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.mixed());
        assertTrue(vm.conversations().rows().size() > 1);
        String second = vm.conversations().rows().get(1).id();
        vm.conversations().selected().set(second);
        assertEquals(second, vm.ladder().diagram().get().conversation());
        int[] frames = vm.analysis().get().framesOf(second);
        assertEquals(frames.length, vm.ladder().diagram().get().arrows().size());
    }
}
