package io.rdmascope.gui.filter;

import javafx.collections.ListChangeListener;
import javafx.css.PseudoClass;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The display filter bar: the filter text, green while it compiles, red with the error (and, on
 * Enter, the caret at its column) while it does not; Enter or Apply applies it; the menu beside it
 * lists filters applied before.
 */
public final class FilterBarView extends HBox {
    public static final PseudoClass VALID = PseudoClass.getPseudoClass("valid");
    public static final PseudoClass INVALID = PseudoClass.getPseudoClass("invalid");

    private final FilterBarViewModel vm;
    private final TextField field = new TextField();
    private final MenuButton history = new MenuButton();
    private final Label error = new Label();

    public FilterBarView(FilterBarViewModel vm) {
        this.vm = vm;
        getStyleClass().add("filter-bar");
        setSpacing(6);
        setPadding(new Insets(4, 6, 4, 6));
        setAlignment(Pos.CENTER_LEFT);

        field.setId("filterText");
        field.getStyleClass().add("filter-text");
        field.setPromptText("Apply a display filter … <Ctrl-/>");
        field.textProperty().bindBidirectional(vm.text());
        field.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(field, Priority.ALWAYS);
        field.setOnAction(e -> applyNow());
        field.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                vm.text().set(vm.appliedText().get());
            }
        });

        history.setId("filterHistory");
        history.setTooltip(new Tooltip("Filters applied before"));
        vm.history().addListener((ListChangeListener<String>) c -> rebuildHistory());
        rebuildHistory();

        Button apply = new Button("Apply");
        apply.setId("applyFilter");
        apply.setOnAction(e -> applyNow());
        Button clear = new Button("Clear");
        clear.setId("clearFilter");
        clear.setOnAction(e -> vm.clear());

        error.setId("filterError");
        error.getStyleClass().add("filter-error");
        error.textProperty().bind(vm.error());
        error.visibleProperty().bind(vm.error().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());

        vm.state().addListener((o, was, now) -> paint(now));
        paint(vm.state().get());
        getChildren().addAll(new Label("Filter:"), field, history, apply, clear, error);
    }

    public TextField field() {
        return field;
    }

    /** Puts the caret in the filter text (Ctrl-/). */
    public void focusText() {
        field.requestFocus();
        field.end();
    }

    private void rebuildHistory() {
        history.getItems().clear();
        for (String f : vm.history()) {
            MenuItem item = new MenuItem(f);
            item.setMnemonicParsing(false);
            item.setOnAction(e -> vm.apply(f));
            history.getItems().add(item);
        }
        history.setDisable(vm.history().isEmpty());
    }

    private void applyNow() {
        if (!vm.apply()) {
            int column = vm.errorColumn().get();
            field.positionCaret(Math.max(0, Math.min(field.getLength(), column - 1)));
        }
    }

    private void paint(FilterBarViewModel.State state) {
        field.pseudoClassStateChanged(VALID, state == FilterBarViewModel.State.VALID);
        field.pseudoClassStateChanged(INVALID, state == FilterBarViewModel.State.INVALID);
        field.setTooltip(state == FilterBarViewModel.State.INVALID ? new Tooltip(vm.error().get()) : null);
    }
}
