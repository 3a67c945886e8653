package io.rdmascope.gui;

import io.rdmascope.gui.main.MainView;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import javafx.application.Platform;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Measures what issue 7 asks of large files, in the real main window: the time from "open" to the
 * first rows drawn in the packet list, to the full index, and to the end of the replay; the longest
 * the FX thread was busy meanwhile (a tick is posted every 10 ms and its delay recorded); the heap
 * held afterwards. Needs a display (Xvfb will do); docs/gui.md has the numbers and the command.
 *
 * <pre>
 * ./rdmascope generate --scenario mixed_large --out /tmp/ml
 * gui/load-timing.sh /tmp/ml/mixed_large.pcap
 * </pre>
 *
 * <p>Each run also prints the CPU time every live thread of the JVM spent between "open" and the
 * end of the replay, by thread name (the loader and the replay's dissection are both
 * {@code rdmascope-background-N}: the one that ran longest after the index was complete is the replay),
 * and the collectors' counts and times: where a slow load goes. {@code -DloadOnly=true} stops each
 * run there, without the filter and sort that follow;
 * {@code -Dhistogram=N} prints the heap's N largest classes at that point.
 */
public final class LoadTiming {
    private LoadTiming() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        CompletableFuture<Void> up = new CompletableFuture<>();
        Platform.startup(() -> up.complete(null));
        up.get(30, TimeUnit.SECONDS);
        Platform.setImplicitExit(false);
        for (int run = 1; run <= runs; run++) {
            measure(file, run);
        }
        Platform.exit();
        System.exit(0);
    }

    /** Runs {@code action} on the FX thread and waits until the packet list is idle again; returns the time taken. */
    private static long timed(MainViewModel vm, Runnable action) throws Exception {
        long start = System.nanoTime();
        onFx(() -> {
            action.run();
            return null;
        });
        while (onFx(() -> vm.packetList().busy().get())) {
            Thread.sleep(5);
        }
        return System.nanoTime() - start;
    }

    private static <T> T onFx(java.util.concurrent.Callable<T> work) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                f.complete(work.call());
            } catch (Exception e) {
                f.completeExceptionally(e);
            }
        });
        return f.get(5, TimeUnit.MINUTES);
    }

    private static void measure(Path file, int run) throws Exception {
        CountDownLatch replayed = new CountDownLatch(1);
        CountDownLatch indexed = new CountDownLatch(1);
        AtomicLong openedAt = new AtomicLong();
        AtomicLong firstRowsDrawn = new AtomicLong();
        AtomicLong indexedAt = new AtomicLong();
        AtomicLong replayedAt = new AtomicLong();
        AtomicLong worstTick = new AtomicLong();
        AtomicReference<CpuAccount> cpuAtReplayDone = new AtomicReference<>();
        CpuAccount cpuAtOpen = CpuAccount.now();
        MainViewModel[] vm = new MainViewModel[1];
        Stage[] stage = new Stage[1];
        CompletableFuture<Void> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            vm[0] = new MainViewModel(AppExecutors.withUi(Platform::runLater), Settings.inMemory());
            Stage s = new Stage();
            s.setScene(RdmascopeApp.createScene(vm[0]));
            s.show();
            stage[0] = s;
            MainView view = (MainView) s.getScene().getRoot();
            vm[0].loading().addListener((o, was, now) -> {
                if (!now) {
                    indexedAt.set(System.nanoTime());
                    indexed.countDown();
                }
            });
            vm[0].analysis().addListener((o, was, now) -> {
                if (now != null) {
                    replayedAt.set(System.nanoTime());
                    cpuAtReplayDone.set(CpuAccount.now());
                    replayed.countDown();
                }
            });
            // first rows: the first pulse after which a row of the table shows a frame
            s.getScene().addPostLayoutPulseListener(() -> {
                if (firstRowsDrawn.get() == 0 && openedAt.get() != 0
                        && view.packetList().table().lookupAll(".table-row-cell").stream()
                        .anyMatch(n -> n instanceof TableRow<?> r && r.getItem() != null)) {
                    firstRowsDrawn.set(System.nanoTime());
                }
            });
            shown.complete(null);
        });
        shown.get(30, TimeUnit.SECONDS);
        Thread.sleep(300);
        Thread ticker = new Thread(() -> {
            while (replayed.getCount() > 0) {
                long posted = System.nanoTime();
                CountDownLatch ran = new CountDownLatch(1);
                Platform.runLater(ran::countDown);
                try {
                    // -DstallDump=true prints where the FX thread is when a tick waits over 150 ms
                    if (Boolean.getBoolean("stallDump") && !ran.await(150, TimeUnit.MILLISECONDS)) {
                        for (var e : Thread.getAllStackTraces().entrySet()) {
                            if (e.getKey().getName().equals("JavaFX Application Thread")) {
                                System.out.println("FX thread stalled at:");
                                for (StackTraceElement el : e.getValue()) {
                                    System.out.println("    " + el);
                                }
                            }
                        }
                    }
                    ran.await();
                    worstTick.accumulateAndGet(System.nanoTime() - posted, Math::max);
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Platform.runLater(() -> {
            openedAt.set(System.nanoTime());
            vm[0].open(file);
        });
        ticker.start();
        indexed.await(10, TimeUnit.MINUTES);
        if (!replayed.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("replay did not finish");
        }
        ticker.join();
        System.out.printf(Locale.ROOT, "run %d: CPU from open to replay done (%.3f s of wall)%n%s", run,
                (replayedAt.get() - openedAt.get()) / 1e9, cpuAtReplayDone.get().since(cpuAtOpen));
        int histogramLines = Integer.getInteger("histogram", 0);
        if (histogramLines > 0) {
            // what the heap holds once the analysis is shown (a full GC first, as jcmd GC.class_histogram does)
            String histogram = (String) java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            histogram.lines().limit(histogramLines + 3L).forEach(System.out::println);
        }
        if (Boolean.getBoolean("loadOnly")) {
            System.out.printf(Locale.ROOT, "run %d: %,d frames; first rows drawn %.3f s; fully indexed %.3f s; "
                            + "replay done %.3f s%n", run, vm[0].index().count(), (firstRowsDrawn.get() - openedAt.get()) / 1e9,
                    (indexedAt.get() - openedAt.get()) / 1e9, (replayedAt.get() - openedAt.get()) / 1e9);
            return;
        }
        // then a display filter over every frame, and a sort by Info
        long filterNanos = timed(vm[0], () -> vm[0].filterBar().apply("infiniband.bth.opcode == 17"));
        int acks = onFx(() -> vm[0].packetList().rows().size());
        long sortNanos = timed(vm[0], () -> vm[0].packetList().sort(new io.rdmascope.gui.packetlist.PacketListViewModel.SortKey(
                io.rdmascope.gui.packetlist.PacketListViewModel.Column.INFO, -1, true)));
        timed(vm[0], () -> vm[0].packetList().sort(null));
        int frames = vm[0].index().count();
        long indexBytes = vm[0].index().heapBytes();
        System.gc();
        Thread.sleep(200);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long heap = rt.totalMemory() - rt.freeMemory();
        long t0 = openedAt.get();
        System.out.printf(Locale.ROOT, "run %d: %,d frames; first rows drawn %.3f s; fully indexed %.3f s; "
                        + "replay done %.3f s; longest FX-thread stall %.0f ms; heap after GC %,d MB (frame index %,d MB)%n",
                run, frames, (firstRowsDrawn.get() - t0) / 1e9, (indexedAt.get() - t0) / 1e9,
                (replayedAt.get() - t0) / 1e9, worstTick.get() / 1e6, heap >> 20, indexBytes >> 20);
        System.out.printf(Locale.ROOT, "       filter infiniband.bth.opcode == 17: %.3f s (%,d frames shown); "
                + "sort those by Info: %.3f s%n", filterNanos / 1e9, acks, sortNanos / 1e9);
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Platform.runLater(() -> {
            stage[0].hide();
            closed.complete(null);
        });
        closed.get();
        vm[0] = null;
    }
}
