package io.rdmascope.replay;

import io.rdmascope.testsupport.SharedFiles;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.nio.file.Path;

/** Test helper: replays a capture file. */
final class Replays {
    private Replays() {
    }

    static ReplayResult of(Path capture) throws IOException {
        return of(capture, IcrcCheck.AUTO);
    }

    static ReplayResult of(Path capture, IcrcCheck icrc) throws IOException {
        ReplayResult result = new ReplayResult(icrc);
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        try (PacketSource source = CaptureFiles.open(capture)) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, d);
                result.accept(d);
            }
        }
        return result.finish();
    }

    /** A capture of {@code ../shared/captures-hard/}; the test is skipped, saying so, when it is absent. */
    static Path hard(String name) {
        Path file = SharedFiles.root().resolve("captures-hard").resolve(name);
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(file),
                "SKIPPED: hard capture not present: " + file);
        return file;
    }

    static Path cases() {
        return SharedFiles.sampleCases();
    }
}
