package io.rdmascope.gui.model;

import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.packetlist.PacketListViewModel;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.testsupport.Tshark;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Time column in every display format against tshark's {@code -t} on the same capture: a
 * microsecond pcap (6 digits) and a nanosecond pcapng (9 digits). Skips, saying why, without tshark
 * or the shared capture.
 */
class TimeColumnTsharkTest {

    private static PacketListViewModel opened(Path file) throws Exception {
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(file, index, () -> false, (n, f) -> { });
        PacketListViewModel vm = new PacketListViewModel(AppExecutors.sameThread(), new FrameSelection());
        vm.open(index, DissectorChain.standard());
        vm.loadingFinished(index.count());
        return vm;
    }

    /** tshark's Time column for {@code file} with {@code options}, one entry per frame it prints. */
    private static List<String> timeColumn(Path file, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-r", file.toString()));
        args.addAll(List.of(options));
        args.addAll(List.of("-T", "fields", "-e", "_ws.col.Time"));
        String out = Tshark.run(args);
        return out.isBlank() ? List.of() : java.util.Arrays.stream(out.split("\n")).map(String::strip).toList();
    }

    private static void sameAsTshark(Path file) throws Exception {
        Tshark.assumeInstalled();
        PacketListViewModel vm = opened(file);
        for (TimeFormat format : TimeFormat.values()) {
            vm.timeFormat().set(format);
            List<String> expected = timeColumn(file, "-t", format.tsharkFlag());
            List<String> shown = new ArrayList<>();
            for (int n = 1; n <= vm.rows().size(); n++) {
                shown.add(vm.row(n).time());
            }
            assertEquals(expected, shown, "-t " + format.tsharkFlag() + " on " + file.getFileName());
        }
    }

    @Test
    void microsecondPcapShowsSixDigitsInEveryFormatAsTshark() throws Exception {
        sameAsTshark(SharedFiles.capture("linlinw5_rdma_read_bw.pcap"));
    }

    @Test
    void nanosecondPcapngShowsNineDigitsInEveryFormatAsTshark() throws Exception {
        sameAsTshark(Samples.scenario("rc_loss_nak"));
    }

    @Test
    void deltaDisplayedCountsFromTheFrameTheFilterShowedBefore() throws Exception {
        Tshark.assumeInstalled();
        Path file = Samples.scenario("rc_loss_nak");
        PacketListViewModel vm = opened(file);
        FrameFilter acks = new FrameFilter() {
            @Override
            public boolean matches(io.rdmascope.dissect.Dissection d) {
                return d.rdma().opcode == 17;
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }

            @Override
            public String text() {
                return "infiniband.bth.opcode == 17";
            }

            @Override
            public FrameFilter copy() {
                return this;
            }
        };
        vm.applyFilter(acks);
        vm.timeFormat().set(TimeFormat.DELTA_DISPLAYED);
        List<String> expected = timeColumn(file, "-Y", "infiniband.bth.opcode == 17", "-t", "dd");
        List<String> shown = new ArrayList<>();
        for (int r = 0; r < vm.rows().size(); r++) {
            shown.add(vm.row(vm.rows().frameAt(r)).time());
        }
        assertEquals(expected, shown);
    }
}
