package io.rdmascope.proto.iwarp;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static io.rdmascope.testsupport.ProtocolFixtures.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Send's payload is offered to the protocols that ride on iWARP Sends (SMB Direct) and, when none
 * takes it, shown as data, also when the FPDU is shown from bytes past the frame (its markers taken
 * out): the offer must not lose the data layer there.
 */
class SendPayloadTest {
    @Test
    @DisplayName("a Send whose FPDU holds a marker keeps its payload as data, 600 bytes")
    void sendWithAMarkerKeepsItsData() {
        IwarpTraffic t = new IwarpTraffic(true, true, true).startup();
        int start = t.send(600, false);
        int frame = t.segment(0, start, t.length(0));
        DissectorChain chain = DissectorChain.standard();
        Dissection d = new Dissection();
        for (Frame f : t.frames()) {
            chain.dissect(f, d);
            if (f.number() == frame) {
                assertTrue(d.find(Mpa.MARKERS) >= 0, "the FPDU holds a marker");
                assertEquals("600", value(d, "data.len"));
            }
        }
    }
}
