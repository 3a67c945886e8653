package io.rdmascope.gui.filter;

import io.rdmascope.replay.AnalysisFields;
import io.rdmascope.gui.model.DisplayFilterCompiler;
import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FilterSyntaxException;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The filter bar's view model: validation as you type, applying, history. */
class FilterBarViewModelTest {
    private final List<FrameFilter> applied = new ArrayList<>();

    private FilterBarViewModel bar(FilterCompiler compiler, Settings settings) {
        return new FilterBarViewModel(compiler, settings, applied::add);
    }

    private FilterBarViewModel bar() {
        return bar(new DisplayFilterCompiler(new AnalysisFields()), Settings.inMemory());
    }

    @Test
    void anEmptyBarIsNeitherGreenNorRed() {
        FilterBarViewModel vm = bar();
        assertEquals(FilterBarViewModel.State.EMPTY, vm.state().get());
    }

    @Test
    void aFilterThatCompilesIsValidWhileTyped() {
        FilterBarViewModel vm = bar();
        vm.text().set("infiniband.bth.opcode == 17");
        assertEquals(FilterBarViewModel.State.VALID, vm.state().get());
        assertEquals("", vm.error().get());
        assertTrue(applied.isEmpty(), "typing applies nothing");
    }

    @Test
    void aFilterThatDoesNotCompileIsInvalidWithItsErrorAndColumn() {
        FilterBarViewModel vm = bar();
        vm.text().set("infiniband.bth.opcode == ");
        assertEquals(FilterBarViewModel.State.INVALID, vm.state().get());
        assertEquals(26, vm.errorColumn().get());
        assertTrue(vm.error().get().startsWith("column 26: "), vm.error().get());
        assertFalse(vm.apply());
        assertTrue(applied.isEmpty());
    }

    @Test
    void anUnknownFieldIsAnError() {
        FilterBarViewModel vm = bar();
        vm.text().set("infiniband.bth.opcod == 17");
        assertEquals(FilterBarViewModel.State.INVALID, vm.state().get());
        assertEquals(1, vm.errorColumn().get());
    }

    @Test
    void replayFieldsAreKnownBeforeTheReplayHasRun() {
        FilterBarViewModel vm = bar();
        vm.text().set("rdmascope.analysis.retransmission || rdmascope.message.kind == \"READ\"");
        assertEquals(FilterBarViewModel.State.VALID, vm.state().get(), vm.error().get());
    }

    @Test
    void applyingHandsTheCompiledFilterOnAndRemembersIt() {
        FilterBarViewModel vm = bar();
        assertTrue(vm.apply("infiniband.bth.opcode == 17"));
        assertEquals(1, applied.size());
        assertEquals("infiniband.bth.opcode == 17", applied.get(0).text());
        assertEquals("infiniband.bth.opcode == 17", vm.appliedText().get());
        assertEquals(List.of("infiniband.bth.opcode == 17"), vm.history());
    }

    @Test
    void historyIsNewestFirstWithoutRepeatsAndBounded() {
        FilterBarViewModel vm = bar();
        vm.apply("frame.number == 1");
        vm.apply("frame.number == 2");
        vm.apply("frame.number == 1");
        assertEquals(List.of("frame.number == 1", "frame.number == 2"), vm.history());
        for (int i = 0; i < 40; i++) {
            vm.apply("frame.number == " + (100 + i));
        }
        assertEquals(FilterBarViewModel.HISTORY, vm.history().size());
        assertEquals("frame.number == 139", vm.history().get(0));
    }

    @Test
    void historySurvivesARestart(@TempDir Path dir) {
        Path file = dir.resolve("gui.properties");
        bar(new DisplayFilterCompiler(new AnalysisFields()), Settings.load(file)).apply("infiniband");
        FilterBarViewModel again = bar(new DisplayFilterCompiler(new AnalysisFields()), Settings.load(file));
        assertEquals(List.of("infiniband"), again.history());
    }

    @Test
    void clearingShowsEveryFrame() {
        FilterBarViewModel vm = bar();
        vm.apply("infiniband");
        vm.clear();
        assertTrue(applied.get(applied.size() - 1).matchesEverything());
        assertEquals("", vm.appliedText().get());
    }

    @Test
    void preparingPutsTextInTheBarWithoutApplyingIt() {
        FilterBarViewModel vm = bar();
        vm.prepare("ip.src == 10.0.0.1");
        assertEquals("ip.src == 10.0.0.1", vm.text().get());
        assertTrue(applied.isEmpty());
        vm.prepareAnd("infiniband.bth.opcode == 17");
        assertEquals("(ip.src == 10.0.0.1) && infiniband.bth.opcode == 17", vm.text().get());
    }

    @Test
    void anyCompilerWillDoForTheBar() {
        FilterCompiler stub = text -> {
            if (text.contains("?")) {
                throw new FilterSyntaxException(text.indexOf('?') + 1, "no question marks");
            }
            return FrameFilter.all();
        };
        FilterBarViewModel vm = bar(stub, Settings.inMemory());
        vm.text().set("abc?");
        assertEquals(4, vm.errorColumn().get());
        assertEquals("column 4: no question marks", vm.error().get());
    }
}
