package io.rdmascope.gui;

import io.rdmascope.gui.main.MainView;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.replay.VantageInput;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

import io.rdmascope.gui.model.VantageCapture;
import java.nio.file.Files;
import java.util.List;

/**
 * {@code rdmascope gui [FILE]}: the desktop analyzer. The launcher script puts JavaFX on the module
 * path and runs {@link #main}; everything else is built here and handed down (no service locator):
 * settings, the executors, the main view model and its view.
 *
 * <p>Pitfall: this class deliberately does not extend {@link Application}. When the main class is
 * an Application, the java launcher starts the JavaFX toolkit before {@code main} runs, so
 * {@code --help} or a friendly "no display" message would never get the chance; {@link Window} is
 * the Application.
 */
public final class RdmascopeApp {
    /** The stylesheet every window uses. */
    public static final String STYLESHEET = RdmascopeApp.class.getResource("rdmascope.css").toExternalForm();

    private RdmascopeApp() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println("usage: rdmascope gui [[NAME=]FILE ...]   (pcap, pcapng or ERF, any of them gzip-compressed;"
                    + " several files are vantage points of the same traffic, correlated into one list)");
            return;
        }
        try {
            for (VantageInput in : VantageCapture.parse(List.of(args))) {
                if (!Files.isReadable(in.file())) {
                    System.err.println("rdmascope: cannot read " + in.file());
                    System.exit(2);
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("rdmascope: " + e.getMessage());
            System.exit(2);
        }
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        boolean unixDesktop = !os.contains("win") && !os.contains("mac");
        if (unixDesktop && isBlank(System.getenv("DISPLAY")) && isBlank(System.getenv("WAYLAND_DISPLAY"))) {
            System.err.println("rdmascope: the GUI needs a display, and DISPLAY is not set "
                    + "(on a headless machine: xvfb-run ./rdmascope gui FILE)");
            System.exit(2);
        }
        Application.launch(Window.class, args);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    /** The main window's scene for {@code vm} (the TestFX tests and the screenshots build the same). */
    public static Scene createScene(MainViewModel vm) {
        Scene scene = new Scene(new MainView(vm), 1500, 920);
        scene.getStylesheets().add(STYLESHEET);
        return scene;
    }

    /**
     * Gives the main window the whole of the screen's visual bounds (the screen less task bars and
     * docks), as Wireshark opens maximised-size on first start: the packet list, the detail tree
     * and the RDMA tabs all need the room.
     */
    public static void fitToScreen(Stage stage, Rectangle2D visualBounds) {
        stage.setX(visualBounds.getMinX());
        stage.setY(visualBounds.getMinY());
        stage.setWidth(visualBounds.getWidth());
        stage.setHeight(visualBounds.getHeight());
    }

    /** The JavaFX application: one main window. */
    public static final class Window extends Application {
        @Override
        public void start(Stage stage) {
            Settings settings = Settings.load(Settings.defaultFile());
            MainViewModel vm = new MainViewModel(AppExecutors.withUi(Platform::runLater), settings);
            stage.setScene(createScene(vm));
            fitToScreen(stage, Screen.getPrimary().getVisualBounds());
            stage.titleProperty().bind(vm.title());
            stage.setOnHidden(e -> Platform.exit());
            stage.show();
            List<String> args = getParameters().getUnnamed();
            if (!args.isEmpty()) {
                vm.open(args);
            }
        }
    }
}
