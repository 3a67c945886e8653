package io.rdmascope.replay;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.CaptureFormatException;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.samples.ScenarioCatalog;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 9's truncation contract on every committed case: the capture cut at every byte offset reads
 * as all the complete frames before the cut (byte for byte) and then at most one clean
 * {@link CaptureFormatException}; dissecting and replaying those frames never throws.
 */
class TruncatedCasesTest {

    @TestFactory
    Stream<DynamicTest> everyCaseCutAtEveryByteGivesItsCompleteFramesAndOneCleanError() {
        return ScenarioCatalog.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Path file = Replays.cases().resolve(s.name()).resolve(s.name() + "." + s.format().extension());
            byte[] whole = Files.readAllBytes(file);
            Outcome full = read(whole, whole.length, s.name());
            assertTrue(!full.error, s.name() + ": the whole file reads cleanly");
            List<byte[]> all = full.frames;
            int previous = 0;
            int cleanCuts = 0;
            for (int cut = 0; cut < whole.length; cut++) {
                Outcome o = read(whole, cut, s.name());
                assertTrue(o.frames.size() >= previous, s.name() + " cut " + cut + ": fewer frames than a shorter cut");
                for (int i = 0; i < o.frames.size(); i++) {
                    assertArrayEquals(all.get(i), o.frames.get(i), s.name() + " cut " + cut + " frame " + (i + 1));
                }
                if (o.frames.size() > previous && !o.error) {
                    cleanCuts++;
                }
                previous = o.frames.size();
            }
            assertEquals(all.size() - 1, previous, s.name() + ": one byte short loses exactly the last frame");
            assertTrue(cleanCuts >= all.size() - 1, s.name() + ": a cut right after a frame must end cleanly");
        }));
    }

    private record Outcome(List<byte[]> frames, boolean error) {
    }

    private static Outcome read(byte[] whole, int length, String name) {
        List<byte[]> frames = new ArrayList<>();
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        ReplayResult replay = new ReplayResult();
        boolean error = false;
        try (PacketSource source = CaptureFiles.open(new ByteArrayInputStream(Arrays.copyOf(whole, length)), name)) {
            Frame f;
            while ((f = source.next()) != null) {
                frames.add(f.toByteArray());
                chain.dissect(f, d);
                replay.accept(d);
            }
        } catch (CaptureFormatException e) {
            error = true;
            assertTrue(e.getMessage() != null && !e.getMessage().contains("\n"), "one line: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            fail(name + " cut at " + length + ": " + e, e);
        }
        replay.finish();
        return new Outcome(frames, error);
    }
}
