package io.rdmascope.gui.charts;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.charts.ChartsViewModel.Series;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.replay.MessageKind;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The charts' data. */
class ChartsViewModelTest {

    private static MainViewModel opened(java.nio.file.Path file) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(file);
        return vm;
    }

    private static double total(Series s) {
        return s.points().stream().mapToDouble(ChartsViewModel.Point::y).sum();
    }

    @Test
    void retransmissionsNaksAndCnpsAreCountedOverTime() {
        List<Series> events = opened(Samples.scenario("rc_loss_nak")).charts().events().get();
        assertEquals(List.of("Retransmissions", "NAKs", "CNPs"), events.stream().map(Series::name).toList());
        assertEquals(5, total(events.get(0)));
        assertEquals(2, total(events.get(1)));
        assertEquals(0, total(events.get(2)));
        assertEquals(ChartsViewModel.EVENT_BUCKETS, events.get(0).points().size());
        assertEquals(1, total(opened(Samples.scenario("congestion_ecn")).charts().events().get().get(2)));
    }

    @Test
    void throughputIsGoodputPerConversationInGigabitsPerSecond() {
        MainViewModel vm = opened(Samples.mixed());
        List<Series> lines = vm.charts().throughput().get();
        assertEquals(vm.conversations().rows().size(), lines.size());
        for (Series s : lines) {
            assertFalse(s.points().isEmpty());
            assertTrue(s.points().size() <= ChartsViewModel.MAX_POINTS);
            assertTrue(s.points().stream().allMatch(p -> p.y() >= 0 && p.y() < 1000), s.name());
        }
    }

    @Test
    void throughputAddsUpToTheBytesOfTheGoodputSeries() {
        MainViewModel vm = opened(Samples.scenario("rc_loss_nak"));
        Series s = vm.charts().throughput().get().get(0);
        var flow = vm.analysis().get().flows().get(0);
        double bucketNanos = (s.points().size() > 1 ? s.points().get(1).x() - s.points().get(0).x() : 0) * 1e6;
        if (bucketNanos > 0) {
            double bytes = s.points().stream().mapToDouble(p -> p.y() * bucketNanos / 8).sum();
            assertEquals(java.util.Arrays.stream(flow.goodputOverTime().bytes()).sum(), bytes, 1.0);
        }
    }

    @Test
    void theLatencyHistogramCountsEveryCompletedMessageByKind() {
        MainViewModel vm = opened(Samples.scenario("rc_loss_nak"));
        ChartsViewModel.Histogram h = vm.charts().latency().get();
        assertEquals(List.of(MessageKind.SEND, MessageKind.WRITE), List.copyOf(h.counts().keySet()));
        assertEquals(3, Arrays.stream(h.counts().get(MessageKind.SEND)).sum());
        assertEquals(1, Arrays.stream(h.counts().get(MessageKind.WRITE)).sum());
        assertEquals(h.bins().size(), h.counts().get(MessageKind.SEND).length);
    }

    @Test
    void latencyBinsArePowersOfTwoMicroseconds() {
        assertEquals(0, ChartsViewModel.bin(999));
        assertEquals(1, ChartsViewModel.bin(1_000));
        assertEquals(2, ChartsViewModel.bin(2_000));
        assertEquals(2, ChartsViewModel.bin(3_999));
        assertEquals(3, ChartsViewModel.bin(4_000));
        assertEquals("2 µs–4 µs", ChartsViewModel.binLabel(2));
        assertEquals("<1 µs", ChartsViewModel.binLabel(0));
        assertEquals("1 ms–2 ms", ChartsViewModel.binLabel(11));
    }

    @Test
    void scopingToOneConversationLeavesOnlyItsData() {
        MainViewModel vm = opened(Samples.mixed());
        String id = vm.conversations().rows().get(0).id();
        vm.charts().conversation().set(id);
        assertEquals(1, vm.charts().throughput().get().size());
        long messages = vm.analysis().get().messages().stream()
                .filter(m -> m.conversation().equals(id) && m.latencyNanos() != null).count();
        long counted = vm.charts().latency().get().counts().values().stream()
                .mapToLong(c -> Arrays.stream(c).sum()).sum();
        assertEquals(messages, counted);
    }
}
