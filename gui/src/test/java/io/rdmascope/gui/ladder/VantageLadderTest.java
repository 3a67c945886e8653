package io.rdmascope.gui.ladder;

import io.rdmascope.gui.Samples;
import io.rdmascope.gui.ladder.LadderViewModel.Arrow;
import io.rdmascope.gui.ladder.LadderViewModel.Diagram;
import io.rdmascope.gui.ladder.LadderViewModel.Lane;
import io.rdmascope.gui.ladder.LadderViewModel.Stop;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.model.VantageCapture;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ladder with one lane per vantage point (issue 20, item 6) on the committed three-point run
 * {@code vantage_rc}, whose {@code correlate.txt} places its losses: PSN 63347 seen at requester (frame 20),
 * never at switch; the ACK of PSN 6739805 seen at responder (frame 40), never at switch; the atomic
 * acknowledge of PSN 63350 seen at switch (frame 45), never at requester.
 */
class VantageLadderTest {
    private static final List<String> POINTS = List.of("requester", "switch", "responder");

    private static MainViewModel union(String... order) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.vantage("vantage_rc", order));
        return vm;
    }

    private static Diagram ladder(MainViewModel vm, String conversation) {
        vm.conversations().selected().set(conversation);
        Diagram d = vm.ladder().diagram().get();
        assertEquals(conversation, d.conversation());
        return d;
    }

    /** The arrow of the union frame point:frame is a sighting of. */
    private static Arrow arrowOf(MainViewModel vm, Diagram d, String point, int frame) {
        int u = vm.packetList().vantage().get().unionFrameOf(point, frame);
        assertTrue(u > 0, point + ":" + frame);
        return d.arrows().stream().filter(a -> a.frame() == u).findFirst()
                .orElseThrow(() -> new AssertionError(point + ":" + frame + " (union frame " + u + ") not drawn"));
    }

    private static List<String> lanes(Diagram d) {
        return d.lanes().stream().map(Lane::point).toList();
    }

    @Test
    void theLanesRunFromTheRequesterThroughTheSwitchToTheResponder() {
        MainViewModel vm = union("requester", "switch", "responder");
        Diagram d = ladder(vm, "1");
        assertEquals(POINTS, lanes(d));
        assertEquals(List.of(0, 1, 2), d.lanes().stream().map(Lane::pointIndex).toList());
        assertTrue(vm.ladder().status().get().endsWith("at 3 vantage points"), vm.ladder().status().get());
        assertEquals(vm.analysis().get().framesOf("1").length, d.arrows().size());
    }

    @Test
    void theOrderComesFromThePacketsNotFromTheOrderTheFilesWereNamed() {
        Diagram d = ladder(union("switch", "responder", "requester"), "1");
        assertEquals(POINTS, lanes(d));
        assertEquals(List.of(2, 0, 1), d.lanes().stream().map(Lane::pointIndex).toList());
    }

    @Test
    void eachSightingIsAStopDelayedByTheMeasuredOneWayDelay() {
        MainViewModel vm = union("requester", "switch", "responder");
        VantageCapture union = vm.packetList().vantage().get();
        Diagram d = ladder(vm, "1");
        int checked = 0;
        for (Arrow a : d.arrows()) {
            List<VantageCapture.Sighting> seen = union.sightings(a.frame());
            if (!union.identified(a.frame())) {
                assertTrue(a.path().isEmpty());
                continue;
            }
            assertEquals(seen.size(), a.path().size(), "frame " + a.frame());
            long first = seen.stream().mapToLong(VantageCapture.Sighting::correctedNanos).min().orElseThrow();
            for (Stop s : a.path()) {
                VantageCapture.Sighting at = seen.stream()
                        .filter(x -> x.point().equals(d.lanes().get(s.lane()).point())).findFirst().orElseThrow();
                assertEquals(at.frame(), s.frame());
                assertEquals(at.correctedNanos() - first, s.afterFirstNanos(), "frame " + a.frame());
            }
            if (a.path().size() == 3) {
                // along the path, in the direction of travel: requests left to right, answers right to left
                List<Integer> lanes = a.path().stream().map(Stop::lane).toList();
                assertEquals(a.fromA() ? List.of(0, 1, 2) : List.of(2, 1, 0), lanes, "frame " + a.frame());
                assertEquals(0, a.path().get(0).afterFirstNanos());
                assertTrue(a.path().get(1).afterFirstNanos() > 0, "frame " + a.frame());
                assertTrue(a.path().get(2).afterFirstNanos() > a.path().get(1).afterFirstNanos(), "frame " + a.frame());
                assertFalse(a.stopsShort());
                checked++;
            }
        }
        assertTrue(checked > 10, checked + " arrows seen at all three points");
        // correlate.txt: no one-way delay between requester and responder exceeds 2.247 µs
        assertTrue(d.longestPathNanos() > 1_000 && d.longestPathNanos() <= 2_247, d.longestPathNanos() + " ns");
    }

    @Test
    void aLostPacketEndsAtTheLastPointThatSawIt() {
        MainViewModel vm = union("requester", "switch", "responder");
        Diagram one = ladder(vm, "1");
        Arrow request = arrowOf(vm, one, "requester", 20); // lost between requester and switch
        assertTrue(request.fromA());
        assertEquals(List.of(new Stop(0, 20, 0)), request.path());
        assertTrue(request.stopsShort());
        Arrow atomicAck = arrowOf(vm, one, "switch", 45); // lost between switch and requester
        assertFalse(atomicAck.fromA());
        assertEquals(List.of(2, 1), atomicAck.path().stream().map(Stop::lane).toList());
        assertEquals(45, atomicAck.path().get(1).frame());
        assertTrue(atomicAck.stopsShort());

        Diagram two = ladder(vm, "2");
        Arrow ack = arrowOf(vm, two, "responder", 40); // lost between responder and switch
        assertEquals(List.of(2), ack.path().stream().map(Stop::lane).toList());
        assertTrue(ack.stopsShort());
        Arrow request2 = arrowOf(vm, two, "switch", 28); // lost between switch and responder
        assertEquals(List.of(0, 1), request2.path().stream().map(Stop::lane).toList());
        assertTrue(request2.stopsShort());
        // correlate.txt lists five losses; exactly those arrows stop short in the three conversations
        long short1 = one.arrows().stream().filter(Arrow::stopsShort).count();
        long short2 = two.arrows().stream().filter(Arrow::stopsShort).count();
        long short3 = ladder(vm, "3").arrows().stream().filter(Arrow::stopsShort).count();
        assertEquals(5, short1 + short2 + short3);
    }

    @Test
    void oneCaptureKeepsTheTwoLifelines() {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario("rc_loss_nak"));
        Diagram d = vm.ladder().diagram().get();
        assertTrue(d.lanes().isEmpty());
        assertTrue(d.arrows().stream().allMatch(a -> a.path().isEmpty() && !a.stopsShort()));
        assertEquals("Conversation 1: 22 frames", vm.ladder().status().get());
        // and after a union, one capture again forgets the lanes
        MainViewModel again = union("requester", "switch", "responder");
        again.open(Samples.scenario("rc_loss_nak"));
        assertTrue(again.ladder().diagram().get().lanes().isEmpty());
        assertEquals(22, again.ladder().diagram().get().arrows().size());
    }
}
