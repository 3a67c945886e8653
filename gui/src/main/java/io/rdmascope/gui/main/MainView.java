package io.rdmascope.gui.main;

import io.rdmascope.gui.charts.ChartsView;
import io.rdmascope.gui.coloring.ColoringRulesView;
import io.rdmascope.gui.conversations.ConversationsView;
import io.rdmascope.gui.details.HexView;
import io.rdmascope.gui.details.PacketTreeView;
import io.rdmascope.gui.diagnosis.DiagnosisView;
import io.rdmascope.gui.filter.FilterBarView;
import io.rdmascope.gui.findings.FindingsView;
import io.rdmascope.gui.ladder.LadderView;
import io.rdmascope.gui.live.LiveCaptureView;
import io.rdmascope.gui.messages.MessagesView;
import io.rdmascope.gui.packetlist.PacketListView;
import io.rdmascope.text.ProtoTree;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

/**
 * The main window: menus, the filter bar, Wireshark's three panes (packet list, detail tree, hex) on
 * the left, the RDMA views (conversations with the selected one's diagnosis under them, messages,
 * findings, ladder diagram, charts) in tabs on
 * the right, and a status line with the loading progress and its Cancel button. Files open from the
 * menu, the recent-files list, the command line or by dropping them on the window.
 */
public final class MainView extends BorderPane {
    private final MainViewModel vm;
    private final PacketListView packetList;
    private final PacketTreeView tree;
    private final HexView hex;
    private final FilterBarView filterBar;
    private final ConversationsView conversations;
    private final MessagesView messages;
    private final FindingsView findings;
    private final DiagnosisView diagnosis;
    private final LadderView ladder;
    private final ChartsView charts;
    private final LiveCaptureView live;
    private final TabPane tabs = new TabPane();
    private final Menu recentMenu = new Menu("Open Recent");
    private final Tab findingsTab;

    public MainView(MainViewModel vm) {
        this.vm = vm;
        setId("mainView");
        packetList = new PacketListView(vm.packetList());
        tree = new PacketTreeView(vm.details());
        hex = new HexView(vm.details());
        filterBar = new FilterBarView(vm.filterBar());
        conversations = new ConversationsView(vm.conversations(), vm.filterBar()::apply);
        messages = new MessagesView(vm.messages(), vm.conversations().selected());
        findings = new FindingsView(vm.findings());
        diagnosis = new DiagnosisView(vm.diagnosis());
        ladder = new LadderView(vm.ladder(), vm.conversations());
        charts = new ChartsView(vm.charts(), vm.conversations().selected());
        live = new LiveCaptureView(vm.live());

        tree.setActions(vm.filterBar()::apply, vm.filterBar()::prepare, vm.filterBar()::prepareAnd, this::applyAsColumn);
        packetList.setOnLegendClicked(this::editColoringRules);

        SplitPane threePanes = new SplitPane(packetList, tree, hex);
        threePanes.setOrientation(Orientation.VERTICAL);
        threePanes.setDividerPositions(0.5, 0.8);

        // the selected conversation's diagnosis right under the list, as the detail tree sits under the packets
        SplitPane conversationsAndDiagnosis = new SplitPane(conversations, diagnosis);
        conversationsAndDiagnosis.setOrientation(Orientation.VERTICAL);
        conversationsAndDiagnosis.setDividerPositions(0.45);
        Tab conversationsTab = tab("Conversations", conversationsAndDiagnosis);
        Tab messagesTab = tab("Messages", messages);
        findingsTab = tab("Findings", findings);
        Tab ladderTab = tab("Ladder", ladder);
        Tab chartsTab = tab("Charts", charts);
        tabs.setId("rdmaTabs");
        Tab captureTab = tab("Capture", live);
        captureTab.selectedProperty().addListener((o, was, now) -> {
            if (now) {
                live.shown();
            }
        });
        tabs.getTabs().addAll(conversationsTab, messagesTab, findingsTab, ladderTab, chartsTab, captureTab);
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        vm.findings().counts().addListener((o, was, now) ->
                findingsTab.setText(now.isEmpty() ? "Findings" : "Findings (" + vm.findings().rows().size() + ")"));

        SplitPane main = new SplitPane(threePanes, tabs);
        main.setDividerPositions(0.55);

        setTop(new VBox(menuBar(), filterBar));
        setCenter(main);
        setBottom(statusBar());

        setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) {
                e.acceptTransferModes(TransferMode.COPY);
            }
            e.consume();
        });
        setOnDragDropped(e -> {
            List<File> files = e.getDragboard().getFiles();
            boolean ok = files != null && !files.isEmpty();
            if (ok) {
                vm.open(files.get(0).toPath());
            }
            e.setDropCompleted(ok);
            e.consume();
        });
        vm.error().addListener((o, was, now) -> {
            if (now != null && !now.isEmpty() && getScene() != null && getScene().getWindow() != null
                    && getScene().getWindow().isShowing() && !Boolean.getBoolean("rdmascope.gui.noDialogs")) {
                Alert a = new Alert(Alert.AlertType.ERROR, now);
                a.initOwner(getScene().getWindow());
                a.setHeaderText("rdmascope");
                a.show();
                a.setOnHidden(ev -> vm.dismissError());
            }
        });
    }

    private static Tab tab(String title, Node content) {
        Tab t = new Tab(title, content);
        t.setId("tab" + title);
        return t;
    }

    public PacketListView packetList() {
        return packetList;
    }

    public PacketTreeView tree() {
        return tree;
    }

    public HexView hex() {
        return hex;
    }

    public FilterBarView filterBar() {
        return filterBar;
    }

    public FindingsView findings() {
        return findings;
    }

    public DiagnosisView diagnosis() {
        return diagnosis;
    }

    public LadderView ladder() {
        return ladder;
    }

    public ChartsView charts() {
        return charts;
    }

    public ConversationsView conversations() {
        return conversations;
    }

    public MessagesView messages() {
        return messages;
    }

    /** Brings an RDMA tab to the front: "Conversations", "Messages", "Findings", "Ladder" or "Charts". */
    public void showTab(String title) {
        for (Tab t : tabs.getTabs()) {
            if (t.getText().startsWith(title)) {
                tabs.getSelectionModel().select(t);
            }
        }
    }

    private void applyAsColumn(ProtoTree node) {
        String field = vm.details().columnFieldFor(node);
        if (field != null) {
            vm.packetList().addColumn(field, node.field().name());
        }
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    private MenuBar menuBar() {
        MenuItem open = new MenuItem("Open…");
        open.setAccelerator(KeyCombination.keyCombination("Shortcut+O"));
        open.setOnAction(e -> openDialog());
        recentMenu.setId("recentMenu");
        vm.recentFiles().addListener((ListChangeListener<String>) c -> rebuildRecent());
        rebuildRecent();
        MenuItem save = new MenuItem("Save Displayed Frames As pcapng…");
        save.setAccelerator(KeyCombination.keyCombination("Shortcut+S"));
        save.setOnAction(e -> saveDialog());
        save.disableProperty().bind(vm.file().isNull());
        MenuItem quit = new MenuItem("Quit");
        quit.setAccelerator(KeyCombination.keyCombination("Shortcut+Q"));
        quit.setOnAction(e -> {
            if (window() != null) {
                window().hide();
            }
        });
        Menu file = new Menu("File", null, open, recentMenu, new SeparatorMenuItem(), save, new SeparatorMenuItem(), quit);

        MenuItem focusFilter = new MenuItem("Go to Display Filter");
        focusFilter.setAccelerator(KeyCombination.keyCombination("Shortcut+Slash"));
        focusFilter.setOnAction(e -> filterBar.focusText());
        MenuItem coloring = new MenuItem("Colouring Rules…");
        coloring.setOnAction(e -> editColoringRules());
        MenuItem ladderIn = new MenuItem("Ladder: Zoom In");
        ladderIn.setAccelerator(KeyCombination.keyCombination("Shortcut+Plus"));
        ladderIn.setOnAction(e -> vm.ladder().zoomIn());
        MenuItem ladderOut = new MenuItem("Ladder: Zoom Out");
        ladderOut.setAccelerator(KeyCombination.keyCombination("Shortcut+Minus"));
        ladderOut.setOnAction(e -> vm.ladder().zoomOut());
        MenuItem startCapture = new MenuItem("Live Capture…");
        startCapture.setAccelerator(KeyCombination.keyCombination("Shortcut+K"));
        startCapture.setOnAction(e -> showTab("Capture"));
        MenuItem stopCapture = new MenuItem("Stop Capture");
        stopCapture.setAccelerator(KeyCombination.keyCombination("Shortcut+E"));
        stopCapture.setOnAction(e -> vm.live().stop());
        stopCapture.disableProperty().bind(vm.capturing().not());
        Menu capture = new Menu("Capture", null, startCapture, stopCapture);
        Menu view = new Menu("View", null, focusFilter, coloring, new SeparatorMenuItem(), ladderIn, ladderOut);

        MenuItem applyFilter = new MenuItem("Apply Selected Field as Filter");
        applyFilter.setOnAction(e -> vm.filterBar().apply(vm.details().filterFor(vm.details().selectedNode().get())));
        MenuItem prepareFilter = new MenuItem("Prepare Selected Field as Filter");
        prepareFilter.setOnAction(e -> vm.filterBar().prepare(vm.details().filterFor(vm.details().selectedNode().get())));
        MenuItem applyColumn = new MenuItem("Apply Selected Field as Column");
        applyColumn.setOnAction(e -> applyAsColumn(vm.details().selectedNode().get()));
        applyFilter.disableProperty().bind(vm.details().selectedNode().isNull());
        prepareFilter.disableProperty().bind(vm.details().selectedNode().isNull());
        applyColumn.disableProperty().bind(vm.details().selectedNode().isNull());
        MenuItem showLadder = new MenuItem("Ladder Diagram");
        showLadder.setOnAction(e -> showTab("Ladder"));
        MenuItem showFindings = new MenuItem("Findings");
        showFindings.setOnAction(e -> showTab("Findings"));
        MenuItem showCharts = new MenuItem("Charts");
        showCharts.setOnAction(e -> showTab("Charts"));
        MenuItem showDiagnosis = new MenuItem("Diagnosis of the Conversation");
        showDiagnosis.setOnAction(e -> showTab("Conversations"));
        Menu analyze = new Menu("Analyze", null, applyFilter, prepareFilter, applyColumn, new SeparatorMenuItem(),
                showDiagnosis, showLadder, showFindings, showCharts);

        MenuItem about = new MenuItem("About rdmascope");
        about.setOnAction(e -> {
            Alert a = new Alert(Alert.AlertType.INFORMATION,
                    "rdmascope: a Wireshark-like analyzer for InfiniBand, RoCEv1 and RoCEv2.\n"
                            + "Display filters use Wireshark's field names; see docs/filters.md and docs/gui.md.");
            a.initOwner(window());
            a.setHeaderText("rdmascope");
            a.show();
        });
        Menu help = new Menu("Help", null, about);
        MenuBar bar = new MenuBar(file, view, capture, analyze, help);
        bar.setId("menuBar");
        return bar;
    }

    private void rebuildRecent() {
        recentMenu.getItems().clear();
        for (String path : vm.recentFiles()) {
            MenuItem item = new MenuItem(path);
            item.setMnemonicParsing(false);
            item.setOnAction(e -> vm.openRecent(path));
            recentMenu.getItems().add(item);
        }
        if (!vm.recentFiles().isEmpty()) {
            MenuItem clear = new MenuItem("Clear Recent Files");
            clear.setOnAction(e -> vm.clearRecent());
            recentMenu.getItems().addAll(new SeparatorMenuItem(), clear);
        }
        recentMenu.setDisable(vm.recentFiles().isEmpty());
    }

    private FileChooser chooser(String title) {
        FileChooser c = new FileChooser();
        c.setTitle(title);
        Path current = vm.file().get();
        if (current != null && current.toAbsolutePath().getParent() != null) {
            c.setInitialDirectory(current.toAbsolutePath().getParent().toFile());
        }
        return c;
    }

    private void openDialog() {
        FileChooser c = chooser("Open capture");
        c.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter("Captures (pcap, pcapng, ERF, gzip)", "*.pcap", "*.pcapng", "*.cap",
                        "*.erf", "*.gz", "*.pcap.gz", "*.pcapng.gz"),
                new FileChooser.ExtensionFilter("All files", "*"));
        File f = c.showOpenDialog(window());
        if (f != null) {
            vm.open(f.toPath());
        }
    }

    private void saveDialog() {
        FileChooser c = chooser("Save displayed frames");
        c.getExtensionFilters().add(new FileChooser.ExtensionFilter("pcapng", "*.pcapng"));
        Path current = vm.file().get();
        if (current != null) {
            String name = current.getFileName().toString().replaceAll("\\.(pcapng|pcap|erf|gz)+$", "");
            c.setInitialFileName(name + "-filtered.pcapng");
        }
        File f = c.showSaveDialog(window());
        if (f != null) {
            vm.saveDisplayed(f.toPath(), (n, e) -> {
                if (e != null) {
                    Alert a = new Alert(Alert.AlertType.ERROR, "Could not save: " + e.getMessage());
                    a.initOwner(window());
                    a.show();
                }
            });
        }
    }

    private void editColoringRules() {
        ColoringRulesView.showDialog(vm.coloring(), List.copyOf(vm.packetList().coloringRules()), window());
    }

    private Node statusBar() {
        Label status = new Label();
        status.setId("statusText");
        status.textProperty().bind(vm.status());
        status.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(status, Priority.ALWAYS);
        Label activity = new Label();
        activity.textProperty().bind(vm.packetList().activity());
        ProgressBar progress = new ProgressBar();
        progress.setId("loadProgress");
        progress.setPrefWidth(180);
        progress.progressProperty().bind(javafx.beans.binding.Bindings.when(vm.loading())
                .then(vm.progress()).otherwise(vm.packetList().progress()));
        progress.visibleProperty().bind(vm.loading().or(vm.packetList().busy()));
        Label liveStats = new Label();
        liveStats.textProperty().bind(vm.live().statistics());
        liveStats.visibleProperty().bind(vm.capturing());
        liveStats.managedProperty().bind(liveStats.visibleProperty());
        Button cancel = new Button();
        cancel.textProperty().bind(javafx.beans.binding.Bindings.when(vm.capturing()).then("Stop").otherwise("Cancel"));
        cancel.setId("cancelLoading");
        cancel.setOnAction(e -> vm.cancelLoading());
        cancel.visibleProperty().bind(vm.loading());
        Label replay = new Label("Replaying…");
        replay.visibleProperty().bind(vm.replaying().and(vm.loading().not()));
        replay.managedProperty().bind(replay.visibleProperty());
        HBox bar = new HBox(8, status, liveStats, activity, replay, progress, cancel);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(3, 6, 3, 6));
        bar.getStyleClass().add("status-bar");
        bar.setMinHeight(Region.USE_PREF_SIZE);
        return bar;
    }
}
