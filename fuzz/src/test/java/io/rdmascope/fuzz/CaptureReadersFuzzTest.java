package io.rdmascope.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.CaptureFormatException;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.replay.ReplayResult;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Any bytes as a capture file (pcap, pcapng, ERF or gzip of them, detected by content): the
 * readers return frames and end cleanly or with one {@link CaptureFormatException}; every frame
 * dissects and replays without throwing. Seeds: the committed regression inputs in
 * src/test/resources/io/rdmascope/fuzz/CaptureReadersFuzzTestInputs.
 */
class CaptureReadersFuzzTest {

    @FuzzTest
    void anyCaptureFile(byte[] data) throws IOException {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        ReplayResult replay = new ReplayResult();
        try (PacketSource source = CaptureFiles.open(new ByteArrayInputStream(data), "fuzz")) {
            Frame f;
            int frames = 0;
            while ((f = source.next()) != null && frames++ < 10_000) {
                chain.dissect(f, d);
                Checks.everythingOn(d);
                replay.accept(d);
            }
        } catch (CaptureFormatException expected) {
            // the contract: damaged input ends with this one exception
        }
        replay.finish();
    }
}
