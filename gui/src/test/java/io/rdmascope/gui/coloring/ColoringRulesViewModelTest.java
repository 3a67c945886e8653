package io.rdmascope.gui.coloring;

import io.rdmascope.replay.AnalysisFields;
import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.DisplayFilterCompiler;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Colouring rules: defaults, validation, order, persistence. */
class ColoringRulesViewModelTest {
    private final List<List<FrameFilter>> applied = new ArrayList<>();

    private ColoringRulesViewModel vm(Settings settings) {
        return new ColoringRulesViewModel(new DisplayFilterCompiler(new AnalysisFields()), settings,
                (rules, compiled) -> applied.add(compiled));
    }

    @Test
    void everyDefaultRuleCompiles() {
        ColoringRulesViewModel vm = vm(Settings.inMemory());
        for (ColoringRule r : vm.rules()) {
            assertEquals("", vm.errorOf(r), r.name());
        }
        vm.apply();
        assertTrue(applied.get(0).stream().allMatch(f -> f != null));
    }

    @Test
    void aRuleThatDoesNotCompileSaysWhyAndColoursNothing() {
        ColoringRulesViewModel vm = vm(Settings.inMemory());
        vm.rules().setAll(new ColoringRule("bad", "infiniband.bth.opcode ==", "#ffffff", "#000000", true));
        assertTrue(vm.errorOf(vm.rules().get(0)).startsWith("column 25:"));
        vm.apply();
        assertNull(applied.get(0).get(0));
    }

    @Test
    void rulesMoveUpAndDown() {
        ColoringRulesViewModel vm = vm(Settings.inMemory());
        ColoringRule first = vm.rules().get(0);
        ColoringRule second = vm.rules().get(1);
        vm.moveDown(0);
        assertEquals(second, vm.rules().get(0));
        assertEquals(first, vm.rules().get(1));
        vm.moveUp(1);
        assertEquals(first, vm.rules().get(0));
        vm.moveUp(0);
        assertEquals(first, vm.rules().get(0), "the first rule cannot go higher");
    }

    @Test
    void togglingSwitchesARuleOffAndOn() {
        ColoringRulesViewModel vm = vm(Settings.inMemory());
        assertTrue(vm.rules().get(0).enabled());
        vm.toggle(0);
        assertFalse(vm.rules().get(0).enabled());
    }

    @Test
    void appliedRulesSurviveARestart(@TempDir Path dir) {
        Path file = dir.resolve("gui.properties");
        ColoringRulesViewModel vm = vm(Settings.load(file));
        vm.rules().setAll(new ColoringRule("mine", "udp", "#123456", "#ffffff", true));
        vm.apply();
        ColoringRulesViewModel again = vm(Settings.load(file));
        assertEquals(List.of(new ColoringRule("mine", "udp", "#123456", "#ffffff", true)), again.rules());
    }

    @Test
    void aRuleLineRoundTrips() {
        ColoringRule r = new ColoringRule("a b", "ip.src == 1.2.3.4 && udp", "#010203", "#0a0b0c", false);
        assertEquals(r, ColoringRule.decode(r.encode()));
        assertNull(ColoringRule.decode("not a rule"));
        assertNotNull(ColoringRule.defaults());
    }
}
