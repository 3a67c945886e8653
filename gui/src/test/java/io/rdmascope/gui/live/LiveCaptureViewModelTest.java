package io.rdmascope.gui.live;

import io.rdmascope.capture.live.CaptureInterface;
import io.rdmascope.capture.live.CaptureStatistics;
import io.rdmascope.capture.live.LiveCaptureException;
import io.rdmascope.capture.live.LiveCaptureOptions;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Live capture's view model, with frames from a file instead of libpcap. */
class LiveCaptureViewModelTest {

    private static MainViewModel main(FakeLiveCaptures fake) {
        return new MainViewModel(AppExecutors.sameThread(), Settings.inMemory(), fake);
    }

    @Test
    void interfacesAreListedAndAnRdmaSnifferIsPreferred() {
        MainViewModel vm = main(new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), -1, false));
        vm.live().refresh();
        assertEquals(3, vm.live().interfaces().size());
        assertEquals("mlx5_0", vm.live().interfaceName().get());
        assertEquals("", vm.live().problem().get());
    }

    @Test
    void withoutAnRdmaSnifferTheFirstRunningInterfaceIsChosen() {
        List<CaptureInterface> list = List.of(new CaptureInterface(1, "lo", null, List.of(), true, true, true),
                new CaptureInterface(2, "eth1", null, List.of(), false, true, true));
        assertEquals("eth1", LiveCaptureViewModel.preferred(list).name());
    }

    @Test
    void capturedFramesFillTheListAndTheReplayFollows() {
        FakeLiveCaptures fake = new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), -1, false);
        MainViewModel vm = main(fake);
        vm.live().interfaceName().set("eth0");
        assertTrue(vm.live().start());
        assertEquals("eth0", fake.openedInterface);
        assertEquals(LiveCaptureOptions.DEFAULT_FILTER, fake.openedFilter, "RoCE only, by default");
        assertEquals(22, vm.packetList().rows().size());
        assertFalse(vm.capturing().get());
        assertNotNull(vm.analysis().get());
        assertEquals(10, vm.findings().rows().size());
        assertEquals("RC SEND Only QP=0x00678c PSN=15278827", vm.packetList().row(1).info());
        assertTrue(vm.title().get().contains("live on eth0"));
    }

    @Test
    void stoppingKeepsTheFramesCapturedSoFar() {
        FakeLiveCaptures fake = new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), 10, true);
        MainViewModel vm = main(fake);
        fake.stopHook = () -> {
            assertTrue(vm.capturing().get());
            vm.live().stop();
        };
        vm.live().interfaceName().set("eth0");
        vm.live().start();
        // Stop was pressed while the 11th frame was on its way: it still comes, then nothing.
        assertEquals(11, vm.packetList().rows().size());
        assertFalse(vm.capturing().get());
        assertNotNull(vm.analysis().get());
        assertTrue(vm.status().get().contains("live capture on eth0"), vm.status().get());
    }

    @Test
    void dropsAreShownByWhereTheyHappened() {
        FakeLiveCaptures fake = new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), -1, false);
        MainViewModel vm = main(fake);
        vm.live().interfaceName().set("eth0");
        vm.live().start();
        String stats = vm.live().statistics().get();
        assertTrue(stats.startsWith("Captured 22 · dropped: kernel 3, interface 0, rdmascope queue 0"), stats);
        assertTrue(stats.contains("frames were lost"), stats);
    }

    @Test
    void unknownDropCountsAreSaidToBeUnknown() {
        String s = LiveCaptureViewModel.describe(new CaptureStatistics(5, 5, 0, -1, -1, -1, false));
        assertTrue(s.contains("kernel ?, interface ?"), s);
        assertTrue(s.contains("RDMA sniffer"), s);
    }

    @Test
    void aCaptureThatCannotStartSaysWhy() {
        FakeLiveCaptures fake = new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), -1, false);
        fake.refuse = new LiveCaptureException(LiveCaptureException.Reason.PERMISSION,
                "no permission to capture on eth0: run as root or grant CAP_NET_RAW,CAP_NET_ADMIN");
        MainViewModel vm = main(fake);
        vm.live().interfaceName().set("eth0");
        vm.live().start();
        assertTrue(vm.live().problem().get().startsWith("no permission"));
        assertFalse(vm.capturing().get());
    }

    @Test
    void noInterfaceChosenMeansNoCapture() {
        MainViewModel vm = main(new FakeLiveCaptures(Samples.scenario("rc_loss_nak"), -1, false));
        assertFalse(vm.live().start());
        assertEquals("Choose an interface to capture on.", vm.live().problem().get());
    }
}
