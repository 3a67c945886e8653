package io.rdmascope.gui.live;

import io.rdmascope.capture.live.CaptureInterface;
import io.rdmascope.capture.live.CaptureStatistics;
import io.rdmascope.capture.live.LiveCaptureException;
import io.rdmascope.capture.live.LiveCaptureOptions;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.LiveCaptures;
import io.rdmascope.gui.util.AppExecutors;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;
import java.util.Locale;

/**
 * Live capture: the interfaces libpcap offers, the one chosen, a capture filter (RoCE by default),
 * start and stop, and the counts of what was captured and what was dropped where (kernel buffer,
 * interface, rdmascope's own queue). While it runs the packet list grows; when it stops the replay
 * finishes and the RDMA views fill.
 */
public final class LiveCaptureViewModel {
    private final AppExecutors exec;
    private final LiveCaptures captures;
    private final MainViewModel main;
    private final ObservableList<CaptureInterface> interfaces = FXCollections.observableArrayList();
    private final StringProperty interfaceName = new SimpleStringProperty(this, "interfaceName", "");
    private final StringProperty captureFilter =
            new SimpleStringProperty(this, "captureFilter", LiveCaptureOptions.DEFAULT_FILTER);
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper(this, "problem", "");
    private final ReadOnlyStringWrapper statistics = new ReadOnlyStringWrapper(this, "statistics", "");

    public LiveCaptureViewModel(AppExecutors exec, LiveCaptures captures, MainViewModel main) {
        this.exec = exec;
        this.captures = captures;
        this.main = main;
        main.liveStatistics().addListener((o, was, now) -> statistics.set(describe(now)));
    }

    public ObservableList<CaptureInterface> interfaces() {
        return interfaces;
    }

    /** The interface to capture on (a name from {@link #interfaces()}, or typed). */
    public StringProperty interfaceName() {
        return interfaceName;
    }

    /** The capture (BPF) filter; blank for none. */
    public StringProperty captureFilter() {
        return captureFilter;
    }

    /** Why interfaces cannot be listed or a capture did not start (no libpcap, no permission, …), or empty. */
    public ReadOnlyStringProperty problem() {
        return problem.getReadOnlyProperty();
    }

    /** "Captured 1,234 · dropped: kernel 0, interface 0, queue 0", or empty. */
    public ReadOnlyStringProperty statistics() {
        return statistics.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty capturing() {
        return main.capturing();
    }

    /** Lists the interfaces again (in the background: libpcap may take a moment). */
    public void refresh() {
        exec.background().execute(() -> {
            try {
                List<CaptureInterface> list = captures.interfaces();
                exec.ui().execute(() -> {
                    interfaces.setAll(list);
                    problem.set(list.isEmpty() ? "libpcap offers no interface to capture on" : "");
                    if (interfaceName.get().isBlank() && !list.isEmpty()) {
                        interfaceName.set(preferred(list).name());
                    }
                });
            } catch (LiveCaptureException | RuntimeException e) {
                exec.ui().execute(() -> {
                    interfaces.clear();
                    problem.set(message(e));
                });
            }
        });
    }

    /** An RDMA sniffer device if there is one, else the first interface that is up and not loopback. */
    static CaptureInterface preferred(List<CaptureInterface> list) {
        for (CaptureInterface i : list) {
            if (i.rdmaSniffer()) {
                return i;
            }
        }
        for (CaptureInterface i : list) {
            if (i.up() && i.running() && !i.loopback()) {
                return i;
            }
        }
        return list.get(0);
    }

    /** Starts capturing on the chosen interface; false when none is chosen or one is running. */
    public boolean start() {
        String iface = interfaceName.get() == null ? "" : interfaceName.get().strip();
        if (iface.isEmpty()) {
            problem.set("Choose an interface to capture on.");
            return false;
        }
        if (main.capturing().get()) {
            return false;
        }
        String filter = captureFilter.get() == null || captureFilter.get().isBlank() ? null : captureFilter.get().strip();
        problem.set("");
        statistics.set("Starting capture on " + iface + "…");
        exec.background().execute(() -> {
            try {
                LiveCaptures.Session session = captures.open(iface, filter);
                exec.ui().execute(() -> main.openLive(session));
            } catch (LiveCaptureException | RuntimeException e) {
                exec.ui().execute(() -> {
                    statistics.set("");
                    problem.set(message(e));
                });
            }
        });
        return true;
    }

    /** Stops the running capture (its frames stay). */
    public void stop() {
        if (main.capturing().get()) {
            main.cancelLoading();
        }
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** The counts as one line; drops are named by where they happened, unknown counts as "?". */
    public static String describe(CaptureStatistics s) {
        if (s == null) {
            return "";
        }
        String line = String.format(Locale.ROOT, "Captured %,d · dropped: kernel %s, interface %s, rdmascope queue %,d",
                s.captured(), count(s.droppedByKernel()), count(s.droppedByInterface()), s.droppedByQueue());
        if (!s.dropCountsReliable()) {
            line += " (libpcap reports no drops for RDMA sniffer devices: the counts may hide losses)";
        } else if (s.anyDropped()) {
            line += " — frames were lost: the ladder and findings may show gaps that are the capture's";
        }
        return line;
    }

    private static String count(long n) {
        return n < 0 ? "?" : String.format(Locale.ROOT, "%,d", n);
    }
}
