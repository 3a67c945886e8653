package io.rdmascope.gui.main;

import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.capture.live.CaptureStatistics;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.gui.charts.ChartsViewModel;
import io.rdmascope.gui.coloring.ColoringRulesViewModel;
import io.rdmascope.gui.conversations.ConversationsViewModel;
import io.rdmascope.gui.details.PacketDetailsViewModel;
import io.rdmascope.gui.diagnosis.DiagnosisViewModel;
import io.rdmascope.gui.filter.FilterBarViewModel;
import io.rdmascope.gui.findings.FindingsViewModel;
import io.rdmascope.gui.ladder.LadderViewModel;
import io.rdmascope.gui.live.LiveCaptureViewModel;
import io.rdmascope.gui.messages.MessagesViewModel;
import io.rdmascope.gui.operations.OperationsViewModel;
import io.rdmascope.replay.AnalysisFields;
import io.rdmascope.gui.model.AnalysisRunner;
import io.rdmascope.gui.model.CaptureAnalysis;
import io.rdmascope.gui.model.CaptureLoader;
import io.rdmascope.gui.model.VantageCapture;
import io.rdmascope.gui.vantage.SightingsViewModel;
import io.rdmascope.gui.model.DisplayFilterCompiler;
import io.rdmascope.gui.model.FilterCompiler;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.model.LiveCaptures;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.model.CaptureInfo;
import io.rdmascope.gui.model.FrameDecoder;
import io.rdmascope.gui.model.PacketRange;
import io.rdmascope.gui.model.PacketRow;
import io.rdmascope.gui.model.PacketTexts;
import io.rdmascope.gui.model.TimeFormat;
import io.rdmascope.gui.find.FindViewModel;
import io.rdmascope.gui.follow.FollowViewModel;
import io.rdmascope.gui.statistics.CaptureProperties;
import io.rdmascope.gui.statistics.ServiceResponseTime;
import io.rdmascope.gui.statistics.TrafficStatistics;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.gui.packetlist.PacketListViewModel;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.gui.util.Job;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.replay.VantageInput;
import io.rdmascope.rules.RulesConfig;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The main window's state: which capture is open and how far it has loaded and been replayed,
 * recent files, the status line, and the view models of every pane, wired together: the filter
 * bar filters the packet list, the packet list, messages, findings and ladder share one frame
 * selection, the selected conversation drives the ladder, messages, charts and diagnosis, and the replay's
 * verdicts reach the filters and colouring rules.
 *
 * <p>Opening a file starts two background jobs: the loader indexes frames (rows appear after the
 * first two thousand), and the replay follows it frame by frame; the RDMA views fill when the
 * replay ends.
 */
public final class MainViewModel {
    static final int RECENT = 10;
    private static final String RECENT_KEY = "recent.files";
    static final String COLUMNS_KEY = "packetlist.columns";
    static final String TIME_FORMAT_KEY = "packetlist.timeFormat";

    /** Which frames File → Export Specified Packets writes (Wireshark's "Packet Range"). */
    public enum ExportScope { ALL, DISPLAYED, MARKED, RANGE }

    /** Export Packet Dissections' formats. */
    public enum DissectionFormat { TEXT, CSV, JSON }

    /** How long the last open took, for the status line and the measurements in docs/gui.md. */
    public record Timings(long firstRowsNanos, long indexNanos, long replayNanos, int frames) {
    }

    private final AppExecutors exec;
    private final Settings settings;
    private final FrameSelection selection = new FrameSelection();
    private final AnalysisFields analysisFields = new AnalysisFields();
    private final FilterCompiler compiler;
    private final PacketListViewModel packetList;
    private final PacketDetailsViewModel details;
    private final FilterBarViewModel filterBar;
    private final ConversationsViewModel conversations;
    private final MessagesViewModel messages;
    private final OperationsViewModel operations;
    private final FindingsViewModel findings;
    private final DiagnosisViewModel diagnosis;
    private final LadderViewModel ladder;
    private final ChartsViewModel charts;
    private final ColoringRulesViewModel coloring;
    private final FindViewModel find;
    private final SightingsViewModel sightings;

    private final ReadOnlyObjectWrapper<Path> file = new ReadOnlyObjectWrapper<>(this, "file");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "rdmascope");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper(this, "loading");
    private final ReadOnlyBooleanWrapper replaying = new ReadOnlyBooleanWrapper(this, "replaying");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "Open a capture: File → Open, or drop a file here.");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyObjectWrapper<CaptureAnalysis> analysis = new ReadOnlyObjectWrapper<>(this, "analysis");
    private final ReadOnlyObjectWrapper<Timings> timings = new ReadOnlyObjectWrapper<>(this, "timings");
    private final ObservableList<String> recentFiles = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper capturing = new ReadOnlyBooleanWrapper(this, "capturing");
    private final ReadOnlyObjectWrapper<CaptureStatistics> liveStatistics =
            new ReadOnlyObjectWrapper<>(this, "liveStatistics");
    private final LiveCaptureViewModel live;

    private FrameIndex index;
    private DissectorChain chain = DissectorChain.standard();
    private Job loadJob;
    private Job replayJob;
    private String loadNote = "";
    private long openedAt;
    private long firstRowsNanos;
    private long indexNanos;

    public MainViewModel(AppExecutors exec, Settings settings) {
        this(exec, settings, LiveCaptures.pcap());
    }

    /** With another source of live frames (tests replay a file). */
    public MainViewModel(AppExecutors exec, Settings settings, LiveCaptures liveCaptures) {
        this.exec = exec;
        this.settings = settings;
        this.compiler = new DisplayFilterCompiler(analysisFields);
        this.packetList = new PacketListViewModel(exec, selection);
        this.details = new PacketDetailsViewModel(selection, compiler);
        this.filterBar = new FilterBarViewModel(compiler, settings, packetList::applyFilter);
        this.conversations = new ConversationsViewModel();
        this.messages = new MessagesViewModel(exec, selection);
        this.operations = new OperationsViewModel(selection);
        this.findings = new FindingsViewModel(selection);
        this.diagnosis = new DiagnosisViewModel(selection);
        diagnosis.conversation().bind(conversations.selected());
        this.ladder = new LadderViewModel(exec, selection, conversations.selected());
        this.charts = new ChartsViewModel(exec);
        charts.useSelection(selection); // a click on a chart point selects its frame
        this.coloring = new ColoringRulesViewModel(compiler, settings, packetList::setColoring);
        coloring.apply();
        this.live = new LiveCaptureViewModel(exec, liveCaptures, this);
        this.find = new FindViewModel(exec, compiler, packetList);
        this.sightings = new SightingsViewModel(selection);
        restorePreferences();
        recentFiles.setAll(settings.list(RECENT_KEY));
        packetList.rows().addListener((javafx.collections.ListChangeListener<Integer>) c -> updateStatus());
    }

    // ---- panes ------------------------------------------------------------------------------------

    public FrameSelection selection() {
        return selection;
    }

    public PacketListViewModel packetList() {
        return packetList;
    }

    /** The selected packet at every vantage point (several captures open). */
    public SightingsViewModel sightings() {
        return sightings;
    }

    public PacketDetailsViewModel details() {
        return details;
    }

    public FilterBarViewModel filterBar() {
        return filterBar;
    }

    public ConversationsViewModel conversations() {
        return conversations;
    }

    public MessagesViewModel messages() {
        return messages;
    }

    /** The storage view's operations (issue 19). */
    public OperationsViewModel operations() {
        return operations;
    }

    public FindingsViewModel findings() {
        return findings;
    }

    public DiagnosisViewModel diagnosis() {
        return diagnosis;
    }

    public LadderViewModel ladder() {
        return ladder;
    }

    public ChartsViewModel charts() {
        return charts;
    }

    public ColoringRulesViewModel coloring() {
        return coloring;
    }

    public FilterCompiler compiler() {
        return compiler;
    }

    public LiveCaptureViewModel live() {
        return live;
    }

    public FindViewModel find() {
        return find;
    }

    public Settings settings() {
        return settings;
    }

    /** True while a live capture runs. */
    public ReadOnlyBooleanProperty capturing() {
        return capturing.getReadOnlyProperty();
    }

    /** The running (or last) live capture's counts, null when none. */
    public ReadOnlyObjectProperty<CaptureStatistics> liveStatistics() {
        return liveStatistics.getReadOnlyProperty();
    }

    // ---- state ------------------------------------------------------------------------------------

    public ReadOnlyObjectProperty<Path> file() {
        return file.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty title() {
        return title.getReadOnlyProperty();
    }

    /** True while frames are being indexed (the Cancel button shows). */
    public ReadOnlyBooleanProperty loading() {
        return loading.getReadOnlyProperty();
    }

    /** True while the replay runs. */
    public ReadOnlyBooleanProperty replaying() {
        return replaying.getReadOnlyProperty();
    }

    /** Loading progress, 0 to 1. */
    public ReadOnlyDoubleProperty progress() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty status() {
        return status.getReadOnlyProperty();
    }

    /** The last error to show the user (a file that does not open, a damaged capture); empty if none. */
    public ReadOnlyStringProperty error() {
        return error.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<CaptureAnalysis> analysis() {
        return analysis.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Timings> timings() {
        return timings.getReadOnlyProperty();
    }

    /** Recently opened files, newest first. */
    public ObservableList<String> recentFiles() {
        return recentFiles;
    }

    public FrameIndex index() {
        return index;
    }

    /** Clears the error once shown. */
    public void dismissError() {
        error.set("");
    }

    // ---- actions ----------------------------------------------------------------------------------

    /**
     * Opens {@code path} (pcap, pcapng, ERF, any of them gzip-compressed): indexes its frames in the
     * background and replays it. A file that cannot be opened leaves the current capture shown.
     */
    public void open(Path path) {
        if (path == null) {
            return;
        }
        if (!Files.isReadable(path)) {
            error.set("Cannot read " + path);
            return;
        }
        FrameIndex newIndex = begin(path, "rdmascope — " + path.getFileName());
        rememberRecent(path);
        status.set("Loading " + path.getFileName() + "…");
        Job load = loadJob;
        Job replay = replayJob;
        exec.background().execute(() -> load(path, newIndex, load, replay));
        exec.background().execute(() -> replay(newIndex, replay));
    }

    /**
     * Opens what the command line or the open dialog names: one capture as {@link #open(Path)} does, several
     * ({@code FILE} or {@code NAME=FILE} each) as vantage points of the same traffic, their union listed and
     * replayed once ({@link VantageCapture}). A bad argument leaves the current capture shown, with the error.
     */
    public void open(List<String> arguments) {
        List<VantageInput> inputs;
        try {
            inputs = VantageCapture.parse(arguments);
        } catch (IllegalArgumentException e) {
            error.set(e.getMessage());
            return;
        }
        if (inputs.size() == 1) {
            open(inputs.get(0).file());
            return;
        }
        if (inputs.isEmpty()) {
            return;
        }
        for (VantageInput in : inputs) {
            if (!Files.isReadable(in.file())) {
                error.set("Cannot read " + in.file());
                return;
            }
        }
        String label = String.join(" + ", inputs.stream().map(VantageInput::name).toList());
        FrameIndex newIndex = begin(null, "rdmascope — " + label);
        status.set("Correlating " + label + "…");
        progress.set(-1);
        Job load = loadJob;
        Job replay = replayJob;
        // The replay's findings include where the points disagree, which needs the union's second pass done:
        // the loader hands the union over here (null when it failed or was cancelled).
        CompletableFuture<VantageCapture> loaded = new CompletableFuture<>();
        exec.background().execute(() -> loadUnion(inputs, label, newIndex, load, replay, loaded));
        exec.background().execute(() -> replay(newIndex, replay, r -> {
            VantageCapture union = loaded.join();
            return union == null ? List.of() : union.disagreements(r);
        }));
    }

    private void loadUnion(List<VantageInput> inputs, String label, FrameIndex target, Job job, Job replay,
                           CompletableFuture<VantageCapture> loaded) {
        VantageCapture done = null;
        try {
            VantageCapture union = VantageCapture.load(inputs, chain, target, job, (frames, fraction) -> { });
            done = union;
            exec.ui().execute(() -> {
                if (target != index) {
                    return;
                }
                indexNanos = System.nanoTime() - openedAt;
                firstRowsNanos = indexNanos; // the union lists nothing before both passes are done
                loading.set(false);
                progress.set(1);
                if (union == null) {
                    loadNote = "loading cancelled";
                } else {
                    packetList.useVantage(union);
                    sightings.use(union, selection.current().get());
                    ladder.useVantage(union);
                    findings.useVantage(union);
                    loadNote = union.names().size() + " vantage points";
                    if (union.failure() != null) {
                        error.set(union.failure().getMessage());
                    } else if (!union.notes().isEmpty()) {
                        error.set(String.join("; ", union.notes()));
                    }
                }
                packetList.loadingFinished(target.count());
                timings.set(new Timings(firstRowsNanos, indexNanos, 0, target.count()));
                updateStatus();
            });
        } catch (IOException | RuntimeException e) {
            openFailed(target, replay, e, String.valueOf(label));
        } finally {
            loaded.complete(done);
        }
    }

    /**
     * Shows a live capture: frames are indexed as they arrive, the list grows, the replay follows
     * them; {@link #cancelLoading()} (the Stop button) stops the capture, after which the RDMA views
     * fill. The session is started here and closed when it ends.
     */
    public void openLive(LiveCaptures.Session session) {
        FrameIndex newIndex = begin(null, "rdmascope — live on " + session.name());
        liveStatistics.set(null);
        capturing.set(true);
        status.set("Capturing on " + session.name() + "…");
        progress.set(-1);
        Job capture = loadJob;
        Job replay = replayJob;
        exec.background().execute(() -> capture(session, newIndex, capture));
        exec.background().execute(() -> replay(newIndex, replay));
    }

    /** Forgets the shown capture and prepares the panes for a new one; returns its index. */
    private FrameIndex begin(Path path, String windowTitle) {
        Job.cancel(loadJob);
        Job.cancel(replayJob);
        FrameIndex newIndex = new FrameIndex();
        index = newIndex;
        file.set(path);
        title.set(windowTitle);
        loadNote = "";
        firstRowsNanos = 0;
        indexNanos = 0;
        timings.set(null);
        analysis.set(null);
        analysisFields.use(null);
        selection.select(0);
        packetList.open(newIndex, chain);
        sightings.use(null, 0);
        findings.useVantage(null);
        details.open(newIndex, chain);
        ladder.open(newIndex, chain);
        showAnalysis(null);
        loading.set(true);
        replaying.set(true);
        progress.set(0);
        loadJob = new Job();
        replayJob = new Job();
        openedAt = System.nanoTime();
        return newIndex;
    }

    private void capture(LiveCaptures.Session session, FrameIndex target, Job job) {
        IOException failure = null;
        long lastReport = 0;
        boolean stopAsked = false;
        target.setInfo(CaptureInfo.live());
        try (session) {
            session.start();
            while (true) {
                if (job.isCancelled() && !stopAsked) {
                    stopAsked = true;
                    session.stop();
                }
                Frame f = session.poll(50, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (f != null) {
                    target.append(f);
                } else if (session.isDone()) {
                    break;
                }
                long now = System.nanoTime();
                if (now - lastReport > 100_000_000L || f == null) {
                    lastReport = now;
                    int n = target.count();
                    CaptureStatistics stats = session.statistics();
                    exec.ui().execute(() -> {
                        if (target == index) {
                            packetList.indexed(n);
                            liveStatistics.set(stats);
                            status.set(String.format(Locale.ROOT, "Capturing on %s… %,d frames", session.name(), n));
                        }
                    });
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(String.valueOf(e.getMessage()), e);
        } finally {
            target.markComplete();
        }
        IOException failed = failure;
        CaptureStatistics last = session.statistics();
        exec.ui().execute(() -> {
            if (target != index) {
                return;
            }
            capturing.set(false);
            loading.set(false);
            progress.set(1);
            liveStatistics.set(last);
            indexNanos = System.nanoTime() - openedAt;
            if (failed != null) {
                loadNote = "capture failed";
                error.set(failed.getMessage());
            } else {
                loadNote = "live capture on " + session.name();
            }
            packetList.loadingFinished(target.count());
            timings.set(new Timings(firstRowsNanos, indexNanos, 0, target.count()));
            updateStatus();
        });
    }

    private void load(Path path, FrameIndex target, Job job, Job replay) {
        try {
            CaptureLoader.Outcome outcome = CaptureLoader.load(path, target, job, (frames, fraction) ->
                    exec.ui().execute(() -> {
                        if (target != index) {
                            return;
                        }
                        if (firstRowsNanos == 0 && frames > 0) {
                            firstRowsNanos = System.nanoTime() - openedAt;
                        }
                        packetList.indexed(frames);
                        progress.set(fraction);
                        if (loading.get()) {
                            status.set(String.format(Locale.ROOT, "Loading %s… %,d frames", path.getFileName(), frames));
                        }
                    }));
            exec.ui().execute(() -> {
                if (target != index) {
                    return;
                }
                indexNanos = System.nanoTime() - openedAt;
                loading.set(false);
                progress.set(1);
                if (firstRowsNanos == 0) {
                    firstRowsNanos = indexNanos;
                }
                if (outcome.cancelled()) {
                    loadNote = "loading cancelled";
                } else if (outcome.error() != null) {
                    loadNote = "damaged after frame " + outcome.frames();
                    error.set(outcome.error().getMessage());
                }
                packetList.loadingFinished(outcome.frames());
                timings.set(new Timings(firstRowsNanos, indexNanos, 0, outcome.frames()));
                updateStatus();
            });
        } catch (IOException | RuntimeException e) {
            openFailed(target, replay, e, String.valueOf(path.getFileName()));
        }
    }

    /** Opening {@code what} failed: stop its replay and say why; the panes stay empty. */
    private void openFailed(FrameIndex target, Job replay, Exception e, String what) {
        replay.cancel();
        exec.ui().execute(() -> {
            if (target != index) {
                return;
            }
            loading.set(false);
            replaying.set(false);
            progress.set(0);
            error.set(e.getMessage() == null ? e.toString() : e.getMessage());
            status.set("Could not open " + what);
        });
    }

    private void replay(FrameIndex target, Job job) {
        replay(target, job, r -> List.of());
    }

    /** The replay of {@code target}, its findings judged with what {@code more} adds once it is finished. */
    private void replay(FrameIndex target, Job job, Function<ReplayResult, List<Observation>> more) {
        CaptureAnalysis result;
        try {
            result = AnalysisRunner.run(target, chain, RulesConfig.defaults(), job, frames -> { }, more);
        } catch (RuntimeException e) {
            exec.ui().execute(() -> {
                if (target == index) {
                    replaying.set(false);
                    error.set("Replay failed: " + e);
                }
            });
            return;
        }
        if (result == null) {
            exec.ui().execute(() -> {
                if (target == index) {
                    replaying.set(false);
                    updateStatus();
                }
            });
            return;
        }
        exec.ui().execute(() -> {
            if (target != index || job.isCancelled()) {
                return;
            }
            replaying.set(false);
            analysisFields.use(result.frames());
            analysis.set(result);
            showAnalysis(result);
            packetList.refreshTexts();
            Timings t = timings.get();
            if (t != null) {
                timings.set(new Timings(t.firstRowsNanos(), t.indexNanos(), System.nanoTime() - openedAt, t.frames()));
            }
            // a filter on rdmascope.* fields needs the analysis: apply it again now that it is there
            if (filterBar.appliedText().get().contains("rdmascope.")) {
                filterBar.apply(filterBar.appliedText().get());
            }
            updateStatus();
        });
    }

    private void showAnalysis(CaptureAnalysis a) {
        details.useAnalysis(a == null ? null : a.frames());
        conversations.show(a);
        messages.show(a);
        operations.show(a);
        findings.show(a);
        diagnosis.show(a);
        ladder.show(a);
        charts.show(a, index);
    }

    /** Stops loading, or the live capture; the frames read so far stay. */
    public void cancelLoading() {
        Job.cancel(loadJob);
    }

    /** Opens a recent file by its path text. */
    public void openRecent(String path) {
        open(Path.of(path));
    }

    public void clearRecent() {
        recentFiles.clear();
        settings.putList(RECENT_KEY, List.of());
    }

    private void rememberRecent(Path path) {
        String p = path.toAbsolutePath().normalize().toString();
        List<String> list = new ArrayList<>(recentFiles);
        list.remove(p);
        list.add(0, p);
        while (list.size() > RECENT) {
            list.remove(list.size() - 1);
        }
        recentFiles.setAll(list);
        settings.putList(RECENT_KEY, list);
    }

    /**
     * Writes the frames the packet list shows (in capture order) to {@code target} as pcapng, in the
     * background; {@code done} runs on the UI executor with the number written, or the error.
     */
    public void saveDisplayed(Path target, java.util.function.BiConsumer<Integer, Exception> done) {
        exportPackets(target, packetList.displayedFrames(), done);
    }

    /** Writes {@code frames} of {@code source} to a pcapng file; one interface per (interface, link type) seen. */
    static int writePcapng(FrameIndex source, int[] frames, Path target, String from) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 1 << 16);
             PcapngWriter w = new PcapngWriter(out, null, null, "rdmascope gui (frames of " + from + ")")) {
            Map<Long, Integer> interfaces = new HashMap<>();
            byte[] buf = new byte[65536];
            for (int number : frames) {
                Frame f = source.frame(number);
                long key = (long) f.interfaceId() << 32 | f.linkType();
                Integer id = interfaces.get(key);
                if (id == null) {
                    id = w.addInterface(f.linkType(), 0, null, null, null);
                    interfaces.put(key, id);
                }
                if (buf.length < f.capturedLength()) {
                    buf = new byte[f.capturedLength()];
                }
                f.buffer().get(f.offset(), buf, 0, f.capturedLength());
                w.write(id, f.timeNanos(), buf, 0, f.capturedLength(), f.wireLength());
            }
            return frames.length;
        }
    }

    // ---- preferences ------------------------------------------------------------------------------------

    /** Column arrangement and time format as saved (View → Column Preferences, Time Display Format). */
    private void restorePreferences() {
        if (settings.has(COLUMNS_KEY)) {
            List<PacketListViewModel.ColumnSpec> saved = new ArrayList<>();
            for (String line : settings.list(COLUMNS_KEY)) {
                PacketListViewModel.ColumnSpec c = PacketListViewModel.ColumnSpec.decode(line);
                if (c != null) {
                    saved.add(c);
                }
            }
            packetList.restoreColumns(saved);
        }
        try {
            packetList.timeFormat().set(TimeFormat.valueOf(settings.get(TIME_FORMAT_KEY, TimeFormat.RELATIVE.name())));
        } catch (IllegalArgumentException e) {
            packetList.timeFormat().set(TimeFormat.RELATIVE);
        }
        packetList.columns().addListener((javafx.collections.ListChangeListener<PacketListViewModel.ColumnSpec>) c ->
                settings.putList(COLUMNS_KEY, packetList.columns().stream().map(PacketListViewModel.ColumnSpec::encode).toList()));
        packetList.timeFormat().addListener((o, was, now) -> settings.put(TIME_FORMAT_KEY, now.name()));
    }

    // ---- Go -----------------------------------------------------------------------------------------

    /**
     * Go → Go to Packet (Ctrl+G): selects frame {@code number}; returns why it cannot (no such
     * frame, or the display filter hides it), or null when done.
     */
    public String goToPacket(int number) {
        if (index == null || number < 1 || number > index.count()) {
            return String.format(Locale.ROOT, "There is no frame %d (the capture has %,d)", number,
                    index == null ? 0 : index.count());
        }
        if (packetList.rowOf(number) < 0) {
            return "Frame " + number + " is hidden by the display filter";
        }
        selection.select(number);
        return null;
    }

    /** Go → First Packet / Last Packet (Ctrl+Home / Ctrl+End): the first or last row shown. */
    public void goToEdge(boolean last) {
        int n = packetList.rows().size();
        if (n > 0) {
            selection.select(packetList.rows().frameAt(last ? n - 1 : 0));
        }
    }

    /** Go → Next / Previous Packet (Down / Up in the list, from the menu). */
    public void goToNeighbour(boolean forward) {
        int now = selection.current().get();
        int r = packetList.rowOf(now);
        int n = packetList.rows().size();
        if (n == 0) {
            return;
        }
        int next = r < 0 ? 0 : Math.max(0, Math.min(n - 1, r + (forward ? 1 : -1)));
        selection.select(packetList.rows().frameAt(next));
    }

    /**
     * Go → Next / Previous Packet in Conversation (Ctrl+. / Ctrl+,): the next shown frame of the
     * selected frame's QP conversation (the replay's placement); false when the frame has none.
     */
    public boolean goToConversationNeighbour(boolean forward) {
        CaptureAnalysis a = analysis.get();
        int now = selection.current().get();
        String conversation = a == null ? null : a.conversationOf(now);
        if (conversation == null) {
            return false;
        }
        int next = packetList.nextShown(now, forward, f -> conversation.equals(a.conversationOf(f)));
        if (next != 0 && next != now) {
            selection.select(next);
        }
        return next != 0;
    }

    /** Go → Next / Previous Mark (Ctrl+Shift+N / Ctrl+Shift+B). */
    public void goToMark(boolean forward) {
        int next = packetList.nextMarked(selection.current().get(), forward);
        if (next != 0) {
            selection.select(next);
        }
    }

    // ---- Edit → Copy ------------------------------------------------------------------------------------

    /** What Edit → Copy puts on the clipboard for the selected frame, or null when none is selected. */
    public String copyText(DissectionFormat format) {
        int n = selection.current().get();
        if (index == null || n < 1 || n > index.count()) {
            return null;
        }
        Dissection d = new FrameDecoder(index, chain).dissect(n);
        return switch (format) {
            case TEXT -> PacketTexts.summary(packetList.row(n));
            case JSON -> PacketTexts.json(d);
            case CSV -> PacketTexts.csv(rowValues(packetList.row(n)));
        };
    }

    /** The selected frame's bytes as {@code tshark -x} prints them, or null. */
    public String copyHexDump() {
        int n = selection.current().get();
        if (index == null || n < 1 || n > index.count()) {
            return null;
        }
        return PacketTexts.hexDump(index.frame(n));
    }

    private List<String> rowValues(PacketRow r) {
        List<String> out = new ArrayList<>();
        for (PacketListViewModel.ColumnSpec c : packetList.columns()) {
            if (!c.visible()) {
                continue;
            }
            PacketListViewModel.Column b = c.builtIn();
            if (b == null) {
                int at = 0;
                for (PacketListViewModel.ExtraColumn e : packetList.extraColumns()) {
                    if (e.field().equals(c.field())) {
                        break;
                    }
                    at++;
                }
                out.add(at < r.extra().size() ? r.extra().get(at) : "");
                continue;
            }
            out.add(switch (b) {
                case NUMBER -> Integer.toString(r.number());
                case TIME -> r.time();
                case SOURCE -> r.source();
                case DESTINATION -> r.destination();
                case PROTOCOL -> r.protocol();
                case LENGTH -> Integer.toString(r.length());
                case INFO -> r.info();
            });
        }
        return out;
    }

    private List<String> columnTitles() {
        return packetList.columns().stream().filter(PacketListViewModel.ColumnSpec::visible)
                .map(PacketListViewModel.ColumnSpec::title).toList();
    }

    // ---- File → Export ------------------------------------------------------------------------------------

    /**
     * The frames an export writes, in capture order.
     *
     * @throws IllegalArgumentException for a range that does not parse
     */
    public int[] framesFor(ExportScope scope, String range) {
        if (index == null) {
            return new int[0];
        }
        return switch (scope) {
            case ALL -> java.util.stream.IntStream.rangeClosed(1, index.count()).toArray();
            case DISPLAYED -> packetList.displayedFrames();
            case MARKED -> packetList.markedFrames();
            case RANGE -> PacketRange.parse(range, index.count()).stream().toArray();
        };
    }

    /**
     * File → Export Specified Packets: writes {@code frames} as pcapng through the capture module's
     * {@link PcapngWriter}, in the background; {@code done} gets the count or the error on the UI thread.
     */
    public void exportPackets(Path target, int[] frames, java.util.function.BiConsumer<Integer, Exception> done) {
        if (index == null) {
            done.accept(0, new IOException("no capture is open"));
            return;
        }
        FrameIndex source = index;
        String name = file.get() == null ? "capture" : file.get().getFileName().toString();
        exec.background().execute(() -> {
            try {
                int n = writePcapng(source, frames, target, name);
                exec.ui().execute(() -> {
                    status.set(String.format(Locale.ROOT, "Exported %,d frames to %s", n, target.getFileName()));
                    done.accept(n, null);
                });
            } catch (IOException | RuntimeException e) {
                exec.ui().execute(() -> done.accept(0, e));
            }
        });
    }

    /**
     * File → Export Packet Dissections: the displayed frames as plain text (summary line and detail
     * tree per packet), CSV (the shown columns, as Wireshark's "As CSV") or JSON (tshark's
     * {@code -T json} array). Row texts are made on the UI thread (the list's row cache belongs to
     * it); the trees and the file in the background.
     */
    public void exportDissections(Path target, DissectionFormat format, java.util.function.BiConsumer<Integer, Exception> done) {
        if (index == null) {
            done.accept(0, new IOException("no capture is open"));
            return;
        }
        int[] frames = packetList.displayedFrames();
        List<PacketRow> rows = new ArrayList<>(frames.length);
        for (int f : frames) {
            rows.add(format == DissectionFormat.JSON ? null : packetList.row(f));
        }
        List<String> titles = columnTitles();
        List<List<String>> values = format == DissectionFormat.CSV ? rows.stream().map(this::rowValues).toList() : null;
        FrameIndex source = index;
        DissectorChain ch = chain;
        exec.background().execute(() -> {
            try (java.io.Writer w = Files.newBufferedWriter(target, java.nio.charset.StandardCharsets.UTF_8)) {
                FrameDecoder decoder = new FrameDecoder(source, ch);
                if (format == DissectionFormat.CSV) {
                    w.write(PacketTexts.csvHeader(titles));
                    w.write('\n');
                }
                if (format == DissectionFormat.JSON) {
                    w.write("[\n");
                }
                for (int i = 0; i < frames.length; i++) {
                    switch (format) {
                        case TEXT -> {
                            w.write(PacketTexts.text(rows.get(i), decoder.dissect(frames[i])));
                            w.write('\n');
                        }
                        case CSV -> {
                            w.write(PacketTexts.csv(values.get(i)));
                            w.write('\n');
                        }
                        case JSON -> {
                            w.write(i == 0 ? "" : ",\n");
                            w.write(PacketTexts.json(decoder.dissect(frames[i])));
                        }
                    }
                }
                if (format == DissectionFormat.JSON) {
                    w.write("\n]\n");
                }
                exec.ui().execute(() -> {
                    status.set(String.format(Locale.ROOT, "Exported %,d dissections to %s", frames.length,
                            target.getFileName()));
                    done.accept(frames.length, null);
                });
            } catch (IOException | RuntimeException e) {
                exec.ui().execute(() -> done.accept(0, e));
            }
        });
    }

    // ---- Statistics and Follow ----------------------------------------------------------------------------

    /** Statistics → Capture File Properties, from the index (no file is read again). */
    public List<CaptureProperties.Line> captureProperties() {
        if (index == null) {
            return List.of();
        }
        long size = 0;
        Path f = file.get();
        try {
            size = f == null ? 0 : Files.size(f);
        } catch (IOException e) {
            size = 0;
        }
        return CaptureProperties.of(f, size, index, packetList.displayedFrames(), java.time.ZoneId.systemDefault());
    }

    /**
     * Protocol hierarchy, conversations and endpoints of every frame, counted in the background;
     * {@code done} gets the result on the UI thread (null when another capture was opened meanwhile).
     */
    public void trafficStatistics(java.util.function.Consumer<TrafficStatistics.Result> done) {
        if (index == null) {
            done.accept(null);
            return;
        }
        FrameIndex source = index;
        int[] frames = java.util.stream.IntStream.rangeClosed(1, source.count()).toArray();
        Job job = new Job();
        DissectorChain ch = chain;
        exec.background().execute(() -> {
            TrafficStatistics.Result r = TrafficStatistics.compute(source, ch, frames, job);
            exec.ui().execute(() -> done.accept(source == index ? r : null));
        });
    }

    /** Statistics → RDMA Service Response Time, from the replay's messages; empty before the replay ends. */
    public List<ServiceResponseTime.Row> serviceResponseTime() {
        CaptureAnalysis a = analysis.get();
        return a == null ? List.of() : ServiceResponseTime.of(a.messages());
    }

    /** Follow → RDMA QP Conversation of the selected frame, or null when it belongs to none. */
    public FollowViewModel.Stream follow() {
        return FollowViewModel.follow(analysis.get(), index, chain, selection.current().get());
    }

    private void updateStatus() {
        if (index == null || loading.get()) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Frames: %,d · Displayed: %,d", index.count(), packetList.rows().size()));
        if (!loadNote.isEmpty()) {
            sb.append(" · ").append(loadNote);
        }
        Timings t = timings.get();
        if (t != null) {
            sb.append(String.format(Locale.ROOT, " · indexed in %.2f s", t.indexNanos() / 1e9));
        }
        CaptureAnalysis a = analysis.get();
        if (a != null) {
            sb.append(String.format(Locale.ROOT, " · %d conversations, %,d messages · %s",
                    a.flows().size(), a.messages().size(), findings.counts().get()));
        } else if (replaying.get()) {
            sb.append(" · replaying…");
        }
        status.set(sb.toString());
    }
}
