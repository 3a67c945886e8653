package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.gui.Samples;
import io.rdmascope.gui.ladder.LadderViewModel.Arrow;
import io.rdmascope.gui.main.MainViewModel;
import io.rdmascope.gui.util.AppExecutors;
import io.rdmascope.replay.FrameAnalysis;
import io.rdmascope.replay.FrameRole;
import io.rdmascope.replay.ReplayResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14, point 5: one placement of every frame. The GUI shows each frame in the conversation the
 * replay engine placed it in, with the side and role the engine gave it, and derives none itself.
 */
class FramePlacementTest {

    /** The engine's own answer, from a replay of its own over the same capture. */
    private static FrameAnalysis engine(FrameIndex index) {
        ReplayResult result = new ReplayResult();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (int f = 1; f <= index.count(); f++) {
            chain.dissect(index.frame(f), d);
            result.accept(d);
        }
        return FrameAnalysis.of(result.finish());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rc_send", "rc_loss_nak", "cm_lifecycle", "congestion_ecn", "iwarp_rdma_ops"})
    void everyFrameTheEnginePlacedIsShownInItsConversation(String scenario) throws IOException {
        MainViewModel vm = new MainViewModel(AppExecutors.sameThread(), Settings.inMemory());
        vm.open(Samples.scenario(scenario));
        CaptureAnalysis shown = vm.analysis().get();
        assertNotNull(shown);
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(Samples.scenario(scenario), index, () -> false, (n, f) -> {
        });
        FrameAnalysis engine = engine(index);

        Set<FrameRole> roles = EnumSet.noneOf(FrameRole.class);
        int placed = 0;
        for (int f = 1; f <= index.count(); f++) {
            String conversation = engine.conversationOf(f);
            assertEquals(conversation, shown.conversationOf(f), "conversation of frame " + f);
            if (conversation == null) {
                continue;
            }
            placed++;
            roles.add(engine.roleOf(f));
            int frame = f;
            assertTrue(IntStream.of(shown.framesOf(conversation)).anyMatch(x -> x == frame),
                    "frame " + f + " among the frames of conversation " + conversation);
        }
        assertTrue(placed > 0, scenario + " has placed frames");
        int listed = shown.flows().stream().mapToInt(fl -> shown.framesOf(fl.conversation()).length).sum();
        assertEquals(placed, listed, "no frame shown that the engine did not place");
        switch (scenario) {
            case "rc_send", "rc_loss_nak" -> assertTrue(roles.contains(FrameRole.ACK), "ACK-only frames: " + roles);
            case "cm_lifecycle" -> assertTrue(roles.contains(FrameRole.CM), "CM frames: " + roles);
            case "congestion_ecn" -> assertTrue(roles.contains(FrameRole.CNP), "CNP frames: " + roles);
            case "iwarp_rdma_ops" -> assertTrue(roles.contains(FrameRole.TCP_SEGMENT), "iWARP segments: " + roles);
            default -> {
            }
        }

        // The ladder draws one arrow per placed frame, directed by the engine's side.
        for (var flow : shown.flows()) {
            vm.conversations().selected().set(flow.conversation());
            List<Arrow> arrows = vm.ladder().diagram().get().arrows();
            int[] frames = shown.framesOf(flow.conversation());
            assertEquals(frames.length, arrows.size(), "arrows of conversation " + flow.conversation());
            for (int i = 0; i < frames.length; i++) {
                Arrow a = arrows.get(i);
                assertEquals(frames[i], a.frame());
                assertEquals(engine.sideOf(frames[i]) == 0, a.fromA(), "direction of frame " + frames[i]);
                assertEquals(engine.roleOf(frames[i]).name(), a.kind().name(), "kind of frame " + frames[i]);
            }
        }
    }

    @Test
    void theGuiKeepsNoMirrorOfTheEnginesKey() throws IOException {
        String name = "Rdma" + "Key"; // spelled apart so that this file does not match itself
        Path src = Samples.root().resolve("gui/src");
        List<Path> hits = new ArrayList<>();
        try (Stream<Path> files = Files.walk(src)) {
            for (Path p : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                if (Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1).contains(name)) {
                    hits.add(src.relativize(p));
                }
            }
        }
        assertEquals(List.of(), hits);
    }
}
