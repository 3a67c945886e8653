package io.rdmascope.samples;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.field.Field;
import io.rdmascope.field.HeaderType;
import io.rdmascope.frame.Frame;
import io.rdmascope.proto.ib.InfiniBand;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The committed dc_traffic case (issue 16) read back by the dissector as docs/dc.md describes the
 * real ConnectX capture: every packet carries a DCETH (flags 0x11 on requests, 0x10 on responses,
 * one identifier both ways), every RETH DMA length equals the bytes of the WRITE that follows it
 * (where RD's layout read 902,863,360 on the real capture), the connect carries perftest's DC access
 * key, and every response names the DCT the requests went to.
 */
class DcTrafficTest {

    private static long value(Dissection d, HeaderType type, Field field) {
        int layer = d.find(type);
        assertTrue(layer >= 0, type.abbrev() + " missing in frame " + d.frame().number());
        return field.read(d.buffer(), d.layerAt(layer));
    }

    @Test
    void theGeneratedDcCaseDecodesInTheConnectXLayout() throws IOException {
        ScenarioCatalog.Scenario s = ScenarioCatalog.byName("dc_traffic");
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        List<Long> dmaLengths = new ArrayList<>();
        List<Long> writes = new ArrayList<>();
        long identifier = -1;
        long dct = -1;
        int responses = 0;
        try (PacketSource source = CaptureFiles.open(CommittedCases.capture(s))) {
            Frame f;
            while ((f = source.next()) != null) {
                chain.dissect(f, d);
                assertFalse(d.isMalformed(), "frame " + f.number());
                int opcode = d.rdma().opcode;
                boolean response = opcode == 0x51;
                assertEquals(response ? DcTraffic.FLAGS_RESPONSE : DcTraffic.FLAGS_REQUEST,
                        value(d, InfiniBand.DCETH, InfiniBand.DCETH_FLAGS), "frame " + f.number());
                long id = value(d, InfiniBand.DCETH, InfiniBand.DCETH_ID);
                assertTrue(identifier < 0 || identifier == id, "one DC identifier on every packet");
                identifier = id;
                assertEquals(DcTraffic.DETH_Q_KEY, value(d, InfiniBand.DETH, InfiniBand.DETH_Q_KEY));
                if (opcode == 0x55) {
                    assertEquals(DcTraffic.PERFTEST_DC_KEY,
                            value(d, InfiniBand.DCCETH, InfiniBand.DCCETH_ACCESS_KEY));
                    continue;
                }
                long dctNumber = InfiniBand.DCETH_DCTN.computation().value(d, d.find(InfiniBand.DCETH));
                assertTrue(dct < 0 || dct == dctNumber, "frame " + f.number() + " names another DCT");
                dct = dctNumber;
                if (response) {
                    responses++;
                    continue;
                }
                if (opcode == 0x46 || opcode == 0x4A) { // WRITE First, WRITE Only: a RETH starts a message
                    dmaLengths.add(value(d, InfiniBand.RETH, InfiniBand.RETH_DMALEN));
                    writes.add(0L);
                }
                writes.set(writes.size() - 1, writes.get(writes.size() - 1) + d.rdma().payloadLength);
            }
        }
        assertEquals(List.of(2_500L, 8L), dmaLengths, "RETH DMA lengths as written");
        assertEquals(dmaLengths, writes, "each RETH DMA length is the data its WRITE carries");
        assertEquals(4, responses, "the connect's answer and three ACKs");
    }
}
