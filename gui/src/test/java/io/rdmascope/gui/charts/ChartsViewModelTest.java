package io.rdmascope.gui.charts;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.charts.ChartsViewModel.Goodput;
import io.rdmascope.gui.charts.ChartsViewModel.Point;
import io.rdmascope.gui.charts.ChartsViewModel.Series;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.MessageKind;
import io.rdmascope.replay.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The charts' data. */
class ChartsViewModelTest {

    private static double total(Series s) {
        return s.points().stream().mapToDouble(Point::y).sum();
    }

    @Test
    void retransmissionsNaksAndCnpsAreCountedOverTime() {
        List<Series> events = Opened.capture(Samples.scenario("rc_loss_nak")).charts().events().get().series();
        assertEquals(List.of("Retransmissions", "NAKs"), events.stream().map(Series::name).toList(),
                "CNPs left out: there are none");
        assertEquals(5, total(events.get(0)));
        assertEquals(2, total(events.get(1)));
        List<Series> ecn = Opened.capture(Samples.scenario("congestion_ecn")).charts().events().get().series();
        assertEquals(List.of("CNPs"), ecn.stream().map(Series::name).toList());
        assertEquals(1, total(ecn.get(0)));
    }

    @Test
    void everyPointWithEventsLeadsToTheFirstEventFrameOfItsInterval() {
        MainViewModel vm = Opened.capture(Samples.scenario("rc_loss_nak"));
        ChartsViewModel charts = vm.charts();
        List<Long> retransmitted = vm.analysis().get().observations().stream()
                .filter(o -> o instanceof io.rdmascope.replay.Observation.Retransmission)
                .map(io.rdmascope.replay.Observation::frame).toList();
        Series series = charts.events().get().series().get(0);
        for (Point p : series.points()) {
            assertEquals(p.y() > 0, p.frame() != 0, p.toString());
            if (p.frame() != 0) {
                assertTrue(retransmitted.contains((long) p.frame()), p.toString());
            }
        }
        Point first = series.points().stream().filter(p -> p.frame() != 0).findFirst().orElseThrow();
        assertEquals(retransmitted.stream().mapToLong(Long::longValue).min().orElseThrow(), first.frame());
        assertTrue(charts.select(first.frame()), "the main window's selection is wired in");
        assertEquals(first.frame(), vm.selection().current().get());
        assertFalse(charts.select(0));
    }

    @Test
    void aGoodputPointLeadsToTheFirstFrameCompletingAMessageInItsInterval() {
        MainViewModel vm = Opened.capture(Samples.scenario("rc_write"));
        Series line = vm.charts().goodput().get().lines().get(0);
        List<Integer> completions = vm.analysis().get().messages().stream().map(io.rdmascope.replay.Message::completionFrame)
                .filter(java.util.Objects::nonNull).sorted().toList();
        Point first = line.points().stream().filter(p -> p.frame() != 0).findFirst().orElseThrow();
        assertEquals(completions.get(0), first.frame());
        assertTrue(line.points().stream().filter(p -> p.y() > 0).allMatch(p -> p.frame() != 0));
    }

    @Test
    void aCaptureWithoutRetransmissionsNaksOrCnpsHasNoEventSeries() {
        assertTrue(Opened.capture(Samples.scenario("rc_write")).charts().events().get().series().isEmpty());
    }

    @Test
    void goodputIsInBitsPerSecondPerConversation() {
        MainViewModel vm = Opened.capture(Samples.mixed());
        Goodput g = vm.charts().goodput().get();
        assertEquals(vm.conversations().rows().size(), g.lines().size());
        for (Series s : g.lines()) {
            assertFalse(s.points().isEmpty());
            assertTrue(s.points().size() <= ChartsViewModel.TARGET_INTERVALS + 1, s.name());
            assertTrue(s.points().stream().allMatch(p -> p.y() >= 0 && p.y() < 1e12), s.name());
            assertTrue(s.name().matches("conv \\d+ · .+ → .+ · (.+ mean|no mean \\(one instant\\))"), s.name());
        }
    }

    @Test
    void goodputAddsUpToTheBytesOfTheEngineSeries() {
        MainViewModel vm = Opened.capture(Samples.scenario("rc_loss_nak"));
        Goodput g = vm.charts().goodput().get();
        Flow flow = vm.analysis().get().flows().get(0);
        double bytes = g.lines().get(0).points().stream()
                .mapToDouble(p -> p.y() * g.grid().intervalNanos() / 8e9).sum();
        assertEquals(Arrays.stream(flow.goodputOverTime().bytes()).sum(), bytes, 1e-6);
    }

    @Test
    void theTimeAxisStartsAtTheFirstFrameOfTheTrafficInSecondsSinceTheCaptureStart(@TempDir Path dir)
            throws Exception {
        MainViewModel vm = Opened.capture(NcclLikeRun.write(dir));
        Goodput g = vm.charts().goodput().get();
        double firstRdma = (vm.analysis().get().flows().stream().mapToLong(Flow::firstTimeNanos).min().orElseThrow()
                - vm.index().firstTimeNanos()) / 1e9;
        assertEquals(firstRdma, g.grid().firstSeconds(), 1e-9);
        assertTrue(g.grid().firstSeconds() > 17.4, "after the 17.5 s TCP bootstrap: " + g.grid().firstSeconds());
        for (Series s : g.lines()) {
            assertEquals(g.grid().firstSeconds(), s.points().get(0).x(), 1e-12, s.name());
            assertEquals(g.grid().lastSeconds(), s.points().get(s.points().size() - 1).x(), 1e-12, s.name());
        }
        assertTrue(vm.charts().events().get().series().isEmpty(), "no loss in the run");
    }

    @Test
    void theTinyControlConversationKeepsItsOwnNonZeroGoodput(@TempDir Path dir) throws Exception {
        Goodput g = Opened.capture(NcclLikeRun.write(dir)).charts().goodput().get();
        assertEquals(1 + NcclLikeRun.HOSTS * NcclLikeRun.CHANNELS, g.lines().size());
        double smallestLine = g.lines().stream().mapToDouble(Series::maxY).min().orElseThrow();
        assertTrue(smallestLine > 0);
        // orders of magnitude apart: the reason the goodput axis is logarithmic
        assertTrue(g.largest() / smallestLine > 100, g.largest() + " vs " + smallestLine);
        assertTrue(g.smallestPositive() <= smallestLine);
    }

    @Test
    void theLatencyHistogramCountsEveryCompletedMessageByKind() {
        MainViewModel vm = Opened.capture(Samples.scenario("rc_loss_nak"));
        ChartsViewModel.Histogram h = vm.charts().latency().get();
        assertEquals(List.of(MessageKind.SEND, MessageKind.WRITE), List.copyOf(h.counts().keySet()));
        assertEquals(3, Arrays.stream(h.counts().get(MessageKind.SEND)).sum());
        assertEquals(1, Arrays.stream(h.counts().get(MessageKind.WRITE)).sum());
        assertEquals(h.labels().size(), h.counts().get(MessageKind.SEND).length);
        assertTrue(Arrays.stream(h.counts().get(MessageKind.SEND)).findFirst().orElseThrow() > 0
                || Arrays.stream(h.counts().get(MessageKind.WRITE)).findFirst().orElseThrow() > 0,
                "the histogram starts at the lowest bin holding a message");
    }

    @Test
    void latencyBinsAreOneTwoFivePerDecadeLabelledByTheirLowerEdge() {
        assertEquals(0, ChartsViewModel.bin(0));
        assertEquals(0, ChartsViewModel.bin(1));
        assertEquals(1, ChartsViewModel.bin(2));
        assertEquals(1, ChartsViewModel.bin(4));
        assertEquals(2, ChartsViewModel.bin(5));
        assertEquals(9, ChartsViewModel.bin(1_000));
        assertEquals(9, ChartsViewModel.bin(1_999));
        assertEquals(10, ChartsViewModel.bin(2_000));
        assertEquals(12, ChartsViewModel.bin(10_000));
        assertEquals(ChartsViewModel.BINS - 1, ChartsViewModel.bin(Long.MAX_VALUE));
        assertEquals(1_000, ChartsViewModel.binStart(9));
        assertEquals(50_000, ChartsViewModel.binStart(14));
        assertEquals(100_000_000_000L, ChartsViewModel.binStart(ChartsViewModel.BINS - 1));
        MainViewModel vm = Opened.capture(Samples.scenario("rc_write"));
        for (String label : vm.charts().latency().get().labels()) {
            assertTrue(label.matches("(1|2|5|10|20|50|100|200|500) (ns|µs|ms|s)"), label);
        }
    }

    private static Message completedAfter(long latencyNanos) {
        return new Message("1", "10.0.0.1", "10.0.0.2", 0x11, 0x12, MessageKind.SEND, Transport.RC, 0, 0, 64,
                List.of(1), List.of(), 2, latencyNanos, Message.COMPLETED, null, null, null);
    }

    @Test
    void latenciesSpreadOverManyDecadesAreBinnedByDecade() {
        ChartsViewModel.Histogram fine = ChartsViewModel.latency(
                List.of(completedAfter(1_500), completedAfter(2_500), completedAfter(60_000)), null);
        assertEquals(List.of("1 µs", "2 µs", "5 µs", "10 µs", "20 µs", "50 µs"), fine.labels());
        assertArrayEquals(new long[] {1, 1, 0, 0, 0, 1}, fine.counts().get(MessageKind.SEND));
        ChartsViewModel.Histogram wide = ChartsViewModel.latency(
                List.of(completedAfter(0), completedAfter(1_500), completedAfter(25_000), completedAfter(99_999)), null);
        assertEquals(List.of("1 ns", "10 ns", "100 ns", "1 µs", "10 µs"), wide.labels());
        assertArrayEquals(new long[] {1, 0, 0, 1, 2}, wide.counts().get(MessageKind.SEND));
        assertEquals(List.of(1L, 10L, 100L, 1_000L, 10_000L), wide.binStartNanos());
    }

    @Test
    void messagesCompletedByTheirOwnPacketHaveNoLatencyToChart() {
        Message datagram = new Message("2", "10.0.0.1", "10.0.0.2", 0x11, 0x12, MessageKind.SEND, Transport.UD, 0, 0,
                64, List.of(7), List.of(), 7, 0L, Message.COMPLETED, null, null, null);
        assertFalse(ChartsViewModel.hasRoundTrip(datagram));
        assertTrue(ChartsViewModel.hasRoundTrip(completedAfter(1_500)));
        ChartsViewModel.Histogram h = ChartsViewModel.latency(List.of(datagram, completedAfter(1_500)), null);
        assertEquals(List.of("1 µs"), h.labels());
        assertEquals(List.of(MessageKind.SEND), List.copyOf(h.counts().keySet()));
        assertArrayEquals(new long[] {1}, h.counts().get(MessageKind.SEND));
    }

    @Test
    void longAddressesAreShortenedInTheLegend() {
        assertEquals("10.0.0.1", ChartsViewModel.shortened("10.0.0.1"));
        String gid = "fe80::2:c902:24:f636:1:2:3:4";
        assertEquals(ChartsViewModel.ADDRESS_CHARS, ChartsViewModel.shortened(gid).length());
        assertTrue(ChartsViewModel.shortened(gid).endsWith("…"));
    }

    @Test
    void scopingToOneConversationLeavesOnlyItsData() {
        MainViewModel vm = Opened.capture(Samples.mixed());
        String id = vm.conversations().rows().get(0).id();
        vm.charts().conversation().set(id);
        assertEquals(1, vm.charts().goodput().get().lines().size());
        long messages = vm.analysis().get().messages().stream()
                .filter(m -> m.conversation().equals(id) && ChartsViewModel.hasRoundTrip(m)).count();
        long counted = vm.charts().latency().get().counts().values().stream()
                .mapToLong(c -> Arrays.stream(c).sum()).sum();
        assertEquals(messages, counted);
    }
}
