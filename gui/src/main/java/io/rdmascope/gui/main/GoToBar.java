package io.rdmascope.gui.main;

import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;

import java.util.function.Function;

/**
 * Go → Go to Packet (Ctrl+G) as Wireshark shows it: a small bar with the frame number, Enter goes
 * there, Escape closes it; a number that is not a shown frame says why and keeps the bar open.
 */
final class GoToBar extends HBox {
    private final TextField number = new TextField();
    private final Label error = new Label();

    /** @param goTo selects a frame; returns why it cannot, or null */
    GoToBar(Function<Integer, String> goTo) {
        super(6);
        setId("goToBar");
        getStyleClass().add("goto-bar");
        setAlignment(Pos.CENTER_LEFT);
        number.setId("goToNumber");
        number.setPrefColumnCount(10);
        error.setId("goToError");
        error.getStyleClass().addAll("find-message", "error");
        Button go = new Button("Go to packet");
        go.setOnAction(e -> go(goTo));
        Button cancel = new Button("Cancel");
        cancel.setOnAction(e -> hide());
        number.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                go(goTo);
                e.consume();
            } else if (e.getCode() == KeyCode.ESCAPE) {
                hide();
                e.consume();
            }
        });
        getChildren().addAll(new Label("Go to packet:"), number, go, cancel, error);
        hide();
    }

    private void go(Function<Integer, String> goTo) {
        String t = number.getText().trim();
        int n;
        try {
            n = Integer.parseInt(t);
        } catch (NumberFormatException e) {
            error.setText("Not a frame number: " + t);
            return;
        }
        String why = goTo.apply(n);
        if (why == null) {
            hide();
        } else {
            error.setText(why);
        }
    }

    void show() {
        error.setText("");
        setVisible(true);
        setManaged(true);
        number.requestFocus();
        number.selectAll();
    }

    void hide() {
        setVisible(false);
        setManaged(false);
    }
}
