package io.rdmascope.gui.find;

import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * Wireshark's find bar (Edit → Find Packet, Ctrl+F) under the filter bar: what to look for
 * (display filter, string, hex value), where a string is looked for, the text, Find (Enter) and
 * Find Previous (Shift+Enter), and what happened. Escape or ✕ closes it.
 */
public final class FindBarView extends HBox {
    private final TextField text = new TextField();

    public FindBarView(FindViewModel vm) {
        super(6);
        getStyleClass().add("find-bar");
        setId("findBar");
        setAlignment(Pos.CENTER_LEFT);
        ChoiceBox<FindViewModel.Mode> mode = new ChoiceBox<>();
        mode.setId("findMode");
        mode.getItems().setAll(FindViewModel.Mode.values());
        mode.valueProperty().bindBidirectional(vm.mode());
        ChoiceBox<FindViewModel.Where> where = new ChoiceBox<>();
        where.setId("findWhere");
        where.getItems().setAll(FindViewModel.Where.values());
        where.valueProperty().bindBidirectional(vm.where());
        where.visibleProperty().bind(vm.mode().isEqualTo(FindViewModel.Mode.STRING));
        where.managedProperty().bind(where.visibleProperty());
        CheckBox caseSensitive = new CheckBox("Case sensitive");
        caseSensitive.selectedProperty().bindBidirectional(vm.caseSensitive());
        caseSensitive.visibleProperty().bind(where.visibleProperty());
        caseSensitive.managedProperty().bind(where.visibleProperty());
        text.setId("findText");
        text.textProperty().bindBidirectional(vm.text());
        text.promptTextProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> switch (vm.mode().get()) {
            case DISPLAY_FILTER -> "a display filter, e.g. infiniband.aeth.syndrome == 0x60";
            case STRING -> "text in the " + (vm.where().get() == FindViewModel.Where.PACKET_BYTES ? "bytes" : "packet list");
            case HEX -> "bytes, e.g. 0c:00:ff:ff";
        }, vm.mode(), vm.where()));
        HBox.setHgrow(text, Priority.ALWAYS);
        text.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                vm.find(!e.isShiftDown());
                e.consume();
            } else if (e.getCode() == KeyCode.ESCAPE) {
                hide();
                e.consume();
            }
        });
        Button find = new Button("Find");
        find.setId("findButton");
        find.setOnAction(e -> vm.find(true));
        Button previous = new Button("Previous");
        previous.setOnAction(e -> vm.find(false));
        Label message = new Label();
        message.setId("findMessage");
        message.getStyleClass().add("find-message");
        message.textProperty().bind(vm.message());
        message.textProperty().addListener((o, was, now) -> {
            boolean bad = now != null && !now.isEmpty() && !now.startsWith("Found") && !now.startsWith("Searching");
            message.getStyleClass().remove("error");
            if (bad) {
                message.getStyleClass().add("error");
            }
        });
        Button close = new Button("✕");
        close.setOnAction(e -> hide());
        getChildren().addAll(new Label("Find:"), mode, where, caseSensitive, text, find, previous, message, close);
        setVisible(false);
        setManaged(false);
    }

    /** Shows the bar with the text field focused (Ctrl+F). */
    public void show() {
        setVisible(true);
        setManaged(true);
        text.requestFocus();
        text.selectAll();
    }

    public void hide() {
        setVisible(false);
        setManaged(false);
    }

    public TextField text() {
        return text;
    }
}
