package io.rdmascope.cli;

import io.rdmascope.testsupport.SharedFiles;
import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.dissect.RdmaContext;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.Crcs;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On every RoCE and native-IB frame of the real captures the ICRC verifies, and flipping any byte
 * the ICRC covers (not the fields routers may change) makes it bad: a property test over many frames
 * and byte positions, with a fixed seed.
 */
class RealCaptureIcrcTest {

    @Test
    void everyRealRdmaFrameVerifiesAndEveryCoveredByteFlipIsCaught() throws Exception {
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        Random random = new Random(42);
        int frames = 0;
        int flips = 0;
        List<String> failures = new ArrayList<>();
        for (Path capture : SharedFiles.allCaptures()) {
            try (PacketSource source = CaptureFiles.open(capture)) {
                Frame f;
                while ((f = source.next()) != null) {
                    chain.dissect(f, d);
                    RdmaContext r = d.rdma();
                    if (!r.isRdma() || r.icrcOffset < 0) {
                        continue;
                    }
                    frames++;
                    if (Crcs.icrcStatus(d) != Crcs.STATUS_GOOD) {
                        failures.add(capture.getFileName() + " frame " + f.number() + " ICRC not good");
                        continue;
                    }
                    byte[] bytes = f.toByteArray();
                    int bthStart = r.bthStart;
                    int icrcAt = r.icrcOffset;
                    for (int k = 0; k < 8; k++) {
                        // Covered and never masked: BTH bytes other than byte 4, and everything after the BTH.
                        int at = bthStart + random.nextInt(icrcAt - bthStart);
                        if (at == bthStart + 4) {
                            continue;
                        }
                        byte[] copy = bytes.clone();
                        copy[at] ^= (byte) (1 << random.nextInt(8));
                        Frame flipped = Frame.of(f.number(), f.timeNanos(), f.linkType(), copy);
                        chain.dissect(flipped, d);
                        flips++;
                        if (d.rdma().icrcOffset >= 0 && Crcs.icrcStatus(d) != Crcs.STATUS_BAD) {
                            failures.add(capture.getFileName() + " frame " + f.number() + " byte " + at
                                    + " flipped but ICRC still " + Crcs.icrcStatus(d));
                        }
                    }
                    byte[] masked = bytes.clone();
                    masked[bthStart + 4] ^= (byte) 0xC0; // FECN/BECN: variant, must not matter
                    chain.dissect(Frame.of(f.number(), f.timeNanos(), f.linkType(), masked), d);
                    if (Crcs.icrcStatus(d) != Crcs.STATUS_GOOD) {
                        failures.add(capture.getFileName() + " frame " + f.number() + ": FECN/BECN changed the ICRC");
                    }
                }
            }
        }
        System.out.printf("ICRC on real captures: %d frames good, %d covered-byte flips checked%n", frames, flips);
        assertTrue(frames > 350, "expected the real captures' RDMA frames, saw " + frames);
        assertEquals(List.of(), failures);
    }
}
