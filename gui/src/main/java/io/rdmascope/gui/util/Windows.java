package io.rdmascope.gui.util;

import io.rdmascope.gui.RdmascopeApp;
import javafx.geometry.Rectangle2D;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;

/** The secondary windows (statistics, Follow, preferences): same stylesheet, owned by the main window, fit to the screen. */
public final class Windows {
    private Windows() {
    }

    /** Shows {@code content} in a new window of at most {@code width}×{@code height}, never beyond the screen. */
    public static Stage show(Window owner, String title, Parent content, double width, double height) {
        Stage s = new Stage();
        if (owner != null) {
            s.initOwner(owner);
        }
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        Scene scene = new Scene(content, Math.min(width, screen.getWidth()), Math.min(height, screen.getHeight()));
        scene.getStylesheets().add(RdmascopeApp.STYLESHEET);
        s.setScene(scene);
        s.setTitle(title);
        s.show();
        return s;
    }
}
