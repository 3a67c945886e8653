package io.rdmascope.gui;

import io.rdmascope.gui.main.MainView;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.samples.Scenarios;
import io.rdmascope.text.ProtoTree;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Makes the screenshots in docs/ from the committed sample captures: the main window, the ladder
 * diagram, the charts and the Diagnosis pane. Needs a display; {@code gui/screenshots.sh} starts a private Xvfb when
 * there is none and runs this with the test classpath.
 *
 * <pre>gui/screenshots.sh            # writes docs/gui-main.png, docs/gui-ladder.png, docs/gui-ladder-vantage.png, docs/gui-charts.png,
 *                               docs/gui-diagnosis.png, docs/charts/ (the Charts tab on each real capture in
 *                               ../shared/captures and on a generated 3-node NCCL-like run, and its I/O graph), and
 *                               on ../shared/captures/linlinw5_rdma_read_bw.pcap docs/gui-main-real.png,
 *                               docs/gui-stats-*.png, docs/gui-follow.png</pre>
 */
public final class Screenshots {
    private Screenshots() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs");
        Files.createDirectories(out);
        System.setProperty("rdmascope.gui.noDialogs", "true");
        CompletableFuture<Void> started = new CompletableFuture<>();
        Platform.startup(() -> started.complete(null));
        started.get(30, TimeUnit.SECONDS);
        Platform.setImplicitExit(false);
        try {
            shoot(out);
        } finally {
            Platform.exit();
        }
        System.exit(0);
    }

    private static void shoot(Path out) throws Exception {
        MainViewModel vm = fx(() -> new MainViewModel(AppExecutors.withUi(Platform::runLater), Settings.inMemory()));
        Stage stage = fx(() -> {
            Stage s = new Stage();
            Scene scene = RdmascopeApp.createScene(vm);
            s.setScene(scene);
            s.titleProperty().bind(vm.title());
            s.setX(0);
            s.setY(0);
            s.show();
            return s;
        });
        MainView view = (MainView) stage.getScene().getRoot();

        // 1. Main window: the loss scenario, the first NAK selected, its AETH syndrome highlighted, the findings.
        open(vm, Samples.scenario("rc_loss_nak"));
        fx(() -> {
            view.showTab("Findings");
            view.findings().table().getSelectionModel().select(1); // the first NAK: frame 7
            vm.details().selectNode(find(vm.details().tree().get(), "infiniband.aeth.syndrome"));
            return null;
        });
        settle();
        save(stage.getScene(), out.resolve("gui-main.png"));

        // 2. Ladder diagram of the same conversation, the NAK selected.
        fx(() -> {
            view.showTab("Ladder");
            return null;
        });
        waitFor(() -> fxQuiet(() -> vm.ladder().diagram().get().arrows().size() == 22));
        settle();
        save(stage.getScene(), out.resolve("gui-ladder.png"));

        // 2b. The ladder of the three-point run vantage_rc (issue 20): a lane per vantage point, each hop slanted by
        // its one-way delay, the request lost between requester and switch selected.
        fx(() -> {
            vm.open(Samples.vantage("vantage_rc", "requester", "switch", "responder"));
            return null;
        });
        waitFor(() -> fxQuiet(() -> !vm.loading().get() && vm.analysis().get() != null
                && vm.packetList().vantage().get() != null));
        fx(() -> {
            vm.conversations().selected().set("1");
            vm.selection().select(vm.packetList().vantage().get().unionFrameOf("requester", 20));
            return null;
        });
        waitFor(() -> fxQuiet(() -> vm.ladder().diagram().get().lanes().size() == 3));
        settle();
        save(stage.getScene(), out.resolve("gui-ladder-vantage.png"));

        // 3. Charts over generated mixed traffic: six QPs of WRITE, SEND and READ with a few NAKs and go-back-N.
        Path dir = Files.createTempDirectory("rdmascope-shots");
        Path mixed = Scenarios.writeMixedLarge(dir, 7, 20_000, 6, true);
        open(vm, mixed);
        fx(() -> {
            view.showTab("Charts");
            return null;
        });
        settle();
        save(stage.getScene(), out.resolve("gui-charts.png"));

        // 4. The Diagnosis pane: the PSN-reuse story of conversation 2, its first anomaly's frame followed.
        open(vm, Samples.scenario("broken_psn_reuse"));
        fx(() -> {
            view.showTab("Conversations");
            vm.conversations().selected().set("2");
            vm.diagnosis().choose(12);
            return null;
        });
        settle();
        save(stage.getScene(), out.resolve("gui-diagnosis.png"));
        shootCharts(vm, view, stage, out.resolve("charts"));

        // 5. Issue 17's windows on a real capture: the main window at 1400 px, each Statistics window, Follow.
        shootMenus(vm, stage, view, out);
        fx(() -> {
            stage.hide();
            return null;
        });
        Files.deleteIfExists(mixed);
        Files.deleteIfExists(dir);
    }

    /**
     * The Charts tab on every real capture in ../shared/captures (those present) and on the generated
     * 3-node NCCL-like run, one PNG each in docs/charts/, the window at 1400x900.
     */
    private static void shootCharts(MainViewModel vm, MainView view, Stage stage, Path out) throws Exception {
        Files.createDirectories(out);
        fx(() -> {
            stage.setWidth(1400);
            stage.setHeight(900);
            view.showTab("Charts");
            return null;
        });
        java.util.List<Path> captures = new java.util.ArrayList<>();
        Path shared = Path.of(System.getProperty("rdmascope.shared", Samples.root().resolve("../shared").toString()))
                .resolve("captures");
        if (Files.isDirectory(shared)) {
            try (var files = Files.list(shared)) {
                files.filter(f -> f.toString().matches(".*\\.(pcap|pcapng)$")).sorted().forEach(captures::add);
            }
        } else {
            System.out.println("skipped the real captures: " + shared + " not found");
        }
        Path dir = Files.createTempDirectory("rdmascope-nccl");
        captures.add(io.rdmascope.gui.charts.NcclLikeRun.write(dir));
        for (Path capture : captures) {
            open(vm, capture);
            settle();
            String name = capture.getFileName().toString().replaceFirst("\\.[^.]+$", "");
            save(stage.getScene(), out.resolve(name + ".png"));
        }
        // the I/O graph of the last one, the NCCL-like run, as Statistics → I/O Graph opens it
        Stage ioGraph = fx(() -> io.rdmascope.gui.charts.IoGraphView.open(vm, stage));
        var graph = (io.rdmascope.gui.charts.IoGraphView) ioGraph.getScene().getRoot();
        waitFor(() -> fxQuiet(() -> !graph.chart().getData().isEmpty()));
        settle();
        save(ioGraph.getScene(), out.resolve("io-graph-nccl_like_3node.png"));
        fx(() -> {
            ioGraph.close();
            return null;
        });
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The real capture the issue-17 screenshots use (../shared/captures), or null when it is absent. */
    private static Path realCapture() {
        String shared = System.getProperty("rdmascope.shared");
        Path base = shared != null ? Path.of(shared) : Samples.root().resolve("../shared");
        Path f = base.resolve("captures/linlinw5_rdma_read_bw.pcap");
        return Files.isReadable(f) ? f : null;
    }

    private static void shootMenus(MainViewModel vm, Stage stage, MainView view, Path out) throws Exception {
        Path real = realCapture();
        if (real == null) {
            System.out.println("SKIPPED: the Statistics and Follow screenshots need ../shared/captures/"
                    + "linlinw5_rdma_read_bw.pcap");
            return;
        }
        fx(() -> {
            stage.setWidth(1400);
            stage.setHeight(900);
            return null;
        });
        open(vm, real);
        // a READ response of the first RDMA conversation, the time of day with the capture's precision
        int frame = fx(() -> {
            var a = vm.analysis().get();
            int[] frames = a.framesOf(a.flows().get(0).conversation());
            int pick = frames[Math.min(frames.length - 1, frames.length / 2)];
            vm.packetList().timeFormat().set(io.rdmascope.gui.model.TimeFormat.TIME_OF_DAY);
            view.showTab("Conversations");
            vm.selection().select(pick);
            return pick;
        });
        settle();
        save(stage.getScene(), out.resolve("gui-main-real.png"));
        fx(() -> {
            vm.packetList().timeFormat().set(io.rdmascope.gui.model.TimeFormat.RELATIVE);
            return null;
        });

        shootWindow(() -> view.showCaptureProperties(), "Capture File Properties", out.resolve("gui-stats-properties.png"));
        for (String[] w : new String[][]{{"Protocol Hierarchy", "gui-stats-hierarchy.png"},
                {"Conversations", "gui-stats-conversations.png"}, {"Endpoints", "gui-stats-endpoints.png"}}) {
            shootWindow(() -> {
                view.showTraffic(w[0]);
                return null;
            }, w[0], out.resolve(w[1]));
        }
        shootWindow(view::showRdmaConversations, "RDMA Conversations", out.resolve("gui-stats-rdma-conversations.png"));
        shootWindow(view::showRdmaMessages, "RDMA Messages", out.resolve("gui-stats-rdma-messages.png"));
        shootWindow(view::showServiceResponseTime, "RDMA Service Response Time", out.resolve("gui-stats-srt.png"));
        fx(() -> {
            vm.selection().select(frame);
            return null;
        });
        shootWindow(view::showFollow, "Follow RDMA QP Conversation", out.resolve("gui-follow.png"));
    }

    /** Opens a window with {@code show}, waits for the one titled {@code prefix…}, saves it and closes it. */
    private static void shootWindow(Callable<?> show, String prefix, Path file) throws Exception {
        fx(show);
        waitFor(() -> fxQuiet(() -> windowTitled(prefix) != null));
        settle();
        Stage w = fx(() -> windowTitled(prefix));
        save(w.getScene(), file);
        fx(() -> {
            w.close();
            return null;
        });
    }

    private static Stage windowTitled(String prefix) {
        for (javafx.stage.Window w : javafx.stage.Window.getWindows()) {
            if (w instanceof Stage s && s.isShowing() && s.getTitle() != null && s.getTitle().startsWith(prefix)) {
                return s;
            }
        }
        return null;
    }

    private static void open(MainViewModel vm, Path file) throws Exception {
        fx(() -> {
            vm.open(file);
            return null;
        });
        waitFor(() -> fxQuiet(() -> !vm.loading().get() && vm.analysis().get() != null));
    }

    private static ProtoTree find(java.util.List<ProtoTree> nodes, String field) {
        for (ProtoTree n : nodes) {
            if (n.field() != null && n.field().abbrev().equals(field)) {
                return n;
            }
            ProtoTree f = find(n.children(), field);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** Lets layout, CSS and the canvases catch up. */
    private static void settle() throws Exception {
        for (int i = 0; i < 5; i++) {
            Thread.sleep(150);
            fx(() -> null);
        }
    }

    private static void save(Scene scene, Path file) throws Exception {
        WritableImage image = fx(() -> scene.snapshot(null));
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        PixelReader r = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                b.setRGB(x, y, r.getArgb(x, y));
            }
        }
        if (!ImageIO.write(b, "png", file.toFile())) {
            throw new IOException("no PNG writer");
        }
        System.out.println("wrote " + file + " (" + w + "x" + h + ")");
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                f.complete(work.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f.get(60, TimeUnit.SECONDS);
    }

    private static boolean fxQuiet(Callable<Boolean> test) {
        try {
            return fx(test);
        } catch (Exception e) {
            return false;
        }
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("timed out");
            }
            Thread.sleep(50);
        }
    }
}
