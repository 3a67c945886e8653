package io.rdmascope.gui.model;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.proto.ip.Transport;
import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GUI decodes frames out of order, so it shows TCP numbers raw (docs/tshark-parity.md): the same
 * numbers whichever frame the user visited before, equal to what the wire holds.
 */
class FrameDecoderTcpNumbersTest {
    @Test
    @DisplayName("random access shows raw TCP numbers, the same in any visiting order")
    void rawWhateverTheOrder() throws Exception {
        Path file = SharedFiles.sampleCases().resolve("iwarp_rdma_ops").resolve("iwarp_rdma_ops.pcap");
        FrameIndex index = new FrameIndex();
        CaptureLoader.load(file, index, () -> false, (n, f) -> { });
        FrameDecoder decoder = new FrameDecoder(index, DissectorChain.standard());
        int last = index.count();
        assertTrue(last > 4, "the sample has a handshake and data");
        long[] forward = new long[last + 1];
        for (int n = 1; n <= last; n++) {
            forward[n] = seq(decoder.dissect(n));
        }
        for (int n = last; n >= 1; n--) { // backwards: every frame starts a new pass
            assertEquals(forward[n], seq(decoder.dissect(n)), "frame " + n);
        }
        Dissection d = decoder.dissect(3);
        int tcp = d.find(Transport.TCP);
        assertFalse(d.tcpRelative());
        assertEquals(d.u32(d.layerStart(tcp) + 4), d.tcpSeq(), "tcp.seq is the raw sequence number");
    }

    private static long seq(Dissection d) {
        return d.find(Transport.TCP) < 0 ? -1 : d.tcpSeq();
    }
}
