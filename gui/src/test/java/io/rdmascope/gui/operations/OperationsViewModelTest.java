package io.rdmascope.gui.operations;

import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.messages.MessagesViewModel;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.samples.IserSession;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The storage view and the messages' Operation column, from the one background replay. */
class OperationsViewModelTest {
    private static MainViewModel opened(Path file) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(file);
        return vm;
    }

    @Test
    void theIserSessionListsItsTasksAndChoosingOneSelectsItsFrames(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("iser.pcap");
        IserSession.write(file);
        MainViewModel vm = opened(file);
        List<OperationsViewModel.Row> rows = vm.operations().rows();
        assertEquals(List.of("Login Command", "Read(10)", "Write(10)", "Read(16)", "NOP Out", "Task Management Function"),
                rows.stream().map(OperationsViewModel.Row::opcode).toList());
        OperationsViewModel.Row read = rows.get(1);
        assertEquals("completed", read.status());
        assertEquals(2, read.dataFrameCount());
        assertEquals("failed: Check Condition", rows.get(3).status());

        vm.operations().choose(read);
        List<Integer> expected = OperationsViewModel.framesOf(read.operation());
        assertEquals(expected, vm.selection().frames().get());
        assertEquals(4, expected.size()); // the command, two RDMA WRITE packets, the response
        assertEquals((int) read.commandFrame(), vm.selection().current().get());

        // The messages table names the task each SEND carries.
        MessagesViewModel.Row command = vm.messages().rows().stream()
                .filter(m -> m.firstFrame() == read.commandFrame()).findFirst().orElseThrow();
        assertEquals("iser Read(10) 0x00000010", command.operation());
    }

    @Test
    void theRealDiscoveryShowsTheUnansweredIdentify() {
        MainViewModel vm = opened(SharedFiles.hardCapture("magnate3_linux-riscv-dev_nvme-discover2.pcap"));
        OperationsViewModel.Row identify = vm.operations().rows().stream()
                .filter(r -> r.opcode().equals("Identify Controller")).findFirst().orElseThrow();
        assertEquals("unanswered: teardown", identify.status());
        assertEquals(26, identify.commandFrame());
        assertEquals(null, identify.responseFrame());
        // The filter bar answers the rdmascope.op.* fields from the same pass.
        vm.filterBar().apply("rdmascope.op.status == \"unanswered\"");
        assertEquals(List.of(26, 29), List.of(vm.packetList().rows().frameAt(0), vm.packetList().rows().frameAt(1)));
        assertEquals(2, vm.packetList().rows().size());
    }

    @Test
    void aCaptureWithoutStorageTrafficHasNoRows() {
        MainViewModel vm = opened(io.rdmascope.gui.Samples.scenario("rc_loss_nak"));
        assertTrue(vm.operations().rows().isEmpty());
        assertTrue(vm.messages().rows().stream().allMatch(r -> r.operation().isEmpty()));
    }
}
