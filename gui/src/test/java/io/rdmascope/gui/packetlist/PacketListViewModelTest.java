package io.rdmascope.gui.packetlist;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.model.CaptureLoader;
import io.rdmascope.gui.model.ColoringRule;
import io.rdmascope.gui.model.FrameFilter;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.gui.packetlist.PacketListViewModel.Column;
import io.rdmascope.gui.packetlist.PacketListViewModel.SortKey;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packet list's view model, off the FX thread, with stub filters where the filter language is not the point. */
class PacketListViewModelTest {
    private PacketListViewModel vm;
    private FrameSelection selection;

    /** A filter from a predicate on the dissection: the packet list needs nothing more. */
    static FrameFilter stub(String text, Predicate<Dissection> test) {
        return new FrameFilter() {
            @Override
            public boolean matches(Dissection d) {
                return test.test(d);
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }

            @Override
            public String text() {
                return text;
            }

            @Override
            public FrameFilter copy() {
                return this;
            }
        };
    }

    static final FrameFilter ACKS = stub("acks only", d -> d.rdma().opcode == 17);

    @BeforeEach
    void loadTheLossScenario() throws IOException {
        selection = new FrameSelection();
        vm = new PacketListViewModel(AppExecutors.sameThread(), selection);
        FrameIndex index = new FrameIndex();
        vm.open(index, DissectorChain.standard());
        CaptureLoader.load(Samples.scenario("rc_loss_nak"), index, () -> false, (n, f) -> vm.indexed(n));
        vm.loadingFinished(index.count());
    }

    private List<Integer> shown() {
        return new ArrayList<>(vm.rows());
    }

    @Test
    void everyFrameIsShownInCaptureOrderUntilAFilterIsApplied() {
        assertEquals(22, vm.rows().size());
        assertEquals(1, vm.rows().get(0));
        assertEquals(22, vm.rows().get(21));
        assertEquals(22, vm.totalFrames().get());
    }

    @Test
    void aFilterShowsOnlyTheFramesItPasses() {
        vm.applyFilter(ACKS);
        assertEquals(List.of(2, 7, 11, 15, 18, 20, 22), shown());
        assertFalse(vm.busy().get());
    }

    @Test
    void theBlankFilterShowsEveryFrameAgain() {
        vm.applyFilter(ACKS);
        vm.applyFilter(FrameFilter.all());
        assertEquals(22, vm.rows().size());
        assertTrue(vm.rows().isAll());
    }

    @Test
    void aHiddenFrameHasNoRow() {
        vm.applyFilter(ACKS);
        assertEquals(1, vm.rowOf(7));
        assertEquals(-1, vm.rowOf(8));
    }

    @Test
    void rowsCarryTheDissectTextOfTheirFrame() {
        assertEquals("RC Acknowledge QP=0x00de19 PSN=15278836 ACK MSN=4", vm.row(22).info());
        assertEquals(62, vm.row(22).length());
        assertEquals("0.000060127", vm.row(22).time(), "nanoseconds, as tshark shows this if_tsresol=9 capture");
    }

    @Test
    void sortingByLengthPutsTheLongestFrameFirstWhenDescending() {
        vm.sort(new SortKey(Column.LENGTH, -1, false));
        assertEquals(3, vm.rows().get(0), "frame 3 is the only 1098-byte frame");
        assertEquals(4, vm.rows().get(1), "then the 1082-byte frames, in capture order (the sort is stable)");
        assertEquals(0, vm.rowOf(3));
        assertEquals(1, vm.rows().get(12), "the 558-byte SEND after the eleven 1082s");
    }

    @Test
    void sortingByInfoSortsByText() {
        vm.sort(new SortKey(Column.INFO, -1, true));
        List<String> infos = new ArrayList<>();
        for (int n : vm.rows()) {
            infos.add(vm.row(n).info());
        }
        List<String> sorted = new ArrayList<>(infos);
        sorted.sort(null);
        assertEquals(sorted, infos);
    }

    @Test
    void sortingKeepsTheFilter() {
        vm.applyFilter(ACKS);
        vm.sort(new SortKey(Column.NUMBER, -1, false));
        assertEquals(List.of(22, 20, 18, 15, 11, 7, 2), shown());
        assertEquals(0, vm.rowOf(22));
    }

    @Test
    void displayedFramesAreInCaptureOrderEvenWhenSorted() {
        vm.applyFilter(ACKS);
        vm.sort(new SortKey(Column.NUMBER, -1, false));
        assertEquals(List.of(2, 7, 11, 15, 18, 20, 22), java.util.Arrays.stream(vm.displayedFrames()).boxed().toList());
    }

    @Test
    void anAddedColumnShowsItsFieldInEveryRow() {
        assertTrue(vm.addColumn("infiniband.bth.psn", "PSN"));
        assertEquals(List.of("15278827"), vm.row(1).extra());
        assertFalse(vm.addColumn("infiniband.bth.psn", "PSN"), "once only");
        assertFalse(vm.addColumn("no.such.field", null));
    }

    @Test
    void sortingByAnAddedNumericColumnSortsAsNumbers() {
        vm.addColumn("frame.len", "len");
        vm.sort(new SortKey(null, 0, true));
        assertEquals(62, vm.row(vm.rows().get(0)).length());
        assertEquals(1098, vm.row(vm.rows().get(21)).length());
    }

    @Test
    void theFirstMatchingColouringRuleColoursARow() {
        ColoringRule ack = new ColoringRule("ACK", "acks", "#eeeeee", "#000000", true);
        ColoringRule all = new ColoringRule("all", "all", "#ffffff", "#000000", true);
        vm.setColoring(List.of(ack, all), List.of(ACKS, stub("all", d -> true)));
        assertEquals(0, vm.row(2).coloringRule());
        assertEquals(1, vm.row(1).coloringRule());
        assertEquals(ack, vm.coloringOf(vm.row(2)));
    }

    @Test
    void aDisabledColouringRuleColoursNothing() {
        ColoringRule ack = new ColoringRule("ACK", "acks", "#eeeeee", "#000000", false);
        vm.setColoring(List.of(ack), List.of(ACKS));
        assertNull(vm.coloringOf(vm.row(2)));
    }

    @Test
    void theListGrowsWhileTheFileLoads() {
        PacketListViewModel growing = new PacketListViewModel(AppExecutors.sameThread(), selection);
        FrameIndex index = new FrameIndex();
        growing.open(index, DissectorChain.standard());
        assertEquals(0, growing.rows().size());
        try {
            CaptureLoader.load(Samples.scenario("rc_loss_nak"), index, () -> false, (n, f) -> {
            });
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        growing.indexed(10);
        assertEquals(10, growing.rows().size());
        growing.indexed(22);
        assertEquals(22, growing.rows().size());
    }

    @Test
    void aFilterAppliedWhileLoadingIsRedoneOverTheWholeFileWhenLoadingEnds() throws IOException {
        PacketListViewModel list = new PacketListViewModel(AppExecutors.sameThread(), selection);
        FrameIndex index = new FrameIndex();
        list.open(index, DissectorChain.standard());
        // index the first ten frames only, filter, then the rest
        FrameIndex whole = new FrameIndex();
        CaptureLoader.load(Samples.scenario("rc_loss_nak"), whole, () -> false, (n, f) -> {
        });
        for (int i = 1; i <= 10; i++) {
            index.append(whole.frame(i));
        }
        list.indexed(10);
        list.applyFilter(ACKS);
        assertEquals(List.of(2, 7), new ArrayList<>(list.rows()));
        for (int i = 11; i <= 22; i++) {
            index.append(whole.frame(i));
        }
        index.markComplete();
        list.loadingFinished(22);
        assertEquals(List.of(2, 7, 11, 15, 18, 20, 22), new ArrayList<>(list.rows()));
    }

    @Test
    void theRealDisplayFilterFindsTheSameAcks() throws Exception {
        var compiler = new io.rdmascope.gui.model.DisplayFilterCompiler(new io.rdmascope.replay.AnalysisFields());
        vm.applyFilter(compiler.compile("infiniband.bth.opcode == 17"));
        assertEquals(List.of(2, 7, 11, 15, 18, 20, 22), shown());
    }
}
