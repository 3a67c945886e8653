package io.rdmascope.gui.charts;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.charts.IoGraphViewModel.Graph;
import io.rdmascope.gui.charts.IoGraphViewModel.Interval;
import io.rdmascope.gui.charts.IoGraphViewModel.Metric;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The I/O graph's counting, intervals, filter line and the frame a point leads to. */
class IoGraphViewModelTest {

    private static IoGraphViewModel graphOf(MainViewModel main) {
        return new IoGraphViewModel(AppExecutors.sameThread(), main.index(), DissectorChain.standard(),
                main.compiler(), main.selection());
    }

    @Test
    void autoTakesTheSmallestIntervalGivingAtMostTwoHundredPoints() {
        assertEquals(100_000L, IoGraphViewModel.intervalNanos(Interval.AUTO, 4_488_000L)); // a 4.5 ms pingpong
        assertEquals(10_000L, IoGraphViewModel.intervalNanos(Interval.AUTO, 1_990_000L));
        assertEquals(100_000L, IoGraphViewModel.intervalNanos(Interval.AUTO, 2_000_000L));
        assertEquals(100_000_000L, IoGraphViewModel.intervalNanos(Interval.AUTO, 17_600_000_000L));
        assertEquals(10_000_000_000L, IoGraphViewModel.intervalNanos(Interval.AUTO, 250_000_000_000L));
        assertEquals(1_000_000L, IoGraphViewModel.intervalNanos(Interval.MS_1, 250_000_000_000L));
        assertEquals("Auto", Interval.AUTO.toString());
        assertEquals("10 µs", Interval.US_10.toString());
        assertEquals("1 s", Interval.S_1.toString());
    }

    @Test
    void everyFrameIsCountedOnceWithItsBitsOnTheWire() {
        MainViewModel main = Opened.capture(Samples.scenario("rc_loss_nak"));
        IoGraphViewModel vm = graphOf(main);
        Graph g = vm.graph().get();
        FrameIndex index = main.index();
        assertEquals(1, g.lines().size());
        assertEquals(index.count(), Arrays.stream(g.lines().get(0).packets()).sum());
        long bits = 0;
        for (int f = 1; f <= index.count(); f++) {
            bits += index.wireLength(f) * 8L;
        }
        assertEquals(bits, Arrays.stream(g.lines().get(0).bits()).sum());
        assertEquals(1, g.lines().get(0).firstFrame()[0]);
        double[] perSecond = g.lines().get(0).rates(Metric.PACKETS, g.intervalNanos());
        assertEquals(g.lines().get(0).packets()[0] * 1e9 / g.intervalNanos(), perSecond[0], 1e-9);
    }

    @Test
    void aDisplayFilterAddsTheLineOfTheFramesItKeeps() {
        IoGraphViewModel vm = graphOf(Opened.capture(Samples.scenario("rc_loss_nak")));
        assertTrue(vm.applyFilter("frame.number >= 5 && frame.number <= 9"));
        Graph g = vm.graph().get();
        assertEquals(2, g.lines().size());
        assertEquals("frame.number >= 5 && frame.number <= 9", g.lines().get(1).name());
        assertEquals(5, Arrays.stream(g.lines().get(1).packets()).sum());
        assertEquals(5, Arrays.stream(g.lines().get(1).firstFrame()).filter(f -> f > 0).min().orElseThrow());
        assertTrue(vm.applyFilter(""));
        assertEquals(1, vm.graph().get().lines().size());
    }

    @Test
    void aBadFilterIsRefusedWithItsColumnAndTheGraphStays() {
        IoGraphViewModel vm = graphOf(Opened.capture(Samples.scenario("rc_loss_nak")));
        Graph before = vm.graph().get();
        assertFalse(vm.applyFilter("frame.number >="));
        assertTrue(vm.error().get().startsWith("Filter: column "), vm.error().get());
        assertEquals(before, vm.graph().get());
    }

    @Test
    void anIntervalGivingTooManyPointsIsRefused(@TempDir Path dir) throws Exception {
        IoGraphViewModel vm = graphOf(Opened.capture(NcclLikeRun.write(dir)));
        assertEquals(100_000_000L, vm.graph().get().intervalNanos());
        vm.interval().set(Interval.US_10);
        assertTrue(vm.error().get().contains("at most 100,000"), vm.error().get());
        assertEquals(100_000_000L, vm.graph().get().intervalNanos(), "the last graph stays");
        vm.interval().set(Interval.MS_10);
        assertEquals("", vm.error().get());
        assertEquals(10_000_000L, vm.graph().get().intervalNanos());
    }

    @Test
    void aPointSelectsTheFirstFrameOfItsInterval(@TempDir Path dir) throws Exception {
        MainViewModel main = Opened.capture(NcclLikeRun.write(dir));
        IoGraphViewModel vm = graphOf(main);
        // the first RDMA frame follows the 9 bootstrap frames, 17.5 s into the capture
        assertTrue(vm.select(17.55));
        assertEquals(10, main.selection().current().get());
        assertTrue(vm.select(0.0));
        assertEquals(1, main.selection().current().get());
        assertFalse(vm.select(5.0), "nothing happens between the bootstrap and the all-reduce");
        assertEquals(1, main.selection().current().get());
        assertFalse(vm.select(1e6));
    }

    @Test
    void aFrameStampedBeforeTheFirstIsNotCountedAsInWireshark(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("clock_step.pcapng");
        try (var out = java.nio.file.Files.newOutputStream(file);
             var w = new io.rdmascope.capture.PcapngWriter(out, null, null, "test")) {
            int eth = w.addInterface(1, 0, null, null, null);
            w.write(eth, 2_000_000_000L, new byte[60], 60);
            w.write(eth, 1_000_000_000L, new byte[60], 60); // the clock stepped back
            w.write(eth, 2_500_000_000L, new byte[60], 60);
        }
        IoGraphViewModel vm = graphOf(Opened.capture(file));
        Graph g = vm.graph().get();
        assertEquals(2, Arrays.stream(g.lines().get(0).packets()).sum());
        assertEquals(1, g.lines().get(0).firstFrame()[0]);
        assertEquals(3, g.lines().get(0).firstFrame()[g.intervals() - 1]);
    }

    @Test
    void withoutACaptureTheGraphIsEmpty() {
        IoGraphViewModel vm = new IoGraphViewModel(AppExecutors.sameThread(), null, DissectorChain.standard(),
                text -> null, new io.rdmascope.gui.model.FrameSelection());
        assertTrue(vm.graph().get().lines().isEmpty());
        assertFalse(vm.select(0));
    }
}
