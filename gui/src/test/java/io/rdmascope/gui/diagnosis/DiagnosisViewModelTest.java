package io.rdmascope.gui.diagnosis;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.diagnosis.DiagnosisViewModel.Kind;
import io.rdmascope.gui.diagnosis.DiagnosisViewModel.Line;
import io.rdmascope.gui.diagnosis.DiagnosisViewModel.Part;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Diagnosis pane's account of the selected conversation, without a screen. */
class DiagnosisViewModelTest {

    private static MainViewModel opened(String scenario) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario(scenario));
        return vm;
    }

    private static int indexOf(List<Line> lines, Kind kind, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).kind() == kind && lines.get(i).text().contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no " + kind + " line with '" + text + "' in " + lines);
    }

    @Test
    void thePsnReuseStoryIsToldInOrder() {
        MainViewModel vm = opened("broken_psn_reuse");
        vm.conversations().selected().set("2");
        List<Line> lines = vm.diagnosis().lines();
        assertEquals(Kind.HEADER, lines.get(0).kind());
        assertTrue(lines.get(0).text().startsWith("Conversation 2: RC 10.0.0.1 QP 0x00143a"), lines.get(0).text());
        int read = indexOf(lines, Kind.BEFORE, "READ PSN 1-3");
        int reuse = indexOf(lines, Kind.FIRST, "IB-RC-PSN-004");
        int ack = indexOf(lines, Kind.THEN, "IB-RC-MATCH-002");
        int stall = indexOf(lines, Kind.THEN, "IB-RC-STALL-001");
        int end = indexOf(lines, Kind.END, "1 failed");
        assertTrue(read < reuse && reuse < ack && ack < stall && stall < end, lines.toString());
        assertEquals(end - 1, stall, "the stall is the last consequence");
        assertTrue(lines.get(stall).text().contains("3.000 s"), lines.get(stall).text());
        assertEquals("error", lines.get(reuse).severity());
        assertEquals("first", lines.get(reuse).label());
        assertEquals("then", lines.get(ack).label());
        assertEquals("", lines.get(stall).label());
        // frames are links: the READ's first frame and its completion; the reuse's frame, then the READ it reused
        assertEquals(List.of(8, 11), lines.get(read).frames());
        assertEquals(List.of(12, 8), lines.get(reuse).frames());
    }

    @Test
    void theAccountReadsAsRdmascopeExplainPrintsIt() throws IOException {
        MainViewModel vm = opened("broken_psn_reuse");
        String golden = Files.readString(Samples.root().resolve("sample-pcaps/cases/broken_psn_reuse/explain.txt"));
        StringBuilder both = new StringBuilder();
        for (String id : List.of("1", "2")) {
            vm.conversations().selected().set(id);
            both.append(vm.diagnosis().text());
        }
        assertEquals(golden, both.toString());
    }

    @Test
    void followingAFrameLinkSelectsTheFrame() {
        MainViewModel vm = opened("broken_psn_reuse");
        vm.conversations().selected().set("2");
        Line first = vm.diagnosis().lines().stream().filter(l -> l.kind() == Kind.FIRST).findFirst().orElseThrow();
        vm.diagnosis().choose(first.frames().get(0));
        assertEquals(12, vm.selection().current().get());
        assertEquals(12, vm.details().frame().get());
    }

    @Test
    void aQuietConversationIsOneLine() {
        MainViewModel vm = opened("broken_psn_reuse");
        vm.conversations().selected().set("1");
        List<Line> lines = vm.diagnosis().lines();
        assertEquals(1, lines.size(), lines.toString());
        assertEquals(Kind.QUIET, lines.get(0).kind());
        assertTrue(lines.get(0).text().endsWith(": nothing to report; 2 messages: 2 completed."), lines.get(0).text());
    }

    @Test
    void theAccountFollowsTheSelectedConversationAndClearsWithTheCapture() {
        MainViewModel vm = opened("broken_psn_reuse");
        vm.conversations().selected().set("2");
        assertTrue(vm.diagnosis().lines().size() > 1);
        vm.conversations().selected().set(null);
        assertTrue(vm.diagnosis().lines().isEmpty());
        assertTrue(vm.diagnosis().placeholder().get().startsWith("Select a conversation"));
        vm.conversations().selected().set("2");
        vm.diagnosis().show(null);
        assertTrue(vm.diagnosis().lines().isEmpty());
        assertTrue(vm.diagnosis().placeholder().get().startsWith("No diagnosis yet"));
    }

    @Test
    void onlyFramesOfTheCaptureBecomeLinks() {
        assertEquals(List.of(new Part("see ", 0), new Part("frame 3", 3), new Part(" and frame 30", 0)),
                DiagnosisViewModel.parts("see frame 3 and frame 30", 20));
        assertEquals(List.of(new Part("frame 0; frames 4", 0)), DiagnosisViewModel.parts("frame 0; frames 4", 20));
    }
}
