package io.rdmascope.gui.coloring;

import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FilterSyntaxException;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.Settings;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The colouring rules and their editor: an ordered list (the first enabled match wins), each rule
 * with a display filter and two colours. Every filter is checked as it is edited; a rule whose
 * filter does not compile is kept but colours nothing. Applying hands the compiled rules to the
 * packet list and saves them.
 */
public final class ColoringRulesViewModel {
    private static final String KEY = "coloring.rules";

    private final FilterCompiler compiler;
    private final Settings settings;
    private final BiConsumer<List<ColoringRule>, List<FrameFilter>> onApply;
    private final ObservableList<ColoringRule> rules = FXCollections.observableArrayList();

    /**
     * @param onApply receives the rules and, in the same order, their compiled filters (null for a
     *                rule whose filter does not compile)
     */
    public ColoringRulesViewModel(FilterCompiler compiler, Settings settings,
                                  BiConsumer<List<ColoringRule>, List<FrameFilter>> onApply) {
        this.compiler = compiler;
        this.settings = settings;
        this.onApply = onApply;
        List<ColoringRule> saved = new ArrayList<>();
        for (String line : settings.list(KEY)) {
            ColoringRule r = ColoringRule.decode(line);
            if (r != null) {
                saved.add(r);
            }
        }
        rules.setAll(settings.has(KEY) ? saved : ColoringRule.defaults());
    }

    /** The rules in priority order (the editor edits this list; {@link #apply()} puts it in force). */
    public ObservableList<ColoringRule> rules() {
        return rules;
    }

    /** Why {@code rule}'s filter does not compile, or an empty string when it does. */
    public String errorOf(ColoringRule rule) {
        try {
            compiler.compile(rule.filter());
            return "";
        } catch (FilterSyntaxException e) {
            return e.getMessage();
        }
    }

    public void add() {
        rules.add(new ColoringRule("New rule", "infiniband", "#fff5b1", "#000000", true));
    }

    public void remove(int i) {
        if (i >= 0 && i < rules.size()) {
            rules.remove(i);
        }
    }

    public void moveUp(int i) {
        if (i > 0 && i < rules.size()) {
            rules.add(i - 1, rules.remove(i));
        }
    }

    public void moveDown(int i) {
        if (i >= 0 && i < rules.size() - 1) {
            rules.add(i + 1, rules.remove(i));
        }
    }

    public void replace(int i, ColoringRule rule) {
        if (i >= 0 && i < rules.size()) {
            rules.set(i, rule);
        }
    }

    public void toggle(int i) {
        if (i >= 0 && i < rules.size()) {
            ColoringRule r = rules.get(i);
            rules.set(i, new ColoringRule(r.name(), r.filter(), r.background(), r.foreground(), !r.enabled()));
        }
    }

    public void resetToDefaults() {
        rules.setAll(ColoringRule.defaults());
    }

    /** Compiles every rule, hands them to the packet list and saves them. */
    public void apply() {
        List<FrameFilter> compiled = new ArrayList<>(rules.size());
        for (ColoringRule r : rules) {
            FrameFilter f;
            try {
                f = r.filter().isBlank() ? null : compiler.compile(r.filter());
            } catch (FilterSyntaxException e) {
                f = null;
            }
            compiled.add(f);
        }
        onApply.accept(List.copyOf(rules), compiled);
        settings.putList(KEY, rules.stream().map(ColoringRule::encode).toList());
    }

    /** Puts the saved rules back in the editor (Cancel). */
    public void revert(List<ColoringRule> inForce) {
        rules.setAll(inForce);
    }
}
