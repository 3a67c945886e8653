package io.rdmascope.gui.main;

import io.rdmascope.gui.charts.ChartsView;
import io.rdmascope.gui.coloring.ColoringRulesView;
import io.rdmascope.gui.conversations.ConversationsView;
import io.rdmascope.gui.details.HexView;
import io.rdmascope.gui.vantage.SightingsView;
import io.rdmascope.gui.details.PacketTreeView;
import io.rdmascope.gui.diagnosis.DiagnosisView;
import io.rdmascope.gui.filter.FilterBarView;
import io.rdmascope.gui.findings.FindingsView;
import io.rdmascope.gui.ladder.LadderView;
import io.rdmascope.gui.live.LiveCaptureView;
import io.rdmascope.gui.messages.MessagesView;
import io.rdmascope.gui.operations.OperationsView;
import io.rdmascope.gui.packetlist.PacketListView;
import io.rdmascope.gui.find.FindBarView;
import io.rdmascope.gui.follow.FollowView;
import io.rdmascope.gui.follow.FollowViewModel;
import io.rdmascope.gui.model.TimeFormat;
import io.rdmascope.gui.statistics.StatisticsViews;
import io.rdmascope.gui.util.Windows;
import io.rdmascope.text.ProtoTree;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.stage.Stage;
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
    private final OperationsView operations;
    private final FindingsView findings;
    private final DiagnosisView diagnosis;
    private final LadderView ladder;
    private final ChartsView charts;
    private final LiveCaptureView live;
    private final TabPane tabs = new TabPane();
    private final Menu recentMenu = new Menu("Open Recent");
    private final Tab findingsTab;
    private final FindBarView findBar;
    private final GoToBar goToBar;

    public MainView(MainViewModel vm) {
        this.vm = vm;
        setId("mainView");
        packetList = new PacketListView(vm.packetList());
        tree = new PacketTreeView(vm.details());
        hex = new HexView(vm.details());
        filterBar = new FilterBarView(vm.filterBar());
        conversations = new ConversationsView(vm.conversations(), vm.filterBar()::apply);
        messages = new MessagesView(vm.messages(), vm.conversations().selected());
        operations = new OperationsView(vm.operations());
        findings = new FindingsView(vm.findings());
        diagnosis = new DiagnosisView(vm.diagnosis());
        ladder = new LadderView(vm.ladder(), vm.conversations());
        charts = new ChartsView(vm.charts(), vm.conversations().selected());
        live = new LiveCaptureView(vm.live());
        findBar = new FindBarView(vm.find());
        goToBar = new GoToBar(vm::goToPacket);

        tree.setActions(vm.filterBar()::apply, vm.filterBar()::prepare, vm.filterBar()::prepareAnd, this::applyAsColumn);
        packetList.setOnLegendClicked(this::editColoringRules);

        // the Go to Packet bar sits right under the list, as in Wireshark
        BorderPane listWithGoTo = new BorderPane(packetList);
        listWithGoTo.setBottom(goToBar);
        // the selected packet at the other vantage points sits over its detail tree (several captures only)
        VBox sightingsAndTree = new VBox(new SightingsView(vm.sightings()), tree);
        VBox.setVgrow(tree, javafx.scene.layout.Priority.ALWAYS);
        SplitPane threePanes = new SplitPane(listWithGoTo, sightingsAndTree, hex);
        threePanes.setOrientation(Orientation.VERTICAL);
        threePanes.setDividerPositions(0.5, 0.8);

        // the selected conversation's diagnosis right under the list, as the detail tree sits under the packets
        SplitPane conversationsAndDiagnosis = new SplitPane(conversations, diagnosis);
        conversationsAndDiagnosis.setOrientation(Orientation.VERTICAL);
        conversationsAndDiagnosis.setDividerPositions(0.45);
        Tab conversationsTab = tab("Conversations", conversationsAndDiagnosis);
        Tab messagesTab = tab("Messages", messages);
        Tab storageTab = tab("Storage", operations);
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
        tabs.getTabs().addAll(conversationsTab, messagesTab, storageTab, findingsTab, ladderTab, chartsTab, captureTab);
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        vm.findings().counts().addListener((o, was, now) ->
                findingsTab.setText(now.isEmpty() ? "Findings" : "Findings (" + vm.findings().rows().size() + ")"));

        SplitPane main = new SplitPane(threePanes, tabs);
        main.setDividerPositions(0.55);

        MenuBar menus = menuBar();
        setTop(new VBox(menus, filterBar, findBar));
        // A focused table takes Ctrl+Home/End/./, for itself (it moves its focus, not the selection):
        // the Go menu's shortcuts must win there, as in Wireshark's packet list. Text fields keep theirs.
        addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (getScene() == null || getScene().getFocusOwner() instanceof javafx.scene.control.TextInputControl) {
                return;
            }
            for (Menu m : menus.getMenus()) {
                if (m.getText().equals("Go")) {
                    for (MenuItem item : m.getItems()) {
                        if (item.getAccelerator() != null && item.getAccelerator().match(e) && !item.isDisable()) {
                            item.fire();
                            e.consume();
                            return;
                        }
                    }
                }
            }
        });
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
                vm.open(files.stream().map(File::getPath).toList()); // several: vantage points
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

    public OperationsView operations() {
        return operations;
    }

    /** Brings an RDMA tab to the front: "Conversations", "Messages", "Storage", "Findings", "Ladder" or "Charts". */
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

    private static MenuItem item(String text, String accelerator, Runnable action) {
        MenuItem m = new MenuItem(text);
        m.setMnemonicParsing(false);
        if (accelerator != null) {
            m.setAccelerator(KeyCombination.keyCombination(accelerator));
        }
        m.setOnAction(e -> action.run());
        return m;
    }

    private MenuBar menuBar() {
        var noFile = vm.file().isNull().and(vm.loading().not()).and(vm.packetList().totalFrames().isEqualTo(0));
        var noFrame = vm.selection().current().isEqualTo(0);
        recentMenu.setId("recentMenu");
        vm.recentFiles().addListener((ListChangeListener<String>) c -> rebuildRecent());
        rebuildRecent();
        MenuItem save = item("Save Displayed Frames As pcapng…", "Shortcut+S", this::saveDialog);
        save.disableProperty().bind(vm.file().isNull());
        MenuItem exportPackets = item("Export Specified Packets…", null, this::showExportPackets);
        exportPackets.disableProperty().bind(noFile);
        Menu exportDissections = new Menu("Export Packet Dissections", null,
                item("As Plain Text…", null, () -> exportDissectionsDialog(MainViewModel.DissectionFormat.TEXT)),
                item("As CSV…", null, () -> exportDissectionsDialog(MainViewModel.DissectionFormat.CSV)),
                item("As JSON…", null, () -> exportDissectionsDialog(MainViewModel.DissectionFormat.JSON)));
        exportDissections.disableProperty().bind(noFile);
        MenuItem quit = item("Quit", "Shortcut+Q", () -> {
            if (window() != null) {
                window().hide();
            }
        });
        Menu file = new Menu("File", null, item("Open…", "Shortcut+O", this::openDialog), recentMenu,
                new SeparatorMenuItem(), save, exportPackets, exportDissections, new SeparatorMenuItem(), quit);

        // Edit, with Wireshark's shortcuts
        Menu copy = new Menu("Copy", null,
                item("Summary as Text", "Shortcut+Alt+C", () -> copy(vm.copyText(MainViewModel.DissectionFormat.TEXT))),
                item("As CSV", null, () -> copy(vm.copyText(MainViewModel.DissectionFormat.CSV))),
                item("As JSON", null, () -> copy(vm.copyText(MainViewModel.DissectionFormat.JSON))),
                item("As Hex Dump", "Shortcut+Shift+X", () -> copy(vm.copyHexDump())));
        copy.disableProperty().bind(noFrame);
        MenuItem mark = item("Mark/Unmark Packet", "Shortcut+M", () -> vm.packetList().toggleMark(vm.selection().current().get()));
        mark.disableProperty().bind(noFrame);
        MenuItem timeRef = item("Set/Unset Time Reference", "Shortcut+T",
                () -> vm.packetList().toggleTimeReference(vm.selection().current().get()));
        timeRef.disableProperty().bind(noFrame);
        Menu edit = new Menu("Edit", null, copy, new SeparatorMenuItem(),
                item("Find Packet…", "Shortcut+F", findBar::show),
                item("Find Next", "Shortcut+N", () -> vm.find().find(true)),
                item("Find Previous", "Shortcut+B", () -> vm.find().find(false)), new SeparatorMenuItem(),
                mark,
                item("Next Mark", "Shortcut+Shift+N", () -> vm.goToMark(true)),
                item("Previous Mark", "Shortcut+Shift+B", () -> vm.goToMark(false)), new SeparatorMenuItem(),
                timeRef, new SeparatorMenuItem(),
                item("Preferences…", "Shortcut+Shift+P", this::showPreferences));

        // View
        Menu timeFormats = new Menu("Time Display Format");
        ToggleGroup formats = new ToggleGroup();
        for (TimeFormat f : TimeFormat.values()) {
            RadioMenuItem r = new RadioMenuItem(f.title());
            r.setToggleGroup(formats);
            r.setUserData(f);
            r.setAccelerator(KeyCombination.keyCombination("Shortcut+Alt+" + timeFormatKey(f)));
            r.setSelected(vm.packetList().timeFormat().get() == f);
            r.setOnAction(e -> vm.packetList().timeFormat().set(f));
            timeFormats.getItems().add(r);
        }
        vm.packetList().timeFormat().addListener((o, was, now) -> formats.getToggles().forEach(t ->
                t.setSelected(t.getUserData() == now)));
        MenuItem coloring = item("Colouring Rules…", null, this::editColoringRules);
        Menu view = new Menu("View", null, timeFormats, item("Column Preferences…", null, this::showPreferences),
                new SeparatorMenuItem(), item("Go to Display Filter", "Shortcut+Slash", filterBar::focusText), coloring,
                new SeparatorMenuItem(), item("Ladder: Zoom In", "Shortcut+Plus", () -> vm.ladder().zoomIn()),
                item("Ladder: Zoom Out", "Shortcut+Minus", () -> vm.ladder().zoomOut()));

        // Go
        Menu go = new Menu("Go", null,
                item("Go to Packet…", "Shortcut+G", goToBar::show),
                item("Next Packet", "Shortcut+Down", () -> vm.goToNeighbour(true)),
                item("Previous Packet", "Shortcut+Up", () -> vm.goToNeighbour(false)),
                item("Next Packet in Conversation", "Shortcut+Period", () -> vm.goToConversationNeighbour(true)),
                item("Previous Packet in Conversation", "Shortcut+Comma", () -> vm.goToConversationNeighbour(false)),
                item("First Packet", "Shortcut+Home", () -> vm.goToEdge(false)),
                item("Last Packet", "Shortcut+End", () -> vm.goToEdge(true)));

        MenuItem startCapture = item("Live Capture…", "Shortcut+K", () -> showTab("Capture"));
        MenuItem stopCapture = item("Stop Capture", "Shortcut+E", () -> vm.live().stop());
        stopCapture.disableProperty().bind(vm.capturing().not());
        Menu capture = new Menu("Capture", null, startCapture, stopCapture);

        MenuItem applyFilter = item("Apply Selected Field as Filter", null,
                () -> vm.filterBar().apply(vm.details().filterFor(vm.details().selectedNode().get())));
        MenuItem prepareFilter = item("Prepare Selected Field as Filter", null,
                () -> vm.filterBar().prepare(vm.details().filterFor(vm.details().selectedNode().get())));
        MenuItem applyColumn = item("Apply Selected Field as Column", "Shortcut+Shift+I",
                () -> applyAsColumn(vm.details().selectedNode().get()));
        applyFilter.disableProperty().bind(vm.details().selectedNode().isNull());
        prepareFilter.disableProperty().bind(vm.details().selectedNode().isNull());
        applyColumn.disableProperty().bind(vm.details().selectedNode().isNull());
        MenuItem follow = item("RDMA QP Conversation", "Shortcut+Alt+Shift+R", this::showFollow);
        follow.disableProperty().bind(noFrame.or(vm.analysis().isNull()));
        Menu analyze = new Menu("Analyze", null, applyFilter, prepareFilter, applyColumn, new SeparatorMenuItem(),
                new Menu("Follow", null, follow), new SeparatorMenuItem(),
                item("Diagnosis of the Conversation", null, () -> showTab("Conversations")),
                item("Ladder Diagram", null, () -> showTab("Ladder")),
                item("Findings", null, () -> showTab("Findings")),
                item("Charts", null, () -> showTab("Charts")));

        MenuItem properties = item("Capture File Properties", "Shortcut+Alt+Shift+C", this::showCaptureProperties);
        Menu statistics = new Menu("Statistics", null, properties,
                item("Protocol Hierarchy", null, () -> showTraffic("Protocol Hierarchy")),
                item("Conversations", null, () -> showTraffic("Conversations")),
                item("Endpoints", null, () -> showTraffic("Endpoints")),
                item("I/O Graph", null, this::showIoGraph), new SeparatorMenuItem(),
                item("RDMA Conversations (Flows)", null, this::showRdmaConversations),
                item("RDMA Messages", null, this::showRdmaMessages),
                item("RDMA Service Response Time", null, this::showServiceResponseTime));
        for (MenuItem m : statistics.getItems()) {
            m.disableProperty().bind(noFile);
        }

        MenuItem about = item("About rdmascope", null, () -> {
            Alert a = new Alert(Alert.AlertType.INFORMATION,
                    "rdmascope: a Wireshark-like analyzer for InfiniBand, RoCEv1 and RoCEv2.\n"
                            + "Display filters use Wireshark's field names; see docs/filters.md and docs/gui.md.");
            a.initOwner(window());
            a.setHeaderText("rdmascope");
            a.show();
        });
        Menu help = new Menu("Help", null, about);
        MenuBar bar = new MenuBar(file, edit, view, go, capture, analyze, statistics, help);
        bar.setId("menuBar");
        return bar;
    }

    /** Wireshark's Ctrl+Alt+digit for each time format (its Year/Day-of-year formats, 2 and 9, are not offered). */
    private static String timeFormatKey(TimeFormat f) {
        return switch (f) {
            case DATE_AND_TIME -> "1";
            case TIME_OF_DAY -> "3";
            case EPOCH -> "4";
            case RELATIVE -> "5";
            case DELTA -> "6";
            case DELTA_DISPLAYED -> "7";
            case UTC_DATE_AND_TIME -> "8";
            case UTC_TIME_OF_DAY -> "0";
        };
    }

    private void copy(String text) {
        if (text != null) {
            ClipboardContent c = new ClipboardContent();
            c.putString(text);
            Clipboard.getSystemClipboard().setContent(c);
        }
    }

    // ---- secondary windows ----------------------------------------------------------------------------

    private String titled(String what) {
        Path f = vm.file().get();
        return what + " · " + (f == null ? "rdmascope" : f.getFileName());
    }

    /** Edit → Preferences / View → Column Preferences. */
    public Stage showPreferences() {
        return Windows.show(window(), "Preferences", new PreferencesView(vm.packetList()), 760, 460);
    }

    /** File → Export Specified Packets. */
    public Stage showExportPackets() {
        Stage[] stage = new Stage[1];
        stage[0] = Windows.show(window(), "Export Specified Packets",
                new ExportPacketsView(vm, () -> stage[0].close()), 560, 300);
        return stage[0];
    }

    private void exportDissectionsDialog(MainViewModel.DissectionFormat format) {
        FileChooser c = chooser("Export Packet Dissections");
        String ext = switch (format) {
            case TEXT -> "txt";
            case CSV -> "csv";
            case JSON -> "json";
        };
        c.getExtensionFilters().add(new FileChooser.ExtensionFilter(ext.toUpperCase(java.util.Locale.ROOT), "*." + ext));
        File f = c.showSaveDialog(window());
        if (f != null) {
            vm.exportDissections(f.toPath(), format, (n, e) -> {
                if (e != null) {
                    Alert a = new Alert(Alert.AlertType.ERROR, "Could not export: " + e.getMessage());
                    a.initOwner(window());
                    a.show();
                }
            });
        }
    }

    /** Statistics → Capture File Properties. */
    public Stage showCaptureProperties() {
        return Windows.show(window(), titled("Capture File Properties"),
                StatisticsViews.properties(vm.captureProperties()), 760, 520);
    }

    /** Statistics → Protocol Hierarchy, Conversations or Endpoints: counted in the background, then shown. */
    public void showTraffic(String which) {
        vm.trafficStatistics(r -> {
            if (r == null) {
                return;
            }
            switch (which) {
                case "Protocol Hierarchy" -> Windows.show(window(), titled("Protocol Hierarchy"),
                        StatisticsViews.protocolHierarchy(r), 760, 420);
                case "Endpoints" -> Windows.show(window(), titled("Endpoints"), StatisticsViews.endpoints(r), 900, 420);
                default -> {
                    // Wireshark's Conversations window: a tab per kind; here addresses and RDMA queue pairs
                    ConversationsView rdma = new ConversationsView(vm.conversations(), vm.filterBar()::apply, true);
                    TabPane kinds = new TabPane(new Tab("Addresses", StatisticsViews.conversations(r)),
                            new Tab("RDMA QP", rdma));
                    kinds.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
                    kinds.setId("conversationKinds");
                    Windows.show(window(), titled("Conversations"), new BorderPane(kinds), 1380, 480);
                }
            }
        });
    }

    /** Statistics → RDMA Conversations (Flows): every statistic of `rdmascope flows`, wide. */
    public Stage showRdmaConversations() {
        return Windows.show(window(), titled("RDMA Conversations"),
                new ConversationsView(vm.conversations(), vm.filterBar()::apply, true), 1380, 420);
    }

    /** Statistics → RDMA Messages: the messages table with every column. */
    public Stage showRdmaMessages() {
        return Windows.show(window(), titled("RDMA Messages"),
                new MessagesView(vm.messages(), vm.conversations().selected(), true), 1280, 560);
    }

    /** Statistics → I/O Graph: frames or bits per interval in a window of its own (the charts package). */
    public Stage showIoGraph() {
        return io.rdmascope.gui.charts.IoGraphView.open(vm, window());
    }

    /** Statistics → RDMA Service Response Time. */
    public Stage showServiceResponseTime() {
        return Windows.show(window(), titled("RDMA Service Response Time"),
                StatisticsViews.serviceResponseTime(vm.serviceResponseTime()), 760, 300);
    }

    /** Analyze → Follow → RDMA QP Conversation of the selected frame; null when it belongs to none. */
    public Stage showFollow() {
        FollowViewModel.Stream stream = vm.follow();
        if (stream == null) {
            Alert a = new Alert(Alert.AlertType.INFORMATION, "Frame " + vm.selection().current().get()
                    + " belongs to no RDMA conversation the replay found.");
            a.initOwner(window());
            if (!Boolean.getBoolean("rdmascope.gui.noDialogs")) {
                a.show();
            }
            return null;
        }
        return Windows.show(window(), "Follow RDMA QP Conversation " + stream.conversation() + " · "
                + (vm.file().get() == null ? "rdmascope" : vm.file().get().getFileName()),
                new FollowView(stream, vm.selection()::select), 1000, 640);
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
        // several files chosen at once are vantage points of the same traffic, as on the command line
        List<File> chosen = c.showOpenMultipleDialog(window());
        if (chosen != null && !chosen.isEmpty()) {
            vm.open(chosen.stream().map(File::getPath).toList());
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
