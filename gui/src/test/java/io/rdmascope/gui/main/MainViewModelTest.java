package io.rdmascope.gui.main;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.model.PacketRow;
import io.rdmascope.gui.model.Settings;
import io.rdmascope.gui.util.AppExecutors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The main window's view model, off the FX thread: every background job runs inside the call. */
class MainViewModelTest {

    private static MainViewModel opened(Path file) {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(file);
        return vm;
    }

    @Test
    void openingACaptureListsEveryFrameWithTheTextOfRdmascopeDissect() {
        MainViewModel vm = opened(Samples.scenario("rc_loss_nak"));
        assertEquals(22, vm.packetList().rows().size());
        PacketRow first = vm.packetList().row(1);
        // a pcapng with if_tsresol 9: nanoseconds, as tshark prints it (0.000000000, 0.000018024)
        assertEquals("0.000000000", first.time());
        assertEquals("10.0.0.1", first.source());
        assertEquals("10.0.0.2", first.destination());
        assertEquals("RRoCE", first.protocol());
        assertEquals(558, first.length());
        assertEquals("RC SEND Only QP=0x00678c PSN=15278827", first.info());
        PacketRow nak = vm.packetList().row(7);
        assertEquals("0.000018024", nak.time());
        assertEquals("RC Acknowledge QP=0x00de19 PSN=15278830 NAK PSN Sequence Error MSN=1", nak.info());
        assertFalse(vm.loading().get());
        assertFalse(vm.replaying().get());
        assertEquals("", vm.error().get());
    }

    @Test
    void theReplayFillsConversationsMessagesAndFindings() {
        MainViewModel vm = opened(Samples.scenario("rc_loss_nak"));
        assertNotNull(vm.analysis().get());
        assertEquals(1, vm.conversations().rows().size());
        assertEquals("1", vm.conversations().selected().get());
        assertEquals(4, vm.messages().rows().size());
        assertEquals(10, vm.findings().rows().size());
        assertEquals("0 errors, 10 warnings, 0 notes", vm.findings().counts().get());
        assertTrue(vm.status().get().contains("Frames: 22"), vm.status().get());
    }

    @Test
    void everyFrameOfTheLossScenarioBelongsToItsOneConversation() {
        MainViewModel vm = opened(Samples.scenario("rc_loss_nak"));
        int[] frames = vm.analysis().get().framesOf("1");
        assertEquals(22, frames.length);
    }

    @Test
    void everyFrameOfTheMixedSampleIsListedAndReplayed() throws IOException {
        Path mixed = Samples.mixed();
        int expected = 0;
        try (PacketSource s = CaptureFiles.open(mixed)) {
            while (s.next() != null) {
                expected++;
            }
        }
        MainViewModel vm = opened(mixed);
        assertEquals(expected, vm.packetList().rows().size());
        assertFalse(vm.analysis().get().flows().isEmpty());
    }

    @Test
    void gzipCompressedCapturesOpenLikeTheirPlainSelves(@TempDir Path dir) throws IOException {
        Path gz = dir.resolve("loss.pcapng.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(Samples.scenario("rc_loss_nak"), out);
        }
        MainViewModel vm = opened(gz);
        assertEquals(22, vm.packetList().rows().size());
        assertEquals("RC SEND Only QP=0x00678c PSN=15278827", vm.packetList().row(1).info());
    }

    @Test
    void erfCapturesOpen() {
        MainViewModel vm = opened(Samples.scenario("native_ib_erf"));
        assertTrue(vm.packetList().rows().size() > 0);
        assertEquals("", vm.error().get());
    }

    @Test
    void aFileThatIsNotACaptureReportsWhyAndListsNothing(@TempDir Path dir) throws IOException {
        Path junk = dir.resolve("junk.pcap");
        Files.writeString(junk, "this is not a capture at all");
        MainViewModel vm = opened(junk);
        assertTrue(vm.error().get().contains("not a pcap"), vm.error().get());
        assertEquals(0, vm.packetList().rows().size());
        assertFalse(vm.loading().get());
    }

    @Test
    void aCaptureCutShortShowsItsCompleteFramesAndTheDamage(@TempDir Path dir) throws IOException {
        byte[] whole = Files.readAllBytes(Samples.scenario("rc_loss_nak"));
        Path cut = dir.resolve("cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 30));
        MainViewModel vm = opened(cut);
        assertEquals(21, vm.packetList().rows().size());
        assertFalse(vm.error().get().isEmpty());
        assertTrue(vm.status().get().contains("damaged after frame 21"), vm.status().get());
    }

    @Test
    void openedFilesBecomeRecentNewestFirstWithoutRepeats() {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario("rc_send"));
        vm.open(Samples.scenario("rc_loss_nak"));
        vm.open(Samples.scenario("rc_send"));
        List<String> recent = vm.recentFiles();
        assertEquals(2, recent.size());
        assertTrue(recent.get(0).endsWith("rc_send.pcapng"));
        assertTrue(recent.get(1).endsWith("rc_loss_nak.pcapng"));
    }

    @Test
    void recentFilesSurviveARestart(@TempDir Path dir) {
        Path settingsFile = dir.resolve("gui.properties");
        MainViewModel first = new MainViewModel(AppExecutors.sameThread(), Settings.load(settingsFile));
        first.open(Samples.scenario("rc_send"));
        MainViewModel second = new MainViewModel(AppExecutors.sameThread(), Settings.load(settingsFile));
        assertEquals(1, second.recentFiles().size());
        assertTrue(second.recentFiles().get(0).endsWith("rc_send.pcapng"));
    }

    @Test
    void savingDisplayedFramesWritesAPcapngOfJustThoseFrames(@TempDir Path dir) throws IOException {
        MainViewModel vm = opened(Samples.scenario("rc_loss_nak"));
        vm.filterBar().apply("infiniband.bth.opcode == 17");
        Path out = dir.resolve("acks.pcapng");
        int[] written = new int[1];
        vm.saveDisplayed(out, (n, e) -> written[0] = n);
        assertEquals(7, written[0]);
        MainViewModel reopened = opened(out);
        assertEquals(7, reopened.packetList().rows().size());
        for (int i = 1; i <= 7; i++) {
            assertTrue(reopened.packetList().row(i).info().startsWith("RC Acknowledge"));
        }
        // the same bytes as in the original
        assertEquals(vm.packetList().row(2).info(), reopened.packetList().row(1).info());
    }
}
