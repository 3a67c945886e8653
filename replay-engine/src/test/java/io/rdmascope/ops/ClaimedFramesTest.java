package io.rdmascope.ops;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.DecodeAs;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.ops.OperationExtractor;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.smbdirect.SmbDirectIwarpCapture;
import io.rdmascope.replay.ReplayResult;
import io.rdmascope.testsupport.ProtocolFixtures;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tracker asks the protocols' extractors only about frames a storage protocol claimed
 * ({@link Dissection#carriesUpperLayer()}, issue 18): on a capture without storage traffic they are
 * never asked, and on every capture with it the operations and what the rules notice are those of a
 * tracker that asks them about every frame.
 */
class ClaimedFramesTest {
    @TempDir
    Path dir;

    /** Every capture file of the committed cases whose name does (or does not) start with ulp_. */
    private static List<Path> cases(boolean storage) throws IOException {
        try (Stream<Path> all = Files.walk(SharedFiles.sampleCases(), 2)) {
            return all.filter(p -> p.toString().matches(".*\\.(pcapng|pcap|erf)$"))
                    .filter(p -> p.getFileName().toString().startsWith("ulp_") == storage).sorted().toList();
        }
    }

    /** Every frame of {@code file}, copied out of the reader's buffer. */
    static List<Frame> read(Path file) throws IOException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource source = CaptureFiles.open(file)) {
            for (Frame f; (f = source.next()) != null; ) {
                frames.add(Frame.of(f.number(), f.timeNanos(), f.linkType(), f.toByteArray()));
            }
        }
        return frames;
    }

    /** The operations, the rules' observations and how often an extractor was asked, as one text per line. */
    private record Tracked(List<String> lines, long asked) {
    }

    private static Tracked track(List<Frame> frames, DissectorChain chain, boolean claimedOnly) {
        long[] asked = {0};
        List<OperationExtractor> counted = new ArrayList<>();
        for (OperationExtractor e : OperationTracker.moduleExtractors()) {
            counted.add((d, out) -> {
                asked[0]++;
                e.extract(d, out);
            });
        }
        OperationRules rules = new OperationRules();
        List<String> lines = new ArrayList<>();
        OperationTracker tracker = claimedOnly ? OperationTracker.ofModules(counted, o -> lines.add(o.toString()), rules)
                : new OperationTracker(counted, o -> lines.add(o.toString()), rules,
                OperationTracker.MAX_OUTSTANDING_PER_QUEUE);
        Dissection d = new Dissection();
        for (Frame f : frames) {
            chain.dissect(f, d);
            tracker.accept(d);
        }
        tracker.finish();
        rules.observations(new ReplayResult().finish()).forEach(o -> lines.add(o.toString()));
        lines.add("unmatched " + tracker.unmatchedResponses() + ", overflowed " + tracker.overflowed());
        return new Tracked(lines, asked[0]);
    }

    @Test
    void noExtractorIsAskedAboutACaptureWithoutStorageTraffic() throws IOException {
        List<Path> files = new ArrayList<>(cases(false));
        assertTrue(files.size() > 40, files::toString);
        for (Path file : files) {
            List<Frame> frames = read(file);
            Tracked gated = track(frames, DissectorChain.standard(), true);
            assertEquals(0, gated.asked(), file.toString());
            // Asked about every frame, they report nothing either: the gate lost nothing here.
            Tracked everyFrame = track(frames, DissectorChain.standard(), false);
            assertEquals(frames.size() * (long) OperationTracker.moduleExtractors().size(), everyFrame.asked(),
                    file.toString());
            assertEquals(everyFrame.lines(), gated.lines(), file.toString());
        }
    }

    @Test
    void noExtractorIsAskedAboutTheRealCapturesWithoutStorageTraffic() throws IOException {
        for (Path file : SharedFiles.allCaptures()) {
            assertEquals(0, track(read(file), DissectorChain.standard(), true).asked(), file.toString());
        }
    }

    /** Operations and findings are the same whether the extractors are asked about every frame or the claimed ones. */
    @Test
    void onStorageTrafficTheClaimedFramesGiveEverything() throws IOException {
        List<Path> files = cases(true);
        assertEquals(4, files.size(), files::toString);
        for (Path file : files) {
            sameEitherWay(file.toString(), read(file), DissectorChain.standard());
        }
        sameEitherWay("iWARP operations", SmbDirectIwarpCapture.operations().frames(), DissectorChain.standard());
        sameEitherWay("iWARP packed", SmbDirectIwarpCapture.packedOperations().frames(), DissectorChain.standard());
        // -d: the queues learnt from the traffic, without the CM exchange (SMB Direct gives no operations so:
        // its QPs are not paired, docs/cli.md).
        for (String[] c : List.of(new String[] {"ulp_nvmeof", "nvme-rdma"}, new String[] {"ulp_iser", "iser"},
                new String[] {"ulp_rpcrdma", "rpcordma"})) {
            Path copy = dir.resolve(c[0] + "_without_cm.pcap");
            ProtocolFixtures.withoutCm(SharedFiles.sampleCases().resolve(c[0]).resolve(c[0] + ".pcapng"), copy);
            sameEitherWay(copy.toString(), read(copy), DissectorChain.standard()
                    .withDecodeAs(List.of(DecodeAs.parse("infiniband," + c[1]))));
        }
    }

    @Test
    void onTheRealNvmeDiscoveryTheClaimedFramesGiveEverything() throws IOException {
        sameEitherWay("discovery", read(SharedFiles.hardCapture("magnate3_linux-riscv-dev_nvme-discover2.pcap")),
                DissectorChain.standard());
    }

    private static void sameEitherWay(String what, List<Frame> frames, DissectorChain chain) {
        Tracked gated = track(frames, chain, true);
        Tracked everyFrame = track(frames, chain, false);
        assertTrue(gated.lines().size() > 1, what + ": " + gated.lines());
        assertEquals(everyFrame.lines(), gated.lines(), what);
        assertTrue(gated.asked() > 0 && gated.asked() < everyFrame.asked(), what + ": asked " + gated.asked()
                + " of " + everyFrame.asked());
    }
}
