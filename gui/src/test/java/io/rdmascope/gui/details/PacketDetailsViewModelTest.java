package io.rdmascope.gui.details;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.replay.AnalysisFields;
import io.rdmascope.gui.model.CaptureLoader;
import io.rdmascope.gui.model.DisplayFilterCompiler;
import io.rdmascope.gui.model.FrameIndex;
import io.rdmascope.gui.model.FrameSelection;
import io.rdmascope.text.ProtoTree;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The detail tree and hex pane's shared view model. */
class PacketDetailsViewModelTest {
    private final FrameSelection selection = new FrameSelection();
    private PacketDetailsViewModel vm;

    @BeforeEach
    void open() throws IOException {
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(Samples.scenario("rc_loss_nak"), index, () -> false, (n, f) -> {
        });
        vm = new PacketDetailsViewModel(selection, new DisplayFilterCompiler(new AnalysisFields()));
        vm.open(index, DissectorChain.standard());
    }

    static ProtoTree find(List<ProtoTree> nodes, String field) {
        for (ProtoTree n : nodes) {
            if (n.field() != null && n.field().abbrev().equals(field)) {
                return n;
            }
            ProtoTree f = find(n.children(), field);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    static ProtoTree labelled(List<ProtoTree> nodes, String label) {
        for (ProtoTree n : nodes) {
            if (n.label().equals(label)) {
                return n;
            }
            ProtoTree f = labelled(n.children(), label);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    private static io.rdmascope.replay.FrameAnalysis replayed(java.nio.file.Path file) throws IOException {
        io.rdmascope.replay.ReplayResult result = new io.rdmascope.replay.ReplayResult();
        DissectorChain chain = DissectorChain.standard();
        io.rdmascope.dissect.Dissection d = new io.rdmascope.dissect.Dissection();
        try (io.rdmascope.capture.PacketSource source = io.rdmascope.capture.CaptureFiles.open(file)) {
            io.rdmascope.frame.Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, d);
                result.accept(d);
            }
        }
        return io.rdmascope.replay.FrameAnalysis.of(result.finish());
    }

    @Test
    void theTreeEndsWithTheAnalysisNodeWhoseFrameLinksCanBeFollowed() throws IOException {
        selection.select(9);
        assertNull(labelled(vm.tree().get(), "[RDMA analysis]"), "no analysis before the replay is done");
        vm.useAnalysis(replayed(Samples.scenario("rc_loss_nak")));
        List<ProtoTree> roots = vm.tree().get();
        assertEquals("[RDMA analysis]", roots.get(roots.size() - 1).label(), "shown at once, last, as -V prints it");
        ProtoTree resent = labelled(roots, "[Retransmission of frame: 5]"); // frame 9 resends frame 5's PSN
        assertNotNull(resent, roots.get(roots.size() - 1).toString());
        assertEquals(5, vm.linkOf(resent));
        ProtoTree nak = labelled(roots, "[Answers the NAK in frame: 7]");
        assertEquals(7, vm.linkOf(nak));
        assertEquals(0, vm.linkOf(roots.get(0)), "a decoded field links nowhere");
        ProtoTree observation = roots.get(roots.size() - 1).children().stream()
                .filter(n -> n.children().contains(resent)).findFirst().orElseThrow();
        assertEquals("rdmascope.analysis.retransmission", vm.filterFor(observation));
        assertTrue(vm.followLink(resent));
        assertEquals(5, selection.current().get());
        assertTrue(vm.tree().get().get(0).label().startsWith("Frame 5:"));
    }

    @Test
    void selectingAFrameShowsItsTreeAndBytes() {
        selection.select(7);
        assertEquals(7, vm.frame().get());
        assertEquals(5, vm.tree().get().size());
        assertEquals(62, vm.bytes().get().length);
        assertTrue(vm.tree().get().get(0).label().startsWith("Frame 7: 62 bytes on wire"));
    }

    @Test
    void noFrameMeansAnEmptyTree() {
        selection.select(7);
        selection.select(0);
        assertTrue(vm.tree().get().isEmpty());
        assertEquals(0, vm.bytes().get().length);
    }

    @Test
    void aSelectedFieldHighlightsExactlyItsBytes() {
        selection.select(7);
        ProtoTree psn = find(vm.tree().get(), "infiniband.bth.psn");
        vm.selectNode(psn);
        assertEquals(new PacketDetailsViewModel.Span(psn.start(), 3), vm.highlight().get());
        vm.selectNode(null);
        assertNull(vm.highlight().get());
    }

    @Test
    void clickingAByteSelectsTheNarrowestFieldThere() {
        selection.select(2);
        vm.selectByte(34); // first byte of the UDP source port (14 Ethernet + 20 IPv4)
        assertEquals("udp.srcport", vm.selectedNode().get().field().abbrev());
        vm.selectByte(42); // BTH opcode
        assertEquals("infiniband.bth.opcode", vm.selectedNode().get().field().abbrev());
    }

    @Test
    void theSelectedFieldStaysSelectedOnTheNextFrameThatHasIt() {
        selection.select(7);
        vm.selectNode(find(vm.tree().get(), "infiniband.bth.psn"));
        selection.select(8);
        assertNotNull(vm.selectedNode().get());
        assertEquals("infiniband.bth.psn", vm.selectedNode().get().field().abbrev());
        assertTrue(vm.selectedNode().get().label().contains("15278830"), vm.selectedNode().get().label());
    }

    @Test
    void applyAsFilterWritesFieldEqualsValue() {
        selection.select(7);
        assertEquals("infiniband.bth.opcode == 17", vm.filterFor(find(vm.tree().get(), "infiniband.bth.opcode")));
        assertEquals("ip.src == 10.0.0.2", vm.filterFor(find(vm.tree().get(), "ip.src")));
        assertEquals("eth.src == 02:1e:67:00:00:02", vm.filterFor(find(vm.tree().get(), "eth.src")));
        assertEquals("infiniband.bth.destqp == 0x00de19", vm.filterFor(find(vm.tree().get(), "infiniband.bth.destqp")));
    }

    @Test
    void applyAsFilterOnAHeaderOrProtocolTestsItsPresence() {
        selection.select(7);
        ProtoTree ib = vm.tree().get().get(4);
        assertEquals("infiniband", vm.filterFor(ib));
        assertEquals("infiniband.aeth", vm.filterFor(ib.children().stream()
                .filter(c -> c.header() != null && c.header().abbrev().equals("infiniband.aeth")).findFirst().orElseThrow()));
    }

    @Test
    void onlyFieldsCanBecomeColumns() {
        selection.select(7);
        assertEquals("infiniband.bth.psn", vm.columnFieldFor(find(vm.tree().get(), "infiniband.bth.psn")));
        assertNull(vm.columnFieldFor(vm.tree().get().get(4)));
    }

    @Test
    void openSubtreesAreRemembered() {
        selection.select(7);
        ProtoTree ib = vm.tree().get().get(4);
        vm.setExpanded(ib, true);
        selection.select(8);
        assertTrue(vm.isExpanded(vm.tree().get().get(4)));
    }
}
